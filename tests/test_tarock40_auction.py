"""tarock40's auction asks its own announcement verdict directly (variants/tarock40_auction.py):
the legal lists must be those of the generic auction asking the hook, turn for turn
(docs/rules.md §13.2), and a failure in the verdict must still name the plugin."""

from __future__ import annotations

import random

import pytest

from tarock.core.auction import Auction
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
