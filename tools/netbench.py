"""``tarock bench --net``: a table of four bot processes on loopback beside the
same table played in one process (``tarock selfplay``), in the same run.

Prints: seconds from starting the four processes to the first card; the wall
time of the network table and of selfplay, and their ratio; messages and bytes
per hand; the round trip of an action (median and p95).  The processes find
each other through mDNS on the loopback interface (``--to`` is not used), so
the first figure includes discovery, host agreement and the first deal.

Then the cost of dealing, for 54 cards (tarock54) and 40 (tarock40): the same
table of four bot processes with mental-poker dealing and with commit-reveal
(the baseline, in the same run), every node timing its dealing work
(tools/bench_probe.py: CPU time, averaged over the four nodes and the hands).
One line per measure, each as a ratio to commit-reveal's figure for the same
measure or, where commit-reveal has none, to its whole deal; and the time per
hand end to end on loopback (from one hand's end to the next, at the host's
node: dealing, play, audit, settlement).

``python -m tarock.tools.netbench [--rounds N] [--dealing SCHEME]`` plays only one
such table and prints the CPU time (user and system) each node spends per hand in
steady play, the host's and the seats' (:func:`cpu_lines`).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarock.client import command
from tarock.core.plugins import Catalogue, load_plugins
from tarock.core.rules import RuleError
from tarock.net.dealing import COMMIT_REVEAL, MENTAL_POKER, MENTAL_POKER_ED25519
from tarock.net.node import percentile
from tarock.tools.bench_probe import MEASURES

BOTS = 4
DECK_SIZES = (54, 40)
"""The deck sizes whose dealing is measured, each with the first variant plugins.toml enables."""


def dealing_variants(catalogue: Catalogue) -> list[tuple[str, int]]:
    """``(variant, cards)`` for each of :data:`DECK_SIZES` that an enabled variant deals."""
    found: dict[int, str] = {}
    for name in catalogue.enabled:
        try:
            size = len(catalogue.find(name).rules({}).deck)
        except RuleError:
            continue
        found.setdefault(size, name)
    return [(found[n], n) for n in DECK_SIZES if n in found]


def main(args: argparse.Namespace) -> int:
    """``tarock bench --net`` as :mod:`client.cli` parsed it."""
    return command.guarded(run_net, args)


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "tarock.client.cli", *args]


@dataclass
class TableRun:
    """What one network table of the benchmark left: each bot's events, stats and probe."""

    start: float
    wall: float
    events: list[list[dict[str, Any]]]
    probes: list[dict[str, Any]]

    @property
    def stats(self) -> list[dict[str, Any]]:
        return [next(e for e in evs if e["event"] == "standings")["stats"] for evs in self.events]

    @property
    def hands(self) -> int:
        return int(max(s["hands"] for s in self.stats))

    def per_hand(self, measure: str, what: str = "seconds") -> float:
        """A probe's measure per hand and node (averaged over the nodes)."""
        total = float(sum(p[what][measure] for p in self.probes))
        return total / len(self.probes) / max(1, self.hands)

    def host(self) -> int:
        """The index of the bot whose node hosted the table first."""
        return next((i for i, evs in enumerate(self.events)
                     if any(e["event"] == "seated" and e["host_name"] == e["node"] for e in evs)), 0)

    def hand_cpu(self, bot: int) -> float:
        """CPU seconds of ``bot``'s process per hand, from its first hand's end to its last's
        (start-up, discovery and the first deal left out); NaN under two hands."""
        stamps = self.probes[bot].get("hand_cpu", [])
        if len(stamps) < 2:
            return float("nan")
        return float(stamps[-1] - stamps[0]) / (len(stamps) - 1)

    def hand_interval(self) -> float:
        """Median seconds from one hand's end to the next at the host's node."""
        ends = [e["time"] for e in self.events[self.host()] if e["event"] in ("hand", "void")]
        gaps = [b - a for a, b in itertools.pairwise(ends)]
        return float(percentile(gaps, 0.5)) if gaps else float("nan")


