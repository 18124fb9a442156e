"""Every contract datum is played as it says, or refused when the rules are built (issue 22).

docs/plugins.md ("What the contract data mean") is the reference: a Bettel
over ``tarock54`` is won by taking no trick, a Farbensolo follows the
Farbenspiele's trick rules (docs/rules.md §4.6), a suit named
as trumps is an action every seat sees, and a datum a base cannot play is
refused in one line naming the plugin, the contract and the field.
"""

from __future__ import annotations

import json
import random
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest
from contract_soak import soak
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from net_procs import CLI

from tarock.client.i18n import set_language
from tarock.client.text.actions import game_text
from tarock.core.actions import Bid, Pass, Play, Trump
from tarock.core.cards import SUIT_OF, TAROCK, Card, parse_card, sort_key
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.plugins import load_plugins
from tarock.core.record import record_of, replay
from tarock.core.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = load_plugins(ROOT / "plugins.toml")


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


def first_legal(hand: Hand) -> Hand:
    """Play the hand to its end, every seat taking its first legal action."""
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(hand.legal(seat)[0])
    return hand


def replays(hand: Hand) -> None:
    again = replay(json.loads(record_of(hand).dumps()), variants=CATALOGUE.variants)
    assert again.error_index is None and again.hand is not None
    assert again.hand.state.result == hand.state.result


def bettel_deal(declarer: str) -> tuple[list[list[Card]], list[list[Card]]]:
    """Seat 1 (the forehand of dealer 0) holds ``declarer``; the others the rest."""
    mine = cards(declarer)
    talon = [c for c in cards("c10 s10 h1 d1 cJ sJ") if c not in mine]
    rest = [c for c in range(54) if c not in mine and c not in talon]
    talon += [c for c in rest if c >= 22][:6 - len(talon)]
    rest = [c for c in rest if c not in talon]
    random.Random(1).shuffle(rest)
    return [rest[0:12], mine, rest[12:24], rest[24:36]], [talon[:3], talon[3:]]


def bettel(declarer: str, contract: str = "bettel") -> Hand:
    rules = CATALOGUE.find("tarock54-bettel").rules()
    hands, talon = bettel_deal(declarer)
    hand = Hand(rules, 0, hands, talon)
    hand.apply(Bid(1, contract))
    if contract == "bettel":
        for seat in (2, 3, 0):
            hand.apply(Pass(seat))
    return hand


# -- a Bettel: the goal is no trick (docs/plugins.md, "What the contract data mean") ----------------

def test_a_bettel_declarer_who_takes_a_trick_loses_though_his_points_would_win() -> None:
    hand = bettel("Sküs XXI XX XIX XVIII XVII XVI XV cK sK hK dK")
    state = hand.state
    assert state.contract is not None and state.contract.name == "bettel" and state.declarer == 1
    assert state.phase == "kontra"                  # tarock54's Kontra chain, then the declarer leads
    first_legal(hand)
    assert state.tricks[0].leader == 1
    result = state.result
    assert result is not None
    taken = sum(1 for t in state.tricks if t.winner == 1)
    assert taken >= 1 and result.points[0] >= 36 * 3  # by card points tarock54 would call it won
    assert result.won is False
    [game] = result.game_items
    assert game.side == (1,) and game.made is False and game.base == 2
    assert result.settlement == (2, -6, 2, 2) and not result.premium_items
    replays(hand)


def test_a_bettel_declarer_who_takes_no_trick_wins() -> None:
    # the lowest three of each suit, no tarock: every trick goes to a higher card or a tarock
    hand = bettel("c7 c8 c9 s7 s8 s9 h4 h3 h2 d4 d3 d2")
    first_legal(hand)
    result = hand.state.result
    assert result is not None
    assert not any(t.winner == 1 for t in hand.state.tricks)
    assert result.won is True and result.settlement == (-2, 6, -2, -2)
    replays(hand)


def test_a_bettel_ouvert_lays_the_declarers_hand_open_after_the_first_trick() -> None:
    hand = bettel("c7 c8 c9 s7 s8 s9 h4 h3 h2 d4 d3 d2", "bettel-ouvert")  # the top game: it ends the auction
    state = hand.state
    assert state.contract is not None and state.contract.spec.ouvert
    while not state.tricks:
        assert all(dict(observe(hand, s).open_hands) == {} for s in (0, 2, 3))
        hand.apply(hand.legal(state.to_move)[0])  # type: ignore[arg-type]
    for seat in (0, 2, 3):
        assert dict(observe(hand, seat).open_hands) == {1: tuple(sorted(state.hands[1], key=sort_key))}
    assert dict(observe(hand, 1).open_hands) == {}  # nobody else's hand is open
    first_legal(hand)
    replays(hand)


