"""``tarock bench --net``: a table of four bot processes on loopback beside the
same table played in one process (``tarock selfplay``), in the same run.

Prints: seconds from starting the four processes to the first card; the wall
time of the network table and of selfplay, and their ratio; messages and bytes
per hand; the round trip of an action (median and p95).  The processes find
each other through mDNS on the loopback interface (``--to`` is not used), so
the first figure includes discovery, host agreement and the first deal.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from net.node import percentile

BOTS = 4


def extend(bench: argparse.ArgumentParser) -> None:
    """Add ``--net`` (and its knobs) to the ``bench`` command."""
    bench.add_argument("--net", action="store_true", help="measure a table of four bot processes on loopback")
    bench.add_argument("--rounds", type=int, default=4, help="rounds of the --net table (default: 4)")
    bench.add_argument("--timeout", type=float, default=300.0, help="give up after this many seconds (--net)")
    engine: Callable[[argparse.Namespace], int] = bench.get_default("func")

    def run(args: argparse.Namespace) -> int:
        if getattr(args, "net", False):
            return run_net(args)
        return engine(args)
    bench.set_defaults(func=run)


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "client.cli", *args]


def run_net(args: argparse.Namespace) -> int:
    rounds = max(1, int(args.rounds))
    variant = ["--variant", args.variant] if args.variant else []
    with tempfile.TemporaryDirectory(prefix="tarock-bench-") as tmp:
        base = Path(tmp)
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "TAROCK_STATE": str(base / "state")}
        start = time.time()
        procs = [subprocess.Popen(
            _command("bot", "--name", f"bench{i}", "--rounds", str(rounds), "--json",
                     "--seed", str(args.seed + i),
                     "--records", str(base / f"records{i}"), "--interface", "127.0.0.1",
                     "--state", str(base / "state"), *variant),
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
        net_wall = time.time() - start
        events = [[json.loads(line) for line in out.splitlines() if line.startswith("{")] for out in outs]
        failed = [i for i, p in enumerate(procs) if p.returncode != 0]
        if failed:
            for i in failed:
                print(f"bot {i} failed ({procs[i].returncode}):", file=sys.stderr)
                print(outs[i][-2000:], file=sys.stderr)
            return 1
        first = min(e["time"] for evs in events for e in evs if e["event"] == "first-card")
        stats = [next(e for e in evs if e["event"] == "standings")["stats"] for evs in events]
        hosted = [next(e for e in evs if e["event"] == "seated") for evs in events]
        t0 = time.time()
        selfplay = subprocess.run(_command("selfplay", "--hands", str(rounds), "--seed", str(args.seed),
                                           "--no-records", *variant),
                                  capture_output=True, text=True, env=env, timeout=args.timeout)
        self_wall = time.time() - t0
        if selfplay.returncode != 0:
            print(selfplay.stderr, file=sys.stderr)
            return 1
    hands = max(s["hands"] for s in stats)
    frames = sum(s["frames"] for s in stats)
    data = sum(s["bytes"] for s in stats)
    lines = _lines(first - start, net_wall, self_wall, hands, frames, data, stats, hosted)
    for line in lines:
        print(line)
    return 0


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
