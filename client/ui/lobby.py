"""The lobby's screen and keys (``tarock`` with no arguments).

Drawn from a :class:`~client.ui.lobby_model.LobbyModel`: the menu with the
tables found on the network below it, the form of a new table (each field
changed with ←→, text typed), a variant's rules page.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Hashable

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import HSplit, Layout, Window

from tarock.client.i18n import _
from tarock.client.ui.canvas import Canvas, CanvasControl, clip
from tarock.client.ui.lobby_forms import LABEL_WIDTH
from tarock.client.ui.lobby_model import LobbyChoice, LobbyModel
from tarock.client.ui.style import STYLE

TITLE = "Tarock"


def draw_lobby(model: LobbyModel, w: int, h: int) -> Canvas:
    canvas = Canvas(w, h)
    head = f" {TITLE} · {model.player} " if model.player else f" {TITLE} "
    canvas.put(0, 0, [("class:header.title", head.ljust(w))])
    if model.page == "main":
        _draw_main(model, canvas)
    elif model.page == "form":
        _draw_form(model, canvas)
    elif model.page == "pin":
        _draw_pin(model, canvas)
    elif model.page == "rules-pick":
        canvas.put(2, 2, [("class:lobby.title", _("Rules of which game?"))])
        for i, variant in enumerate(model.variants()):
            from tarock.client.i18n import p_

            style = "class:lobby.selected" if i == model.row else ""
            canvas.put(4 + i, 4, clip([(style, f" {p_('variant', variant.title)} ")], w - 6), ("row", i))
    else:
        canvas.put(2, 2, [("class:lobby.title", model.rules_title)])
        inner = h - 6
        if model.rules_shown is not None:  # wrapped to this screen, so no line is cut
            model.rules = model.rules_shown(w - 4)
        top = max(0, min(model.scroll, len(model.rules) - inner))
        model.scroll = top
        for i, line in enumerate(model.rules[top : top + inner]):
            canvas.put(4 + i, 2, clip([("", line)], w - 4))
    if model.message:
        canvas.put(h - 2, 2, clip([("class:message", model.message)], w - 4))
    canvas.put(h - 1, 0, [("class:status", " " + _keys(model).ljust(w - 1))])
    return canvas


def _keys(model: LobbyModel) -> str:
    if model.page == "main":
        keys = _("↑↓ choose · Enter take · Q quit · N your name")
        if model.tables:
            keys += " · " + _("W watch a table")
        return keys
    if model.page == "form":
        return _("↑↓ field · ←→ change · Enter start · Esc back")
    if model.page == "rules":
        return _("↑↓ scroll · Esc back")
    if model.page == "pin":
        return _("type the PIN · Enter go on · Esc back")
    return _("↑↓ choose · Enter show · Esc back")


def _draw_main(model: LobbyModel, canvas: Canvas) -> None:
    w = canvas.width
    row = 2
    entries = model.entries()
    tables_start = next(
        (i for i, (tag, _l, _d) in enumerate(entries) if tag.startswith("table:")), len(entries)
    )
    col = 4 + min(max((len(label) for _t, label, _d in entries), default=20) + 2, w // 2)
    for i, (_tag, label, detail) in enumerate(entries):
        if i == tables_start:
            row += 1
            canvas.put(row, 2, [("class:lobby.title", _("Tables on the network"))])
            row += 1
        style = "class:lobby.selected" if i == model.row else ""
        canvas.put(row, 2, clip([(style, f" {label} ")], w - 4), ("row", i))
        if detail:
            canvas.put(row, col, clip([("class:lobby.detail", detail)], w - col - 1), ("row", i))
        row += 1
    if 0 <= model.row < len(entries) and entries[model.row][2]:  # the chosen row's words in full
        h = canvas.height
        for i, line in enumerate(textwrap.wrap(entries[model.row][2], w - 6)[:2]):
            canvas.put(h - 5 + i, 4, [("class:lobby.detail", line)])
    if (model.network or model.network_note) and tables_start == len(entries):
        row += 1
        canvas.put(row, 2, [("class:lobby.title", _("Tables on the network"))])
        canvas.put(
            row + 1, 4, [("class:lobby.detail", model.network_note or _("(none found yet; looking …)"))]
        )


def _draw_pin(model: LobbyModel, canvas: Canvas) -> None:
    """The PIN of a private table, typed before joining, watching or going on there (shown as dots)."""
    w = canvas.width
    canvas.put(2, 2, clip([("class:lobby.title", model.pin_title())], w - 4))
    typed = f" {'•' * len(model.pin)}▏ "
    canvas.put(4, 4, clip([("", _("PIN") + "  "), ("class:lobby.selected", typed)], w - 6))
    hint = _("The host of the table gave it to its players.")
    canvas.put(6, 4, clip([("class:lobby.detail", hint)], w - 6))


def _draw_form(model: LobbyModel, canvas: Canvas) -> None:
    form = model.form
    assert form is not None
    w, h = canvas.width, canvas.height
    title = _("Play against bots") if form.kind == "bots" else _("Open a table on the network")
    canvas.put(2, 2, [("class:lobby.title", title)])
    label_w = min(LABEL_WIDTH, w // 3)
    rows = [(f.label, f.shown(), f.detail) for f in form.fields]
    rows += [(_("Start") if form.kind == "bots" else _("Open the table"), "", ""), (_("Back"), "", "")]
    inner = h - 7
    top = max(0, min(form.row - inner + 2, len(rows) - inner)) if len(rows) > inner else 0
    for i, (label, value, _detail) in enumerate(rows[top : top + inner]):
        k = top + i
        sel = k == form.row
        style = "class:lobby.selected" if sel else ""
        if k >= len(form.fields):
            canvas.put(
                4 + i, 4, [(style, f" ▶ {label} " if k == len(form.fields) else f" ◀ {label} ")], ("row", k)
            )
            continue
        field = form.fields[k]
        shown = f"◀ {value} ▶" if field.text is None else f"{value}▏"
        canvas.put(4 + i, 4, clip([("", label.ljust(label_w)), (style, f" {shown} ")], w - 6), ("row", k))
    detail = rows[form.row][2] if form.row < len(rows) else ""
    for i, line in enumerate(textwrap.wrap(detail, w - 6)[:2]):
        canvas.put(h - 4 + i, 4, [("class:lobby.detail", line)])
    if form.message:
        canvas.put(h - 2, 2, clip([("class:message", form.message)], w - 4))


def load_lobby_bindings(model: LobbyModel) -> KeyBindings:
    kb = KeyBindings()
    form = Condition(lambda: model.page == "form")
    main = Condition(lambda: model.page == "main")
    typing = Condition(
        lambda: (
            model.page == "form"
            and model.form is not None
            and model.form.row < len(model.form.fields)
            and model.form.fields[model.form.row].text is not None
        )
    )
    pin = Condition(lambda: model.page == "pin")

    @kb.add("up")
    def _up(event: KeyPressEvent) -> None:
        model.move(-1)

    @kb.add("down")
    @kb.add("tab")
    def _down(event: KeyPressEvent) -> None:
        model.move(1)

    @kb.add("pageup")
    def _page_up(event: KeyPressEvent) -> None:
        model.move(-10)

    @kb.add("pagedown")
    def _page_down(event: KeyPressEvent) -> None:
        model.move(10)

    @kb.add("enter")
    def _enter(event: KeyPressEvent) -> None:
        model.enter()

    @kb.add("escape", eager=True)
    def _back(event: KeyPressEvent) -> None:
        if model.page == "main":
            model.finish(LobbyChoice("quit"))
        else:
            model.back()

    @kb.add("left", filter=form)
    def _left(event: KeyPressEvent) -> None:
        model.form_step(-1)

    @kb.add("right", filter=form)
    @kb.add("space", filter=form & ~typing)
    def _right(event: KeyPressEvent) -> None:
        model.form_step(1)

    def typed_into(when: Filter, put: Callable[[str], None]) -> None:
        """While ``when``, printable keys go to ``put``, Backspace as ``\\b``."""

        @kb.add("backspace", filter=when)
        def _erase(event: KeyPressEvent) -> None:
            put("\b")

        @kb.add(Keys.Any, filter=when)
        def _type(event: KeyPressEvent) -> None:
            if event.data.isprintable():
                put(event.data)

    typed_into(typing, model.form_type)
    typed_into(pin, model.pin_type)

    @kb.add("q", filter=main)
    @kb.add("Q", filter=main)
    @kb.add("c-c")
    def _quit(event: KeyPressEvent) -> None:
        model.finish(LobbyChoice("quit"))

    @kb.add("n", filter=main)
    @kb.add("N", filter=main)
    def _name(event: KeyPressEvent) -> None:
        model.finish(LobbyChoice("name"))

    @kb.add("w", filter=main)
    @kb.add("W", filter=main)
    def _watch(event: KeyPressEvent) -> None:
        model.watch()

    return kb


def lobby_application(model: LobbyModel) -> Application[LobbyChoice]:
    def click(tag: Hashable) -> None:
        if isinstance(tag, tuple) and tag[0] == "row" and isinstance(tag[1], int):
            if model.page == "form" and model.form is not None:
                model.form.row = tag[1]
            else:
                model.row = tag[1]
            model.enter()

    app: Application[LobbyChoice] = Application(
        layout=Layout(HSplit([Window(CanvasControl(lambda w, h: draw_lobby(model, w, h), click))])),
        key_bindings=load_lobby_bindings(model),
        style=STYLE,
        full_screen=True,
        mouse_support=True,
    )
    model.on_change = app.invalidate
    return app


async def run_lobby(model: LobbyModel) -> LobbyChoice:
    """Show the lobby until the player chose."""
    app = lobby_application(model)
    result = model.wait()

    def done(_f: object) -> None:
        if app.is_running:
            app.exit(result=result.result())

    result.add_done_callback(done)
    return await app.run_async()
