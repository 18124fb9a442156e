"""How a node's memory grows with the hands it plays: a table of four bot nodes on loopback.

``python tests/mem_growth.py --hands 1000`` runs four nodes, each in its own process (the
host node with its own seat and three seat nodes that join it over TCP on 127.0.0.1, the
host agreement among all four), and prints each node's resident memory (RSS) and the Python
heap that tracemalloc traces since hand 10, at hand 10, 100, 1000 (and the marks asked for
with ``--marks``).  ``--in-process`` runs the four nodes in this one process instead (one
figure for all four; what the CI test measures, tests/test_mem_growth.py).  ``--top N``
prints the N allocation sites that grew most between the first and the last mark.

Nothing is asserted here: the figures are printed (docs/architecture.md, "Memory").
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tarock.client.bots import make_bot  # noqa: E402
from tarock.core.players import BotSeat, Player, Policy  # noqa: E402
from tarock.core.plugins import load_plugins  # noqa: E402
from tarock.net.effects import HandOver, Shown  # noqa: E402
from tarock.net.game import Game  # noqa: E402
from tarock.net.lobby import Seated, host_table, join_table, new_table  # noqa: E402
from tarock.net.node import Node  # noqa: E402
from tarock.net.protocol.limits import Timing  # noqa: E402
from tarock.net.transport import PeerAddress, TcpTransport  # noqa: E402

TIMING = Timing(seat_timeout=60.0, check=60.0, step=60.0,
                election=float(os.environ.get("MEM_ELECTION", "1.5")))
"""Long timeouts: a slow, shared machine must not void hands (voids would change what is measured).
``MEM_ELECTION`` (seconds) lengthens the election timeout for a run slowed down by ``--frames``."""

DEFAULT_MARKS = (10, 100, 1000)


def rss_kb() -> int:
    """This process's resident memory in KiB (Linux /proc)."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@dataclass
class Probe:
    """Counts the hands one seat saw end and takes a figure at each mark."""

    marks: tuple[int, ...]
    report: Callable[[dict[str, Any]], None]
    hands: int = 0
    started: float = field(default_factory=time.monotonic)
    top: int = 0
    frames: int = 1
    trace: bool = True
    first: tracemalloc.Snapshot | None = None

    def __call__(self, event: Shown) -> None:
        if not isinstance(event, HandOver):
            return
        self.hands += 1
        if self.hands == self.marks[0] and self.trace:
            tracemalloc.start(self.frames)
        if self.hands in self.marks:
            self.figure()

    def figure(self) -> None:
        gc.collect()
        tracing = tracemalloc.is_tracing()
        traced = tracemalloc.get_traced_memory()[0] if tracing else 0
        own = tracemalloc.get_tracemalloc_memory() if tracing else 0
        self.report({"hand": self.hands, "rss_kb": rss_kb(), "traced_kb": traced // 1024,
                     "tracemalloc_kb": own // 1024, "seconds": round(time.monotonic() - self.started, 1)})
        if self.top and tracemalloc.is_tracing():
            snap = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)])
            if self.first is None:
                self.first = snap
            elif self.hands == self.marks[-1]:
                for stat in snap.compare_to(self.first, "traceback")[:self.top]:
                    print(f"  +{stat.size_diff // 1024} KiB in {stat.count_diff} blocks:", file=sys.stderr)
                    for line in stat.traceback.format(most_recent_first=True):
                        print(f"    {line}", file=sys.stderr)


def quiet(_event: object) -> None:
    pass


def make_game(hands: int, dealing: str) -> Game:
    # More rounds than hands: the table never ends before the run stops it (a passed-out deal
    # is no round, so rounds may be fewer than deals, never more).
    return Game.make(load_plugins(), "tarock54", {}, 4, hands + 1, dealing)


def bot(k: int) -> Player:
    return BotSeat(make_bot("heuristic", 100 + k, f"bot{k}"))


def sub(seat: int) -> Policy:
    return make_bot("heuristic", 500 + seat, f"sub{seat}")


