"""One match from its parts: ``python -m tarock.tools.arena_merge PART.json...``.

A long ``tarock arena`` match can be played in parts, one process each (``--first N
--boards K --json``; the boards are independent). This reads the parts' JSON lines and,
per variant, pair of bots and seed, prints the match over all their boards: the mean
with the bootstrap interval one process would have printed (the same scores in board
order, the same seed), the contracts summed, and per kind the decisions and the highest
p95 and maximum of any part. Parts whose boards overlap are refused.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from tarock.tools.arena import Contracts, bootstrap_ci

Key = tuple[str, str, str, int]


def read_parts(paths: list[Path]) -> dict[Key, list[dict[str, Any]]]:
    """The parts in ``paths`` by (variant, bot A, bot B, seed); ValueError says which file is wrong."""
    groups: dict[Key, list[dict[str, Any]]] = {}
    for path in paths:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise ValueError(f"{path}: {exc.strerror or exc}") from None
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                part = json.loads(line)
                bots = part["bots"]
                key: Key = (str(part["variant"]), str(bots[0]), str(bots[1]), int(part["seed"]))
                part["first"] = int(part.get("first", 0))
                part["scores"] = [float(x) for x in part["scores"]]
            except (ValueError, KeyError, IndexError, TypeError) as exc:
                raise ValueError(f"{path}:{number}: not a line of `tarock arena --json` ({exc})") from None
            part["file"] = f"{path}:{number}"
            groups.setdefault(key, []).append(part)
    return groups


def merge(key: Key, parts: list[dict[str, Any]]) -> list[str]:
    """The lines of one match from its parts (ValueError when two parts share a board)."""
    variant, a, b, seed = key
    parts = sorted(parts, key=lambda p: p["first"])
    for before, after in itertools.pairwise(parts):
        if after["first"] < before["first"] + len(before["scores"]):
            raise ValueError(f"{before['file']} and {after['file']} both hold board {after['first']}")
    scores = [score for part in parts for score in part["scores"]]
    mean = statistics.fmean(scores) if scores else 0.0
    lo, hi = bootstrap_ci(scores, seed)
    verdict = f"{a} stronger" if lo > 0 else f"{b} stronger" if hi < 0 else "no difference shown"
    ranges = ", ".join(f"{p['first']}-{p['first'] + len(p['scores']) - 1}" for p in parts)
    out = [f"{variant}: {a} vs {b}, {len(scores)} boards ({ranges}; seed {seed}, "
           f"{sum(float(p.get('seconds', 0)) for p in parts):.0f} s in {len(parts)} parts)",
           f"  mean difference per board ({a} - {b}, per seat and hand, {parts[0].get('unit', '')}): "
           f"{mean:+.3f}, 95% CI [{lo:+.3f}, {hi:+.3f}]: {verdict}"]
    for kind in (a, b):
        times = [p["time"][kind] for p in parts if kind in p.get("time", {})]
        out.append(f"  {kind}: {sum(int(t['decisions']) for t in times)} decisions, p95 at most "
                   f"{max((float(t['p95_ms']) for t in times), default=0.0):.1f} ms, "
                   f"max {max((float(t['max_ms']) for t in times), default=0.0):.1f} ms")
    contracts = Contracts()
    for part in parts:
        for row in part.get("contracts", []):
            which = (str(row["bot"]), str(row["contract"]))
            contracts.declared[which] += int(row["declared"])
            contracts.won[which] += int(row["won"])
            contracts.lost[which] += int(row["lost"])
    out += contracts.lines()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tarock.tools.arena_merge",
                                     description="One tarock arena match from its parts.")
    parser.add_argument("parts", nargs="+", type=Path, help="files of `tarock arena --first N --json` lines")
    args = parser.parse_args(argv)
    try:
        groups = read_parts(args.parts)
        for key, parts in groups.items():
            for line in merge(key, parts):
                print(line)
    except ValueError as exc:
        print(f"arena_merge: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped early (``| head``): nothing more to say
        sys.stderr.close()
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
