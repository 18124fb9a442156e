"""What is kept (issue 24): the real ``tarock`` program at a terminal (a pseudo-terminal read by a
terminal emulator, tests/ui_harness.py).

- starting another game keeps the first's saved table: both are listed in the lobby;
- a table played to its end is kept (its records replay to its sheet), its standings are printed
  on the terminal when the client closes, and the lobby offers its statistics and a replay viewer
  that steps through its hands;
- the player's name is asked once, at the first start, kept in the settings, shown in the lobby,
  and changed there with N.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from ui_harness import PtyProgram

from tarock.client.history import read_table
from tarock.client.text.figures import signed
from tarock.client.ui.network import PLAYER_STORE
from tarock.core.plugins import load_plugins
from tarock.net.node import Node
from tarock.net.transport import TcpTransport

ROOT = Path(__file__).resolve().parent.parent


def program(tmp: Path, *args: str) -> PtyProgram:
    env = {"LANG": "C.UTF-8", "LANGUAGE": "en", "LC_ALL": "", "TAROCK_CONFIG": str(tmp / "config")}
    return PtyProgram(["--state", str(tmp / "state"), "--records", str(tmp / "records"), *args], env=env,
                      cwd=str(ROOT))


def keys(p: PtyProgram, *steps: tuple[str, ...]) -> None:
    """Each step: wait for its words (the first) on screen, then press its keys; at the end the
    program exits (status 0)."""
    try:
        for words, *pressed in steps:
            p.wait_for(words, timeout=60)
            time.sleep(0.3)
            p.send(*pressed)
        assert p.wait(30) == 0
    finally:
        p.close()


def close_at_first_decision(tmp: Path, variant: str) -> None:
    """``tarock play --variant V`` until its first decision, then Q and "close, go on later"."""
    p = program(tmp, "--name", "Anna", "play", "--variant", variant, "--seed", "4", "--pace", "0")
    keys(p, ("F2", "q"), ("Leave the table?", "1"))
    assert "The table is saved" in p.output()


def test_starting_a_second_game_keeps_the_first(tmp_path: Path) -> None:
    close_at_first_decision(tmp_path, "tarock54")
    close_at_first_decision(tmp_path, "koenigrufen-club")
    saved = sorted(json.loads(f.read_text())["setup"]["variant"]
                   for f in (tmp_path / "state" / "tables").glob("*.json"))
    assert saved == ["koenigrufen-club", "tarock54"]
    lobby = program(tmp_path, "--name", "Anna", "--offline")
    try:
        text = lobby.wait_for("Play against bots")
        rows = [line for line in text.splitlines() if "Go on with a saved table" in line]
        assert len(rows) == 2, text
        assert any("Königrufen" in r for r in rows) and any("54 cards" in r for r in rows), text
        lobby.send("q")
        assert lobby.wait(30) == 0
    finally:
        lobby.close()


def play_to_the_end(tmp: Path) -> str:
    """A one-round table played by the keys on screen (the hint, then Enter); what the terminal shows
    after the client closed."""
    p = program(tmp, "--name", "Anna", "play", "--variant", "tarock54", "--rounds", "1", "--seed", "3",
                "--pace", "0", "--strength", "random")
    try:
        deadline = time.monotonic() + 180
        while p.proc.poll() is None:
            assert time.monotonic() < deadline, p.text()
            if "Final standings" in p.text():
                p.send("enter")
                time.sleep(0.3)
                continue
            p.send("h")
            time.sleep(0.1)
            p.send("enter")
            time.sleep(0.1)
        assert p.wait(30) == 0  # the table was played to its end
        return p.output().rpartition("\x1b[?1049l")[2]  # after the full screen was left
    finally:
        p.close()


def test_a_finished_table_is_kept_with_its_statistics_and_replay(tmp_path: Path) -> None:
    after = play_to_the_end(tmp_path)
    assert "54 cards (calling the XX): standings after 1 of 1 rounds" in after, after
    assert all(name in after for name in ("Anna", "Franz", "Hilde", "Sepp"))
    assert not list((tmp_path / "state" / "tables").glob("*.json"))
    [kept] = list((tmp_path / "state" / "history").glob("*.json"))
    table = read_table(kept, load_plugins(None))
    assert len(table.table.rows) == 1 and table.names[0] == "Anna" and table.hands[0].done
    steps = len(table.hands[0].state.actions)

    lobby = program(tmp_path, "--offline")  # no name given, none kept yet: the first start asks it
    try:
        lobby.wait_for("Welcome! Your name at the table")
        lobby.send(*"Resi", "enter")
        text = lobby.wait_for("Statistics")
        assert "Tarock · Resi" in text and "Replay a hand" in text
        rows = text.splitlines()
        first = next(i for i, line in enumerate(rows) if "Play against bots" in line)
        stats = next(i for i, line in enumerate(rows) if "Statistics" in line)
        lobby.send(*["down"] * (stats - first), "enter")
        page = lobby.wait_for("1 table finished, 1 hand played")
        assert "Anna" in page and "Sessions" in page and "1 of 1 rounds" in page
        lobby.send("esc")
        lobby.wait_for("Replay a hand")
        time.sleep(0.3)
        lobby.send("down", "enter")  # from the statistics' row to the replay's
        lobby.wait_for(f"step 0 of {steps}")
        viewer = lobby.wait_for("The deal, before the first action.")
        assert "Anna" in viewer and "(dealer)" in viewer
        lobby.send("right", "right")
        lobby.wait_for(f"step 2 of {steps}")
        assert "     2. " in lobby.text()
        lobby.send("left")
    except BaseException:
        lobby.close()
        raise
    keys(lobby, (f"step 1 of {steps}", "esc"), ("Replay a hand", "q"))
    assert json.loads((tmp_path / "config" / "settings.json").read_text())["name"] == "Resi"

    again = program(tmp_path, "--offline")  # kept: not asked again; N changes it
    keys(again, ("Tarock · Resi", "n"), ("Your name at the table", *["backspace"] * 4, *"Berta", "enter"),
         ("Tarock · Berta", "q"))
    assert json.loads((tmp_path / "config" / "settings.json").read_text())["name"] == "Berta"


def test_the_lobbys_node_keeps_its_identity_under_a_new_name(tmp_path: Path) -> None:
    """The lobby's node keeps one store whatever the player's name: the node id (its key) a host
    seats it by is the same under another name, so a saved seat is taken again."""
    catalogue = load_plugins(None)
    ids = []
    for name in ("Du", "Anna"):
        node = Node(name, catalogue, TcpTransport("127.0.0.1", 0), tmp_path, store=PLAYER_STORE)
        ids.append(node.me)
        node.store.close()
    assert ids[0] == ids[1]
    other = Node("Anna", catalogue, TcpTransport("127.0.0.1", 0), tmp_path / "other")
    assert other.me != ids[0]


def test_a_table_of_the_line_client_is_kept_too(tmp_path: Path) -> None:
    """``tarock play --plain`` played to its end: kept with the others, its hands replay to its sheet."""
    import subprocess

    from net_procs import CLI

    env = {"LANGUAGE": "en", "TAROCK_STATE": str(tmp_path / "state"), "PATH": "/usr/bin:/bin",
           "TAROCK_CONFIG": str(tmp_path / "config"), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([*CLI, "--name", "Toni", "play", "--plain", "--variant", "tarock54", "--rounds",
                           "1", "--seed", "2", "--strength", "random", "--no-records"], input="1\n" * 300,
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    [kept] = list((tmp_path / "state" / "history").glob("*.json"))
    table = read_table(kept, load_plugins(None))
    assert table.names == ["Toni", "Franz", "Hilde", "Sepp"] and len(table.table.rows) == 1
    assert "Final standings after 1 round:" in done.stdout
    final = done.stdout[done.stdout.index("Final standings"):].splitlines()
    totals = table.table.rows[-1].totals
    for seat, name in enumerate(table.names):  # the kept sheet is the one played
        [line] = [line for line in final if f" {name} " in line]
        assert line.rstrip().endswith(f"TP {signed(totals[seat])}"), (line, totals)


def test_a_kept_page_scrolls_to_its_last_wrapped_line_and_no_further() -> None:
    """The statistics page wraps long lines, and its scroll is bounded by the wrapped lines, so
    the last line can always be brought onto the screen; the replay viewer shows its newest
    lines (the action just replayed, the settlement) when the page is longer than the screen."""
    from tarock.client.ui.history_pages import _page, wrapped

    lines = [f"line {i} " + "word " * 30 for i in range(30)]  # each wraps to three rows at 80
    top = [10_000]
    shown = _page("S", lines, "keys", top, "", 80, 24).text()
    assert "line 29" in shown and "line 0 " not in shown
    assert len(wrapped(lines, 76)) == 90
    assert top[0] == 90 - 20  # clamped to the last screenful (20 rows under the title)
    assert "line 0 " in _page("S", lines, "keys", [0], "", 80, 24).text()
    assert "line 29" in _page("S", lines, "keys", None, "", 80, 24).text()