async def run_host(state: Path, game: Game, listener: Callable[[Shown], None],
                   bound: Callable[[int, Any], None], stop: trio.Event) -> None:
    """The host node: its own bot seat, three free seats; ``bound`` gets its port and table."""
    node = Node("host", load_plugins(), TcpTransport("127.0.0.1", 0), state / "host", timing=TIMING)
    info = new_table(game, "mem")
    async with trio.open_nursery() as nursery:
        node.nursery = nursery
        address: PeerAddress = await nursery.start(node.serve)
        bound(address.port, info)
        nursery.start_soon(host_table, node, game, info, Seated(bot(0), listener), [], sub)
        await stop.wait()
        nursery.cancel_scope.cancel()


async def run_seat(k: int, state: Path, port: int, table: str, rules: str,
                   listener: Callable[[Shown], None], stop: trio.Event) -> None:
    """Seat node ``k`` (1..3): joins the table at ``port`` on loopback."""
    node = Node(f"seat{k}", load_plugins(), TcpTransport("127.0.0.1", 0), state / f"seat{k}", timing=TIMING)
    async with trio.open_nursery() as nursery:
        node.nursery = nursery
        await nursery.start(node.serve)
        address = PeerAddress("127.0.0.1", port)
        seat = await join_table(node, address, table, rules, Seated(bot(k), listener), sub)
        nursery.start_soon(seat.run, address)
        await stop.wait()
        nursery.cancel_scope.cancel()


# -- four nodes in this process ---------------------------------------------------------------------

async def in_process(hands: int, dealing: str, marks: Sequence[int], top: int = 0, frames: int = 1,
                     trace: bool = True, report: Callable[[dict[str, Any]], None] = print
                     ) -> list[dict[str, Any]]:
    """Play ``hands`` hands at a table of four nodes in this process; the figures at ``marks``
    (counted at the host's seat)."""
    game = make_game(hands, dealing)
    figures: list[dict[str, Any]] = []
    stop = trio.Event()

    def note(figure: dict[str, Any]) -> None:
        figures.append(figure)
        report(figure)
        if figure["hand"] >= hands:
            stop.set()

    probe = Probe(tuple(marks), note, top=top, frames=frames, trace=trace)
    with tempfile.TemporaryDirectory(prefix="tarock-mem-") as tmp:
        state = Path(tmp)
        got: list[tuple[int, Any]] = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_host, state, game, probe, lambda p, i: got.append((p, i)), stop)
            while not got:
                await trio.sleep(0.01)
            port, info = got[0]
            for k in (1, 2, 3):
                nursery.start_soon(run_seat, k, state, port, info.id, info.rules, quiet, stop)
            await stop.wait()
            nursery.cancel_scope.cancel()
    tracemalloc.stop()
    return figures


# -- one node per process -----------------------------------------------------------------------------

def child(args: argparse.Namespace) -> None:
    """One node of the table (``--child host`` or ``--child seatK``); figures as JSON lines."""
    game = make_game(args.hands, args.dealing)
    stop = trio.Event()
    marks = tuple(args.marks)

    def note(figure: dict[str, Any]) -> None:
        # The node plays on until the parent ends it: the others still need it for their last hand.
        print(json.dumps({"node": args.child, **figure}), flush=True)

    probe = Probe(marks, note, top=args.top, frames=args.frames, trace=not args.no_trace)
    state = Path(args.state)

    async def main() -> None:
        if args.child == "host":
            def bound(port: int, info: Any) -> None:
                print(json.dumps({"port": port, "table": info.id, "rules": info.rules}), flush=True)
            await run_host(state, game, probe, bound, stop)
        else:
            await run_seat(int(args.child[4:]), state, args.port, args.table, args.rules, probe, stop)
        await trio.sleep(0)

    async def until_done() -> None:
        with trio.move_on_after(args.limit):
            await main()

    trio.run(until_done)


