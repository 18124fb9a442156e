"""The settlement (core/settlement.py): line items and the one formula.

docs/rules.md §10: settlement is zero-sum and per opponent: in 2 v 2 each
loser pays the value to one winner; a lone player receives the value from, or
pays it to, each of the three others.  §8.1: "Wer Kontra sagt, verdoppelt
den Spielwert samt allen Prämien (× 2)" (one chain on everything); §8.2:
"Zuvor führen noch alle Kontras auf das Spiel sowie die Zusätze dazu, dass der
jeweilige Wert verdoppelt wird" (a chain per item).  The formula is checked
against amounts worked out here, and a house rule that changes premium values
is checked to leave every Kontra level, scale and party as it was.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from line_items import Line, lines
from test_tarock40_support import finished

from tarock.core.actions import Action
from tarock.core.contracts import ContractSpec, PremiumSpec
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.hookspecs import hookimpl
from tarock.core.plugins import load_plugins
from tarock.core.rules import RuleError, Rules
from tarock.core.settlement import Item, SettlementError, game_item, settle
from tarock.core.state import Announcement, HandResult

CATALOGUE = load_plugins(Path(__file__).resolve().parent.parent / "plugins.toml")


# -- the formula on hand-made items ---------------------------------------------------------

def test_two_against_two_each_loser_pays_one_winner() -> None:
    game = Item("game", (0, 2), (1, 3), 1)
    assert settle([game], 4) == (1, -1, 1, -1)
    assert settle([replace(game, made=False)], 4) == (-1, 1, -1, 1)


def test_one_against_three_receives_from_each() -> None:
    """docs/rules.md §10: "Spielt der Rufer allein gegen drei, bekommt er das Dreifache." """
    game = Item("game", (1,), (0, 2, 3), 4)
    assert settle([game], 4) == (-4, 12, -4, -4)
    assert settle([replace(game, made=False)], 4) == (4, -12, 4, 4)


def test_kontra_doubles_and_scale_multiplies() -> None:
    item = Item("trull", (0,), (1, 2, 3), 2, announced=True, kontra=2, scale=2)
    assert item.factor == 2 * 4 and item.amount == 16
    assert settle([item], 4) == (48, -16, -16, -16)


def test_the_opponents_item_counts_for_them() -> None:
    """An opponents' premium is an item of the declarer side's settlement with ``for_side`` False:
    made by them, each of them receives it; failed by them, the declarers receive it."""
    theirs = Item("pagat", (0, 2), (1, 3), 1, for_side=False)
    assert theirs.amount == -1 and settle([theirs], 4) == (-1, 1, -1, 1)
    failed = replace(theirs, made=False, announced=True, base=2)
    assert failed.amount == 2 and settle([failed], 4) == (2, -2, 2, -2)


def test_nothing_made_counts_nothing() -> None:
    assert Item("game", (0,), (1, 2, 3), 1, made=None, kontra=3).amount == 0
    assert Item("valat", (0,), (1, 2, 3), 0).amount == 0
    assert settle([], 4) == (0, 0, 0, 0)


def test_a_share_that_does_not_divide_is_an_error() -> None:
    with pytest.raises(SettlementError, match=r"item 'odd': 1 does not divide among 3 seats"):
        settle([Item("odd", (0, 1, 2), (3,), 1)], 4)


def test_the_game_item_takes_the_lost_value_when_lost() -> None:
    """docs/rules.md §17.1: "Verliert der Sechserspieler sein Spiel ..., muss er den doppelten Spielwert
    (12 Cent) bezahlen. Gewinnt er, erhält er den einfachen Spielwert (6 Cent).\""""
    sechser = ContractSpec("sechser", "Sechser", rank=1, value=6, lost=12)
    assert game_item((0,), (1, 2, 3), sechser, True).amount == 6
    assert game_item((0,), (1, 2, 3), sechser, False).amount == -12
    assert game_item((0,), (1, 2, 3), sechser, None).amount == 0  # a draw (docs/rules.md §12.4, 35:35)
    assert game_item((0,), (1, 2, 3), sechser, True, kontra=1).amount == 12


def expected(items: Sequence[Item], seats: int) -> list[int]:
    """The formula worked out by hand: each seat of ``opposite`` pays, the ``side`` shares."""
    out = [0] * seats
    for item in items:
        if item.made is None:
            continue
        each = item.base * item.scale * 2 ** item.kontra * (1 if item.made == item.for_side else -1)
        for seat in item.opposite:
            out[seat] -= each
        for seat in item.side:
            out[seat] += each * len(item.opposite) // len(item.side)
    return out


@st.composite
def items(draw: st.DrawFn, seats: int = 4) -> Item:
    shape = draw(st.sampled_from(["1v3", "2v2", "3v1", "1v1"]))
    order = draw(st.permutations(range(seats)))[:4]  # the four who play (the dealer of five sits out)
    n = {"1v3": 1, "2v2": 2, "3v1": 3, "1v1": 1}[shape]
    side = tuple(sorted(order[:n]))
    opposite = tuple(sorted(order[n:n + 1])) if shape == "1v1" else tuple(sorted(order[n:]))
    base = draw(st.integers(0, 200))
    if shape == "3v1":
        base *= 3  # a share of the whole must divide among the three
    return Item(draw(st.sampled_from(["game", "trull", "valat", "pagat"])), side, opposite, base,
                for_side=draw(st.booleans()), made=draw(st.sampled_from([True, False, None])),
                announced=draw(st.booleans()), kontra=draw(st.integers(0, 4)),
                scale=draw(st.sampled_from([1, 2])))


@settings(max_examples=500, deadline=None, database=None, derandomize=True)
@given(st.lists(items(), max_size=8))
def test_the_formula_is_zero_sum_and_per_opponent(drawn: list[Item]) -> None:
    got = settle(drawn, 4)
    assert sum(got) == 0
    assert list(got) == expected(drawn, 4)


@settings(max_examples=200, deadline=None, database=None, derandomize=True)
@given(st.lists(items(seats=5), max_size=6))
def test_a_table_of_five_settles_the_same_way(drawn: list[Item]) -> None:
    assert sum(settle(drawn, 5)) == 0 and list(settle(drawn, 5)) == expected(drawn, 5)


# -- one chain on everything, or a chain per item ---------------------------------------------

TRICKS = [(2, "I Sküs XXI IV"), (1, "hK sK cK dK")]
"""Seat 2's Pagat takes the Trull (Kaiserstich); seat 1 takes the four Kings."""


