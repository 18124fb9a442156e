"""A node whose disk fills up, or whose folders cannot be written, says so in one line and
leaves: real ``tarock bot`` processes on loopback.

- At the start, a state folder or records folder that cannot be written (a read-only mount,
  a path through a file) or a damaged store: one line naming it and why, status 2, no
  traceback, and nothing written.
- During a table, the state folder's disk full (a tiny tmpfs, filled up): one line, a
  non-zero status, a ``bye`` to the host (which logs why at once), the table goes on
  without it, and its store still opens with every hand it had stored.  A host whose disk
  fills up: the same, its seats are told at once and a new host plays the table to its end.
- The same for the records folder's disk.
- ``tarock bot --json`` into a file: each event is in the file when it happens.

The small and read-only filesystems are mounted in a mount namespace of the bot's own
(``unshare -m``, as root); the test reaches into it through ``/proc/PID/root``.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from net_procs import ROOT, bot_args, env, events, tarock
from netns import Proc, Procs

from tarock.net.store import Store

LOOP = ("--interface", "127.0.0.1")
STAY = 'mount -t tmpfs -o "$0" tmpfs "$1" && shift && "$@"; echo "exit=$?"; exec sleep 120'
"""(``sh -c``, options and folder first) Mount a tmpfs in this mount namespace and run the
command there; then say its status and stay, so the test can read the tmpfs afterwards."""
RUN = 'mount -t tmpfs -o "$0" tmpfs "$1" && shift && exec "$@"'
"""The same without staying."""


def _can_mount() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=10)
    return probe.returncode == 0


needs_mount = pytest.mark.skipif(not _can_mount(), reason="needs root and unshare -m (a private tmpfs)")


def in_tmpfs(options: str, folder: Path, argv: Sequence[str], script: str = STAY) -> list[str]:
    return ["unshare", "-m", "sh", "-c", script, options, str(folder), *argv]


def inside(proc: Proc, path: Path) -> Path:
    """``path`` as the process ``proc`` (in its own mount namespace) sees it."""
    return Path(f"/proc/{proc.pid}/root") / path.relative_to("/")


def fill(folder: Path) -> None:
    """Write into ``folder`` until its filesystem (a small tmpfs) is full."""
    disk = os.statvfs(folder)
    assert disk.f_blocks * disk.f_frsize <= 8 << 20, "not the small tmpfs"
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with pytest.raises(OSError) as full:
            for _ in range(4096):  # 256 MB at most: the tmpfs is full long before
                os.write(fd, b"\0" * 65536)
    finally:
        os.close(fd)
    assert full.value.errno == errno.ENOSPC


def exit_status(proc: Proc, timeout: float) -> int:
    line = proc.wait_for(r"^exit=\d+$", timeout=timeout)
    return int(line.removeprefix("exit="))


def complaints(proc: Proc, folder: Path) -> list[str]:
    """The lines that name ``folder`` (a bot without -v prints no others about it)."""
    return [line for line in proc.lines() if str(folder) in line]


def assert_one_line(proc: Proc, folder: Path, why: str) -> str:
    found = complaints(proc, folder)
    assert len(found) == 1, proc.tail()
    line = found[0]
    assert line.startswith("tarock bot: ") and why in line, line
    assert not any("Traceback" in x or "Exception Group" in x for x in proc.lines()), proc.tail()
    return line


def table_name(tmp: Path) -> str:
    return f"disk-{tmp.name}"


def start_table(procs: Procs, tmp: Path, rounds: int) -> list[Proc]:
    """A host (``-v``: it logs who left and why) and two players at a table of ``tmp``'s name."""
    name = table_name(tmp)
    out = [procs.spawn(bot_args("b0", tmp, rounds, *LOOP, "--host", "--table", name, "--seed", "0", "-v"),
                       name="b0", env=english(tmp / "state"), cwd=ROOT)]
    out += [procs.spawn(bot_args(f"b{i}", tmp, rounds, *LOOP, "--table", name, "--seed", str(i)),
                        name=f"b{i}", env=english(tmp / "state"), cwd=ROOT) for i in (1, 2)]
    return out


def victim_args(tmp: Path, rounds: int, state: Path, records: Path) -> list[str]:
    return tarock("bot", "--name", "b3", "--rounds", str(rounds), "--json", "--records", str(records),
                  "--state", str(state), "--seat-timeout", "4", "--heartbeat", "0.25", *LOOP,
                  "--table", table_name(tmp), "--seed", "3")


