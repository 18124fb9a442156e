"""Dealing: the chance step of a hand, explicit so tests can rig it."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tarock.core.cards import Card
from tarock.core.rules import Rules

MAX_REDEALS = 1000


def active_seats(seats: int, dealer: int, players: int) -> tuple[int, ...]:
    """The seats that play a hand: all of them, or all but the dealer when one
    seat more than the game's players sits at the table (docs/rules.md §3.5: with
    five at the table the dealer sits out).  ``()`` means every seat."""
    if seats == players:
        return ()
    if seats == players + 1:
        return tuple(s for s in range(seats) if s != dealer)
    raise ValueError(f"a table of {seats} seats cannot play a game of {players} players")


def split(rules: Rules, order: Sequence[Card], seats: int = 4,
          active: tuple[int, ...] = ()) -> tuple[list[list[Card]], list[list[Card]]]:
    """Lay a shuffled deck out: hands to the seats taking part, then the talon."""
    playing = active or tuple(range(seats))
    size = rules.hand_size
    hands: list[list[Card]] = [[] for _ in range(seats)]
    pos = 0
    for seat in playing:
        hands[seat] = list(order[pos:pos + size])
        pos += size
    talon: list[list[Card]] = []
    for pile in rules.talon_piles:
        talon.append(list(order[pos:pos + pile]))
        pos += pile
    return hands, talon


def deal(rules: Rules, rng: random.Random, seats: int = 4,
         active: tuple[int, ...] = ()) -> tuple[list[list[Card]], list[list[Card]]]:
    """Shuffle and lay out until the variant accepts the deal (redeal rules)."""
    for _ in range(MAX_REDEALS):
        order = list(rules.deck)
        rng.shuffle(order)
        hands, talon = split(rules, order, seats, active)
        if rules.redeal_reason(hands) is None:
            return hands, talon
    raise RuntimeError(f"{rules.variant}: no acceptable deal in {MAX_REDEALS} shuffles")
