"""Duplicate matches between bot kinds: ``tarock arena``.

A *board* is one deal (cards and dealer), played twice: once with bot A
in seats 0 and 2 and bot B in seats 1 and 3, once the other way round.
So over a board each kind sits in every seat with every hand once, and
the luck of the cards cancels: two identical bots score exactly 0 on every
board.  The search bots draw their worlds from generators seeded by the
match seed and the observation (:func:`client.bots.levels.decision_seed`),
so the same situation in both seatings gets the same decision and only
the difference between the bots remains.

A board's score is A's mean amount per seat and hand minus B's, in the
table's unit (settlements are zero-sum, so this is A's total over the board
divided by two).  The match reports the mean over boards with a 95 %
confidence interval from a bootstrap over boards (percentile method,
:data:`BOOTSTRAP` resamples, seeded; ``--json`` also lists each board's
score, so two versions of the code can be compared board by board on the
same deals), and the median and 95th percentile of each kind's time per
decision (decisions with more than one legal action; forced ones take no
thought), and per kind and contract the games its seats declared and how
many of them the declarers won.

Each board stands alone: a fresh table context with the board's dealer
(the dealer moves on one seat per board), no carried Kontra or doubled
round.  Deals come from ``random.Random(f"{seed}/{board}")`` with the
variant's redeal rules.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock.client import command
from tarock.client.bots import BOT_KINDS, make_bot
from tarock.client.bots.rulebook import register
from tarock.core.context import TableContext
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.players import Policy
from tarock.core.plugins import load_plugins
from tarock.core.registry import Variant
from tarock.core.rules import Rules

BOOTSTRAP = 4000
"""Bootstrap resamples for the confidence interval."""
SEATINGS: tuple[tuple[int, int, int, int], ...] = ((0, 1, 0, 1), (1, 0, 1, 0))
"""Per seating, which of the two kinds sits in seats 0..3."""


@dataclass(slots=True)
class Timing:
    """Seconds per decision of one bot kind."""

    times: list[float] = field(default_factory=list)

    def add(self, seconds: float) -> None:
        self.times.append(seconds)

    def summary(self) -> dict[str, float | int]:
        if not self.times:
            return {"decisions": 0, "median_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
        ordered = sorted(self.times)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        return {"decisions": len(ordered), "median_ms": round(statistics.median(ordered) * 1000, 2),
                "p95_ms": round(p95 * 1000, 2), "max_ms": round(ordered[-1] * 1000, 2)}


class _Timed:
    """A player whose decisions with a choice are timed."""

    def __init__(self, player: Policy, timing: Timing) -> None:
        self.player = player
        self.name = player.name
        self.timing = timing

    def decide(self, obs: Any) -> Any:
        start = time.perf_counter()
        action = self.player.decide(obs)
        if len(obs.legal) > 1:
            self.timing.add(time.perf_counter() - start)
        return action


@dataclass(slots=True)
class Contracts:
    """Per bot kind and contract: games declared, won and lost by the declarers
    (a game the declarer's party won or lost; draws and each-for-himself games
    count as declared only)."""

    declared: Counter[tuple[str, str]] = field(default_factory=Counter)
    won: Counter[tuple[str, str]] = field(default_factory=Counter)
    lost: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, kind: str, contract: str, won: bool | None) -> None:
        key = (kind, contract)
        self.declared[key] += 1
        if won is True:
            self.won[key] += 1
        elif won is False:
            self.lost[key] += 1

    def to_json(self) -> list[dict[str, Any]]:
        return [{"bot": kind, "contract": name, "declared": n, "won": self.won[(kind, name)],
                 "lost": self.lost[(kind, name)]} for (kind, name), n in sorted(self.declared.items())]

    def lines(self) -> list[str]:
        out = []
        for (kind, name), n in sorted(self.declared.items()):
            won, lost = self.won[(kind, name)], self.lost[(kind, name)]
            share = f"{100 * won / (won + lost):.0f}%" if won + lost else "-"
            out.append(f"  {kind} declared {name}: {n}, won {won}, lost {lost} ({share})")
        return out


def play_deal(rules: Rules, dealer: int, hands: Sequence[Sequence[int]], talon: Sequence[Sequence[int]],
              players: Sequence[Policy], kinds: Sequence[str] = (), contracts: Contracts | None = None,
              ) -> tuple[int, ...]:
    """Play one hand of a deal with ``players`` (seat = index); the settlement.
    With ``contracts`` the game is counted for the declarer's kind (``kinds``: per seat)."""
    hand = Hand(rules, dealer, hands, talon, len(players), (), TableContext(dealer=dealer))
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(players[seat].decide(observe(hand, seat)))
    state = hand.state
    result = state.result
    assert result is not None
    if contracts is not None and state.contract is not None and state.declarer is not None \
            and not result.passed_out:
        contracts.add(kinds[state.declarer], state.contract.name, result.won)
    return result.settlement


