"""The table's key bindings and mouse clicks, calling the model's methods.

``load_table_bindings(model, commands)`` returns the bindings, with
conditions for an open overlay, a dialog, the hand; ``click_handler``
turns the tag of a clicked cell into the same calls.  What leaves the
table (close and go on later, end the table) is handed to ``commands``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Hashable
from dataclasses import dataclass

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent

from tarock.client.ui.model import TableModel
from tarock.client.ui.overlays import menu_items, quit_items
from tarock.client.ui.row_keys import ROW_KEYS, both_cases
from tarock.client.ui.table_state import Overlay


@dataclass
class Commands:
    """What the table's keys ask of the application around it."""

    close: Callable[[], None]
    """Close the client; the table is kept and goes on when opened again."""
    end: Callable[[], None]
    """End the table now: the standings as they are."""
    leave: Callable[[], None]
    """The table is over and the player has seen the standings."""
    undo: Callable[[], None] = lambda: None
    """Take back the player's last action (a local table against bots)."""
    new_game: Callable[[], None] = lambda: None
    """Leave this table kept, for a new one."""


_TASKS: set[asyncio.Task[None]] = set()


def _spawn(coro: Coroutine[object, object, None]) -> None:
    task = asyncio.ensure_future(coro)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


def item(model: TableModel, commands: Commands, tag: str) -> None:
    """A menu or quit item."""
    if tag == "close":
        model.close_overlay()
    elif tag == "save":
        commands.close()
    elif tag == "end":
        model.close_overlay()
        commands.end()
    elif tag == "undo":
        model.close_overlay()
        commands.undo()
    elif tag == "new":
        model.close_overlay()
        commands.new_game()
    elif tag in ("sheet", "last", "tricks", "rules", "help", "quit"):
        model.open(tag)  # type: ignore[arg-type]


def load_table_bindings(model: TableModel, commands: Commands) -> KeyBindings:
    kb = KeyBindings()
    overlay = Condition(lambda: model.overlay is not None)
    listing = Condition(lambda: model.overlay in ("menu", "quit"))
    free = ~overlay
    dialog = Condition(
        lambda: (
            model.overlay is None
            and model.waiting
            and model.decision is not None
            and model.decision.kind == "dialog"
        )
    )
    hand = free & ~dialog

    def items() -> list[tuple[str, str, str]]:
        return menu_items(model) if model.overlay == "menu" else quit_items(model)

    def by_key(key: str) -> None:
        """A menu's or the leaving question's key: the row it names, if shown now."""
        tag = next((t for k, _label, t in items() if k.lower() == key.lower()), None)
        if tag is not None:
            item(model, commands, tag)

    def calls(keys: str, when: Filter, do: Callable[[], object], eager: bool = False) -> None:
        """Each of the space-separated ``keys`` (a letter in either case), pressed ``when``, does ``do``."""
        for key in keys.split():
            for name in both_cases(key):
                kb.add(name, filter=when, eager=eager)(lambda event: do())

    # -- overlays ---------------------------------------------------------------------
    @kb.add("escape", filter=overlay, eager=True)
    def _close(event: KeyPressEvent) -> None:
        if model.overlay == "standings":
            commands.leave()
        else:
            model.close_overlay()

    @kb.add("enter", filter=overlay & ~listing)
    @kb.add("space", filter=overlay & ~listing)
    def _go_on(event: KeyPressEvent) -> None:
        if model.overlay == "standings":
            commands.leave()
        else:
            model.close_overlay()

    @kb.add("up", filter=overlay)
    def _up(event: KeyPressEvent) -> None:
        if model.overlay in ("menu", "quit"):
            model.menu_index = (model.menu_index - 1) % len(items())
        else:
            model.scroll = max(0, model.scroll - 1)
        model.changed()

    @kb.add("down", filter=overlay)
    def _down(event: KeyPressEvent) -> None:
        if model.overlay in ("menu", "quit"):
            model.menu_index = (model.menu_index + 1) % len(items())
        else:
            model.scroll += 1
        model.changed()

    @kb.add("pageup", filter=overlay)
    def _page_up(event: KeyPressEvent) -> None:
        model.scroll = max(0, model.scroll - 10)
        model.changed()

    @kb.add("pagedown", filter=overlay)
    def _page_down(event: KeyPressEvent) -> None:
        model.scroll += 10
        model.changed()

    @kb.add("enter", filter=listing)
    def _take_item(event: KeyPressEvent) -> None:
        item(model, commands, items()[model.menu_index][2])

    for key in "sltr?qun12":
        calls(key, listing, lambda key=key: by_key(key))  # type: ignore[misc]

    # -- commands at the table -----------------------------------------------------------
    shows: tuple[tuple[str, Overlay], ...] = (
        ("s", "sheet"),
        ("l", "last"),
        ("t", "tricks"),
        ("r", "rules"),
        ("?", "help"),
        ("f1", "help"),
        ("f2", "menu"),
        ("q", "quit"),
    )
    for key, kind in shows:

        def show(event: KeyPressEvent, kind: Overlay = kind) -> None:
            model.open(kind)

        for name in both_cases(key):
            kb.add(name, filter=free)(show)

    calls("pageup", free, lambda: model.scroll_log(3))
    calls("pagedown", free, lambda: model.scroll_log(-3))

    @kb.add("c-c")
    @kb.add("c-q")
    def _interrupt(event: KeyPressEvent) -> None:
        commands.close()

    calls("h", free & ~Condition(lambda: model.watching), lambda: _spawn(model.ask_hint()))
    calls("u", free & Condition(lambda: not model.network), commands.undo)

    # -- the hand ----------------------------------------------------------------------
    calls("left", hand, lambda: model.move(-1))
    calls("right tab", hand, lambda: model.move(1))
    calls("enter up", hand, model.confirm)

    @kb.add("space", filter=hand)
    def _space(event: KeyPressEvent) -> None:
        d = model.decision
        if d is not None and d.kind == "discard":
            model.toggle_cursor()
        else:
            model.confirm()

    @kb.add("escape", filter=hand, eager=True)
    def _lower(event: KeyPressEvent) -> None:
        model.lifted = None
        model.changed()

    for i, key in enumerate(ROW_KEYS):
        calls(key, hand, lambda i=i: model.press_card(i))  # type: ignore[misc]

    # -- dialogs -----------------------------------------------------------------------
    calls("up", dialog, lambda: model.dialog_move(-1))
    calls("down tab", dialog, lambda: model.dialog_move(1))
    calls("enter space", dialog, model.dialog_enter)
    calls("escape", dialog, model.dialog_back, eager=True)
    calls("backspace", dialog, model.dialog_back)

    for i, key in enumerate(ROW_KEYS):
        calls(key, dialog, lambda i=i: model.dialog_pick(i))  # type: ignore[misc]
    return kb


def click_handler(model: TableModel, commands: Commands) -> Callable[[Hashable], None]:
    """What a click on a tagged cell does: a card, a dialog row, a menu item, the menu."""

    def click(tag: Hashable) -> None:
        if not isinstance(tag, tuple) or len(tag) != 2:
            return
        kind, value = tag
        if kind == "card" and model.overlay is None and isinstance(value, int):
            model.press_card(value)
        elif kind == "row" and isinstance(value, int):
            model.dialog_pick(value)
        elif kind == "item" and isinstance(value, str):
            item(model, commands, value)
        elif kind == "menu":
            model.open("menu")

    return click