# -- a Farbensolo: the Farbenspiele (docs/rules.md §4.6) ----------------------------------------

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.permutations(list(range(54))), dealer=st.integers(0, 3), seed=st.integers(0, 2**32 - 1))
def test_in_the_farbensolo_a_tarock_never_wins_a_suit_lead(order: list[Card], dealer: int, seed: int) -> None:
    rules = CATALOGUE.find("tarock54-farbensolo").rules()
    hand = Hand(rules, dealer, [order[i * 12:(i + 1) * 12] for i in range(4)], [order[48:51], order[51:]])
    forehand = hand.state.forehand
    hand.apply(Bid(forehand, "farbensolo"))        # the top game ends the auction
    rng = random.Random(seed)
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        legal = hand.legal(seat)
        if not hand.state.trick or not hand.state.trick.cards:
            plays = [a.card for a in legal if isinstance(a, Play)]
            if plays and any(c >= 22 for c in hand.state.hands[seat]):
                assert all(c >= 22 for c in plays)  # nobody leads a tarock holding a suit card
        hand.apply(rng.choice(legal))
    state = hand.state
    assert state.contract is not None and state.contract.name == "farbensolo" and state.declarer == forehand
    assert state.talon_taken == [] and state.tricks[0].leader == forehand
    for trick in state.tricks:
        assert trick.winner is not None
        won_by = trick.cards[trick.seats.index(trick.winner)]
        if SUIT_OF[trick.cards[0]] != TAROCK:
            assert SUIT_OF[won_by] == SUIT_OF[trick.cards[0]]
    result = state.result
    assert result is not None and sum(result.settlement) == 0
    replays(hand)


# -- a suit named as trumps: an action, recorded and seen by every seat ---------------------------

FABERL54 = '''
    from dataclasses import replace
    from tarock.core.contracts import TrickRules
    from tarock.core.hookspecs import hookimpl

    class Faberl54:
        name, version, applies_to = "faberl54", "1.0", ("tarock54",)

        @hookimpl(wrapper=True)
        def tarock_contracts(self, options):
            contracts = list((yield))
            top = contracts[-1]
            faberl = replace(top, name="faberl", title="Faberl", rank=2, value=4, partnership="alone",
                             call=None, talon="none", tricks=TrickRules("suit"), premiums=frozenset())
            return [*contracts, faberl]

    PLUGIN = Faberl54
'''


def house(tmp_path: Path, base: str, source: str, name: str = "house") -> Path:
    (tmp_path / "rule.py").write_text(textwrap.dedent(source), encoding="utf-8")
    config = tmp_path / "plugins.toml"
    config.write_text(f'[plugins]\nenabled = ["{name}"]\n\n[[variant]]\nname = "{name}"\nbase = "{base}"\n'
                      'plugins = [{ path = "rule.py" }]\n', encoding="utf-8")
    return config


def test_the_trump_suit_is_named_by_an_action_every_seat_sees(tmp_path: Path) -> None:
    catalogue = load_plugins(house(tmp_path, "tarock54", FABERL54))
    rules = catalogue.find("house").rules()
    hands, talon = bettel_deal("hK hQ hC hJ h1 h2 Sküs XXI XX cK sK dK")
    hand = Hand(rules, 0, hands, talon)
    hand.apply(Bid(1, "faberl"))
    assert hand.state.phase == "trump" and hand.legal(1) == [Trump(1, s) for s in "cshd"]
    hand.apply(Trump(1, "h"))
    for seat in (0, 1, 2, 3):
        contract = observe(hand, seat).contract
        assert contract is not None and contract.trump == "h"
    set_language("en")
    names = ["A", "B", "C", "D"]
    assert "trump hearts" in game_text(observe(hand, 0), names)
    set_language("de")
    assert "Trumpf Herz" in game_text(observe(hand, 0), names)
    first_legal(hand)
    for trick in hand.state.tricks:            # hearts trump, the tarocks are a plain suit
        hearts = [c for c in trick.cards if SUIT_OF[c] == 2]
        if hearts:
            assert trick.cards[trick.seats.index(trick.winner)] in hearts  # type: ignore[arg-type]
    data = json.loads(record_of(hand).dumps())
    assert {"seat": 1, "type": "trump", "suit": "h"} in data["actions"]
    again = replay(data, variants=catalogue.variants)
    assert again.hand is not None and again.hand.state.result == hand.state.result


# -- refused when the plugin loads ----------------------------------------------------------------

def changed(change: str, name: str = "odd", copy: str = "contracts[-1]") -> str:
    """A plugin adding contract ``name``: a copy of ``copy`` with ``change`` (keyword arguments)."""
    return f'''
    from dataclasses import replace
    from tarock.core.contracts import NO_GOAL, CallRule, Goal, TrickRules
    from tarock.core.hookspecs import hookimpl

    class Odd:
        name, version = "odd-rule", "1.0"

        @hookimpl(wrapper=True)
        def tarock_contracts(self, options):
            contracts = list((yield))
            top = {copy}
            return [*contracts, replace(top, name="{name}", rank=contracts[-1].rank + 1, {change})]

    PLUGIN = Odd
    '''


ALONE = 'partnership="alone", call=None, premiums=frozenset(), announces=()'
TOP_KING = "next(c for c in contracts if c.name == 'rufer')"

