"""Discovery timings between four real processes in four network namespaces (prints figures).

    python tests/bench_discovery.py [--runs 5]

Needs root (it builds a lab, see tests/netns.py). All times are time.monotonic(), which
every namespace shares. "spawn" is the moment the test started the processes, so figures
from it include Python's start; "publishing" is when a node starts to announce itself.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from netns import Lab, Proc  # noqa: E402

PEER = str(HERE / "discovery_peer.py")


def node_id(i: int) -> str:
    return f"{i:02x}" * 8


def event_time(proc: Proc, kind: str, node: str, *, start: int = 0, timeout: float = 20) -> float:
    found = proc.wait_for_json(
        lambda j: j["event"] == kind and j.get("node") == node, timeout=timeout, start=start
    )
    return float(found["t"])


def one_run(figures: dict[str, list[float]]) -> None:
    with Lab(4) as lab:
        spawn = time.monotonic()
        peers = [
            host.spawn([sys.executable, PEER, "--node", node_id(i), "--name", f"bot{i}"], name=f"peer{i}")
            for i, host in enumerate(lab)
        ]
        for p in peers:
            p.wait_for_json(lambda j: j["event"] == "ready", timeout=20)
        publishing = [
            float(p.wait_for_json(lambda j: j["event"] == "publishing", timeout=20)["t"]) for p in peers
        ]
        all_seen = [
            max(event_time(p, "added", node_id(j)) for j in range(4) if j != i) for i, p in enumerate(peers)
        ]
        figures["all four see the other three, from spawn"].append(max(all_seen) - spawn)
        figures["all four see the other three, from the last publishing"].append(
            max(all_seen) - max(publishing)
        )

        marks = [len(p.lines()) for p in peers]
        peers[3].kill()
        restart = time.monotonic()
        peers[3] = peers[3].restart()
        again = float(peers[3].wait_for_json(lambda j: j["event"] == "publishing", timeout=20)["t"])
        peers[3].wait_for_json(lambda j: j["event"] == "ready", timeout=20)
        updated = [
            event_time(p, "updated", node_id(3), start=m) for p, m in zip(peers[:3], marks, strict=False)
        ]
        figures["restarted node seen as updated, from spawn"].append(max(updated) - restart)
        figures["restarted node seen as updated, from its publishing"].append(max(updated) - again)

        marks = [len(p.lines()) for p in peers]
        close = time.monotonic()
        peers[1].terminate()
        removed = [event_time(peers[k], "removed", node_id(1), start=marks[k]) for k in (0, 2, 3)]
        figures["cleanly closed node removed, from SIGTERM"].append(max(removed) - close)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    figures: dict[str, list[float]] = {}
    for name in (
        "all four see the other three, from spawn",
        "all four see the other three, from the last publishing",
        "restarted node seen as updated, from spawn",
        "restarted node seen as updated, from its publishing",
        "cleanly closed node removed, from SIGTERM",
    ):
        figures[name] = []
    for _ in range(args.runs):
        one_run(figures)
    print(f"discovery in four namespaces, {args.runs} runs: min / median / max seconds")
    for name, values in figures.items():
        print(f"  {name:56s} {min(values):6.3f} {statistics.median(values):6.3f} {max(values):6.3f}")


if __name__ == "__main__":
    main()
