"""Every screen a player meets, drawn at one size in the current language.

:func:`lobby_screens` walks the lobby: its main page with each row chosen,
the form of every game (each field chosen), the rules list and every page
of each game's rules, the PIN page.  :func:`table_screens` plays a table of
a game through the real table driver and model, the player's seat choosing
as the rule-of-thumb bot would (Vorhand! and Trischaken first where offered,
so that game's settlement is met), and draws the screen at each decision,
with the hint asked, each overlay (menu, help, rules, sheet, tricks, last
trick, leaving question) at every scroll position, the screen, menu and leaving
question as at a network table (seated and watching), each settlement, the
final standings, and then the table kept: its statistics and every step of the
replay viewer (:func:`kept_screens`).  Each screen comes as ``(what, rows)``.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ui_render import render

from tarock.client.bots import make_bot
from tarock.client.history import read_table
from tarock.client.i18n import _, p_
from tarock.client.replay_view import ReplayView
from tarock.client.statistics import Statistics
from tarock.client.tables import Tables
from tarock.client.ui.hint import HINT
from tarock.client.ui.history_pages import _page, wrapped
from tarock.client.ui.layout import table_layout
from tarock.client.ui.lobby import lobby_application
from tarock.client.ui.lobby_forms import new_form
from tarock.client.ui.lobby_model import LobbyModel, TableEntry
from tarock.client.ui.local import LocalTable, TableSetup
from tarock.client.ui.model import TableModel
from tarock.client.ui.overlays import overlay_content, overlay_size
from tarock.client.ui.table_state import Overlay
from tarock.core.actions import Action, Bid
from tarock.core.observation import Observation
from tarock.core.plugins import load_plugins

Screen = tuple[str, list[str]]
NAMES = ["Anna", "Franz", "Hilde", "Sepp"]
COLS, ROWS = 80, 24
OVERLAYS: tuple[Overlay, ...] = ("menu", "help", "rules", "sheet", "tricks", "last", "quit")
LEAVING: tuple[Overlay, ...] = ("menu", "quit")
FIRST = ("vorhand", "trischaken")
"""The bids the player's seat takes where offered (the club's opening word and its game)."""


def lobby_screens() -> Iterator[Screen]:
    catalogue = load_plugins(None)
    franz = TableEntry("Franz", "koenigrufen-club", "Königrufen", 2, ("Franz", "Hilde"), 6, None, True)
    model = LobbyModel(
        catalogue,
        player="Anna",
        saved="Tarock 54 · 2/6 · Anna +30",
        saved_tables=[("tarock40", "Tarock 40 · 3/12 · Anna −15")],
        kept=True,
        network=True,
        tables=[franz],
    )
    layout = lobby_application(model).layout
    for row in range(len(model.entries())):
        model.row = row
        yield f"lobby row {row}", render(layout, COLS, ROWS)
    for kind in ("bots", "open"):
        for variant in model.variants():
            model.page, model.form = "form", new_form(catalogue, kind, "Anna", variant.name)
            for r in range(model.form.rows()):
                model.form.row = r
                yield f"{kind} form {variant.name} row {r}", render(layout, COLS, ROWS)
    model.page, model.row = "rules-pick", 0
    yield "rules list", render(layout, COLS, ROWS)
    for variant in model.variants():
        model.show_rules(variant, COLS)
        shown = model.rules_shown(COLS) if model.rules_shown is not None else model.rules
        for top in range(0, len(shown), ROWS // 2):
            model.scroll = top
            yield f"rules {variant.name} at {top}", render(layout, COLS, ROWS)
    model.page, model.row = "main", 0
    model.row = len(model.entries()) - 1
    model.watch()
    yield "pin", render(layout, COLS, ROWS)


def _choice(obs: Observation, bot_choice: Action) -> Action:
    for word in FIRST:
        for action in obs.legal:
            if isinstance(action, Bid) and action.contract == word:
                return action
    return bot_choice


def _overlays(model: TableModel, what: str) -> Iterator[Screen]:
    layout = table_layout(model, lambda tag: None)
    for overlay in OVERLAYS:
        model.open(overlay)
        _title, lines = overlay_content(model, overlay_size(model)[0])
        inner = max(1, overlay_size(model)[1] - 2)
        for top in range(0, max(1, len(lines)), inner):
            model.scroll = top
            yield f"{what}, {overlay} at {top}", render(layout, COLS, ROWS)
    model.open(None)
    for flag in ("network", "watching"):  # the same table as a seat, then a watcher, at a network table
        setattr(model, flag, True)
        yield f"{what}, {flag}", render(layout, COLS, ROWS)
        for overlay in LEAVING:
            model.open(overlay)
            yield f"{what}, {flag}, {overlay}", render(layout, COLS, ROWS)
        model.open(None)
    model.network = model.watching = False


def table_screens(variant: str, rounds: int, seed: int) -> list[Screen]:
    """The screens of a table of ``variant`` played to its end (see the module docstring)."""
    catalogue = load_plugins(None)
    setup = TableSetup(variant, {}, list(NAMES), ["", "heuristic", "heuristic", "heuristic"], rounds, seed)
    table = LocalTable(setup, catalogue, None)
    title = p_("variant", table.variant.title)
    model = TableModel(seat=0, names=list(NAMES), title=title, rounds=rounds, hint_fn=HINT,
                       hint_strength="heuristic", option_specs=dict(table.rules.option_specs))
    layout = table_layout(model, lambda tag: None)
    bot = make_bot("heuristic", seed, NAMES[0])
    screens: list[Screen] = []
    phases_shown: set[str] = set()

    async def play() -> None:
        run = asyncio.ensure_future(table.run(model))
        deadline = time.monotonic() + 60
        while not run.done():
            assert time.monotonic() < deadline, "the table did not end"
            await asyncio.sleep(0.002)
            what = f"{variant} deal {table.table.deals + 1}"
            if model.overlay == "settlement":
                screens.append((f"{what} settlement", render(layout, COLS, ROWS)))
                model.close_overlay()
                if model.overlay == "standings":
                    screens.append((f"{what} standings", render(layout, COLS, ROWS)))
                continue
            if model.decision is None or not model.waiting or model.obs is None:
                continue
            obs = model.obs
            phase = str(obs.phase)
            screens.append((f"{what} {phase}", render(layout, COLS, ROWS)))
            await model.ask_hint()
            screens.append((f"{what} {phase} hint", render(layout, COLS, ROWS)))
            if phase not in phases_shown and (phase.endswith("PLAY") or obs.tricks):
                phases_shown.add(phase)
                screens.extend(_overlays(model, f"{what} {phase}"))
            model.choose(_choice(obs, bot.decide(obs)))
        run.result()
        if model.overlay is not None:
            screens.append((f"{variant} {model.overlay}", render(layout, COLS, ROWS)))

    asyncio.run(play())
    return screens + kept_screens(setup, table.finished)


def kept_screens(setup: TableSetup, finished: list[dict[str, Any]]) -> list[Screen]:
    """The lobby's pages of the table once it is kept: its statistics (every scroll position)
    and the replay viewer at every step of every hand."""
    catalogue = load_plugins(None)
    with tempfile.TemporaryDirectory() as folder:
        tables = Tables(Path(folder))
        tables.keep(setup, finished)
        kept = [read_table(path, catalogue) for path in tables.finished()]
    stats = Statistics(kept).lines()
    keys = _("↑↓ scroll · Esc back")
    tops = range(0, len(wrapped(stats, COLS - 4)), ROWS - 4)
    pages = [_page(_("Statistics"), stats, keys, [top], "", COLS, ROWS) for top in tops]
    screens = [(f"statistics page {i}", page.text().split("\n")) for i, page in enumerate(pages)]
    view = ReplayView(kept)
    keys = _("←→ action · ↑↓ hand · Home/End start/end · Esc back")
    for _hand in view.refs:
        for step in range(view.steps() + 1):
            view.step = step
            page = _page(view.title(), view.lines(), keys, None, "", COLS, ROWS)
            screens.append((f"replay {view.at} step {step}", page.text().split("\n")))
        view.next_hand(1)
    return screens
