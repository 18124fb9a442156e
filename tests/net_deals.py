"""Many network deals with real bots: every variant, a dealing scheme, and a count of void deals.

``python tests/net_deals.py --deals 1000 --dealing commit-reveal/1`` plays tables of four real
``tarock bot`` processes on loopback, one table per variant that ``plugins.toml`` enables (the
deals spread evenly over them), and prints per variant: deals played, void deals, and void
deals that named a node.  A void deal with a culprit is a node named: with honest bots and no
faults there must be none (docs/protocol.md section 11).  Exit status 0 iff none was named.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from net_procs import ROOT, bot_args, env
from netns import Procs

from tarock.core.plugins import load_plugins

LOOP = ("--interface", "127.0.0.1")


def play(variant: str, rounds: int, dealing: str, work: Path, seed: int) -> dict[str, object]:
    """One table of ``rounds`` rounds of ``variant``: its deals, voids and named voids."""
    work.mkdir(parents=True, exist_ok=True)
    table = f"deals-{variant}-{seed}"
    common = (*LOOP, "--table", table, "--wait", "60", "--variant", variant, "--dealing", dealing)
    with Procs(log_dir=work / "logs", lifetime=60 + rounds * 8.0) as procs:
        host = procs.spawn(bot_args("h", work, rounds, *common, "--host", "--seed", str(seed)), name="h",
                           env=env(work / "state"), cwd=ROOT)
        host.wait_for_json(lambda e: e.get("event") == "seated", timeout=60)
        seats = [procs.spawn(bot_args(f"b{i}", work, rounds, *common, "--seed", str(seed + 1 + i)),
                             name=f"b{i}", env=env(work / "state"), cwd=ROOT) for i in range(3)]
        everyone = [host, *seats]
        status = [p.wait(timeout=60 + rounds * 8.0) for p in everyone]
    voids = [e for e in host.json_lines() if e.get("event") == "void"]
    named = {(p.name, e.get("reason")) for p in everyone for e in p.json_lines()
             if e.get("event") == "void" and e.get("culprit")}
    hands = [e for e in host.json_lines() if e.get("event") == "hand"]
    return {"variant": variant, "dealing": dealing, "deals": len(hands) + len(voids), "voids": len(voids),
            "named": len(named), "reasons": sorted({str(e.get("reason")) for e in voids}),
            "exit": status}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals in all (spread over the variants)")
    parser.add_argument("--dealing", default="mental-poker/2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", help="the folder for the runs (default: a temporary one)")
    args = parser.parse_args()
    variants = list(load_plugins().enabled)
    rounds = max(1, -(-args.deals // len(variants)))  # at least --deals in all
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="net-deals-"))
    started = time.monotonic()
    results = []
    for k, variant in enumerate(variants):
        result = play(variant, rounds, args.dealing, work / variant, args.seed + 10 * k)
        results.append(result)
        print(json.dumps(result), flush=True)
    deals = sum(int(str(r["deals"])) for r in results)
    named = sum(int(str(r["named"])) for r in results)
    voids = sum(int(str(r["voids"])) for r in results)
    failed = [r["variant"] for r in results if any(s != 0 for s in r["exit"])]  # type: ignore[attr-defined]
    print(f"{args.dealing}: {deals} deals over {len(variants)} variants, {voids} void, {named} void naming "
          f"a node, tables that did not end cleanly: {failed or 'none'} "
          f"({time.monotonic() - started:.0f} s; files in {work})")
    return 0 if named == 0 and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
