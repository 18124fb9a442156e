"""The table: rounds, dealer rotation, passed-out deals, the sheet and the standings.

docs/rules.md §3.6: "Ein Tisch spielt 12 Runden, danach gibt es den
Endstand." and "Der Sieger erhält 4 Hauptpunkte (HP), der Zweite 2, der Dritte 1, der
Vierte 0. Die erzielten Punkte zählen als Subpunkte (SP) ... Bei Punktgleichheit teilen
sich die Plätze ihre Hauptpunkte."  docs/rules.md §3.4: a deal all four pass is dealt
again and does not count as a round.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from engine_players import random_players

from tarock.client.session import Session
from tarock.core.actions import Action, Pass
from tarock.core.observation import Observation
from tarock.core.settlement import Item
from tarock.core.state import HandResult
from tarock.core.table import Table, TableOver, is_passed_out, standings


def played(settlement: tuple[int, ...], declarers: tuple[int, ...] = (0,)) -> HandResult:
    """A result with one game item for the declarers (the table reads only the settlement)."""
    others = tuple(s for s in range(4) if s not in declarers)
    game = Item("game", declarers, others, 1)
    return HandResult(declarers, (108, 102), 3, True, (game,), settlement)


PASSED = HandResult((), (0, 0), 3, None, (), (0, 0, 0, 0), passed_out=True)


def test_a_table_plays_twelve_rounds_and_the_dealer_moves_on() -> None:
    table = Table()
    dealers = []
    while not table.over:
        dealers.append(table.dealer)
        table.add(played((3, -1, -1, -1)))
    assert len(table.rows) == 12
    assert dealers == [0, 1, 2, 3] * 3
    assert [row.dealer for row in table.rows] == dealers
    assert [row.number for row in table.rows] == list(range(1, 13))
    with pytest.raises(TableOver):
        table.add(played((3, -1, -1, -1)))


def test_a_passed_out_deal_is_dealt_again_by_the_same_dealer_and_not_counted() -> None:
    table = Table(rounds=3)
    table.add(played((1, 1, -1, -1), (0, 1)))
    assert table.dealer == 1
    assert is_passed_out(PASSED)
    assert table.add(PASSED) is None
    assert table.add(PASSED) is None
    assert (table.dealer, table.round, len(table.rows), table.passed_out) == (1, 2, 1, 2)
    row = table.add(played((-3, 1, 1, 1), (0,)))
    assert row is not None and row.dealer == 1 and row.number == 2 and row.deals == 3
    assert (table.dealer, table.passed_out, table.deals) == (2, 0, 4)


def test_a_hand_without_declarer_that_is_not_passed_out_counts() -> None:
    # e.g. an each-for-self game: no declarer, but a real round with a settlement
    each = HandResult((), (0, 0), 1, None, (), (2, 0, -1, -1), note="ranking")
    table = Table()
    assert not is_passed_out(each)
    assert table.add(each) is not None
    assert table.dealer == 1


def test_the_sheet_keeps_running_totals_and_every_row_sums_to_zero() -> None:
    table = Table(rounds=4)
    amounts = [(1, 1, -1, -1), (-3, 1, 1, 1), (2, -2, 2, -2), (0, 4, -2, -2)]
    for a in amounts:
        table.add(played(a))
    running = [0, 0, 0, 0]
    for row, a in zip(table.rows, amounts, strict=True):
        assert sum(row.settlement) == 0 and row.settlement == a
        running = [t + x for t, x in zip(running, a, strict=True)]
        assert row.totals == tuple(running)
    assert table.totals == (0, 4, 0, -4)


def test_a_settlement_that_does_not_sum_to_zero_is_refused() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        Table().add(played((1, 1, 1, -1)))


def test_standings_without_ties_give_4_2_1_0() -> None:
    ranks = standings((31, -42, 5, 6))
    assert [(s.seat, s.place, s.main, s.sub) for s in ranks] == [
        (0, 1, 4, 31), (3, 2, 2, 6), (2, 3, 1, 5), (1, 4, 0, -42)]


def test_two_tied_for_first_share_4_and_2() -> None:
    # "Bei Punktgleichheit teilen sich die Plätze ihre Hauptpunkte": (4 + 2) / 2 = 3 each
    ranks = standings((5, 5, -4, -6))
    assert [(s.seat, s.place, s.main) for s in ranks] == [(0, 1, 3), (1, 1, 3), (2, 3, 1), (3, 4, 0)]


def test_ties_in_the_middle_and_at_the_bottom_share_their_places() -> None:
    assert [s.main for s in standings((9, 0, 0, -9))] == [4, Fraction(3, 2), Fraction(3, 2), 0]
    assert [s.main for s in standings((9, -3, -3, -3))] == [4, 1, 1, 1]
    three = standings((2, 2, 2, -6))
    assert [s.main for s in three] == [Fraction(7, 3)] * 3 + [0]
    assert [s.place for s in three] == [1, 1, 1, 4]
    assert [s.main for s in standings((0, 0, 0, 0))] == [Fraction(7, 4)] * 4
    assert sum(s.main for s in standings((1, 1, 0, -2))) == 7


def test_fractions_and_standings_print_nicely(english: None) -> None:
    from tarock.client.human import number_text, standings_lines

    assert [number_text(x) for x in (Fraction(3), Fraction(3, 2), Fraction(7, 3), Fraction(7, 4),
                                     Fraction(-1, 2), Fraction(2, 7))] == ["3", "1½", "2⅓", "1¾", "-½", "2/7"]
    lines = standings_lines(standings((9, 0, 0, -9)), ["Ann", "Bo", "Cy", "Di"])
    assert lines == [" 1. Ann  MP 4    TP +9", " 2. Bo   MP 1½   TP 0", " 2. Cy   MP 1½   TP 0",
                     " 4. Di   MP 0    TP -9"]


def test_the_printed_sheet_has_one_line_per_round(english: None) -> None:
    from tarock.client.human import sheet_lines

    table = Table(rounds=2)
    table.add(played((1, 1, -1, -1), (0, 1)), "rufspiel XX")
    table.add(PASSED)
    table.add(played((-3, 1, 1, 1), (0,)), "rufspiel XIX x2")
    lines = sheet_lines(table, ["You", "Franz", "Hilde", "Sepp"])
    assert len(lines) == 3
    assert "You+Franz" in lines[1] and "rufspiel XX" in lines[1] and "+1 (+1)" in lines[1]
    assert lines[2].split()[1] == "Franz"  # round 2 dealt by seat 1 after the void deal
    assert "-3 (-2)" in lines[2] and "+1 (0)" in lines[2]


class Scripted:
    """Passes in the deals listed in ``void`` (counted from 0), else takes the first legal action."""

    def __init__(self, name: str, table: list[Table], void: set[int]) -> None:
        self.name = name
        self.table = table
        self.void = void

    async def decide(self, obs: Observation) -> Action:
        if obs.phase == "bidding" and self.table[0].deals in self.void:
            return Pass(obs.seat)
        return obs.legal[-1] if obs.phase == "bidding" else obs.legal[0]


async def test_a_session_redeals_passed_out_deals_with_the_same_dealer(tmp_path: Path) -> None:
    holder: list[Table] = []
    players = [Scripted(f"p{s}", holder, {1, 2, 5}) for s in range(4)]
    session = Session("tarock54", players, seed=7, rounds=4, records_dir=tmp_path)
    holder.append(session.table)
    outcomes = []
    while not session.table.over:
        outcomes.append(await session.play_hand())
    assert [o.row is None for o in outcomes] == [False, True, True, False, False, True, False]
    assert [o.hand.state.dealer for o in outcomes] == [0, 1, 1, 1, 2, 3, 3]
    assert [(o.round, o.deal) for o in outcomes] == [(1, 1), (2, 1), (2, 2), (2, 3), (3, 1), (4, 1), (4, 2)]
    assert [p.name for p in session.records] == [
        f"table-{session.stamp}-r{r:02d}-h{d:02d}.json" for r, d in
        [(1, 1), (2, 1), (2, 2), (2, 3), (3, 1), (4, 1), (4, 2)]]
    table = session.table
    assert [row.deals for row in table.rows] == [1, 3, 1, 2]
    assert sum(table.totals) == 0
    assert table.totals == tuple(sum(o.result.settlement[s] for o in outcomes) for s in range(4))


async def test_a_session_of_random_players_plays_twelve_rounds() -> None:
    table = await Session("tarock54", random_players(4, seed=100), seed=7).run()
    assert len(table.rows) == 12 and table.over
    assert [row.dealer for row in table.rows] == [0, 1, 2, 3] * 3
    assert all(sum(row.settlement) == 0 for row in table.rows)
