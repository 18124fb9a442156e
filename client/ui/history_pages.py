"""The lobby's pages of what is kept: the statistics, the replay viewer, the player's name.

Each is a full-screen application of its own, opened from a lobby row
(:mod:`client.ui.lobby_model`: ``stats``, ``replay``, ``name``) and closed with Esc (or Q), back
to the lobby.  The statistics and the replayed hands come from the finished tables at this
terminal (:mod:`client.statistics`, :mod:`client.replay_view`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import HSplit, Layout, Window

from tarock.client.i18n import _
from tarock.client.replay_view import ReplayView
from tarock.client.settings import checked_name
from tarock.client.ui.canvas import Canvas, CanvasControl, clip
from tarock.client.ui.style import STYLE


def wrapped(lines: list[str], width: int) -> list[str]:
    """``lines`` fitted to ``width`` columns: a long one goes on, indented, on the next
    (no word is cut)."""
    out: list[str] = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        out += textwrap.wrap(line, max(10, width), subsequent_indent=indent) or [""]
    return out


def _page(title: str, lines: list[str], keys: str, top: list[int] | None, message: str, w: int,
          h: int) -> Canvas:
    """A page of ``lines`` wrapped to the screen from line ``top[0]`` (clamped, written back, so a
    scroll never passes the last screenful); with no ``top`` the page shows its last lines (the
    replay viewer's newest action)."""
    canvas = Canvas(w, h)
    canvas.put(0, 0, [("class:header.title", f" Tarock · {title} "[:w].ljust(w))])
    text = wrapped(lines, w - 4)
    rows = max(0, h - 4)
    last = max(0, len(text) - rows)
    if top is None:
        first = last
    else:
        top[0] = first = max(0, min(top[0], last))
    for i, line in enumerate(text[first: first + rows]):
        canvas.put(2 + i, 2, [("", line)])
    if message:
        canvas.put(h - 2, 2, clip([("class:message", message)], w - 4))
    canvas.put(h - 1, 0, [("class:status", " " + keys.ljust(w - 1)[: w - 1])])
    return canvas


def _application(draw: Callable[[int, int], Canvas], kb: KeyBindings) -> Application[None]:
    app: Application[None] = Application(
        layout=Layout(HSplit([Window(CanvasControl(draw, lambda tag: None))])),
        key_bindings=kb, style=STYLE, full_screen=True, mouse_support=False)
    return app


def _leave_keys(kb: KeyBindings) -> None:
    @kb.add("escape", eager=True)
    @kb.add("q")
    @kb.add("Q")
    @kb.add("c-c")
    def _back(event: KeyPressEvent) -> None:
        event.app.exit()


async def show_lines(title: str, lines: list[str]) -> None:
    """A page of text (the statistics) that scrolls, until Esc."""
    top = [0]
    kb = KeyBindings()
    _leave_keys(kb)

    def scroll(n: int) -> Callable[[KeyPressEvent], None]:
        def go(event: KeyPressEvent) -> None:
            top[0] = max(0, top[0] + n)  # the page clamps it to its wrapped lines
        return go

    for key, n in (("up", -1), ("down", 1), ("pageup", -10), ("pagedown", 10)):
        kb.add(key)(scroll(n))
    keys = _("↑↓ scroll · Esc back")
    await _application(lambda w, h: _page(title, lines, keys, top, "", w, h), kb).run_async()


async def show_replay(view: ReplayView) -> None:
    """The replay viewer: ←→ an action back or on, ↑↓ the hand before or after, Home/End, Esc back."""
    kb = KeyBindings()
    _leave_keys(kb)
    moves: dict[str, Callable[[], None]] = {
        "right": lambda: view.move(1), "left": lambda: view.move(-1), "space": lambda: view.move(1),
        "down": lambda: view.next_hand(1), "up": lambda: view.next_hand(-1),
        "pagedown": lambda: view.next_hand(1), "pageup": lambda: view.next_hand(-1),
        "home": lambda: view.end(False), "end": lambda: view.end(True)}
    for key, move in moves.items():
        kb.add(key)(lambda event, move=move: move())
    keys = _("←→ action · ↑↓ hand · Home/End start/end · Esc back")
    await _application(lambda w, h: _page(view.title(), view.lines(), keys, None, "", w, h), kb).run_async()


async def ask_name(current: str, first: bool) -> str:
    """The player's name, typed (Enter keeps it; Esc keeps the one there was): asked once at the
    first start, and from the lobby's row to change it."""
    typed = [current]
    message = [""]
    kb = KeyBindings()

    @kb.add("enter")
    def _take(event: KeyPressEvent) -> None:
        name = checked_name(typed[0])
        if name is None:
            message[0] = _("A name has 1 to 40 characters (letters, digits, blanks; no control characters).")
            return
        event.app.exit(result=name)

    @kb.add("escape", eager=True)
    @kb.add("c-c")
    def _keep(event: KeyPressEvent) -> None:
        event.app.exit(result=current)

    @kb.add("backspace")
    def _erase(event: KeyPressEvent) -> None:
        typed[0] = typed[0][:-1]
        message[0] = ""

    @kb.add(Keys.Any)
    def _type(event: KeyPressEvent) -> None:
        if event.data.isprintable() and len(typed[0]) < 40:
            typed[0] += event.data
            message[0] = ""

    title = _("Welcome! Your name at the table") if first else _("Your name at the table")
    why = _("The others see it at a network table, on the score sheet and in the statistics.")

    def draw(w: int, h: int) -> Canvas:
        lines = [why, "", _("Name") + f"  {typed[0]}▏"]
        return _page(title, lines, _("type your name · Enter take · Esc back"), [0], message[0], w, h)

    app: Application[str] = Application(
        layout=Layout(HSplit([Window(CanvasControl(draw, lambda tag: None))])),
        key_bindings=kb, style=STYLE, full_screen=True)
    return await app.run_async()
