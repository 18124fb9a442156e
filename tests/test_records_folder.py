"""The records folder, with real ``tarock`` processes on loopback.

- Four bots sharing one ``--records`` folder (several tables in a row): every node writes
  every hand under a name of its own, the records are identical, none fails, and no
  temporary file is left.
- A records folder that cannot be written (a file in its place, a read-only mount) stops
  every command that would write it before it starts: one line, status 2, no traceback.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections import defaultdict
from pathlib import Path

import pytest
from net_procs import ROOT, env, events, hand_file, tarock
from netns import Procs
from test_net_disk_full import (
    RUN,
    assert_one_line,
    exit_status,
    fill,
    hands_stored,
    in_tmpfs,
    inside,
    needs_mount,
)

from tarock.core.record import replay

LOOP = ("--interface", "127.0.0.1")
NAME = re.compile(r"^table-[0-9a-f]{12}-r\d\d-d\d{3}-([0-9a-f]{8})\.json$")


def english(state: Path) -> dict[str, str]:
    """A node's environment, in English: the lines checked here are the English ones (the German
    ones: tests/test_cli_line.py)."""
    return {**env(state), "LANGUAGE": "en"}


def _four_bots_into(tmp: Path, records: Path, run: int) -> None:
    state = tmp / f"state-{run}"
    with Procs(log_dir=tmp / f"logs-{run}", lifetime=150) as procs:
        bots = [procs.spawn(tarock("bot", "--name", f"b{i}", "--rounds", "2", "--json", "--records",
                                   str(records), "--state", str(state), "--seat-timeout", "4",
                                   "--heartbeat", "0.25", "--seed", str(i), *LOOP),
                            name=f"b{i}-{run}", env=english(state), cwd=ROOT) for i in range(4)]
        for b in bots:
            assert b.wait(timeout=120) == 0, b.tail()
    for b in bots:
        assert not any("Traceback" in line for line in b.lines()), b.tail()
    assert len({events(b, "seated")[-1]["host"] for b in bots}) == 1  # one table of the four


def test_four_bots_sharing_a_records_folder_each_write_every_hand(tmp_path: Path) -> None:
    records = tmp_path / "shared"
    tables: set[str] = set()
    for run in range(3):
        before = set(records.glob("*")) if records.exists() else set()
        _four_bots_into(tmp_path, records, run)
        new = sorted(set(records.glob("*")) - before)
        assert new and all(p.suffix == ".json" for p in new), [p.name for p in new]  # no temporary left
        by_node: dict[str, dict[str, bytes]] = defaultdict(dict)
        for path in new:
            match = NAME.match(path.name)
            assert match, path.name
            by_node[match.group(1)][hand_file(path.name)] = path.read_bytes()
        assert len(by_node) == 4, sorted(by_node)  # four nodes, a file each per hand
        hands = list(by_node.values())
        assert all(h == hands[0] for h in hands)  # the same hands, the same records
        for data in hands[0].values():
            played = replay(json.loads(data))
            assert played.error_index is None and played.hand is not None and played.hand.done
        tables |= {name.split("-")[1] for name in hands[0]}
    assert len(tables) == 3  # a table per run, none overwrote another's files


def _one_line(done: subprocess.CompletedProcess[str], folder: Path, why: str) -> str:
    out = done.stdout + done.stderr
    assert "Traceback" not in out, out
    found = [line for line in out.splitlines() if str(folder) in line]
    assert len(found) == 1 and why in found[0], out
    return found[0]


COMMANDS = {
    "bot": ("bot", "--name", "b", "--rounds", "1", *LOOP, "--wait", "5"),
    "host": ("host", "--bots", "3", "--rounds", "1", *LOOP),
    "join": ("join", "somewhere", *LOOP, "--wait", "1"),
    "play": ("play", "--plain", "--rounds", "1"),
    "selfplay": ("selfplay", "--hands", "1"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_file_in_place_of_the_records_folder_is_one_line_and_status_2(tmp_path: Path, command: str) -> None:
    records = tmp_path / "rec"
    records.write_text("not a folder")
    done = subprocess.run(tarock(*COMMANDS[command], "--records", str(records)), capture_output=True,
                          text=True, timeout=60, cwd=ROOT, env=english(tmp_path / "state"),
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stdout + done.stderr
    line = _one_line(done, records, "it is a file, not a folder")
    assert line.endswith(f"cannot write the records folder {records}: it is a file, not a folder"), line
    assert records.read_text() == "not a folder"
    assert not list(tmp_path.glob("state/*.sqlite"))  # refused before the node opened its store


@needs_mount
@pytest.mark.parametrize("command", ["host", "play"])
def test_a_read_only_records_folder_is_one_line_and_status_2(tmp_path: Path, command: str) -> None:
    records = tmp_path / "rec"
    records.mkdir()
    argv = tarock(*COMMANDS[command], "--records", str(records))
    done = subprocess.run(in_tmpfs("ro,size=64k", records, argv, RUN), capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=english(tmp_path / "state"), stdin=subprocess.DEVNULL)
    assert done.returncode == 2, done.stdout + done.stderr
    assert _one_line(done, records, "Read-only file system").endswith(
        f"cannot write the records folder {records}: Read-only file system")


def _at_a_terminal(argv: list[str], tmp: Path) -> tuple[int, str]:
    """Run ``argv`` with a terminal as its input and output (the full-screen client starts
    there); its status and what it wrote to stderr."""
    master, slave = os.openpty()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=english(tmp / "state"), start_new_session=True)
    os.close(slave)
    try:
        _out, err = proc.communicate(timeout=60)
        return proc.returncode, err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)
        os.close(master)


@pytest.mark.parametrize("command", [(), ("play",)], ids=["lobby", "play"])
@pytest.mark.parametrize("folder", ["--records", "--state"])
def test_the_full_screen_client_checks_its_folders_before_it_starts(tmp_path: Path, command: tuple[str, ...],
                                                                    folder: str) -> None:
    (tmp_path / "a-file").write_text("x")
    where = tmp_path / "a-file" / "sub"
    argv = tarock(*command, "--offline" if not command else "--new", folder, str(where))
    status, err = _at_a_terminal(argv, tmp_path)
    what = "records folder" if folder == "--records" else "state folder"
    prefix = "tarock: " if not command else "tarock play: "
    assert status == 2 and err.splitlines() == [
        f"{prefix}cannot write the {what} {where}: a part of the path is a file, not a folder"], err


@needs_mount
def test_a_host_whose_records_disk_fills_up_says_one_line_and_the_others_play_on(tmp_path: Path) -> None:
    """The node leaves cleanly (a bye, status 1): its store holds the hand whose file it could
    not write, and the same command started again resumes its seat and writes that file."""
    small = tmp_path / "small"
    small.mkdir()
    name = f"rec-{tmp_path.name}"
    state = tmp_path / "state-b0"
    argv = tarock("bot", "--name", "b0", "--rounds", "3", "--json", "--records", str(small), "--state",
                  str(state), "--seat-timeout", "4", "--heartbeat", "0.25", *LOOP, "--host", "--table", name,
                  "--seed", "0")
    with Procs(log_dir=tmp_path / "logs", lifetime=200) as procs:
        host = procs.spawn(in_tmpfs("size=1m", small, argv), name="b0", env=english(state), cwd=ROOT)
        seats = [procs.spawn(tarock("bot", "--name", f"b{i}", "--rounds", "3", "--json", "--records",
                                    str(tmp_path / f"rec-b{i}"), "--state", str(tmp_path / "state"),
                                    "--seat-timeout", "4", "--heartbeat", "0.25", *LOOP, "--table", name,
                                    "--seed", str(i)),
                             name=f"b{i}", env=english(tmp_path / "state"), cwd=ROOT) for i in (1, 2, 3)]
        host.wait_for_json(lambda e: e.get("event") == "hand", timeout=90)
        fill(inside(host, small))
        assert exit_status(host, 60) == 1
        line = assert_one_line(host, small, "No space left on device")
        assert f"cannot write the records folder {small}:" in line
        for p in seats:
            assert p.wait(timeout=150) == 0, p.tail()
        stored = hands_stored(state / "b0.sqlite")
        again = tmp_path / "rec-again"
        at = argv.index("--records") + 1
        restarted = procs.spawn([*argv[:at], str(again), *argv[at + 1:]], name="b0-again", env=english(state),
                                cwd=ROOT)
        until = time.monotonic() + 60
        while len(list(again.glob("table-*.json"))) < len(stored) and time.monotonic() < until:
            time.sleep(0.2)
        restarted.kill()
    written = [json.loads(p.read_text()) for p in again.glob("*.json")]
    assert stored and {int(r["net"]["deal"]): r for r in written} == stored  # every stored hand, now a file
