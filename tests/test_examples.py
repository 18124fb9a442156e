"""The house-rule examples of docs/plugins.md, each a single file in examples/, played and replayed.

Every example changes the rules as data through hooks (issue 7): a Solo added
to tarock54, the Farbendreier removed from the club's Königrufen, the Valat
worth more, the Pflichtkontra switched off, and a rule that spans hands (the
forehand may not choose Trischaken twice in a row) through the table context.
Each is checked on rigged hands and through record replay.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from tarock.core.actions import Bid, Call, Kontra, Pass, Play
from tarock.core.cards import Card, parse_card
from tarock.core.codec import RecordError
from tarock.core.context import TableContext
from tarock.core.engine import Hand
from tarock.core.plugins import load_plugins
from tarock.core.record import record_of, replay
from tarock.core.registry import Variant
from tarock.core.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = load_plugins(ROOT / "plugins.toml")


def variant(name: str) -> Variant:
    return CATALOGUE.variants[name]


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


Deal = tuple[list[list[Card]], list[list[Card]]]


def dealt(rules: Rules, hands: Sequence[str], talon: Sequence[str] = ()) -> Deal:
    """Four hands as written, the cards not named filled in (suit cards first, then
    tarocks from the Pagat up, seat by seat), and the talon."""
    out = [cards(h) for h in hands] + [[] for _ in range(4 - len(hands))]
    piles = [cards(p) for p in talon] or [[] for _ in rules.talon_piles]
    named = {c for part in out + piles for c in part}
    rest = [c for c in rules.deck if c >= 22 and c not in named]
    rest += [c for c in rules.deck if c < 22 and c not in named]
    sizes = [(h, rules.hand_size) for h in out] + list(zip(piles, rules.talon_piles, strict=True))
    for part, size in sizes:
        while len(part) < size:
            part.append(rest.pop(0))
    assert not rest
    return out, piles


def finish(hand: Hand, seed: int = 0) -> Hand:
    """Play the hand to its end with random legal actions."""
    rng = random.Random(seed)
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(rng.choice(hand.legal(seat)))
    return hand


def replays(hand: Hand) -> None:
    """The hand's record replays to the identical result through the catalogue."""
    data = json.loads(record_of(hand).dumps())
    again = replay(data, variants=CATALOGUE.variants)
    assert again.error_index is None and again.hand is not None
    assert again.hand.state.result == hand.state.result


# -- a Solo for tarock54 --------------------------------------------------------------------

def test_solo54_is_short_and_imports_nothing_from_variants() -> None:
    text = (ROOT / "examples" / "solo54.py").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 30
    assert "variants" not in text.replace("variant's", "")


def test_solo_outbids_the_call_and_plays_alone_without_the_talon() -> None:
    rules = variant("tarock54-solo").rules()
    assert [c.name for c in rules.contracts] == ["rufspiel", "solo"]
    hands, talon = dealt(rules, ["", "Sküs XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI"])
    hand = Hand(rules, 0, hands, talon)
    forehand = hand.state.forehand
    assert forehand == 1
    assert Bid(1, "solo") in hand.legal(1)
    hand.apply(Pass(1))
    call = next(a for a in hand.legal(2) if isinstance(a, Call))
    hand.apply(call)                       # a call no longer ends the bidding: a Solo outranks it
    assert hand.state.phase == "bidding" and Bid(3, "solo") in hand.legal(3)
    hand.apply(Bid(3, "solo"))             # the top contract ends the auction at once
    state = hand.state
    assert state.declarer == 3 and state.contract is not None and state.contract.name == "solo"
    assert state.partner is None and state.called is None and state.talon_taken == []
    finish(hand)
    result = hand.state.result
    assert result is not None and result.declarers == (3,)
    game = result.game_items[0]
    assert game.base == 4 and game.side == (3,) and set(game.opposite) == {0, 1, 2}
    # the untouched talon counts for the opponents
    assert sum(result.points) == 210
    replays(hand)


# -- Königrufen without the Farbendreier ------------------------------------------------------

def test_the_club_without_the_farbendreier_never_offers_it_and_refuses_it_in_a_record() -> None:
    base = variant("koenigrufen-club").rules()
    rules = variant("koenigrufen-club-no-farbendreier").rules()
    assert "farbendreier" in {c.name for c in base.contracts}
    assert "farbendreier" not in {c.name for c in rules.contracts}
    hands, talon = dealt(rules, ["", "cK sK hK dK cQ sQ hQ dQ cC sC hC dC"])
    hand = Hand(rules, 0, hands, talon)
    for _ in range(40):
        legal = hand.legal(hand.state.to_move)  # type: ignore[arg-type]
        assert not any(isinstance(a, Bid) and a.contract == "farbendreier" for a in legal)
        hand.apply(legal[0])
        if hand.state.phase != "bidding":
            break
    fresh = Hand(base, 0, hands, talon)
    fresh.apply(Bid(1, "vorhand"))
    fresh.apply(Bid(2, "farbendreier"))
    data = json.loads(record_of(fresh).dumps())
    data["variant"] = "koenigrufen-club-no-farbendreier"
    data["rules"] = {"hash": "", "plugins": []}
    rep = replay(data, variants=CATALOGUE.variants)
    assert rep.error_index == 1 and rep.reason is not None and rep.reason.code == "unknown-contract"