def test_one_chain_doubles_the_game_with_all_its_premiums() -> None:
    """tarock40 (docs/rules.md §8.1): the Kontra level of the game's chain is on every item, an
    announcement's own level (which this variant does not keep) does not count."""
    rules = CATALOGUE.find("tarock40").rules()
    assert rules.variant_facts.kontra_scope == "game"
    state = finished(rules, "solo", 2, TRICKS, kontra=2, announcements=[Announcement("trull", 2, kontra=1)])
    assert lines(rules.score(state)) == [
        Line("game", "declarers", False, -4 * 4, kontra=2),
        Line("trull", "declarers", True, 2 * 2 * 4, announced=True, kontra=2, scale=2),
        Line("kings", "opponents", True, -1 * 2 * 4, kontra=2, scale=2)]


def test_each_item_has_its_own_chain_online() -> None:
    """tarock40-online (docs/rules.md §8.2): the game, and each addition, with its own Kontra; a silent
    premium has none."""
    rules = CATALOGUE.find("tarock40-online").rules()
    assert rules.variant_facts.kontra_scope == "each"
    state = finished(rules, "solo", 2, TRICKS, kontra=1, announcements=[Announcement("trull", 2, kontra=2)])
    got = {line.name: line for line in lines(rules.score(state))}
    assert got["game"] == Line("game", "declarers", False, -4 * 2, kontra=1)
    assert got["trull"] == Line("trull", "declarers", True, 2 * 2 * 4, announced=True, kontra=2, scale=2)
    assert got["kings"] == Line("kings", "opponents", True, -1 * 2, scale=2)  # silent: no Kontra