def _table(base: Path, args: argparse.Namespace, variant: list[str], dealing: str, rounds: int) -> TableRun:
    """Four bot processes on loopback, through the probe; SystemExit(1) if one fails."""
    base.mkdir(parents=True)
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TAROCK_STATE": str(base / "state")}
    start = time.time()
    procs = [subprocess.Popen(
        [sys.executable, "-m", "tarock.tools.bench_probe", str(base / f"probe{i}.json"),
         "bot", "--name", f"bench{i}", "--rounds", str(rounds), "--json", "--seed", str(args.seed + i),
         "--records", str(base / f"records{i}"), "--interface", "127.0.0.1", "--state", str(base / "state"),
         "--dealing", dealing, *variant],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for i in range(BOTS)]
    outs: list[str] = []
    try:
        for p in procs:
            out, _ = p.communicate(timeout=args.timeout)
            outs.append(out)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    wall = time.time() - start
    failed = [i for i, p in enumerate(procs) if p.returncode != 0]
    if failed:
        for i in failed:
            print(f"bot {i} failed ({procs[i].returncode}):", file=sys.stderr)
            print(outs[i][-2000:], file=sys.stderr)
        raise SystemExit(1)
    events = [[json.loads(line) for line in out.splitlines() if line.startswith("{")] for out in outs]
    probes = [json.loads((base / f"probe{i}.json").read_text()) for i in range(BOTS)]
    return TableRun(start, wall, events, probes)


def cpu_lines(run: TableRun, dealing: str) -> list[str]:
    """The CPU time per hand of the host's node and of the seats' nodes."""
    host = run.host()
    seats = [run.hand_cpu(i) for i in range(BOTS) if i != host]
    each = ", ".join(f"{s * 1000:.0f}" for s in seats)
    return [f"node CPU per hand ({dealing}, {BOTS} bot processes on loopback, {run.hands} hands; user+sys "
            "from the first hand's end to the last's)",
            f"host: {run.hand_cpu(host) * 1000:.0f} ms per hand",
            f"seats: {sum(seats) / len(seats) * 1000:.0f} ms per hand on average ({each})",
            f"seat connections: {sum(s['frames'] for s in run.stats) / run.hands:.0f} frames per hand (all "
            "four seats' connections to the host, both directions, counted at the seats)"]


def run_cpu(args: argparse.Namespace) -> int:
    """One table of :data:`BOTS` bot processes: the CPU per hand of each node."""
    variant = ["--variant", args.variant] if args.variant else []
    with tempfile.TemporaryDirectory(prefix="tarock-bench-") as tmp:
        try:
            run = _table(Path(tmp) / "cpu", args, variant, args.dealing, max(2, int(args.rounds)))
        except SystemExit:
            return 1
    for line in cpu_lines(run, args.dealing):
        print(line, flush=True)
    return 0


def run_net(args: argparse.Namespace) -> int:
    rounds = max(1, int(args.rounds))
    variant = ["--variant", args.variant] if args.variant else []
    with tempfile.TemporaryDirectory(prefix="tarock-bench-") as tmp:
        base = Path(tmp)
        try:
            main = _table(base / "main", args, variant, MENTAL_POKER, rounds)
        except SystemExit:
            return 1
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "TAROCK_STATE": str(base / "state")}
        t0 = time.time()
        selfplay = subprocess.run(_command("selfplay", "--hands", str(rounds), "--seed", str(args.seed),
                                           "--no-records", *variant),
                                  capture_output=True, text=True, env=env, timeout=args.timeout)
        self_wall = time.time() - t0
        if selfplay.returncode != 0:
            print(selfplay.stderr, file=sys.stderr)
            return 1
        stats = main.stats
        first = min(e["time"] for evs in main.events for e in evs if e["event"] == "first-card")
        hosted = [next(e for e in evs if e["event"] == "seated") for evs in main.events]
        frames = sum(s["frames"] for s in stats)
        data = sum(s["bytes"] for s in stats)
        for line in _lines(first - main.start, main.wall, self_wall, main.hands, frames, data, stats, hosted):
            print(line, flush=True)
        for name, cards in dealing_variants(load_plugins(getattr(args, "plugins", None))):
            try:
                mp = _table(base / f"{name}-mp", args, ["--variant", name], MENTAL_POKER, rounds)
                cr = _table(base / f"{name}-cr", args, ["--variant", name], COMMIT_REVEAL, rounds)
                other = None
                if cards == DECK_SIZES[0]:
                    other = _table(base / f"{name}-mp1", args, ["--variant", name], MENTAL_POKER_ED25519,
                                   rounds)
            except SystemExit:
                return 1
            for line in dealing_lines(cards, name, mp, cr):
                print(line, flush=True)
            if other is not None:
                for line in group_lines(cards, mp, other):
                    print(line, flush=True)
    return 0


LABELS = {
    "deal": "deal and reveals (every dealing step of the hand)",
    "shuffle": "shuffle (permute and re-mask the deck)",
    "proofs made": "proofs made (key and token proofs)",
    "proofs checked": "proofs checked",
    "points validated": "points validated (every point received)",
    "reveal tokens": "reveal tokens (made, and cards opened with them)",
    "audit": "end-of-hand audit",
}
assert set(LABELS) <= set(MEASURES)


def _ratio(ours: float, than: float) -> str:
    if not than > 0:
        return "no ratio"
    r = ours / than
    return f"{r:.1f}x" if r < 10 else f"{r:.0f}x"


