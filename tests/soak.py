"""A fault soak as one command: nemesis, history, checker (in the spirit of Jepsen).

    sudo python tests/soak.py --minutes 3 [--nodes 4] [--seed S] [--faults kill,netem]
                              [--dealing mental-poker/2|commit-reveal/1] [--variant V] [--keep DIR]

1. A lab (``tests/netns.py``) of N hosts on a bridge; a ``tarock bot --json`` in each,
   with its own state and records folder; they find each other by mDNS and form a table.
2. The nemesis (``tests/soak_nemesis.py``) injects faults for ``--minutes``: random kinds
   from a seeded RNG (the seed is printed; ``--seed`` repeats the schedule), each followed
   by its recovery and a quiet gap, all logged to ``history.jsonl``.
3. Quiet: the network is healed and the table is given ``--finish`` seconds to end.
   A bot cannot be told to end its table, so the table is started with a number of rounds
   meant to outlast the fault period: ``--rounds``, by default ``--rate`` (200) per minute
   of soak: a fault-free table of four heuristic bots in this lab plays about 124 rounds a
   minute on a 2-core machine (mental-poker/2); faults slow it down, so the rest is played
   in the quiet period, which is bounded by ``--finish`` (default: 120 s plus 3 times the
   fault-free time of all the rounds: a machine shared with other work plays at half
   speed), and ends early when no bot printed an event for ``--stall`` seconds (default
   150: the table is stuck). Should the table end during the fault period anyway, the
   nemesis stops there (noted in the history and the summary).
4. The checker (``tests/soak_check.py``) compares what every node holds and prints a
   summary; exit status 0 iff there is no violation (1 with violations, 2 when the
   harness itself failed, 130 on Ctrl-C). Everything runs in the lab's namespaces and
   is torn down at the end, also on a failure or Ctrl-C.

The run's folder (``--keep DIR``, or a new temporary folder) keeps the history, the
bots' logs (``logs/``), their records and state folders and ``summary.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's packages
sys.path.insert(0, str(Path(__file__).resolve().parent))  # netns, tarock_procs, soak_*

from netns import Lab, LabError, ProcTimeout, lab_unavailable_reason
from soak_check import Report, bot_view, check, folder_views, summary_lines
from soak_history import History, read_history
from soak_nemesis import ALL_KINDS, FAULT_KINDS, MILD_KINDS, Nemesis, Network, current_host
from tarock_procs import Bot, start_bots

SEATS = 4
SEAT_WAIT = 90.0  # seconds for the bots to find each other and sit down
ROUNDS_PER_MINUTE = 200.0  # twice what the faults leave time for: a table whose bots stand in for
# two cut-off seats plays fast (100 a minute once ended 300 rounds 169 s into 180 s of faults, and the two
# cut-off nodes came back to no table)
MIN_ROUNDS = 3


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="soak.py", description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--minutes", type=float, default=3.0, help="length of the fault period (default 3)")
    p.add_argument("--nodes", type=int, default=SEATS, help="hosts, one bot each (a table has 4 seats)")
    p.add_argument("--seed", type=int, help="seed of the fault schedule (default: random, printed)")
    p.add_argument("--faults", default=",".join(FAULT_KINDS),
                   help=f"comma-separated fault kinds (default: {','.join(FAULT_KINDS)}; also kill-seat, "
                        f"a node that does not host; 'mild' = {','.join(MILD_KINDS)})")
    p.add_argument("--dealing", default=None, help="the table's dealing (mental-poker/2, commit-reveal/1)")
    p.add_argument("--variant", default=None, help="the table's variant (default: the bots')")
    p.add_argument("--rate", type=float, default=ROUNDS_PER_MINUTE,
                   help=f"rounds per minute of soak, for the default --rounds "
                        f"(default {ROUNDS_PER_MINUTE:g})")
    p.add_argument("--rounds", type=int, default=None,
                   help=f"the table's rounds (default: --rate per minute of soak, at least {MIN_ROUNDS})")
    p.add_argument("--finish", type=float, default=None,
                   help="seconds the table gets to end after the faults (default: 120 + 3 times the "
                        "fault-free time of all its rounds at --rate)")
    p.add_argument("--stall", type=float, default=150.0,
                   help="stop waiting for the table to end when no bot printed an event for this long "
                        "(default 150 s)")
    p.add_argument("--seat-timeout", type=float, default=None, help="the bots' --seat-timeout")
    p.add_argument("--gap", type=float, nargs=2, default=(5.0, 15.0), metavar=("MIN", "MAX"),
                   help="quiet seconds after each fault (default 5 15)")
    p.add_argument("--keep", type=Path, default=None,
                   help="folder for the run's files (default: a new temp folder)")
    p.add_argument("--recheck", type=Path, default=None, metavar="DIR",
                   help="only run the checker again over the folder of a kept run")
    args = p.parse_args(argv)
    if args.faults == "mild":
        args.faults = ",".join(MILD_KINDS)
    args.kinds = [k for k in args.faults.split(",") if k]
    unknown = sorted(set(args.kinds) - set(ALL_KINDS))
    if unknown or not args.kinds:
        p.error(f"unknown fault kinds {unknown} (known: {', '.join(ALL_KINDS)})")
    if args.nodes != SEATS:
        p.error(f"--nodes must be {SEATS}: a table has {SEATS} seats and every node must sit at it")
    if args.minutes <= 0:
        p.error("--minutes must be positive")
    return args


def wait_seated(bots: list[Bot], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    for bot in bots:
        bot.wait_event("seated", timeout=max(1.0, deadline - time.monotonic()))


def finish(bots: list[Bot], seconds: float, stall: float, history: History) -> None:
    """Wait for every bot's process to end: at most ``seconds`` in all, and at most ``stall``
    seconds without a new event from any bot (the table is stuck); kill those still running."""
    deadline = time.monotonic() + seconds
    seen = -1
    progress = time.monotonic()
    why = f"still running after the {seconds:g} s quiet period: killed"
    while any(b.proc.alive for b in bots):
        now = time.monotonic()
        count = sum(line.startswith("{") for b in bots for line in b.proc.lines())
        if count != seen:
            seen, progress = count, now
        if now > deadline:
            break
        if now - progress > stall:
            why = f"no bot printed an event for {stall:g} s (the table is stuck): killed"
            history.log("note", text=f"the table is stuck: no event for {stall:g} s")
            break
        for bot in bots:  # wait up to 1 s for the first one still running: back at once when it ends
            if bot.proc.alive:
                bot.proc.exited(within=1.0)
                break
    for bot in bots:
        if bot.proc.alive:
            bot.proc.kill()
            history.log("end", node=bot.name, status=None, note=why)
        else:
            bot.proc.wait(timeout=10)
            history.log("end", node=bot.name, status=bot.proc.popen.returncode)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    rounds = args.rounds or max(MIN_ROUNDS, math.ceil(args.rate * args.minutes))
    finish_s = args.finish if args.finish is not None else 120.0 + 3.0 * 60.0 * rounds / args.rate
    work = args.keep or Path(tempfile.mkdtemp(prefix="tarock-soak-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"soak: seed {seed}, {args.minutes:g} min of faults {args.kinds}, {rounds} rounds, "
          f"then up to {finish_s:g} s to end; files in {work}", flush=True)
    history = History(work / "history.jsonl", echo=sys.stdout)
    history.log("start", seed=seed, minutes=args.minutes, kinds=args.kinds, rounds=rounds, nodes=args.nodes,
                dealing=args.dealing, variant=args.variant, argv=sys.argv[1:])
    lifetime = SEAT_WAIT + args.minutes * 60 + finish_s + 120
    extra: list[str] = []
    if args.dealing:
        extra += ["--dealing", args.dealing]
    if args.variant:
        extra += ["--variant", args.variant]
    if args.seat_timeout is not None:
        extra += ["--seat-timeout", f"{args.seat_timeout:g}"]
    rng = random.Random(seed)
    status = 2
    report = None
    try:
        with Lab(args.nodes, log_dir=work / "logs", lifetime=lifetime) as lab:
            network = Network(lab)
            bots = start_bots(lab, work, rounds=rounds, extra=extra, lifetime=lifetime)
            history.log("started", nodes=[f"{b.name}@{b.host.address}" for b in bots])
            seated = False
            try:
                wait_seated(bots, SEAT_WAIT)
                seated = True
                host = current_host(bots)
                history.log("seated", host=bots[host].name if host is not None else None)
                nemesis = Nemesis(rng, network, bots, history, args.kinds, gap=tuple(args.gap))
                nemesis.run(args.minutes * 60)
            except ProcTimeout as exc:
                history.log("note", text=f"the bots did not all sit down: {str(exc).splitlines()[0]}")
            finally:
                relays = network.heal()
                history.log("quiet", relays=relays)
            finish(bots, finish_s if seated else 5.0, args.stall, history)
            lab.procs.close()  # nothing runs any more when the stores are read
            views = [bot_view(b, work / f"state-{b.name}") for b in bots]
            report = check(views, rounds=rounds, history=history.entries)
        status = 1 if report.violations else 0
    except KeyboardInterrupt:
        history.log("interrupted")
        print("soak: interrupted; the lab is torn down", file=sys.stderr)
        status = 130
    except Exception:
        traceback.print_exc()
        history.log("harness-error", text=traceback.format_exc(limit=3))
        status = 2
    history.log("done", status=status)
    history.close()
    if report is not None:
        show(report, work, status, f"seed {seed}, faults {args.kinds}, {args.minutes:g} min, {rounds} rounds")
    verdict = "PASS" if status == 0 else "FAIL"
    print(f"soak: {verdict} (exit {status}); seed {seed}; history {work / 'history.jsonl'}", flush=True)
    return status


def show(report: Report, work: Path, status: int, title: str) -> None:
    """Print the summary, and keep it as ``summary.json`` in the run's folder."""
    (work / "summary.json").write_text(json.dumps(
        {"status": status, "figures": report.figures, "violations": [str(v) for v in report.violations]},
        indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("\n== soak summary ==")
    print(title)
    for line in summary_lines(report):
        print(line)


def recheck(work: Path) -> int:
    """Run the checker again over a kept run's folder (no lab needed)."""
    entries = read_history(work / "history.jsonl")
    start = next(e for e in entries if e["kind"] == "start")
    report = check(folder_views(work, entries), rounds=int(start["rounds"]), history=entries)
    status = 1 if report.violations else 0
    show(report, work, status, f"recheck of {work}: seed {start['seed']}, faults {start['kinds']}, "
         f"{start['minutes']:g} min, {start['rounds']} rounds")
    print(f"soak: {'PASS' if status == 0 else 'FAIL'} (exit {status})")
    return status


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.recheck is not None:
        return recheck(args.recheck)
    reason = lab_unavailable_reason()
    if reason is not None:
        print(f"soak: no lab here: {reason}", file=sys.stderr)
        return 2
    try:
        return run(args)
    except LabError as exc:
        print(f"soak: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
