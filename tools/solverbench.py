"""Speed of the end-game solver: ``python -m tarock.tools.solverbench``.

Positions come from hands the ``heuristic`` bots play (deals seeded by
``--seed`` and the position's number, the variant's redeal rules), taken at
the start of the trick with ``--left`` tricks left.  Each position is solved
exactly (:class:`client.bots.solver.Solver`, no node limit) for the seat to
move, twice: on the compiled trick engine where the table allows it
(:mod:`core.trickbits`) and on the engine's own hooks
(``Solver(..., engine=True)``).  Printed per variant: the nodes, CPU seconds
and nodes per second of each, their ratio, and whether every value agreed.
Work is counted in nodes, so the node counts are the same on every machine;
the seconds are this machine's.

``--early N`` times instead N card decisions in tricks 2 to 5 of such hands
searched as ``hard`` would search them from the first trick: its budget
(32 deals, 160,000 solver nodes per decision) with every deal played out
and handed to the solver at four tricks left (:data:`EARLY`); it prints the
median, 95th percentile and slowest CPU seconds per decision.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from tarock.client.bots import make_bot
from tarock.client.bots.cardsearch import search_card
from tarock.client.bots.levels import HARD
from tarock.client.bots.playout import aims_of
from tarock.client.bots.rulebook import register
from tarock.client.bots.simulate import Sim
from tarock.client.bots.solver import Solver
from tarock.core.actions import Play
from tarock.core.context import TableContext
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.players import Policy
from tarock.core.plugins import load_plugins
from tarock.core.rules import Rules
from tarock.core.state import HandState

DEFAULT_VARIANTS = ("tarock54", "tarock40", "koenigrufen-club")
EARLY = HARD.cards
"""``hard``'s card budget, which searches from the first trick (:mod:`client.bots.levels`)."""


def early_times(rules: Rules, count: int, seed: int) -> list[float]:
    """CPU seconds of ``count`` card decisions in tricks 2-5 searched with :data:`EARLY`."""
    table = register(rules)
    seats = rules.players_per_hand
    times: list[float] = []
    for index in range(count):
        hands, talon = deal(rules, random.Random(f"{seed}/early/{index}"), seats)
        hand = Hand(rules, 0, hands, talon, seats, (), TableContext(dealer=0))
        bots = [make_bot("heuristic", seed + s) for s in range(seats)]
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            obs = observe(hand, seat)
            action = bots[seat].decide(obs)
            if hand.state.phase == "play" and len(hand.state.tricks) == 1 + index % 4 and len(obs.legal) > 1:
                assert isinstance(action, Play)
                start = time.process_time()
                search_card(obs, table, random.Random(index), EARLY, action.card)
                times.append(time.process_time() - start)
                break
            hand.apply(action)
    return sorted(times)


def positions(rules: Rules, count: int, left: int, seed: int) -> list[HandState]:
    """Up to ``count`` play positions with ``left`` tricks left, each at a trick's start."""
    out: list[HandState] = []
    seats = rules.players_per_hand
    index = 0
    while len(out) < count and index < 4 * count:
        hands, talon = deal(rules, random.Random(f"{seed}/{index}"), seats)
        dealer = index % seats
        index += 1
        hand = Hand(rules, dealer, hands, talon, seats, (), TableContext(dealer=dealer))
        if play_to_endgame(hand, [make_bot("heuristic", seed + s) for s in range(seats)], left):
            out.append(hand.state)
    return out


def play_to_endgame(hand: Hand, players: Sequence[Policy], left: int) -> bool:
    """Play ``hand`` with ``players`` up to the start of the trick with ``left`` tricks left;
    False when the hand ends before (a game without trick play, or fewer tricks)."""
    while not hand.done:
        state = hand.state
        if (state.phase == "play" and max(len(h) for h in state.hands) == left
                and (state.trick is None or not state.trick.cards)):
            return True
        seat = state.to_move
        assert seat is not None
        hand.apply(players[seat].decide(observe(hand, seat)))
    return False


@dataclass(slots=True)
class Run:
    """One way of solving every position."""

    nodes: int = 0
    seconds: float = 0.0
    engine_leaves: int = 0
    """Finished hands the engine scored (the others took an outcome's amount)."""
    failures: int = 0
    """Worlds where a reused amount differed from the engine's (the memo was dropped)."""

    @property
    def rate(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def solve_all(rules: Rules, states: Sequence[HandState], engine: bool) -> tuple[Run, list[float | None]]:
    """Solve every position, timed in CPU seconds; the run and the values."""
    table = register(rules)
    values = rules.facts.facts.card_values
    run = Run()
    found: list[float | None] = []
    for state in states:
        sim = Sim(table, state)
        seat = state.to_move
        assert seat is not None
        start = time.process_time()
        solver = Solver(sim, aims_of(state), seat, values, 10**12, engine=engine)
        found.append(solver.value())
        run.seconds += time.process_time() - start
        run.nodes += solver.nodes
        run.failures += solver.leaves.failures
        run.engine_leaves += solver.leaves.scored
    return run, found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tarock.tools.solverbench",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--variant", action="append", help="variant (repeatable; default: %(default)s)")
    parser.add_argument("--positions", type=int, default=12, help="positions per variant")
    parser.add_argument("--left", type=int, default=5, help="tricks left at each position")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--compiled-only", action="store_true", help="skip the engine-based runs")
    parser.add_argument("--early", type=int, default=0, metavar="N",
                        help="time N decisions searched from the first tricks instead")
    args = parser.parse_args(argv)
    catalogue = load_plugins(None)
    for name in args.variant or DEFAULT_VARIANTS:
        rules = catalogue.variants[name].rules()
        if args.early:
            times = early_times(rules, args.early, args.seed)
            if times:
                p95, median = times[int(0.95 * (len(times) - 1))], statistics.median(times)
                print(f"{name}: {len(times)} decisions in tricks 2-5, median {median:.3f} s, "
                      f"p95 {p95:.3f} s, slowest {times[-1]:.3f} s", flush=True)
            continue
        states = positions(rules, args.positions, args.left, args.seed)
        fast, fast_values = solve_all(rules, states, engine=False)
        line = (f"{name}: {len(states)} positions, {args.left} tricks left; compiled {fast.nodes} nodes "
                f"{fast.seconds:.2f} s {fast.rate:,.0f} nodes/s, {fast.engine_leaves} leaves scored by the "
                f"engine, {fast.failures} memo failures")
        if not args.compiled_only:
            slow, slow_values = solve_all(rules, states, engine=True)
            agree = "agree" if slow_values == fast_values else "DIFFER"
            ratio = fast.rate / slow.rate if slow.rate else 0.0
            line += (f"; engine {slow.nodes} nodes {slow.seconds:.2f} s {slow.rate:,.0f} nodes/s; "
                     f"ratio {ratio:.1f}; time {slow.seconds / max(fast.seconds, 1e-9):.1f}x; values {agree}")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
