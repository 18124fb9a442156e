"""Raised rounds after a Fahrer and tables of five where the dealer sits out."""

from __future__ import annotations

import pytest
from engine_players import random_players

from tarock.client.session import Session
from tarock.core.deal import active_seats
from tarock.core.registry import find_variant
from tarock.core.rules import RuleError
from tarock.core.state import HandResult
from tarock.core.table import Table


def _result(settlement: tuple[int, ...], factor: int = 1) -> HandResult:
    return HandResult((0,), (0, 0), 3, True, (), settlement, next_round_factor=factor)


def test_the_round_after_a_fahrer_counts_double() -> None:
    """docs/rules.md §17.7, Fahrer: "Die nächste Spielrunde (4 bzw. 5 Spiele) zählt doppelt,
    d.h. die Spielwerte werden verdoppelt." """
    table = Table(seats=4, rounds=8)
    table.add(_result((3, -1, -1, -1), factor=2))          # the Fahrer itself counts once
    rows = [table.add(_result((3, -1, -1, -1))) for _ in range(5)]
    assert [r.factor for r in rows if r] == [2, 2, 2, 2, 1]
    assert rows[0] is not None and rows[0].settlement == (6, -2, -2, -2)
    assert table.totals == (3 + 4 * 6 + 3, -1 - 8 - 1, -1 - 8 - 1, -1 - 8 - 1)


def test_a_second_fahrer_in_the_doubled_round_starts_it_anew_without_quadrupling() -> None:
    table = Table(seats=4, rounds=12)
    table.add(_result((3, -1, -1, -1), factor=2))
    table.add(_result((3, -1, -1, -1)))
    table.add(_result((3, -1, -1, -1), factor=2))          # doubled itself, and raises again
    rows = [table.add(_result((3, -1, -1, -1))) for _ in range(5)]
    assert [r.factor for r in rows if r] == [2, 2, 2, 2, 1]


def test_five_at_a_table_the_dealer_sits_out() -> None:
    """docs/rules.md §3.5: with five at the table the dealer sits out each round."""
    assert active_seats(4, 2, 4) == ()
    assert active_seats(5, 2, 4) == (0, 1, 3, 4)
    with pytest.raises(ValueError, match="6 seats"):
        active_seats(6, 0, 4)


async def test_a_five_seat_session_deals_around_the_dealer() -> None:
    session = Session("koenigrufen-course", random_players(5), seed=5, rounds=5)
    dealers = []
    while not session.table.over:
        outcome = await session.play_hand()
        state = outcome.hand.state
        dealers.append(state.dealer)
        assert state.active == tuple(s for s in range(5) if s != state.dealer)
        assert outcome.hand.deal[0][state.dealer] == []
        assert outcome.result.settlement[state.dealer] == 0
        assert sum(outcome.result.settlement) == 0
    assert sorted(set(dealers)) == [0, 1, 2, 3, 4]


def test_a_table_of_six_is_refused_before_it_starts() -> None:
    with pytest.raises(RuleError, match="6 seats"):
        Session("koenigrufen-course", random_players(6), seed=1)


def test_every_variant_knows_its_players_per_hand() -> None:
    for name in ("tarock54", "tarock40", "koenigrufen-club"):
        assert find_variant(name).rules().players_per_hand == 4
