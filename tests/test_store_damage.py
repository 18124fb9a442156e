"""A node whose store is damaged, rolled back or emptied between two runs: four real
``tarock bot --json`` nodes in a lab (network namespaces on a bridge, as
tests/test_faults_acceptance.py), one of them (not the host) killed after a few hands, its
state folder damaged, and started again with the same command:

- an older copy of its store restored (a backup, or a write-ahead log that was lost);
- its write-ahead log damaged;
- its store truncated; pages of it overwritten with garbage;
- its store emptied (the file removed; the signing key kept beside it).

Each ends in one clear line from the damaged node and a table that goes on to its end, as
the soak's checker (tests/soak_check.py) sees it: identical records and totals, one
outcome per deal, every round counted once, and nobody named (least of all the honest node
whose disk failed).  A store that cannot be used at all (and no key beside it) stops the
node with one line naming the file.  Every wait is bounded, and each test as a whole.

The five cases are independent (each damages one node's own state folder between two of its
runs), so they are done one after the other at one table (:func:`damaged_table`, run once for
the module): the lab is built, the nodes sit down and the table ends once, not five times.
Each case waits until its node counts hands again before the next begins; each test checks
its own case's line and the checker's verdict over the whole table.  ``python
tests/test_store_damage.py CASE FOLDER`` runs one case alone at a table of its own.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytest
from netns import Proc, ProcTimeout
from soak_check import Report, summary_lines
from soak_nemesis import current_host
from test_faults_acceptance import (
    FIRST_HAND,
    MARGIN,
    SEAT_WAIT,
    SEATS,
    Run,
    end_and_check,
    skip_without_lab,
    still_playing,
    table,
    verdict,
    wait_first_hand,
)


def rounds(cases: int) -> int:
    """A table's rounds: a case takes 12 of its node's hands and one or so to come back; about
    30 are played after the last case (as after the damage at a table of one case, 40 rounds)."""
    return 30 + 13 * cases


def bound(cases: int) -> float:
    return SEAT_WAIT + FIRST_HAND + 300.0 + 240.0 * cases + MARGIN


def backup(state: Path, to: Path) -> None:
    """A consistent copy of every store in ``state`` (SQLite's online backup), and the key files."""
    to.mkdir(parents=True, exist_ok=True)
    for path in sorted(state.glob("*.sqlite")):
        src = sqlite3.connect(path)
        dst = sqlite3.connect(to / path.name)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
    for path in sorted(state.glob("*.key")):
        shutil.copy2(path, to / path.name)


def hands_at(run: Run, i: int) -> int:
    return len(run.bots[i].events("hand"))


def wait_hands(run: Run, i: int, count: int, timeout: float) -> None:
    """Until bot ``i`` has counted ``count`` hands (woken by each line it prints; it must not
    exit, nor take more than ``timeout`` s)."""
    bot = run.bots[i]
    before = sum(e.get("event") == "hand" for proc in bot.earlier for e in proc.json_lines())
    seen = 0

    def enough(event: dict[str, Any]) -> bool:
        nonlocal seen
        seen += event.get("event") == "hand"
        return before + seen >= count

    try:
        bot.proc.wait_for_json(enough, timeout=timeout)
    except ProcTimeout:
        raise AssertionError(f"{bot.name} counted {hands_at(run, i)}, not {count}") from None


@dataclass
class Damaged:
    """What became of the cases done at one table: each case's node and the process started on
    its damaged state folder, and the checker's report over the whole table."""

    run: Run
    report: Report
    nodes: dict[str, int] = field(default_factory=dict)
    restarted: dict[str, Proc] = field(default_factory=dict)

    def check(self, name: str) -> None:
        """The case's node said one clear line about its store (if one is expected), no node
        printed a traceback, and the checker found nothing over the whole table."""
        _, title, expect = CASES[name]
        assert name in self.restarted, f"the case {name!r} was not reached"
        bot = self.run.bots[self.nodes[name]]
        said = [line for line in self.restarted[name].lines() if "store" in line and not line.startswith("{")]
        print("\n".join([f"{title}: the damaged node {bot.name} said:", *said]), flush=True)
        for b in self.run.bots:
            assert not any("Traceback" in line for p in [*b.earlier, b.proc] for line in p.lines()), b.name
        if expect is not None:
            found = [line for line in said if expect in line]
            assert len(found) == 1, said
        print("\n".join(summary_lines(self.report)))
        verdict(self.run, self.report, f"{title}: {bot.name}")


def damage_one(run: Run, work: Path, name: str, damaged: Damaged) -> None:
    """One case: a node that does not host plays 3 more hands; a copy of its state folder is
    taken; it plays 9 more, is killed, the case's damage is done to its state folder, and it is
    started again; then it counts a hand again."""
    damage, title, _ = CASES[name]
    host = current_host(run.bots)
    assert host is not None, "no seated event names a host"
    victim = (host + 1 + len(damaged.nodes) % (SEATS - 1)) % SEATS  # the nodes not hosting, in turn
    bot = run.bots[victim]
    state = work / f"state-{bot.name}"
    start = hands_at(run, victim)
    wait_hands(run, victim, start + 3, 120.0)
    copy = work / f"copy-{name}"
    backup(state, copy)
    wait_hands(run, victim, start + 12, 120.0)
    still_playing(run, f"the store was damaged ({name})")
    run.mark(f"fault {name}")
    run.history.log("fault", fault="store", node=bot.name, what=title)
    run.nemesis._exits_seen.add(victim)
    bot.proc.kill()
    bot.proc.wait(timeout=10)
    damage(state, copy)
    bot.restart()
    damaged.nodes[name], damaged.restarted[name] = victim, bot.proc
    run.nemesis._exits_seen.discard(victim)
    run.history.log("heal", fault="store", node=bot.name)
    run.mark(f"heal {name}")
    wait_hands(run, victim, hands_at(run, victim) + 1, 120.0)  # back at the table


def damaged_table(work: Path, names: Sequence[str]) -> Damaged:
    """The cases ``names``, one after the other at one table; then the table ends and the soak's
    checker looks at it."""
    with table(work, rounds=rounds(len(names)), bound=bound(len(names))) as run:
        run.mark("seated")
        wait_first_hand(run)
        done = Damaged(run, Report())
        for name in names:
            damage_one(run, work, name, done)
        done.report = end_and_check(run, 300.0)
    return done


def restore_older(state: Path, copy: Path) -> None:
    """An older copy of the store put back (a backup restored): nothing at the node can tell."""
    for path in state.glob("*.sqlite*"):
        path.unlink()
    for path in copy.iterdir():
        shutil.copy2(path, state / path.name)


def store_of(state: Path) -> Path:
    found = [p for p in state.glob("*.sqlite") if not p.name.endswith(".host.sqlite")]
    assert len(found) == 1, found
    return found[0]


def damage_wal(state: Path, copy: Path) -> None:
    """One byte of the write-ahead log's first frame flipped: SQLite would drop every committed
    write after it without a word."""
    wal = Path(f"{store_of(state)}-wal")
    data = bytearray(wal.read_bytes())
    assert len(data) > 32 + 24 + 512, "the write-ahead log holds no frame"
    data[32 + 24 + 100] ^= 0xFF
    wal.write_bytes(bytes(data))


def only_the_file(path: Path) -> None:
    """Everything of the store in its main file (its write-ahead log checkpointed into it, as
    SQLite does every 1000 pages), the log gone."""
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def truncate(state: Path, copy: Path) -> None:
    """The store cut in half (a copy that stopped when a disk filled up)."""
    path = store_of(state)
    only_the_file(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def garbage_pages(state: Path, copy: Path) -> None:
    """Pages 2 to 4 of the store overwritten with garbage."""
    path = store_of(state)
    only_the_file(path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    data[page: 4 * page] = bytes((i * 151 + 7) & 0xFF for i in range(3 * page))
    path.write_bytes(bytes(data))


def emptied(state: Path, copy: Path) -> None:
    """The store emptied (its key file and seat file stay)."""
    path = store_of(state)
    only_the_file(path)
    path.write_bytes(b"")


CASES = {
    "older": (restore_older, "an older copy of the store restored", "this node lost its memory of the table"),
    "wal": (damage_wal, "its write-ahead log damaged", "write-ahead log is damaged"),
    "truncated": (truncate, "the store truncated", "the file is damaged"),
    "garbage": (garbage_pages, "pages of the store overwritten", "the file is damaged"),
    "emptied": (emptied, "the store emptied", "is empty (removed or emptied), but the node's key"),
}


@pytest.fixture(scope="module")
def five_cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Damaged]:
    skip_without_lab()
    yield damaged_table(tmp_path_factory.mktemp("store-damage"), list(CASES))


def test_an_older_copy_of_the_store_restored(five_cases: Damaged) -> None:
    five_cases.check("older")


def test_the_write_ahead_log_damaged(five_cases: Damaged) -> None:
    five_cases.check("wal")


def test_the_store_truncated(five_cases: Damaged) -> None:
    five_cases.check("truncated")


def test_pages_of_the_store_overwritten(five_cases: Damaged) -> None:
    five_cases.check("garbage")


def test_the_store_emptied(five_cases: Damaged) -> None:
    five_cases.check("emptied")


if __name__ == "__main__":  # python tests/test_store_damage.py CASE FOLDER
    name = sys.argv[1]
    damaged_table(Path(sys.argv[2]) / name, [name]).check(name)
    os._exit(0)