def processes(args: argparse.Namespace) -> int:
    """Four node processes on loopback; print each one's figures as they come."""
    with tempfile.TemporaryDirectory(prefix="tarock-mem-") as tmp:
        common = [sys.executable, str(Path(__file__).resolve()), "--hands", str(args.hands), "--dealing",
                  args.dealing, "--state", tmp, "--limit", str(args.limit), "--top", str(args.top),
                  "--frames", str(args.frames), "--marks", *map(str, args.marks),
                  *(["--no-trace"] if args.no_trace else [])]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        host = subprocess.Popen([*common, "--child", "host"], stdout=subprocess.PIPE, text=True, env=env)
        assert host.stdout is not None
        first = json.loads(host.stdout.readline())
        seats = [subprocess.Popen([*common, "--child", f"seat{k}", "--port", str(first["port"]), "--table",
                                   first["table"], "--rules", first["rules"]], stdout=subprocess.PIPE,
                                  text=True, env=env) for k in (1, 2, 3)]
        procs = [host, *seats]
        lines: queue.Queue[str | None] = queue.Queue()

        def read(proc: subprocess.Popen[str]) -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)

        for proc in procs:
            threading.Thread(target=read, args=(proc,), daemon=True).start()
        rows: dict[str, list[dict[str, Any]]] = {}
        ended = 0
        while ended < len(procs):
            got = lines.get()
            if got is None:
                ended += 1
                continue
            row = json.loads(got)
            rows.setdefault(row["node"], []).append(row)
            print(f"{row['node']:>6}: hand {row['hand']:>5}  rss {row['rss_kb']:>7} KiB  "
                  f"traced {row['traced_kb']:>6} KiB (tracemalloc itself {row['tracemalloc_kb']} KiB)  "
                  f"({row['seconds']} s)", flush=True)
            if len(rows) == 4 and all(r[-1]["hand"] >= args.hands for r in rows.values()):
                for proc in procs:
                    proc.terminate()
        for proc in procs:
            proc.wait()
        summary(rows)
        return 0 if all(len(r) == len(args.marks) for r in rows.values()) and len(rows) == 4 else 1


def summary(rows: dict[str, list[dict[str, Any]]]) -> None:
    for node in sorted(rows):
        marks = rows[node]
        print(f"{node}: " + ", ".join(f"hand {r['hand']}: rss {r['rss_kb'] / 1024:.1f} MiB, "
                                       f"traced {r['traced_kb'] / 1024:.2f} MiB" for r in marks))
        if len(marks) >= 2:
            a, b = marks[0], marks[-1]
            n = b["hand"] - a["hand"]
            print(f"{node}: hand {a['hand']} -> {b['hand']}: "
                  f"rss {(b['rss_kb'] - a['rss_kb']) / 1024:+.1f} MiB "
                  f"({(b['rss_kb'] - a['rss_kb']) / n:+.2f} KiB/hand), traced "
                  f"{(b['traced_kb'] - a['traced_kb']) / 1024:+.2f} MiB "
                  f"({(b['traced_kb'] - a['traced_kb']) / n:+.2f} KiB/hand)")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=1000, help="hands to play (default 1000)")
    p.add_argument("--marks", type=int, nargs="*", help="hands at which to measure (default 10 100 1000)")
    p.add_argument("--dealing", default="commit-reveal/1",
                   help="the dealing scheme (default commit-reveal/1: the fastest)")
    p.add_argument("--in-process", action="store_true", help="all four nodes in this process")
    p.add_argument("--top", type=int, default=0, help="print the N allocation sites that grew most")
    p.add_argument("--no-trace", action="store_true", help="RSS only (no tracemalloc, which costs memory "
                   "and time itself)")
    p.add_argument("--frames", type=int, default=1, help="frames of each allocation's traceback (default 1)")
    p.add_argument("--limit", type=float, default=6 * 3600.0, help="stop after this many seconds")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--state", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--table", help=argparse.SUPPRESS)
    p.add_argument("--rules", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    marks = sorted({m for m in (args.marks or DEFAULT_MARKS) if m <= args.hands} | {args.hands})
    args.marks = marks
    if args.child:
        child(args)
        return 0
    if args.in_process:
        rows: list[dict[str, Any]] = []

        def show(row: dict[str, Any]) -> None:
            rows.append(row)
            print(f"all four: hand {row['hand']:>5}  rss {row['rss_kb']:>7} KiB  "
                  f"traced {row['traced_kb']:>6} KiB  ({row['seconds']} s)", flush=True)
        trio.run(lambda: in_process(args.hands, args.dealing, marks, args.top, args.frames,
                                    not args.no_trace, show))
        summary({"all four": rows})
        return 0
    return processes(args)


if __name__ == "__main__":
    sys.exit(main())