def english(state: Path) -> dict[str, str]:
    """A node's environment, in English: the lines checked here are the English ones (a bot's
    error lines start ``tarock bot:``)."""
    return {**env(state), "LANGUAGE": "en"}


def victim_env(tmp: Path) -> dict[str, str]:
    return english(tmp / "state")


def hands_stored(path: Path) -> dict[int, object]:
    store = Store(path)  # quick_check at the open: a damaged file would raise here
    try:
        table = store.current_table()
        assert table is not None
        return {deal: record for deal, record, _, _ in store.outcomes(table) if record is not None}
    finally:
        store.close()


@needs_mount
def test_a_full_state_disk_mid_table_is_one_line_a_bye_and_an_intact_store(tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.mkdir()
    records = tmp_path / "rec-b3"
    with Procs(log_dir=tmp_path / "logs", lifetime=200) as procs:
        host, *players = start_table(procs, tmp_path, 6)
        victim = procs.spawn(in_tmpfs("size=4m", small, victim_args(tmp_path, 6, small, records)),
                             name="b3", env=victim_env(tmp_path), cwd=ROOT)
        victim.wait_for_json(lambda e: e.get("event") == "hand", timeout=90)
        fill(inside(victim, small))
        assert exit_status(victim, 60) == 1
        line = assert_one_line(victim, small, "No space left on device")
        assert f"cannot write the state folder {small}:" in line
        # The store on the full disk: copied out of the bot's namespace (the tmpfs goes with it).
        copy = tmp_path / "copy"
        copy.mkdir()
        for f in inside(victim, small).glob("b3.sqlite*"):
            shutil.copy(f, copy / f.name)
        victim.kill()
        # The host was told why at once (a bye), not after the silence timeout.
        said = host.wait_for(r"b3 \(\w+\) left: cannot write the state folder .*\(leaving\)", timeout=30)
        assert str(small) in said
        # The table goes on without it, to its end.
        for p in [host, *players]:
            assert p.wait(timeout=150) == 0, p.tail()
    stored = hands_stored(copy / "b3.sqlite")
    shown = events(victim, "hand")
    files = sorted(records.glob("table-*.json"))
    assert len(stored) >= len(shown) >= 1 and len(files) >= len(shown)
    for path in files:  # every hand it wrote out is in its store, the same record
        record = json.loads(path.read_text())
        assert stored[int(record["net"]["deal"])] == record


@needs_mount
def test_a_host_whose_disk_fills_up_says_bye_and_the_others_play_on(tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.mkdir()
    name = table_name(tmp_path)
    argv = tarock("bot", "--name", "b0", "--rounds", "3", "--json", "--records", str(tmp_path / "rec-b0"),
                  "--state", str(small), "--seat-timeout", "4", "--heartbeat", "0.25", *LOOP, "--host",
                  "--table", name, "--seed", "0")
    with Procs(log_dir=tmp_path / "logs", lifetime=200) as procs:
        host = procs.spawn(in_tmpfs("size=4m", small, argv), name="b0", env=english(tmp_path / "state"),
                           cwd=ROOT)
        seats = [procs.spawn(bot_args(f"b{i}", tmp_path, 3, *LOOP, "--table", name, "--seed", str(i),
                                      *(("-v",) if i == 1 else ())),
                             name=f"b{i}", env=english(tmp_path / "state"), cwd=ROOT) for i in (1, 2, 3)]
        host.wait_for_json(lambda e: e.get("event") == "hand", timeout=90)
        fill(inside(host, small))
        assert exit_status(host, 60) == 1
        assert "cannot write the state folder" in assert_one_line(host, small, "No space left on device")
        # Its seats were told (a bye: the seat whose message hit the full disk is told why, the
        # others that the node stopped), and a new host plays the table to its end.
        seats[0].wait_for(r"connection to the host ended: .*\(leaving\)$", timeout=30)
        for p in seats:
            assert p.wait(timeout=150) == 0, p.tail()
    hosts = {events(p, "seated")[-1]["host"] for p in seats}
    assert len(hosts) == 1 and events(host, "seated")[-1]["host"] not in hosts


@needs_mount
def test_a_full_records_disk_mid_table_is_one_line_and_the_store_keeps_the_hand(tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.mkdir()
    state = tmp_path / "state-b3"
    with Procs(log_dir=tmp_path / "logs", lifetime=150) as procs:
        host, *_players = start_table(procs, tmp_path, 6)
        victim = procs.spawn(in_tmpfs("size=1m", small, victim_args(tmp_path, 6, state, small)),
                             name="b3", env=victim_env(tmp_path), cwd=ROOT)
        victim.wait_for_json(lambda e: e.get("event") == "hand", timeout=90)
        written = len(list(inside(victim, small).glob("table-*.json")))
        fill(inside(victim, small))
        assert exit_status(victim, 60) == 1
        line = assert_one_line(victim, small, "No space left on device")
        assert f"cannot write the records folder {small}:" in line
        host.wait_for(r"b3 \(\w+\) left: .*\(leaving\)", timeout=30)
    # The hand whose file could not be written is in the store (it is stored before the file).
    stored = hands_stored(state / "b3.sqlite")
    assert len(stored) > written >= 1


def start_alone(argv: Sequence[str], tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env=victim_env(tmp))


def one_line(done: subprocess.CompletedProcess[str], folder: Path, why: str) -> str:
    out = done.stdout + done.stderr
    assert "Traceback" not in out, out
    found = [line for line in out.splitlines() if str(folder) in line]
    assert len(found) == 1 and why in found[0], out
    return found[0]


def lone_bot(tmp: Path, state: Path, records: Path) -> list[str]:
    return tarock("bot", "--name", "b3", "--rounds", "1", "--json", "--state", str(state), "--records",
                  str(records), *LOOP, "--table", table_name(tmp), "--wait", "5")


def a_store_with_a_hand(path: Path) -> bytes:
    store = Store(path)
    store.node_id()
    store.save_table("ab" * 16, {"name": "t"}, {"epoch": 1, "seat": 2})
    store.save_outcome("ab" * 16, 1, {"deal": 1, "pad": "x" * 20000})
    store.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path.read_bytes()


@needs_mount
def test_a_read_only_state_folder_stops_the_node_at_once_and_keeps_its_store(tmp_path: Path) -> None:
    state = tmp_path / "state-b3"
    state.mkdir()
    before = a_store_with_a_hand(state / "b3.sqlite")
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    done = start_alone(["unshare", "-m", "sh", "-c", script, str(state),
                        *lone_bot(tmp_path, state, tmp_path / "rec")], tmp_path)
    assert done.returncode == 2
    line = one_line(done, state, "Read-only file system")
    assert line == f"tarock bot: cannot write the state folder {state}: Read-only file system"
    assert (state / "b3.sqlite").read_bytes() == before
    assert hands_stored(state / "b3.sqlite") == {1: {"deal": 1, "pad": "x" * 20000}}


@needs_mount
def test_a_read_only_records_folder_stops_the_node_at_once(tmp_path: Path) -> None:
    records = tmp_path / "rec"
    records.mkdir()
    done = start_alone(in_tmpfs("ro,size=64k", records, lone_bot(tmp_path, tmp_path / "state", records), RUN),
                       tmp_path)
    assert done.returncode == 2
    assert one_line(done, records, "Read-only file system") == \
        f"tarock bot: cannot write the records folder {records}: Read-only file system"


def test_a_state_folder_under_a_file_stops_the_node_at_once(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    state = tmp_path / "a-file" / "state"
    done = start_alone(lone_bot(tmp_path, state, tmp_path / "rec"), tmp_path)
    assert done.returncode == 2
    one_line(done, state, "a part of the path is a file, not a folder")
    assert (tmp_path / "a-file").read_text() == "x"


def test_a_damaged_store_without_its_key_stops_the_node_at_once_and_is_left_as_it_was(tmp_path: Path) -> None:
    state = tmp_path / "state-b3"
    state.mkdir()
    whole = a_store_with_a_hand(state / "b3.sqlite")
    (state / "b3.key").unlink()  # a store of a version that kept the key inside: no key file
    damaged = b"\xa5" * 8192 + whole[8192: len(whole) // 2]  # cut short, its first pages overwritten
    (state / "b3.sqlite").write_bytes(damaged)
    done = start_alone(lone_bot(tmp_path, state, tmp_path / "rec"), tmp_path)
    assert done.returncode == 2
    line = one_line(done, state, "the file is damaged")
    assert line.startswith(f"tarock bot: cannot use the store {state / 'b3.sqlite'}: ")
    assert line.endswith(f"the node's key is neither in it nor in {state / 'b3.key'}: restore the state "
                         f"folder from a backup, or move {state / 'b3.sqlite'} away to start as a new player")
    assert (state / "b3.sqlite").read_bytes() == damaged and not (state / "b3.key").exists()


def test_a_damaged_store_with_its_key_is_kept_aside_and_made_anew(tmp_path: Path) -> None:
    state = tmp_path / "state-b3"
    state.mkdir()
    whole = a_store_with_a_hand(state / "b3.sqlite")
    key = (state / "b3.key").read_bytes()
    damaged = whole[: len(whole) // 2]  # a store cut short (a disk that filled up under a copy)
    (state / "b3.sqlite").write_bytes(damaged)
    done = start_alone(lone_bot(tmp_path, state, tmp_path / "rec"), tmp_path)
    assert done.returncode == 1  # no table found in 5 s: it looked for one, with its old identity
    line = one_line(done, state, "the file is damaged")
    path = state / "b3.sqlite"
    assert line.startswith(f"tarock bot: the store {path} is damaged (the file is damaged")
    assert line.endswith(f"kept as {path}.damaged, a new store made: this node rejoins its table as a node "
                         "that lost its memory")
    assert (state / "b3.sqlite.damaged").read_bytes() == damaged and (state / "b3.key").read_bytes() == key
    again = Store(path)
    assert again.outcomes("ab" * 16) == [] and again.node_id() == a_node_of(key)  # the same node
    again.close()


def a_node_of(key: bytes) -> str:
    from tarock.net.identity import Identity

    return Identity(bytes.fromhex(key.decode().strip())).node


def test_bot_json_events_reach_a_file_while_it_runs(tmp_path: Path) -> None:
    """Into a file Python would buffer blocks: the bot's first event must be there at once."""
    out = tmp_path / "events.jsonl"
    plain = {k: v for k, v in victim_env(tmp_path).items() if k != "PYTHONUNBUFFERED"}
    argv = tarock("bot", "--name", "lone", "--rounds", "1", "--json", "--state", str(tmp_path / "state"),
                  *LOOP, "--host", "--table", table_name(tmp_path), "--wait", "60")
    with out.open("wb") as sink:
        proc = subprocess.Popen(argv, stdout=sink, stderr=subprocess.PIPE, env=plain, cwd=ROOT,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        seen: list[dict[str, object]] = []
        while not seen and time.monotonic() < deadline and proc.poll() is None:
            seen = [json.loads(x) for x in out.read_text().splitlines() if x.startswith("{")]
            time.sleep(0.1)
        assert proc.poll() is None, proc.communicate(timeout=10)
        assert seen and seen[0]["event"] == "open", out.read_text()
    finally:
        proc.kill()
        proc.communicate(timeout=10)


def test_selfplay_with_a_records_folder_under_a_file_stops_at_once(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    records = tmp_path / "a-file" / "rec"
    done = start_alone(tarock("selfplay", "--hands", "1", "--records", str(records)), tmp_path)
    assert done.returncode == 2
    line = one_line(done, records, "a part of the path is a file")
    why = "a part of the path is a file, not a folder"
    assert line == f"tarock selfplay: cannot write the records folder {records}: {why}"


@needs_mount
def test_selfplay_whose_records_disk_fills_up_says_so_and_keeps_whole_records(tmp_path: Path) -> None:
    records = tmp_path / "rec"
    records.mkdir()
    script = 'd="$1"; mount -t tmpfs -o "$0" tmpfs "$d" && shift && "$@"; echo "exit=$?"; ls "$d"; cat "$d"/*'
    selfplay = tarock("selfplay", "--hands", "12", "--seed", "1", "--records", str(records))
    done = start_alone(["unshare", "-m", "sh", "-c", script, "size=12k", str(records), *selfplay], tmp_path)
    assert "exit=1" in done.stdout.splitlines(), done.stdout + done.stderr
    assert one_line(done, records, "No space left on device") == \
        f"tarock selfplay: cannot write the records folder {records}: No space left on device"
    listed = [x for x in done.stdout.splitlines() if x.startswith("table-")]
    assert listed and all(x.endswith(".json") for x in listed)  # no half-written temporary left
    whole = [x for x in done.stdout.splitlines() if x.startswith("{")]
    assert len(whole) == len(listed) and all(json.loads(x) for x in whole)  # every file a whole record
