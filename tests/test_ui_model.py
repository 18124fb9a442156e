"""The table's model, dialogs and drawing without a terminal: hands and observations of real deals."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tarock.client.bots import make_bot
from tarock.client.i18n import set_language
from tarock.client.text.rule_words import cards_points
from tarock.client.ui.cards import hand_order
from tarock.client.ui.decisions import decision_of
from tarock.client.ui.layout import card_style, draw_table, places
from tarock.client.ui.model import TableModel
from tarock.core.actions import Announce, Bid, Kontra, Pass
from tarock.core.cards import DIAMONDS, SUIT_OF, TAROCK, parse_card
from tarock.core.contracts import TrickRules
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe
from tarock.core.plugins import load_plugins

NAMES = ["Du", "Franz", "Hilde", "Sepp"]


@pytest.fixture(autouse=True)
def english() -> object:
    set_language("en")
    yield
    set_language("de")


def _hand(variant: str, seed: int) -> Hand:
    rules = load_plugins(None).find(variant).rules({})
    hands, talon = deal(rules, random.Random(seed), 4, ())
    return Hand(rules, 3, hands, talon, 4, ())


def _until(hand: Hand, test: object, limit: int = 400) -> Observation:
    bots = [make_bot("heuristic", s, str(s)) for s in range(4)]
    for _ in range(limit):
        seat = hand.state.to_move
        assert seat is not None
        obs = observe(hand, seat)
        if test(obs):  # type: ignore[operator]
            return obs
        hand.apply(bots[seat].decide(obs))
    raise AssertionError("not reached")


def test_a_suit_game_sorts_its_trumps_first_and_marks_them() -> None:
    cards = [parse_card(c) for c in ("XX", "Sküs", "cK", "d1", "dK", "hQ", "I")]
    suit = TrickRules(trump="suit")
    ordered = hand_order(cards, suit, DIAMONDS)
    assert [SUIT_OF[c] for c in ordered[:2]] == [DIAMONDS, DIAMONDS]
    assert SUIT_OF[ordered[-1]] == TAROCK
    assert hand_order(cards)[0] == parse_card("Sküs")  # tarocks first in a tarock game


def test_the_faberl_trump_suit_is_marked_in_the_hand() -> None:
    hand = _hand("tarock40", 11)
    for seed in range(40):
        hand = _hand("tarock40", seed)
        try:
            obs = _until(
                hand,
                lambda o: (
                    o.phase == "play"
                    and o.contract is not None
                    and o.contract.spec.tricks.trump == "suit"
                    and o.contract.trump is not None
                ),
            )
        except AssertionError:
            continue
        model = TableModel(obs.seat, NAMES, obs=obs)
        trump = obs.contract.suit  # type: ignore[union-attr]
        for i, card in enumerate(model.hand()):
            assert ("class:card.trump" in card_style(model, card, i)) == (SUIT_OF[card] == trump)
        return
    raise AssertionError("no Faberl among the 40 seeded deals: the search must look further")


def test_seats_around_the_table() -> None:
    model = TableModel(0, NAMES)
    assert places(model) == {1: "right", 2: "across", 3: "left"}
    obs = observe(_hand("tarock40-online", 1), 0)
    assert obs.rules is not None and obs.rules.facts.direction == "clockwise"
    assert places(TableModel(0, NAMES, obs=obs)) == {1: "left", 2: "across", 3: "right"}
    five = TableModel(2, [*NAMES, "Resi"])
    assert places(five) == {3: "right", 4: "across-right", 0: "across-left", 1: "left"}


def test_an_open_hand_is_drawn_under_its_seat() -> None:
    obs = _until(_hand("tarock40", 2), lambda o: o.phase == "play")
    shown = (parse_card("XXI"), parse_card("hK"))
    model = TableModel(obs.seat, NAMES, obs=replace(obs, open_hands=(((obs.seat + 2) % 4, shown),)))
    text = draw_table(model, 80, 12).text()
    assert "XXI ♥K" in text


def test_a_bid_with_additions_is_one_row_with_toggles() -> None:
    obs = _until(
        _hand("tarock40", 5),
        lambda o: o.phase == "bidding" and any(isinstance(a, Bid) and a.announce for a in o.legal),
    )
    d = decision_of(obs, NAMES)
    assert d.kind == "dialog"
    bids = [o for o in d.options if o.kind == "bid"]
    assert len({o.label for o in bids}) == len(bids)  # one row per game
    assert any(o.toggles for o in bids)
    option = next(o for o in bids if o.toggles)
    names = sorted(option.additions_possible())
    assert option.action_for(frozenset()) in obs.legal
    chosen = frozenset(names[:1])
    assert option.action_for(chosen) is None or option.action_for(chosen) in obs.legal
    assert d.options[0].kind == "pass" and isinstance(d.options[0].actions[0], Pass)


def test_the_online_auction_offers_bids_additions_and_kontras_in_one_dialog() -> None:
    obs = _until(
        _hand("tarock40-online", 3),
        lambda o: (
            o.phase == "bidding"
            and any(isinstance(a, Kontra) for a in o.legal)
            and any(isinstance(a, Announce) for a in o.legal)
        ),
        limit=2000,
    )
    d = decision_of(obs, NAMES)
    kinds = {o.kind for o in d.options}
    assert {"pass", "announce", "kontra"} <= kinds
    actions = {a for o in d.options for a in o.actions}
    assert actions == set(obs.legal)  # every legal action, and nothing else


def test_the_model_counts_own_and_known_partner_tricks() -> None:
    obs = _until(
        _hand("tarock54", 9), lambda o: o.phase == "play" and len(o.tricks) >= 6 and o.partner is not None
    )
    model = TableModel(obs.seat, NAMES, obs=obs)
    own = model.own_tricks()
    assert all(t.winner == obs.seat for t in own)
    for trick in model.partner_tricks():
        assert trick.winner in model.party()
    won = [t for t in obs.tricks if t.winner == obs.seat or t.winner in model.party()]
    assert sorted(map(id, (*own, *model.partner_tricks()))) == sorted(map(id, won))
    expected = cards_points([c for t in won for c in t.cards], model.rules)
    assert model.points() == expected and (expected > 0) == bool(won)