REFUSALS: Sequence[tuple[str, str, str, str]] = [
    # base, the changed data, the field named, a word of the reason
    ("tarock54", f'{ALONE}, tricks=TrickRules("none")', "tricks.trump", "'none'"),
    ("tarock54", f'{ALONE}, goal=Goal("misere")', "goal.kind", "'misere'"),
    ("tarock54", 'partnership="each", call=None, goal=Goal("ranking")', "goal.kind", "ranking"),
    ("tarock54", f'{ALONE}, goal=Goal("tricks", tricks=13)', "goal.tricks", "0 to 12"),
    # a contract that gives no goal would be won by every hand (zero card points)
    ("tarock54", f'{ALONE}, goal=NO_GOAL', "goal", "no goal given"),
    ("tarock54", 'partnership="alone"', "call", "partnership is 'alone'"),
    ("tarock54", f'{ALONE}, talon="half"', "talon", "'half'"),
    ("tarock54", 'talon="pile", talon_pile=2', "talon_pile", "pile 2"),
    ("tarock54", 'title="Zweiter Rufer"', "call.when", "bid by calling a card already"),
    ("tarock54", f'{ALONE}, goal=Goal("tricks"), joinable=True', "joinable", "cannot join"),
    ("tarock54", f'{ALONE}, contest=True', "contest", "contest"),
    ("tarock54", 'partnership="alone", call=None, premiums=frozenset({"trull"})', "premiums", "'trull'"),
    ("tarock40", f'{ALONE}, talon="pile"', "talon", "'pile' is not played here"),
    ("tarock40-online", 'call=CallRule(top.call.cards, when="after")', "call.when", "'after'"),
    ("koenigrufen-club", 'tricks=TrickRules("suit")', "tricks.trump", "'suit'"),
    ("koenigrufen-course", 'goal=Goal("tricks", tricks=0)', "partnership", "'called'"),
    ("koenigrufen-club", 'talon="pile"', "talon", "'pile'"),
    # a misspelt or unknown ``extra`` datum is refused, never ignored; so is a value the base does not play
    ("koenigrufen-club", 'extra=dict(top.extra, forehand_bids="opening")', "extra.forehand_bids",
     "no datum 'forehand_bids'"),
    ("koenigrufen-club", 'extra=dict(top.extra, forehand_bid="first")', "extra.forehand_bid",
     "'first' is not played here"),
    ("koenigrufen-club", 'extra=dict(top.extra, max_tarocks="3")', "extra.max_tarocks", "'3'"),
    ("tarock54", 'extra={"kind": "points"}', "extra.kind", "extra keys: none"),
]


@pytest.mark.parametrize(("base", "change", "field", "why"), REFUSALS,
                         ids=[f"{b}:{f}:{i}" for i, (b, _, f, _) in enumerate(REFUSALS)])
def test_a_datum_the_base_cannot_play_is_refused_in_one_line(tmp_path: Path, base: str, change: str,
                                                              field: str, why: str) -> None:
    copy = TOP_KING if base.startswith("koenigrufen") else "contracts[-1]"
    if base == "tarock40-online":
        copy = "contracts[0]"  # the Rufer
    config = house(tmp_path, base, changed(change, copy=copy))
    catalogue = load_plugins(config)
    reason = catalogue.unavailable["house"]
    assert "\n" not in reason
    assert f"plugin 'odd-rule', contract 'odd', field '{field}': " in reason and why in reason, reason
    assert "house" not in catalogue.offered()


def test_the_refusal_reaches_the_command_line_as_one_line(tmp_path: Path) -> None:
    import subprocess

    config = house(tmp_path, "tarock54", changed(f'{ALONE}, tricks=TrickRules("none")'))
    run = subprocess.run([*CLI, "rules", "house", "--plugins", str(config),
                          "--lang", "en"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    [line] = run.stderr.splitlines()
    assert "variant 'house' is unavailable" in line
    assert ("plugin 'odd-rule', contract 'odd', field 'tricks.trump': "
            "the trump 'none' is not played here") in line


def test_what_every_shipped_variant_plays_is_what_its_contracts_ask() -> None:
    for name, variant in CATALOGUE.variants.items():
        rules: Rules = variant.rules()
        assert rules.contracts, name  # built: no contract of ours is refused


# -- self-play of the examples (the long run: tests/contract_soak.py) -----------------------------

@pytest.mark.parametrize("name", ["tarock54-bettel", "tarock54-farbensolo", "koenigrufen-ooe"])
def test_self_play_of_the_examples_keeps_the_data(name: str) -> None:
    """Each example's hands replay zero-sum and a Bettel declarer who took a trick lost (docs/rules.md
    §19, §18); the acceptance's 2,000 hands each: ``python tests/contract_soak.py --hands 2000
    --variant tarock54-bettel --variant tarock54-farbensolo --variant koenigrufen-ooe``."""
    figures = soak(name, 40, seed=5, catalogue=CATALOGUE)
    assert figures.violations == []
    if name == "tarock54-bettel":
        assert figures.trick_goals > 0 and figures.missed_goal > 0 and figures.ouvert_views > 0
    elif name == "tarock54-farbensolo":
        assert figures.contracts["farbensolo"] > 0 and figures.suit_leads > 0
    else:
        assert len(figures.contracts) >= 3 and figures.trick_goals > 0
