"""Speed of the engine: random hands per second and the cost of a legal-move query.

A random hand is a full deal played to its end with uniformly random legal
choices (``Hand.legal``).  Two baselines are measured in the same run, so
the figures can be compared across machines: the shuffle and deal alone,
and a bare Python loop playing random hands through the same phases with no
engine and no hooks (:mod:`tools.barehand`, which says what it leaves out).
The engine and the bare loop are timed in CPU seconds, in alternating
rounds, so a loaded machine slows both alike.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from tarock.client import command
from tarock.client.command import out
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.registry import Variant, find_variant
from tarock.core.rules import Rules
from tarock.core.state import HandState
from tarock.tools import barehand


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
    engine_cpu: float
    """CPU seconds of the engine's random hands."""
    bare_cpu: float
    """CPU seconds of as many hands of the bare loop."""
    bare_actions: int

    @property
    def bare_ratio(self) -> float:
        """How many times the bare loop's CPU time the engine takes per hand."""
        return self.engine_cpu / self.bare_cpu

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
            f"bare Python loop, same phases: {self.hands / self.bare_cpu:,.0f} hands per CPU second"
            f" ({self.bare_actions / self.hands:.1f} actions per hand)",
            f"engine: {self.hands / self.engine_cpu:,.0f} hands per CPU second",
            f"ratio to the bare loop (CPU time per hand): {self.bare_ratio:.1f}x",
        ]


def _query(rules: Rules, state: HandState, seat: int) -> int:
    """One legal-move query straight from the phase handler (no engine cache)."""
    return len(rules.phase(state.phase).legal(state, rules, seat))


ROUNDS = 10
"""The engine and the bare loop take turns, this many rounds each."""


def run(variant: str | Variant, hands: int = 2000, seed: int = 0) -> BenchResult:
    """Play ``hands`` random hands through the engine and through the bare loop,
    then time the deal alone and legal queries."""
    found = find_variant(variant) if isinstance(variant, str) else variant
    variant = found.name
    rules = found.rules()
    rng = random.Random(seed)

    # Positions to query: every state of a few random hands, each asked fresh;
    # these hands also show which phases the variant has, for the bare loop.
    queries = 0
    elapsed = 0.0
    phases: set[str] = set()
    for i in range(max(1, hands // 20)):
        cards, talon = deal(rules, rng)
        hand = Hand(rules, i % 4, cards, talon)
        while not hand.done:
            phases.add(hand.state.phase)
            seat = hand.state.to_move
            assert seat is not None
            t0 = time.perf_counter()
            _query(rules, hand.state, seat)
            elapsed += time.perf_counter() - t0
            queries += 1
            hand.apply(rng.choice(hand.legal(seat)))
    plan = barehand.plan(rules, frozenset(phases))

    actions = bare_actions = 0
    engine_cpu = bare_cpu = wall = 0.0
    bare_rng = random.Random(seed + 1)
    done = 0
    for r in range(ROUNDS):
        chunk = hands * (r + 1) // ROUNDS - hands * r // ROUNDS
        start, cpu = time.perf_counter(), time.process_time()
        for i in range(done, done + chunk):
            cards, talon = deal(rules, rng)
            hand = Hand(rules, i % 4, cards, talon)
            while not hand.done:
                seat = hand.state.to_move
                assert seat is not None
                hand.apply(rng.choice(hand.legal(seat)))
                actions += 1
        engine_cpu += time.process_time() - cpu
        wall += time.perf_counter() - start
        cpu = time.process_time()
        for i in range(done, done + chunk):
            bare_actions += barehand.play(plan, bare_rng, i % 4)[1]
        bare_cpu += time.process_time() - cpu
        done += chunk
    hands_rate = hands / wall

    start = time.perf_counter()
    for _ in range(hands):
        deal(rules, rng)
    deals_rate = hands / (time.perf_counter() - start)
    return BenchResult(variant, hands, actions, hands_rate, deals_rate, queries, elapsed / queries * 1e6,
                       engine_cpu, bare_cpu, bare_actions)


def summary(results: list[BenchResult]) -> list[str]:
    """One line per variant: CPU time per hand of the engine and the bare loop, and their ratio."""
    out = ["variant | engine ms/hand (CPU) | bare loop ms/hand (CPU) | ratio"]
    for r in results:
        out.append(f"{r.variant} | {r.engine_cpu / r.hands * 1e3:.3f} | {r.bare_cpu / r.hands * 1e3:.3f}"
                   f" | {r.bare_ratio:.1f}x")
    return out


# -- the command -------------------------------------------------------------------------
def cmd_bench(args: argparse.Namespace) -> int:
    catalogue = command.catalogue(args)
    if not args.all:
        for line in run(command.variant(args, catalogue), args.hands, args.seed).lines():
            out(line)
        return 0
    results = []
    for name in catalogue.enabled:
        result = run(catalogue.find(name), args.hands, args.seed)
        results.append(result)
        for line in result.lines():
            out(line)
        out("")
    for line in summary(results):
        out(line)
    return 0


def main(args: argparse.Namespace) -> int:
    """``tarock bench`` (without ``--net``) as :mod:`client.cli` parsed it."""
    return command.guarded(cmd_bench, args)