def test_the_scope_is_a_fact_every_observer_can_read() -> None:
    names = ("tarock54", "tarock40", "tarock40-online", "koenigrufen-club", "koenigrufen-course")
    scopes = {name: CATALOGUE.find(name).rules().facts.facts.kontra_scope for name in names}
    assert scopes == {"tarock54": "game", "tarock40": "game", "tarock40-online": "each",
                      "koenigrufen-club": "each", "koenigrufen-course": "each"}


# -- a house rule changing premium values cannot get the Kontra wrong ----------------------------

class TripleValues:
    """A house rule: every premium is worth three times as much (silent, announced, lost)."""

    name = "triple-values"
    version = "1.0"

    @hookimpl(wrapper=True)
    def tarock_premium_specs(self, options: Mapping[str, Any]) -> Generator[None, Any, list[PremiumSpec]]:
        specs: Sequence[PremiumSpec] = (yield) or ()
        return [replace(p, silent=3 * p.silent, announced=3 * p.announced,
                        silent_lost=None if p.silent_lost is None else 3 * p.silent_lost) for p in specs]


def tripled(variant: str) -> Rules:
    found = CATALOGUE.find(variant)
    return Rules(found.name, [*found.plugins(), TripleValues()], title=found.title)


def played(rules: Rules, seed: int) -> tuple[Hand, list[Action]]:
    rng = random.Random(seed)
    hand = Hand(rules, seed % 4, *deal(rules, rng))
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(rng.choice(hand.legal(seat)))
    return hand, list(hand.state.actions)


def again(rules: Rules, first: Hand, actions: list[Action]) -> HandResult:
    hand = Hand(rules, first.state.dealer, *first.deal)
    for action in actions:
        hand.apply(action)
    assert hand.state.result is not None
    return hand.state.result


@pytest.mark.parametrize("variant", ["tarock54", "tarock40", "tarock40-online", "koenigrufen-club",
                                     "koenigrufen-course", "tarock54-club"])
def test_changing_premium_values_keeps_every_kontra_scale_and_party(variant: str) -> None:
    base_rules, house_rules = CATALOGUE.find(variant).rules(), tripled(variant)
    assert all(house_rules.premium_specs[n].silent == 3 * p.silent
               for n, p in base_rules.premium_specs.items())
    premiums = kontras = 0
    single = variant.startswith("tarock54")  # fast hands, few premiums: play more
    for seed in range(1500 if single else 300):
        first, actions = played(base_rules, seed)
        base = first.state.result
        assert base is not None
        house = again(house_rules, first, actions)
        assert [i.name for i in house.items] == [i.name for i in base.items]
        for old, new in zip(base.items, house.items, strict=True):
            def shape(i: Item) -> tuple[object, ...]:
                return (i.side, i.opposite, i.for_side, i.made, i.announced, i.kontra, i.scale)

            assert shape(new) == shape(old)
            if old.name in base_rules.premium_specs:
                assert (new.base, new.amount) == (3 * old.base, 3 * old.amount)
                premiums += 1
                kontras += bool(old.kontra)
            elif base.note == "given up" and old.name == "game":  # the Besserrufer pays his smallest bird too
                spec = first.state.contract.spec  # type: ignore[union-attr]
                assert new.base - spec.value == 3 * (old.base - spec.value)
            else:
                assert new == old
        assert house.settlement == settle(house.items, 4) and sum(house.settlement) == 0
    assert premiums > 40
    assert kontras > 0, "no random hand had a premium under Kontra"


def test_a_premium_spec_is_checked_when_the_rules_are_built() -> None:
    class Twice:
        name = "twice"

        @hookimpl(wrapper=True)
        def tarock_premium_specs(self, options: Mapping[str, Any]) -> Generator[None, Any, list[Any]]:
            specs = list((yield) or ())
            return [*specs, specs[0]]

    with pytest.raises(RuleError, match=r"plugin 'twice', hook 'tarock_premium_specs': two premiums are "
                                        r"called 'pagat-ultimo'"):
        Rules("twice", [*CATALOGUE.find("tarock54").plugins(), Twice()])
