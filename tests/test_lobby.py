"""``tarock play`` offers the enabled variants and preselects the 40-card game.

docs/rules.md §3.6: "Beim Eröffnen eines Tischs wählt man zwischen 54 Blatt und der
40-Blatt-Variante (in der Lobby vorausgewählt)."
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from net_procs import CLI

from tarock.client.human import Quit
from tarock.client.localcli import _offer
from tarock.core.plugins import load_plugins

ROOT = Path(__file__).resolve().parent.parent


def _lines(*answers: str) -> Iterator[str]:
    yield from answers


def test_the_lobby_preselects_the_forty_card_game(capsys: pytest.CaptureFixture[str], english: None) -> None:
    catalogue = load_plugins(ROOT / "plugins.toml")
    answers = _lines("")
    chosen = _offer(catalogue, lambda prompt: next(answers))
    assert chosen.name == "tarock40"
    out = capsys.readouterr().out
    assert "1. " in out and "(preselected)" in out.splitlines()[1]
    for name in catalogue.enabled:
        assert f"[{name}]" in out


def test_the_lobby_takes_a_number_or_a_name_and_refuses_the_rest(capsys: pytest.CaptureFixture[str],
                                                                 english: None) -> None:
    catalogue = load_plugins(ROOT / "plugins.toml")
    position = catalogue.enabled.index("tarock54") + 1
    answers = _lines("0", "tarock99", str(position))
    assert _offer(catalogue, lambda prompt: next(answers)).name == "tarock54"
    assert capsys.readouterr().out.count("Sorry:") == 2
    answers = _lines("tarock40-online")
    assert _offer(catalogue, lambda prompt: next(answers)).name == "tarock40-online"


def test_end_of_input_in_the_lobby_opens_no_table() -> None:
    def eof(prompt: str) -> str:
        raise EOFError
    with pytest.raises(Quit):
        _offer(load_plugins(ROOT / "plugins.toml"), eof)


def _read_until(fd: int, wanted: str, limit: float) -> str:
    seen = ""
    deadline = time.monotonic() + limit
    while wanted not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{wanted!r} did not appear; the terminal showed:\n{seen[-2000:]}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk.decode("utf-8", "replace")
    return seen


def test_play_on_a_terminal_starts_on_forty_cards(tmp_path: Path) -> None:
    """The line client (--plain) on a pseudo-terminal: Enter in its lobby opens a 40-card table."""
    main_fd, child_fd = pty.openpty()
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen(
        [*CLI, "play", "--plain", "--lang", "en", "--seed", "3", "--records",
         str(tmp_path)],
        stdin=child_fd, stdout=child_fd, stderr=child_fd, cwd=ROOT, env=env, close_fds=True)
    os.close(child_fd)
    try:
        _read_until(main_fd, "Variant [", 60)
        os.write(main_fd, b"\n")
        shown = _read_until(main_fd, "> ", 60)
        assert "[tarock40]" in shown
        os.write(main_fd, b"quit\n")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        os.close(main_fd)
