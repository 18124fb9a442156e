"""Königrufen's announcement round answers its Kontra questions itself only
while its own hook answers alone: a house rule on ``tarock_kontra_verdict``
is asked for every target, and what it allows is listed."""

from __future__ import annotations

import random

from tarock.core.actions import GAME, Announce, Kontra, KontraTarget
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.hookspecs import hookimpl
from tarock.core.phases import ANNOUNCE
from tarock.core.registry import find_variant
from tarock.core.rules import Rules
from tarock.core.state import ALLOW, HandState, Verdict


class OwnGameKontra:
    """A house rule: the declarer may say Kontra on his own game (the base forbids it)."""

    asked = 0

    @hookimpl
    def tarock_kontra_verdict(self, state: HandState, seat: int, target: KontraTarget) -> Verdict | None:
        OwnGameKontra.asked += 1
        if state.phase == ANNOUNCE and target == GAME and seat == state.declarer and state.kontra_level == 0:
            return ALLOW
        return None


def _announcing(rules: Rules, seed: int) -> Hand | None:
    """A random hand of ``rules`` up to the declarer's turn in the announcement round of a points game."""
    rng = random.Random(seed)
    cards, talon = deal(rules, rng)
    hand = Hand(rules, seed % 4, cards, talon)
    while not hand.done:
        state = hand.state
        assert state.to_move is not None
        if (state.phase == ANNOUNCE and state.to_move == state.declarer and state.kontra_level == 0
                and state.contract is not None and state.contract.spec.goal.kind == "points"
                and state.contract.spec.kontra > 0):
            return hand
        hand.apply(rng.choice(hand.legal(state.to_move)))
    return None


def test_house_rule_on_kontra_is_asked_and_heard() -> None:
    base = list(find_variant("koenigrufen-club").plugins())
    plain = Rules("plain", base)
    ruled = Rules("ruled", [*list(find_variant("koenigrufen-club").plugins()), OwnGameKontra()])
    assert plain.sole_answer("tarock_kontra_verdict") is not None
    assert ruled.sole_answer("tarock_kontra_verdict") is None
    seen = 0
    for seed in range(200):
        hand, other = _announcing(plain, seed), _announcing(ruled, seed)
        if hand is None or other is None:
            continue
        declarer = hand.state.declarer
        assert declarer is not None
        assert Kontra(declarer, GAME) not in hand.legal(declarer)
        before = OwnGameKontra.asked
        assert Kontra(declarer, GAME) in other.legal(declarer)
        assert OwnGameKontra.asked > before
        seen += 1
    assert seen > 0


class NoPremiums:
    """A house rule: no premium may be announced (the base allows many)."""

    @hookimpl
    def tarock_announce_verdict(self, state: HandState, seat: int, name: str) -> Verdict | None:
        return Verdict.deny("house-no-premiums", "no premiums at this table")


def test_house_rule_on_announcements_is_heard() -> None:
    plain = Rules("plain", list(find_variant("koenigrufen-club").plugins()))
    ruled = Rules("ruled", [*list(find_variant("koenigrufen-club").plugins()), NoPremiums()])
    assert ruled.sole_answer("tarock_announce_verdict") is None
    seen = 0
    for seed in range(200):
        hand, other = _announcing(plain, seed), _announcing(ruled, seed)
        if hand is None or other is None:
            continue
        declarer = hand.state.declarer
        assert declarer is not None
        if any(isinstance(a, Announce) for a in hand.legal(declarer)):
            seen += 1
        assert not any(isinstance(a, Announce) for a in other.legal(declarer))
    assert seen > 0