@dataclass(frozen=True, slots=True)
class Board:
    """The outcome of one board for a pairing."""

    index: int
    score: float
    """A's mean amount per seat and hand minus B's."""
    totals: tuple[int, int]
    """A's and B's summed amounts over both seatings."""


def play_board(rules: Rules, kinds: tuple[str, str], seed: int, index: int,
               timings: tuple[Timing, Timing], contracts: Contracts | None = None) -> Board:
    """Play board ``index`` of a match in both seatings (games counted in ``contracts``)."""
    seats = rules.players_per_hand
    hands, talon = deal(rules, random.Random(f"{seed}/{index}"), seats)
    dealer = index % seats
    totals = [0, 0]
    for seating in SEATINGS:
        players: list[Policy] = [
            _Timed(make_bot(kinds[k], seed, f"{kinds[k]}-{s}"), timings[k]) for s, k in enumerate(seating)]
        settlement = play_deal(rules, dealer, hands, talon, players, [kinds[k] for k in seating], contracts)
        for s, k in enumerate(seating):
            totals[k] += settlement[s]
    per = 2 * len(SEATINGS)  # seat-hands per kind and board
    return Board(index, (totals[0] - totals[1]) / per, (totals[0], totals[1]))


def bootstrap_ci(scores: Sequence[float], seed: int, resamples: int = BOOTSTRAP) -> tuple[float, float]:
    """The 95 % percentile-bootstrap interval of the mean of ``scores``."""
    if not scores:
        return (0.0, 0.0)
    rng = random.Random(f"bootstrap/{seed}")
    n = len(scores)
    means = sorted(sum(rng.choices(scores, k=n)) / n for _ in range(resamples))
    return (means[int(0.025 * resamples)], means[min(resamples - 1, int(0.975 * resamples))])


@dataclass(frozen=True, slots=True)
class Pairing:
    """A finished match of two kinds."""

    variant: str
    kinds: tuple[str, str]
    seed: int
    boards: tuple[Board, ...]
    timings: tuple[Timing, Timing]
    unit: str
    seconds: float
    contracts: Contracts = field(default_factory=Contracts)

    @property
    def mean(self) -> float:
        return statistics.fmean(b.score for b in self.boards) if self.boards else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return bootstrap_ci([b.score for b in self.boards], self.seed)

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci95
        return {
            "variant": self.variant, "bots": list(self.kinds), "boards": len(self.boards), "seed": self.seed,
            "first": self.boards[0].index if self.boards else 0,
            "mean": round(self.mean, 4), "ci95": [round(lo, 4), round(hi, 4)], "unit": self.unit,
            "time": {kind: timing.summary() for kind, timing in zip(self.kinds, self.timings, strict=True)},
            "seconds": round(self.seconds, 1), "contracts": self.contracts.to_json(),
            "scores": [round(b.score, 4) for b in self.boards],
        }

    def lines(self) -> list[str]:
        lo, hi = self.ci95
        a, b = self.kinds
        verdict = (f"{a} stronger" if lo > 0 else f"{b} stronger" if hi < 0 else "no difference shown")
        first = f" from board {self.boards[0].index}" if self.boards and self.boards[0].index else ""
        out = [f"{self.variant}: {a} vs {b}, {len(self.boards)} boards{first} (seed {self.seed}, "
               f"{self.seconds:.0f} s)",
               f"  mean difference per board ({a} - {b}, per seat and hand, {self.unit}): "
               f"{self.mean:+.3f}, 95% CI [{lo:+.3f}, {hi:+.3f}]: {verdict}"]
        for kind, timing in zip(self.kinds, self.timings, strict=True):
            t = timing.summary()
            out.append(f"  {kind}: {t['decisions']} decisions, median {t['median_ms']:.1f} ms, "
                       f"p95 {t['p95_ms']:.1f} ms, max {t['max_ms']:.1f} ms")
        return out + self.contracts.lines()


