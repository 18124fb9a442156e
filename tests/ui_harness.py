"""Driving the full-screen client in tests: real key presses in, a real terminal's screen out.

The application reads a prompt-toolkit pipe input (the bytes a terminal
sends for each key) and writes VT100 output into a pyte terminal emulator,
so a test reads the screen a player would see: characters, colours, bold,
reverse.  Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pyte
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.color_depth import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output

KEYS = {
    "enter": "\r",
    "esc": "\x1b",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "space": " ",
    "tab": "\t",
    "f1": "\x1bOP",
    "f2": "\x1bOQ",
    "backspace": "\x7f",
    "c-c": "\x03",
    "pgdn": "\x1b[6~",
    "pgup": "\x1b[5~",
}


class _Sink(io.StringIO):
    """What the application writes, fed to the emulator."""

    def __init__(self, terminal: Terminal) -> None:
        super().__init__()
        self.terminal = terminal

    def write(self, text: str) -> int:
        self.terminal.stream.feed(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        raise io.UnsupportedOperation("no file descriptor")


@dataclass
class Cell:
    char: str
    fg: str
    bold: bool
    reverse: bool
    underline: bool


class Terminal:
    """A pyte screen of ``cols`` x ``rows`` with an output that draws into it."""

    def __init__(self, cols: int = 100, rows: int = 32) -> None:
        self.cols, self.rows = cols, rows
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)
        self.output = Vt100_Output(
            _Sink(self),
            lambda: Size(rows=self.rows, columns=self.cols),
            term="xterm-256color",
            default_color_depth=ColorDepth.DEPTH_24_BIT,
        )

    def resize(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.screen.resize(rows, cols)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def line(self, row: int) -> str:
        return self.screen.display[row]

    def find(self, needle: str) -> tuple[int, int] | None:
        for row, line in enumerate(self.screen.display):
            col = line.find(needle)
            if col >= 0:
                return row, col
        return None

    def cell(self, row: int, col: int) -> Cell:
        c = self.screen.buffer[row][col]
        return Cell(c.data, c.fg, c.bold, c.reverse, c.underscore)


class Driver:
    """Keys into the application and waits on what the screen shows."""

    def __init__(self, terminal: Terminal, pipe: PipeInput) -> None:
        self.term = terminal
        self.pipe = pipe

    def press(self, *keys: str) -> None:
        for key in keys:
            self.pipe.send_text(KEYS.get(key, key))

    def click(self, row: int, col: int) -> None:
        """A mouse click (press and release) at a screen cell, as xterm reports it (SGR mode)."""
        self.pipe.send_text(f"\x1b[<0;{col + 1};{row + 1}M\x1b[<0;{col + 1};{row + 1}m")

    async def wait_for(self, predicate: Callable[[str], bool] | str, timeout: float = 20.0) -> str:
        """Wait until the screen's text has ``predicate`` (a substring or a test); return the text."""
        test = (lambda text: predicate in text) if isinstance(predicate, str) else predicate
        deadline = time.monotonic() + timeout
        while True:
            await asyncio.sleep(0.02)
            text = self.term.text()
            if test(text):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed {predicate!r}; it shows:\n{text}")

    async def wait_any(self, *needles: str, timeout: float = 20.0) -> str:
        """Wait until one of ``needles`` shows; return it."""
        text = await self.wait_for(lambda t: any(n in t for n in needles), timeout)
        return next(n for n in needles if n in text)

    async def settle(self, pause: float = 0.15) -> str:
        """Wait until the screen stops changing for ``pause`` seconds (bounded)."""
        before = self.term.text()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            await asyncio.sleep(pause)
            now = self.term.text()
            if now == before:
                return now
            before = now
        return before


@contextmanager
def session(cols: int = 100, rows: int = 32) -> Iterator[Driver]:
    """A pipe input and a terminal as the current app session's input and output."""
    term = Terminal(cols, rows)
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=term.output):
        yield Driver(term, pipe)


def run(
    main: Callable[[], Awaitable[object]],
    script: Callable[[Driver], Awaitable[None]],
    cols: int = 100,
    rows: int = 32,
    timeout: float = 240.0,
) -> object:
    """Run the application coroutine ``main`` while ``script`` drives it; bounded by ``timeout``.

    Returns what ``main`` returned.  A failing script stops the application.
    """

    async def both() -> object:
        with session(cols, rows) as driver:
            app = asyncio.ensure_future(main())
            try:
                await asyncio.wait_for(script(driver), timeout)
                try:
                    return await asyncio.wait_for(app, 30)
                except TimeoutError:
                    shows = driver.term.text()
                    why = f"the application did not end 30 s after the script; it shows:\n{shows}"
                    raise AssertionError(why) from None
            finally:
                if not app.done():
                    app.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await asyncio.wait_for(app, 10)

    return asyncio.run(both())


def rows_with(text: str, pattern: str) -> list[str]:
    return [line for line in text.splitlines() if re.search(pattern, line)]


class PtyProgram:
    """The real ``tarock`` program on a pseudo-terminal, its screen in a pyte emulator."""

    def __init__(
        self,
        args: list[str],
        cols: int = 100,
        rows: int = 32,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
    ) -> None:
        import fcntl
        import os
        import pty
        import struct
        import subprocess
        import sys
        import termios
        import threading

        self.cols, self.rows = cols, rows
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.lock = threading.Lock()
        self.raw = bytearray()
        main, child = pty.openpty()
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.fd = main
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tarock.client.cli", *args],
            stdin=child,
            stdout=child,
            stderr=child,
            env={**os.environ, **(env or {}), "TERM": "xterm-256color"},
            cwd=cwd,
            close_fds=True,
            start_new_session=True,
        )
        os.close(child)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        import os

        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.raw.extend(chunk)
                self.stream.feed(chunk)

    def text(self) -> str:
        with self.lock:
            return "\n".join(line.rstrip() for line in self.screen.display)

    def send(self, *keys: str) -> None:
        import os

        for key in keys:
            os.write(self.fd, KEYS.get(key, key).encode())
            time.sleep(0.05)

    def wait_for(self, needle: str | Callable[[str], bool], timeout: float = 30.0) -> str:
        test = (lambda t: needle in t) if isinstance(needle, str) else needle
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if test(text):
                return text
            if self.proc.poll() is not None and not test(self.text()):
                raise AssertionError(f"the program ended ({self.proc.returncode}) before {needle!r}:\n{text}")
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed {needle!r}; it shows:\n{text}")
            time.sleep(0.05)

    def resize(self, cols: int, rows: int) -> None:
        import fcntl
        import signal
        import struct
        import termios

        self.cols, self.rows = cols, rows
        with self.lock:
            self.screen.resize(rows, cols)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc.send_signal(signal.SIGWINCH)

    def wait(self, timeout: float = 30.0) -> int:
        return self.proc.wait(timeout=timeout)

    def output(self) -> str:
        with self.lock:
            return self.raw.decode("utf-8", "replace")

    def close(self) -> None:
        import os

        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        with contextlib.suppress(OSError):
            os.close(self.fd)
