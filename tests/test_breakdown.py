"""The settlement shown as a breakdown (client.text.results.breakdown_lines): the game, each
premium (announced or silent, made or failed, its Kontra, the single-game scale) and the
amount per player, from a result's line items and the table's words (issue 7)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tarock.client.bots import make_bot
from tarock.client.text.results import breakdown_lines, item_line, result_lines
from tarock.client.text.rule_words import Terms
from tarock.core.deal import active_seats, deal
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.plugins import load_plugins
from tarock.core.settlement import Item

CATALOGUE = load_plugins(Path(__file__).resolve().parent.parent / "plugins.toml")
NAMES = ["Hilde", "Franz", "Sepp", "Resi", "Toni"]
CENTS = Terms("ct", ("Kontra", "Re"))

pytestmark = pytest.mark.usefixtures("english")  # the English words, as with --lang en


def test_a_lost_solo_with_kontra_item_by_item() -> None:
    """docs/rules.md §13.8: one Kontra doubles the game with its premiums, single games
    double the premiums; the lone declarer pays each of the three others (docs/rules.md §10)."""
    rules = CATALOGUE.find("tarock40").rules().facts
    opp = (1, 2, 3)
    items = [Item("game", (0,), opp, 4, made=False, kontra=1),
             Item("trull", (0,), opp, 1, for_side=False, made=True, kontra=1, scale=2),
             Item("absolut", (0,), opp, 2, made=False, announced=True, kontra=1, scale=2)]
    lines = breakdown_lines(items, NAMES[:4], Terms(), rules, "Solo absolut")
    assert lines == [
        "  Game (Solo absolut) by Hilde: lost, 4 x2 (Kontra): Hilde pays 8 to each of Franz, Sepp and Resi",
        "  Trull (silent) by Franz, Sepp and Resi: made, 1 x2 (single game) x2 (Kontra): "
        "Hilde pays 4 to each of Franz, Sepp and Resi",
        "  Absolut (announced) by Hilde: failed, 2 x2 (single game) x2 (Kontra): "
        "Hilde pays 8 to each of Franz, Sepp and Resi",
        "Settlement: Hilde -60, Franz +20, Sepp +20, Resi +20",
    ]


def test_parties_of_two_and_pairs_in_cents() -> None:
    """2 v 2: each loser pays one winner; Königrufen's per-declarer games (docs/rules.md §15.10, Bei) are
    items between two seats, each with its own Kontra ("Re" at level 2), in cents."""
    game = Item("game", (0, 2), (1, 3), 10)
    assert item_line(game, NAMES, CENTS) == \
        "Game by Hilde and Sepp: won, 10: Franz and Resi pay 10 ct each to Hilde and Sepp"
    pair = Item("game", (1,), (3,), 45, made=False, kontra=2, label="seat 1's game")
    assert item_line(pair, NAMES, CENTS) == "Franz's game: lost, 45 x4 (Re): Franz pays 180 ct to Resi"
    opponents = Item("pagat", (0,), (1, 2, 3), 20, for_side=False, made=False, announced=True, scale=2)
    assert item_line(opponents, NAMES, CENTS).endswith(": Franz, Sepp and Resi pay 40 ct each to Hilde")
    drawn = Item("game", (0, 2), (1, 3), 1, made=None)
    assert item_line(drawn, NAMES, Terms()) == "Game by Hilde and Sepp: drawn, 1: nothing to pay"
    lines = breakdown_lines([pair], NAMES, CENTS, players=(0, 1, 2, 3))
    assert lines[-1] == "Settlement: Hilde 0 ct, Franz -180 ct, Sepp 0 ct, Resi +180 ct (Toni sat out)"


@pytest.mark.parametrize("variant", sorted(CATALOGUE.variants))
def test_every_hand_prints_its_items_and_the_settlement_they_make(variant: str) -> None:
    """Over bot hands of every variant: one line per item with its amount, and the last line is
    the result's settlement, seat by seat, in the table's words."""
    rules = CATALOGUE.variants[variant].rules()
    terms = Terms.of(rules.variant_facts)
    for seed in range(12):
        rng = random.Random(seed)
        seats = 5 if seed % 4 == 3 and rules.players_per_hand == 4 and variant.startswith("koenig") else 4
        dealer = seed % seats
        active = active_seats(seats, dealer, rules.players_per_hand)
        hand = Hand(rules, dealer, *deal(rules, rng, seats, active), seats, active)
        bots = [make_bot("heuristic" if (seed + s) % 3 else "random", s) for s in range(seats)]
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            hand.apply(bots[seat].decide(observe(hand, seat)))
        result = hand.state.result
        assert result is not None
        names = NAMES[:seats]
        lines = result_lines(observe(hand, 0), names, terms)
        if result.passed_out:
            assert lines == [f"Result: {result.note}; the deal is void and is dealt again."]
            continue
        start = lines.index("Breakdown (value x single-game scale x Kontra; who pays whom):")
        shown = lines[start + 1:-1]
        assert len(shown) == len(result.items)
        for line, item in zip(shown, result.items, strict=True):
            money = f" {terms.money}" if terms.money else ""
            if item.amount:
                assert f" {abs(item.amount)}{money} " in line, (line, item)
            else:
                assert line.endswith("nothing to pay"), (line, item)
        playing = [s for s in range(seats) if s in (active or range(seats))]
        want = ", ".join(f"{names[s]} {terms.amount(result.settlement[s])}" for s in playing)
        assert lines[-1].startswith(f"Settlement: {want}")