def run_pairing(variant: Variant, kinds: tuple[str, str], boards: int, seed: int,
                progress: Callable[[Board], None] | None = None, first: int = 0) -> Pairing:
    """Play ``boards`` boards of ``kinds[0]`` against ``kinds[1]``, numbered from ``first``
    (a long match can be played in parts, one process each: the boards are independent)."""
    rules = variant.rules()
    register(rules)
    timings = (Timing(), Timing())
    start = time.perf_counter()
    played: list[Board] = []
    contracts = Contracts()
    for index in range(first, first + boards):
        board = play_board(rules, kinds, seed, index, timings, contracts)
        played.append(board)
        if progress is not None:
            progress(board)
    unit = rules.variant_facts.money or "points"
    return Pairing(variant.name, kinds, seed, tuple(played), timings, unit, time.perf_counter() - start,
                   contracts)


def pairings(kinds: Sequence[str]) -> list[tuple[str, str]]:
    """The pairings of a ``--bots`` list: each kind against the next."""
    return [(kinds[i], kinds[i + 1]) for i in range(len(kinds) - 1)]


def dumps(pairing: Pairing) -> str:
    return json.dumps(pairing.to_json(), ensure_ascii=False)


# -- the command ------------------------------------------------------------------

class ArenaError(ValueError):
    """A command line ``tarock arena`` cannot carry out."""


def cmd_arena(args: argparse.Namespace) -> int:
    """Run the pairings of ``--bots`` on ``--variant``; print each result."""
    try:
        kinds = [k.strip() for k in str(args.bots).split(",") if k.strip()]
        if len(kinds) < 2:
            raise ArenaError(f"--bots wants at least two kinds separated by commas, got {args.bots!r}")
        unknown = sorted(set(kinds) - set(BOT_KINDS))
        if unknown:
            raise ArenaError(f"unknown bot kind(s) {', '.join(unknown)} (known: {', '.join(BOT_KINDS)})")
        if args.boards < 1:
            raise ArenaError(f"--boards must be at least 1, not {args.boards}")
        if args.first < 0:
            raise ArenaError(f"--first must be at least 0, not {args.first}")
        variant = load_plugins(args.plugins).find(args.variant)
        if variant.rules().players_per_hand != len(SEATINGS[0]):
            raise ArenaError(f"{variant.name} is not played by {len(SEATINGS[0])} at a hand")
    except ArenaError as exc:
        print(f"tarock arena: {exc}", file=sys.stderr, flush=True)
        return 2

    for a, b in pairings(kinds):
        def progress(board: Board, a: str = a, b: str = b) -> None:
            done = board.index + 1 - args.first
            if args.progress and done % 10 == 0:
                print(f"{args.variant} {a}-{b}: {done} boards", file=sys.stderr, flush=True)
        result = run_pairing(variant, (a, b), args.boards, args.seed, progress, args.first)
        if args.json:
            print(dumps(result), flush=True)
        else:
            for line in result.lines():
                print(line, flush=True)
    return 0


def main(args: argparse.Namespace) -> int:
    """``tarock arena`` as :mod:`client.cli` parsed it."""
    return command.guarded(cmd_arena, args)
