"""How long four bots take to form a table under the nemeses of tests/lobby_nemesis.py.

    python tests/bench_formation.py [--runs 3] [--count 1000]

Runs in this process's network namespace on loopback (run it as root inside ``unshare -n``
or let it make one: it unshares when it can). Prints, per scenario, min / median / max
seconds from starting the fourth bot to all four seated: three bots wait first, then the
flood (``refusing``: a port that refuses; ``hanging``: one where connections hang) or the
silent leader with the smallest id is there.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import conftest  # noqa: F401  (a private network namespace, as for the tests)
from net_procs import ROOT, env
from netns import Procs
from test_formation_procs import LOOP, NEMESIS, _bot, _seated_together


def one(scenario: str, count: int) -> float:
    with tempfile.TemporaryDirectory() as tmp, Procs(log_dir=Path(tmp) / "logs", lifetime=300) as procs:
        tmp_path = Path(tmp)
        bots = [_bot(procs, tmp_path, i, "250") for i in range(3)]
        for b in bots:
            b.wait_for("mDNS on", timeout=30)
        if scenario == "silent":
            nemesis = [*NEMESIS, "silent", "--rounds", "1", *LOOP]
        else:
            nemesis = [*NEMESIS, "flood", "--count", str(count), "--rounds", "1", "--lifetime", "280", *LOOP,
                       *(["--hang"] if scenario == "hanging" else [])]
        procs.spawn(nemesis, name="nemesis", cwd=ROOT, env=env(tmp_path / "state")).wait_for_json(
            lambda e: e.get("event") == "ready", timeout=120)
        time.sleep(8)  # the nemesis reaches the three (a silent leader is passed over after 5 s)
        started = time.monotonic()
        bots.append(_bot(procs, tmp_path, 3, "250"))
        _seated_together(bots, 240)
        return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", type=int, default=1000)
    args = parser.parse_args()
    for scenario in ("silent", "refusing", "hanging"):
        times = [one(scenario, args.count) for _ in range(args.runs)]
        print(f"{scenario:9s} seconds to a table after the 4th bot: min {min(times):.2f} "
              f"median {statistics.median(times):.2f} max {max(times):.2f} ({args.runs} runs, "
              f"{args.count if scenario != 'silent' else 1} adverts)", flush=True)


if __name__ == "__main__":
    main()