# -- a premium worth more ------------------------------------------------------------------------

VALAT_HAND = "Sküs XXI XX XIX XVIII XVII XVI XV XIV XIII"


@pytest.mark.parametrize("kontra", [False, True])
def test_a_valat_worth_more_keeps_the_single_game_and_kontra_conventions(kontra: bool) -> None:
    amounts = {}
    for name in ("tarock40", "tarock40-valat-10"):
        rules = variant(name).rules()
        hands, talon = dealt(rules, [VALAT_HAND, "XII XI cK", "X IX sK", "VIII VII hK"])
        hand = Hand(rules, 3, hands, talon)
        hand.apply(Bid(0, "solo"))
        for seat in (1, 2, 3):
            hand.apply(Pass(seat))
        if kontra:
            hand.apply(Kontra(1))
            hand.apply(Pass(0))
        else:
            for seat in (1, 2, 3):
                hand.apply(Pass(seat))
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            # the declarer leads his highest tarock; the others play their first legal card
            legal = hand.legal(seat)
            top = max(legal, key=lambda a: a.card if isinstance(a, Play) else 0)
            hand.apply(top if seat == 0 else legal[0])
        result = hand.state.result
        assert result is not None
        valat = next(i for i in result.premium_items if i.name == "valat")
        assert valat.made and valat.scale == 2 and valat.kontra == (1 if kontra else 0)
        amounts[name] = valat.amount
        replays(hand)
    factor = 2 * (2 if kontra else 1)
    assert amounts == {"tarock40": 6 * factor, "tarock40-valat-10": 10 * factor}


# -- the Pflichtkontra off -------------------------------------------------------------------------

TRULL_HAND = "I XXI Sküs cK sK"


@pytest.mark.parametrize("name,options", [("tarock40", {}), ("tarock40-no-pflichtkontra", {}),
                                          ("tarock40", {"pflichtkontra": False})])
def test_the_pflichtkontra_is_a_duty_a_plugin_or_an_option_switches_off(name: str,
                                                                         options: dict[str, bool]) -> None:
    rules = variant(name).rules(options)
    hands, talon = dealt(rules, ["XX XIX XVIII XVII", TRULL_HAND, "XVI XV", "XIV XIII"])
    hand = Hand(rules, 3, hands, talon)
    hand.apply(Bid(0, "rufspiel"))
    for seat in (1, 2, 3):
        hand.apply(Pass(seat))
    assert hand.state.phase == "kontra" and hand.state.to_move == 1
    bound = name == "tarock40" and not options
    assert (Pass(1) in hand.legal(1)) is not bound
    reason = hand.why_not(Pass(1))
    assert (reason is not None and reason.code == "pflichtkontra") is bound


# -- a rule that spans hands: no Trischaken twice in a row ---------------------------------------

def choose_trischaken(rules: Rules, dealer: int, context: TableContext) -> Hand:
    hands, talon = dealt(rules, [""] * 4, ["", ""])
    hand = Hand(rules, dealer, hands, talon, context=context)
    forehand = hand.state.forehand
    hand.apply(Bid(forehand, "vorhand"))
    for _ in range(3):
        hand.apply(Pass(hand.state.to_move))  # type: ignore[arg-type]
    return hand


def test_the_forehand_may_not_choose_trischaken_twice_in_a_row() -> None:
    rules = variant("koenigrufen-club-trischaken-once").rules()
    hand = choose_trischaken(rules, 3, TableContext(dealer=3))
    assert hand.state.forehand == 0 and Bid(0, "trischaken") in hand.legal(0)
    hand.apply(Bid(0, "trischaken"))
    finish(hand)
    replays(hand)
    for dealer in (0, 1, 2):  # three more hands: then seat 0 is the forehand again
        result = hand.state.result
        assert result is not None
        context = rules.next_context(hand.state, result)
        assert context.dealer == dealer
        hand = finish(choose_trischaken(rules, dealer, context), seed=dealer)
    result = hand.state.result
    assert result is not None
    context = rules.next_context(hand.state, result)
    assert context.dealer == 3 and context.recalled("trischaken-once")["0"] is True
    again = choose_trischaken(rules, 3, context)
    assert Bid(0, "trischaken") not in again.legal(0)
    reason = again.why_not(Bid(0, "trischaken"))
    assert reason is not None and reason.code == "trischaken-twice"
    # a record that breaks the rule is refused at the bid that breaks it
    data = json.loads(record_of(again).dumps())
    data["actions"].append({"seat": 0, "type": "bid", "contract": "trischaken"})
    rep = replay(data, variants=CATALOGUE.variants)
    assert rep.error_index == 4 and rep.reason is not None and rep.reason.code == "trischaken-twice"
    # the same deal without that memory allows it: the context decides (its hash covers it)
    fresh = json.loads(record_of(again).dumps())
    fresh["context"]["memory"] = {}
    with pytest.raises(RecordError, match="other rules"):
        replay(fresh, variants=CATALOGUE.variants)
    fresh["rules"]["hash"] = ""
    fresh["actions"].append({"seat": 0, "type": "bid", "contract": "trischaken"})
    assert replay(fresh, variants=CATALOGUE.variants).error_index is None
