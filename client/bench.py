"""Speed of the engine: random hands per second and the cost of a legal-move query.

A random hand is a full deal played to its end with uniformly random legal
choices (``Hand.legal``).  The baseline, measured in the same run, is the
shuffle and deal alone, so the figures can be compared across machines.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from core.deal import deal
from core.engine import Hand
from core.registry import Variant, find_variant
from core.rules import Rules
from core.state import HandState


@dataclass(frozen=True, slots=True)
class BenchResult:
    """The figures of one run."""

    variant: str
    hands: int
    actions: int
    hands_per_second: float
    deals_per_second: float
    legal_queries: int
    legal_microseconds: float

    @property
    def ratio(self) -> float:
        """How many deals cost as much as one complete random hand."""
        return self.deals_per_second / self.hands_per_second

    def lines(self) -> list[str]:
        return [
            f"variant {self.variant}: {self.hands} random hands, {self.actions} actions",
            f"complete random hands: {self.hands_per_second:,.0f} per second"
            f" ({self.actions / self.hands:.1f} actions per hand)",
            f"legal-move query (uncached): {self.legal_microseconds:.1f} us"
            f" (mean of {self.legal_queries})",
            f"baseline shuffle+deal: {self.deals_per_second:,.0f} per second",
            f"ratio: one random hand costs {self.ratio:.1f} deals",
        ]


def _query(rules: Rules, state: HandState, seat: int) -> int:
    """One legal-move query straight from the phase handler (no engine cache)."""
    return len(rules.phase(state.phase).legal(state, rules, seat))


def run(variant: str | Variant, hands: int = 2000, seed: int = 0) -> BenchResult:
    """Play ``hands`` random hands, then time the deal alone and legal queries."""
    found = find_variant(variant) if isinstance(variant, str) else variant
    variant = found.name
    rules = found.rules()
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for i in range(hands):
        cards, talon = deal(rules, rng)
        hand = Hand(rules, i % 4, cards, talon)
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            hand.apply(rng.choice(hand.legal(seat)))
            actions += 1
    hands_rate = hands / (time.perf_counter() - start)

    start = time.perf_counter()
    for _ in range(hands):
        deal(rules, rng)
    deals_rate = hands / (time.perf_counter() - start)

    # Positions to query: every state of a few random hands, each asked fresh.
    queries = 0
    elapsed = 0.0
    for i in range(max(1, hands // 20)):
        cards, talon = deal(rules, rng)
        hand = Hand(rules, i % 4, cards, talon)
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            t0 = time.perf_counter()
            _query(rules, hand.state, seat)
            elapsed += time.perf_counter() - t0
            queries += 1
            hand.apply(rng.choice(hand.legal(seat)))
    return BenchResult(variant, hands, actions, hands_rate, deals_rate, queries, elapsed / queries * 1e6)
