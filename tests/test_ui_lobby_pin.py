"""The lobby's PIN of a private table, as plain Python (client/ui/lobby_model.py): the form's
PIN makes the table private; joining, watching or going on at a private table asks for its PIN
first; Esc goes back to the menu, and an empty PIN is not sent."""

from __future__ import annotations

import asyncio

from tarock.client.i18n import _, set_language
from tarock.client.ui.lobby_model import LobbyChoice, LobbyModel, TableEntry
from tarock.core.plugins import load_plugins


def _model(**changes: object) -> LobbyModel:
    set_language("en")
    model = LobbyModel(load_plugins(None), player="Resi", network=True)
    for key, value in changes.items():
        setattr(model, key, value)
    return model


def _table(private: bool, free: int = 1) -> TableEntry:
    return TableEntry("Sepps Tisch", "tarock54", "Tarock", free, ("Sepp",), 1, None, private)


def _row(model: LobbyModel, tag: str) -> int:
    return next(i for i, (t, _label, _detail) in enumerate(model.entries()) if t == tag)


def _type(model: LobbyModel, text: str) -> None:
    for ch in text:
        model.pin_type(ch)


def test_the_form_pin_opens_a_private_table() -> None:
    async def go() -> None:
        model = _model()
        model.wait()
        model.row = _row(model, "open")
        model.enter()
        form = model.form
        assert form is not None
        pin = next(i for i, f in enumerate(form.fields) if f.key == "pin")
        form.row = pin
        for ch in "2468":
            model.form_type(ch)
        choice = model.form_choice(form)
        assert choice is not None and choice.pin == "2468"
        assert choice.table is not None and choice.table.private
        for _k in range(4):
            model.form_type("\b")
        open_table = model.form_choice(form)
        assert open_table is not None and open_table.pin == ""
        assert open_table.table is not None and not open_table.table.private

    asyncio.run(go())


def test_joining_or_watching_a_private_table_asks_for_its_pin() -> None:
    async def go() -> None:
        model = _model(tables=[_table(True), _table(False)])
        result = model.wait()
        details = [d for t, _l, d in model.entries() if t.startswith("table:")]
        assert _("private (PIN)") in details[0] and _("private (PIN)") not in details[1]
        model.row = _row(model, "table:0")
        model.enter()
        assert model.page == "pin" and not result.done()
        model.enter()  # nothing typed: a message, nothing sent
        assert not result.done() and "PIN" in model.message
        _type(model, "47x")
        model.pin_type("\b")
        model.back()  # Esc: back to the menu, the PIN forgotten
        assert model.page == "main" and model.pin == "" and not result.done()
        model.row = _row(model, "table:0")
        model.watch()
        assert model.page == "pin"
        _type(model, "4711")
        model.enter()
        assert result.result() == LobbyChoice("watch", table=_table(True), name="Resi", pin="4711")

    asyncio.run(go())


def test_an_open_table_and_going_on_at_a_private_one() -> None:
    async def go() -> None:
        model = _model(tables=[_table(False)])
        result = model.wait()
        model.row = _row(model, "table:0")
        model.enter()
        assert result.result() == LobbyChoice("join", table=_table(False), name="Resi")
        model = _model(net_saved="Sepps Tisch", net_saved_private=True)
        result = model.wait()
        model.row = _row(model, "resume-net")
        model.enter()
        assert model.page == "pin" and "Sepps Tisch" in model.pin_title()
        _type(model, "1")
        model.enter()
        assert result.result() == LobbyChoice("resume-net", name="Resi", pin="1")

    asyncio.run(go())
