"""tarock40's auction asks its own announcement verdict directly (variants/tarock40_auction.py):
the legal lists must be those of the generic auction asking the hook, turn for turn
(docs/rules.md §13.2), and a failure in the verdict must still name the plugin."""

from __future__ import annotations

import random

import pytest

from tarock.core.auction import Auction
from tarock.core.cards import PAGAT
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.phases import BIDDING
from tarock.core.registry import find_variant
from tarock.core.rule_errors import PluginFailure
from tarock.variants import tarock40, tarock40_valat
from tarock.variants.tarock40_auction import Auction40


def test_the_legal_bids_are_the_generic_auctions() -> None:
    """docs/rules.md §13.2: every turn of 300 random auctions lists the same bids, in
    the same order, as the generic auction of the same style asking the hook."""
    rules = find_variant("tarock40").rules()
    own = rules.phase(BIDDING)
    assert isinstance(own, Auction40)
    generic = Auction(tarock40.STYLE)
    rng = random.Random(13)
    turns = 0
    for i in range(300):
        cards, talon = deal(rules, rng)
        hand = Hand(rules, i % 4, cards, talon)
        while not hand.done and hand.state.phase == BIDDING:
            seat = hand.state.to_move
            assert seat is not None
            listed = own.legal(hand.state, rules, seat)
            assert listed == generic.legal(hand.state, rules, seat)
            turns += 1
            hand.apply(rng.choice(hand.legal(seat)))
    assert turns > 600


def test_a_failing_verdict_names_the_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/rules.md §11.2: the own-strength check asked for a Solo's Valat fails: the
    legal list raises the hook's one-line failure naming tarock40, as the hook would."""
    rules = find_variant("tarock40").rules()

    def broken(*args: object) -> object:
        raise ValueError("broken check")

    monkeypatch.setattr(tarock40, "own_valat", broken)
    monkeypatch.setattr(tarock40_valat, "own_valat", broken)
    rng = random.Random(5)
    cards, talon = deal(rules, rng)
    hand = Hand(rules, 0, cards, talon)
    seat = hand.state.to_move
    assert seat is not None
    with pytest.raises(PluginFailure) as failure:
        rules.phase(BIDDING).legal(hand.state, rules, seat)
    assert "tarock40" in str(failure.value) and "tarock_announce_verdict" in str(failure.value)


def test_the_verdict_in_two_parts_states_the_rules() -> None:
    """docs/rules.md §13.6 and §11.2, name by name and game by game on random hands: Absolut
    is a game, never an announcement; Pagat only with a Rufspiel and the Pagat held; Trull
    always; Valat always in a Rufspiel and in a Solo or Faberl only on the hand's own
    strength.  The part that ignores the hand answers only where the hand cannot matter."""
    rules = find_variant("tarock40").rules()
    plugin = tarock40.Tarock40()
    names = (tarock40.ABSOLUT_ANN, tarock40.PAGAT_ANN, tarock40.TRULL_ANN, tarock40.VALAT_ANN,
             tarock40.KINGS)
    rng = random.Random(29)
    seen: set[tuple[str, str, bool]] = set()
    for i in range(200):
        cards, talon = deal(rules, rng)
        hand = Hand(rules, i % 4, cards, talon)
        state = hand.state
        for seat in range(4):
            for spec in rules.contracts:
                for name in names:
                    verdict = plugin.tarock_announce_verdict(state, seat, name, spec)
                    if name == tarock40.ABSOLUT_ANN:
                        expected: bool | None = False
                    elif name == tarock40.PAGAT_ANN:
                        expected = spec.name == tarock40.RUFSPIEL and PAGAT in state.hands[seat]
                    elif name == tarock40.TRULL_ANN:
                        expected = True
                    elif name == tarock40.VALAT_ANN:
                        expected = not spec.single or tarock40_valat.own_valat(state, seat, spec).allowed
                    else:
                        expected = None  # no opinion: the hook leaves it to the premium's data
                    assert (None if verdict is None else verdict.allowed) == expected, (name, spec.name)
                    known, fixed = tarock40.announce_rule(name, spec)
                    if known:
                        assert fixed == verdict
                    seen.add((name, spec.name, bool(expected)))
    rufspiel = tarock40.RUFSPIEL
    assert {(tarock40.VALAT_ANN, "solo", False), (tarock40.VALAT_ANN, rufspiel, True),
            (tarock40.PAGAT_ANN, rufspiel, True), (tarock40.PAGAT_ANN, rufspiel, False)} <= seen