def dealing_lines(cards: int, variant: str, mp: TableRun, cr: TableRun) -> list[str]:
    """One line per measure: mental poker per hand and node, against commit-reveal."""
    base_deal = cr.per_hand("deal")
    lines = [f"dealing {cards} cards ({variant}, four bot processes on loopback, {mp.hands} hands each "
             "scheme): CPU per hand and node, averaged over the four nodes"]
    for measure, label in LABELS.items():
        ours = mp.per_hand(measure)
        calls = mp.per_hand(measure, "calls")
        theirs = cr.per_hand(measure)
        plural = "" if round(calls) == 1 else "s"
        counted = f", {calls:.0f} call{plural}" if measure not in ("deal", "audit") else ""
        if measure in ("deal", "audit"):
            than, name = theirs, "commit-reveal"
        else:
            than, name = base_deal, "commit-reveal deal"
        ratio = _ratio(ours, than)
        lines.append(f"{label}, {cards} cards, mental poker: {ours * 1000:.1f} ms per hand and node{counted} "
                     f"({name} {than * 1000:.2f} ms, {ratio})")
    node_mp, node_cr = mp.per_hand("node"), cr.per_hand("node")
    lines.append(f"node CPU in all (start-up and play included), {cards} cards, mental poker: "
                 f"{node_mp * 1000:.0f} ms per hand and node (commit-reveal {node_cr * 1000:.0f} ms, "
                 f"{_ratio(node_mp, node_cr)})")
    host_mp, host_cr = mp.per_hand("host audit") * BOTS, cr.per_hand("host audit") * BOTS
    lines.append(f"host's own audit, {cards} cards, mental poker: {host_mp * 1000:.1f} ms per hand "
                 f"(commit-reveal {host_cr * 1000:.2f} ms, {_ratio(host_mp, host_cr)})")
    e2e_mp, e2e_cr = mp.hand_interval(), cr.hand_interval()
    lines.append(f"hand end to end on loopback, {cards} cards, mental poker: {e2e_mp:.2f} s per hand "
                 f"(commit-reveal {e2e_cr:.2f} s, {_ratio(e2e_mp, e2e_cr)}; wall time from one hand's end to "
                 "the next at the host's node)")
    return lines


def group_lines(cards: int, mp: TableRun, other: TableRun) -> list[str]:
    """The default scheme against the same exchange in edwards25519 (``mental-poker/1``)."""
    ours_name, theirs_name = f"{MENTAL_POKER} (secp256k1)", f"{MENTAL_POKER_ED25519}, edwards25519"
    lines = []
    for measure in ("deal", "proofs checked"):
        ours, theirs = mp.per_hand(measure), other.per_hand(measure)
        lines.append(f"{LABELS[measure]}, {cards} cards, {ours_name}: {ours * 1000:.1f} ms per hand and node "
                     f"({theirs_name} {theirs * 1000:.1f} ms, {_ratio(ours, theirs)})")
    ours, theirs = mp.hand_interval(), other.hand_interval()
    lines.append(f"hand end to end on loopback, {cards} cards, {ours_name}: {ours:.2f} s per hand "
                 f"({theirs_name} {theirs:.2f} s, {_ratio(ours, theirs)})")
    return lines


def _lines(first: float, net_wall: float, self_wall: float, hands: int, frames: int, data: int,
           stats: list[dict[str, Any]], hosted: list[dict[str, Any]]) -> list[str]:
    medians = [s["rtt_ms_median"] for s in stats if s["actions"]]
    p95s = [s["rtt_ms_p95"] for s in stats if s["actions"]]
    return [
        f"network table: {BOTS} bot processes on loopback, {hands} hands, host {hosted[0]['host'][:8]}",
        f"first card played: {first:.2f} s after the processes started",
        f"wall time: network table {net_wall:.2f} s, selfplay (one process) {self_wall:.2f} s, "
        f"ratio {net_wall / self_wall:.1f}",
        f"messages per hand: {frames / hands:.0f} frames, {data / hands / 1024:.1f} KiB (all four seats' "
        "connections, both directions, counted at the seats)",
        f"action round trip (act sent to the view that shows it): median {percentile(medians, 0.5):.2f} ms, "
        f"p95 {max(p95s) if p95s else float('nan'):.2f} ms (worst seat)",
    ]


def cpu_main(argv: list[str] | None = None) -> int:
    """``python -m tarock.tools.netbench``: :func:`run_cpu` from its own arguments."""
    parser = argparse.ArgumentParser(prog="python -m tarock.tools.netbench",
                                     description="CPU time per hand of each node of a loopback table")
    parser.add_argument("--rounds", type=int, default=6, help="hands to play (default: 6)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", help="the ruleset (default: the first variant plugins.toml offers)")
    parser.add_argument("--dealing", default=MENTAL_POKER, choices=(MENTAL_POKER, COMMIT_REVEAL))
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for the whole table")
    return command.guarded(run_cpu, parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(cpu_main())
