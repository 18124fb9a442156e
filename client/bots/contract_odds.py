"""A contract judged from its data alone: how likely a hand makes it, and what it promises.

The rule of thumb's bidding knows the games its thresholds were fitted on;
a contract a house rule adds is known to it only by its
:class:`~core.contracts.ContractSpec`.  This module reads that spec, never
its name:

- a goal of no or some exact number of tricks (a Bettel, a Piccolo) is
  rated by the negative-game fits of :mod:`client.bots.koenig_eval` over
  the hand's high and low cards: a hand with high cards cannot lose every
  trick;
- a goal of card points by the fit of the game's shape (partnership,
  trump kind, with or without talon), over the tarock or, where the tarocks
  beat no suit card, the colour rating of the hand; a goal of no points at
  all is made whatever the hand;
- each-for-himself games (a ranking) promise nothing either way.

:func:`promise` turns the chance into the declarer's expected result per
hand in the table's unit (won from, or paid to, each opponent; the lost
value where the contract has one), and :func:`sane` is the sanity check
every level keeps: a contract the hand makes less than half the time is
not bid (the search levels may still find a bid worth its risk, but only
among the contracts this check does not rule out badly, :data:`PRIOR_FLOOR`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tarock.client.bots import koenig_eval as ev
from tarock.core.cards import Card
from tarock.core.contracts import ContractSpec

SANE = 0.5
"""The chance at least which a hand must have to make a contract the rule of thumb bids."""
SANE_OUVERT = 0.65
"""The same for a contract played with the hand laid open: the defence then plays
against the open cards, which the fits over the hand alone do not see (in
``koenigrufen-ooe`` self-play the Piccolo ouvert bid at a chance over one half won
3 of 10 games, docs/bots.md)."""
PRIOR_FLOOR = 0.25
"""The chance below which the search levels do not even try a contract (ruled out badly)."""
NEUTRAL = 0.5
"""The chance of a game whose outcome the hand alone does not show (each for himself)."""


def _fit(spec: ContractSpec) -> tuple[float, float]:
    """The (half-won rating, spread) of a points game, by its shape only."""
    partnership, trump, talon = ev.shape(spec)
    shapes = ev.POSITIVE_SHAPES
    for key in ((partnership, trump, talon), (partnership, trump, "none" if talon == "none" else "half")):
        found = shapes.get(key)
        if found is not None:
            return found
    return ev.DEFAULT_POSITIVE


def chance(spec: ContractSpec, hand: Sequence[Card]) -> float:
    """The chance that ``hand``'s declarer makes ``spec`` (module docstring)."""
    goal = spec.goal
    if goal.kind == "tricks":
        return ev.chance(spec, hand)
    if goal.kind != "points" or spec.partnership == "each":
        return NEUTRAL
    if goal.points <= 0:
        return ev.MAX_CHANCE  # nothing to make: every hand makes it
    mid, spread = _fit(spec)
    rating = ev.colour_score(hand) if ev.colour_game(spec) else ev.tarock_score(hand)
    z = max(-30.0, min(30.0, (rating - mid) / spread))
    return min(ev.MAX_CHANCE, 1.0 / (1.0 + math.exp(-z)))


def opponents(spec: ContractSpec, seats: int) -> int:
    """How many seats the declarer wins from or pays to (one where he calls a partner)."""
    return 1 if spec.partnership == "called" else max(1, seats - 1)


def promise(spec: ContractSpec, hand: Sequence[Card], seats: int) -> float:
    """The declarer's expected result of ``spec`` with ``hand``, per hand in the table's unit."""
    p = chance(spec, hand)
    return opponents(spec, seats) * (p * spec.value - (1 - p) * (spec.lost or spec.value))


def sane(spec: ContractSpec, hand: Sequence[Card], floor: float | None = None) -> bool:
    """Whether ``hand`` makes ``spec`` at least ``floor`` of the time (the sanity check;
    by default :data:`SANE`, :data:`SANE_OUVERT` for a hand laid open)."""
    if floor is None:
        floor = SANE_OUVERT if spec.ouvert else SANE
    return chance(spec, hand) >= floor
