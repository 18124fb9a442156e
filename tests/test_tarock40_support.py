"""Helpers for the tests of ``tarock40`` and ``tarock40-online``: rigged deals,
scripted actions, finished hands built trick by trick, random play.

Import them as ``from test_tarock40_support import ...``.  Cards are written
in the record notation (``XX``, ``Sküs``, ``hK``, ``c10``); a group of cards
may be one space-separated string.  The few tests at the end check the
helpers themselves.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from helpers54 import play_out

from tarock.core.actions import GAME, Action, Announce, Bid, Kontra, KontraTarget, Pass, Play, Trump
from tarock.core.cards import DECK40, Card, format_card, parse_card
from tarock.core.deal import deal
from tarock.core.engine import DONE, Hand
from tarock.core.record import record_of, replay
from tarock.core.registry import find_variant
from tarock.core.rules import Rules
from tarock.core.state import Announcement, Contract, HandState, Trick

Names = str | Sequence[str]
Step = str | Mapping[str, Any] | Action


@cache
def _variant_rules(variant: str) -> Rules:
    return find_variant(variant).rules()


def rules40(variant: str = "tarock40", options: dict[str, Any] | None = None) -> Rules:
    """A ruleset of ``variant``; without options one shared per process (rules are stateless)."""
    if options is None:
        return _variant_rules(variant)
    return find_variant(variant).rules(options)


def cards(names: Names) -> list[Card]:
    """Card ids from names: ``"XX hK c10"`` or ``["XX", "hK"]``."""
    if isinstance(names, str):
        names = names.split()
    return [parse_card(n) for n in names]


def rigged(hands: Sequence[Names], dealer: int = 0, variant: str = "tarock40",
           options: dict[str, Any] | None = None) -> Hand:
    """A hand dealt as written; the cards not named are dealt round in deck order
    (tarocks from the Pagat up, then clubs, spades, hearts, diamonds) to the
    seats that still lack cards, starting with seat 0."""
    rules = rules40(variant, options)
    dealt = [cards(h) for h in hands] + [[] for _ in range(4 - len(hands))]
    named = {c for h in dealt for c in h}
    assert len(named) == sum(len(h) for h in dealt), "a card is named twice"
    rest = [c for c in DECK40 if c not in named]
    seat = 0
    while rest:
        if len(dealt[seat]) < 10:
            dealt[seat].append(rest.pop(0))
        seat = (seat + 1) % 4
    return Hand(rules, dealer, dealt, [])


def decode(hand: Hand, step: Step) -> Action:
    """An action from an Action, a record dict or a short text.

    Texts: ``"1 pass"``, ``"2 bid solo trull valat"``, ``"2 trump h"``,
    ``"3 kontra"``, ``"3 kontra valat"``, ``"1 play hK"``,
    ``"2 announce trull against"``.
    """
    if isinstance(step, Action):
        return step
    if isinstance(step, str):
        seat_text, kind, *rest = step.split()
        seat = int(seat_text)
        if kind == "pass":
            return Pass(seat)
        if kind == "bid":
            return Bid(seat, rest[0], tuple(rest[1:]))
        if kind == "trump":
            return Trump(seat, rest[0])
        if kind == "kontra":
            return Kontra(seat, KontraTarget(rest[0]) if rest else GAME)
        if kind == "play":
            return Play(seat, parse_card(rest[0]))
        if kind == "announce":
            against = "against" in rest
            return Announce(seat, tuple(n for n in rest if n != "against"), against)
        raise ValueError(f"unknown step {step!r}")
    return hand.rules.codec.decode_action(dict(step), hand.state.seats)


def act(hand: Hand, *steps: Step) -> Hand:
    """Apply the actions in order (each must be legal); return the hand."""
    for step in steps:
        hand.apply(decode(hand, step))
    return hand


def play(hand: Hand, *groups: Names) -> Hand:
    """Play cards in order, each by the seat to move."""
    for group in groups:
        for card in cards(group):
            seat = hand.state.to_move
            assert seat is not None, "the hand takes no more cards"
            hand.apply(Play(seat, card))
    return hand


def finished(rules: Rules, contract: str, declarer: int, tricks: Sequence[tuple[int, Names]],
             partner: int | None = None, announcements: Sequence[Announcement] = (),
             trump: str | None = None, kontra: int = 0, called: Card | None = None) -> HandState:
    """A finished hand built from its tricks (leader, cards in play order), for scoring tests.

    The announcements the contract itself makes (an absolut game's Absolut)
    come first, by the declarer, then ``announcements``.  The winners are
    asked from the rules, so the tricks need not follow each other.
    """
    spec = rules.contract(contract)
    assert spec is not None, f"{rules.variant} has no contract {contract!r}"
    state = HandState(variant=rules.variant, options=rules.options, seats=4, dealer=3,
                      hands=[[], [], [], []], talon=[])
    state.contract = Contract(spec, trump=trump)
    state.declarer, state.partner, state.called = declarer, partner, called
    implied = [Announcement(n, declarer) for n in spec.announces if all(a.name != n for a in announcements)]
    state.announcements = implied + list(announcements)
    state.kontra_level = kontra
    for leader, names in tricks:
        played = cards(names)
        trick = Trick(leader, [(leader + i) % 4 for i in range(len(played))], played)
        trick.winner = trick.seats[rules.trick_winner(state, trick)]
        state.tricks.append(trick)
    state.phase = DONE
    return state


def random_hand(variant: str, seed: int, rng: random.Random | None = None) -> Hand:
    """Deal with ``seed`` and play to the end by uniformly random legal actions."""
    rules = rules40(variant)
    rng = rng or random.Random(seed)
    hands, talon = deal(rules, rng)
    return play_out(Hand(rules, seed % 4, hands, talon), rng)


def replayed(hand: Hand) -> Hand:
    """The hand replayed from its record's JSON text."""
    data = json.loads(record_of(hand).dumps())
    result = replay(data, hand.rules)
    assert result.error_index is None, result.reason
    assert result.hand is not None
    return result.hand


def names(cards_: Sequence[Card]) -> list[str]:
    return [format_card(c) for c in cards_]


# -- the helpers themselves -------------------------------------------------------

def test_rigged_fills_to_a_full_deal() -> None:
    hand = rigged(["Sküs XXI XX"], dealer=1)
    assert hand.state.hands[0][:3] == cards("Sküs XXI XX")
    assert sorted(c for h in hand.state.hands for c in h) == sorted(DECK40)
    assert hand.state.to_move == 2


def test_finished_asks_the_rules_for_the_winner() -> None:
    state = finished(rules40(), "solo", 0, [(0, "hK hQ IV hC")])
    assert state.tricks[0].winner == 2
