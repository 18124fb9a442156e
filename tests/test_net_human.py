"""Two people at two terminals: ``tarock host --bots 2`` and ``tarock join`` in
pseudo-terminals play a hand together (the terminal of ``tarock play`` at both ends)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import time
from pathlib import Path

from net_procs import CLI, ROOT, env


class Terminal:
    """A program on a pseudo-terminal; the test reads the screen and types lines."""

    def __init__(self, argv: list[str], environ: dict[str, str]) -> None:
        self.fd, child = pty.openpty()
        self.proc = subprocess.Popen(argv, stdin=child, stdout=child, stderr=child, cwd=ROOT, env=environ,
                                     close_fds=True, start_new_session=True)
        os.close(child)
        self.seen = ""

    def read(self, timeout: float) -> str:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return ""
        try:
            chunk = os.read(self.fd, 65536).decode("utf-8", "replace")
        except OSError:
            return ""
        self.seen += chunk
        return chunk

    def until(self, pattern: str, timeout: float, start: int = 0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.seen, start)
            if found:
                return found
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{pattern!r} did not appear; the terminal showed:\n{self.seen[-3000:]}")
            self.read(min(left, 0.5))

    def drain(self) -> None:
        """Read what the program wrote before it ended."""
        while self.read(0.5):
            pass

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\n")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        os.close(self.fd)


def _answer_prompts(terms: list[Terminal], done: str, timeout: float) -> None:
    """Type the first choice at every prompt of either terminal until both show ``done``."""
    answered = [0, 0]
    deadline = time.monotonic() + timeout
    while not all(done in t.seen for t in terms):
        assert time.monotonic() < deadline, "\n=====\n".join(t.seen[-2000:] for t in terms)
        for i, t in enumerate(terms):
            t.read(0.05)
            prompts = t.seen.count("\n> ") + t.seen.count("turn (")
            waiting = t.seen.rstrip(" ").endswith(">")
            if waiting and prompts > answered[i]:
                answered[i] = prompts
                t.type("1")


def test_host_and_join_at_two_terminals_play_a_hand(tmp_path: Path) -> None:
    environ = env(tmp_path / "state")
    common = ["--interface", "127.0.0.1", "--state", str(tmp_path / "state"), "--heartbeat", "0.5"]
    host = Terminal([*CLI, "host", "--lang", "en", "--bots", "2", "--rounds",
                     "1", "--variant",
                     "tarock54", "--name", "Stammtisch", "--player", "Anna", "--records", str(tmp_path / "a"),
                     *common], environ)
    guest: Terminal | None = None
    try:
        host.until(r"Table 'Stammtisch' is open", 60)
        guest = Terminal([*CLI, "join", "Stammtisch", "--lang", "en",
                          "--player", "Berni", "--records", str(tmp_path / "b"), "--wait", "20", *common],
                         environ)
        guest.until(r"Joined table 'Stammtisch'", 60)
        host.until(r"=== Round 1 of 1", 60)
        guest.until(r"=== Round 1 of 1", 60)
        for t in (host, guest):
            t.until(r"Your hand: ", 30)
        _answer_prompts([host, guest], "Final standings after 1 round", 120)
        assert host.proc.wait(timeout=30) == 0
        assert guest.proc.wait(timeout=30) == 0
        for t in (host, guest):
            t.drain()
        for t, me, other in ((host, "Anna", "Berni"), (guest, "Berni", "Anna")):
            assert "Traceback" not in t.seen
            tail = t.seen[t.seen.index("Final standings"):]
            assert me in tail and other in tail and "Bot 1" in tail
            assert "your turn" in t.seen  # each person was asked to act
        mine = sorted((tmp_path / "a").glob("*.json"))
        theirs = sorted((tmp_path / "b").glob("*.json"))
        assert mine and [p.read_bytes() for p in mine] == [p.read_bytes() for p in theirs]
        record = json.loads(mine[-1].read_text())
        assert record["net"]["round"] == 1 and not record["net"]["bots"]
    finally:
        host.close()
        if guest is not None:
            guest.close()
