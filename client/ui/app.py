"""The table application: a model, its screen and keys, and the table driving it.

:func:`table_application` builds the prompt-toolkit :class:`Application`
for a :class:`~client.ui.model.TableModel`; :func:`play_local` runs a local
table (bots in this process) in it until the table is over, the player ends
it, or the client is closed (the table is saved and goes on next time).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Literal

from prompt_toolkit.application import Application

from tarock.client.i18n import p_
from tarock.client.ui.hint import HINT
from tarock.client.ui.keys import Commands, click_handler, load_table_bindings
from tarock.client.ui.layout import table_layout
from tarock.client.ui.local import LocalTable, SavedTable, TableSetup
from tarock.client.ui.model import TableModel
from tarock.client.ui.style import STYLE
from tarock.core.plugins import Catalogue

Outcome = Literal["over", "closed", "ended", "new"]


def table_application(model: TableModel, commands: Commands) -> Application[Outcome]:
    """The full-screen table for ``model`` (input and output from the current app session)."""
    app: Application[Outcome] = Application(
        layout=table_layout(model, click_handler(model, commands)),
        key_bindings=load_table_bindings(model, commands),
        style=STYLE,
        full_screen=True,
        mouse_support=True,
    )
    model.on_change = app.invalidate
    return app


async def run_table(
    model: TableModel,
    drive: Callable[[TableModel], Awaitable[object]],
    end: Callable[[], None] | None = None,
    undo: Callable[[], None] = lambda: None,
) -> Outcome:
    """Show ``model`` while ``drive(model)`` plays the table; return how the screen was left.

    Closing (``Q`` then "close", or Ctrl-C) stops the driver and leaves what
    it saved; ending the table calls ``end`` and shows the standings.
    """
    holder: list[Application[Outcome]] = []
    driver: asyncio.Task[object] | None = None

    def exit_with(outcome: Outcome) -> None:
        app = holder[0]
        if app.is_running and not app.future.done():  # type: ignore[union-attr]
            app.exit(result=outcome)

    def close() -> None:
        if driver is not None:
            driver.cancel()
        exit_with("closed")

    def end_now() -> None:
        if driver is not None:
            driver.cancel()
        if end is not None:
            end()
        model.changed()

    def leave() -> None:
        exit_with("ended" if model.left_early else "over")

    def new_game() -> None:
        if driver is not None:
            driver.cancel()
        exit_with("new")

    commands = Commands(close=close, end=end_now, leave=leave, undo=undo, new_game=new_game)
    app = table_application(model, commands)
    holder.append(app)

    async def driven() -> object:
        try:
            return await drive(model)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            if app.is_running:
                app.exit(exception=exc)
            raise

    def start() -> None:
        nonlocal driver
        driver = asyncio.ensure_future(driven())

    app.pre_run_callables.append(start)
    try:
        outcome = await app.run_async()
    finally:
        if driver is not None:
            driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(driver, timeout=5)
    return outcome


async def play_local(
    setup: TableSetup,
    catalogue: Catalogue,
    save: SavedTable | None,
    records_dir: Path | None = None,
    pace: float = 0.0,
    resume: bool = False,
    seen: Callable[[LocalTable, TableModel], None] | None = None,
) -> Outcome:
    """A table against bots in this process (resumed from ``save`` if ``resume``);
    ``seen`` is told the table and the model (tests look at the engine through it)."""
    table = LocalTable(setup, catalogue, save, records_dir, pace)
    if resume and save is not None:
        _setup, finished, current = save.read()
        table.restore(finished, current)
    strength = next((b for b in setup.bots if b), "heuristic")
    model = TableModel(
        seat=setup.human,
        names=list(setup.names),
        title=p_("variant", table.variant.title),
        rounds=setup.rounds,
        hint_fn=HINT,
        hint_strength=strength,
        option_specs=dict(table.rules.option_specs),
    )
    for obs, row in table.restored_rounds():
        model.add_round(obs, row)
    model.can_undo = lambda: table.undo_point() is not None
    if seen is not None:
        seen(table, model)

    def end() -> None:
        table.stop()
        model.stopped(table.table)

    return await run_table(model, table.run, end, lambda: table.undo(model))
