"""The lobby on the screen: the network table's form shows each option's choices in words (no
raw values), keeps its label column when the game changes and asks how the bots play; W and Q
work in either case; after a refused PIN the cursor stays on that table.

docs/rules.md §3.6: "Beim Eröffnen eines Tischs wählt man zwischen 54 Blatt und der
40-Blatt-Variante (in der Lobby vorausgewählt)."
"""

from __future__ import annotations

import pytest
from ui_harness import Driver, run

from tarock.client.bots import BOT_KINDS
from tarock.client.i18n import _, p_, set_language
from tarock.client.ui.lobby import run_lobby
from tarock.client.ui.lobby_model import LobbyChoice, LobbyModel, TableEntry
from tarock.core.plugins import load_plugins


@pytest.fixture(params=["de", "en"])
def language(request: pytest.FixtureRequest) -> object:
    set_language(request.param)
    yield request.param
    set_language("de")


def _to(d: Driver, model: LobbyModel, tag: str) -> None:
    row = next(i for i, (t, _l, _d) in enumerate(model.entries()) if t == tag)
    d.press(*["down"] * ((row - model.row) % len(model.entries())))


async def _open(d: Driver, model: LobbyModel, tag: str, shows: str) -> None:
    """From the lobby's menu, Enter on the row ``tag``; wait for the page showing ``shows``."""
    await d.wait_for(_("Play against bots"))
    _to(d, model, tag)
    d.press("enter")
    await d.wait_for(shows)


def _arrow_column(d: Driver, label: str) -> int:
    found = d.term.find(label)
    assert found is not None, d.term.text()
    row, _col = found
    return d.term.line(row).index("◀")


def test_the_network_form_in_words_with_a_steady_label_column_and_the_bots_strength(language: str) -> None:
    model = LobbyModel(load_plugins(None), player="Anna", network=True)
    picked: list[str] = []

    async def script(d: Driver) -> None:
        await _open(d, model, "open", _("Seats for bots"))
        form = model.form
        assert form is not None
        before = _arrow_column(d, _("Rounds"))
        for _step in range(len(model.variants())):
            if form.fields[0].value == "koenigrufen-club":
                break
            d.press("right")
            await d.settle(0.05)
        text = await d.wait_for(p_("option-value", "queen"))
        assert "◀ queen ▶" not in text and "first-declarer" not in text, text
        assert _arrow_column(d, _("Rounds")) == before
        strength = next(i for i, f in enumerate(form.fields) if f.key == "strength")
        seats = next(i for i, f in enumerate(form.fields) if f.key == "bots")
        d.press(*["down"] * seats, "right", "right")
        d.press(*["down"] * (strength - seats), "right")
        await d.settle(0.1)
        kind = form.fields[strength].value
        assert kind == BOT_KINDS[(BOT_KINDS.index("heuristic") + 1) % len(BOT_KINDS)]
        assert p_("bot", kind) in d.term.text()
        picked.append(kind)
        d.press(*["down"] * (len(form.fields) - strength))
        d.press("enter")

    choice = run(lambda: run_lobby(model), script, cols=80, rows=24)
    assert isinstance(choice, LobbyChoice) and choice.kind == "open"
    assert choice.bots == (picked[0],) * 2


def _tables() -> list[TableEntry]:
    return [
        TableEntry("Offen", "tarock54", "Tarock", 1, ("Sepp",), 1, None),
        TableEntry("Tisch von Anna", "tarock54", "Tarock", 1, ("Anna",), 1, None, private=True),
    ]


@pytest.mark.parametrize("key", ["w", "W"])
def test_watch_works_in_either_case(key: str) -> None:
    set_language("de")
    model = LobbyModel(load_plugins(None), player="Resi", network=True, tables=_tables())

    async def script(d: Driver) -> None:
        await d.wait_for("Offen")
        _to(d, model, "table:0")
        await d.settle(0.05)
        d.press(key)

    choice = run(lambda: run_lobby(model), script, cols=80, rows=24)
    assert isinstance(choice, LobbyChoice) and choice.kind == "watch" and choice.table == _tables()[0]


def test_after_a_refused_pin_enter_asks_for_that_tables_pin_again() -> None:
    set_language("de")
    model = LobbyModel(load_plugins(None), player="Resi", network=True, message="refused")
    model.select_table("Tisch von Anna")  # as the lobby is opened again after the refusal

    async def script(d: Driver) -> None:
        await d.wait_for("refused")
        model.set_tables(_tables())  # the network lists the table again
        await d.wait_for("Tisch von Anna")
        d.press("enter")
        await d.wait_for(_("“{name}” is private: its PIN").format(name="Tisch von Anna"))
        assert "Tisch Tisch" not in d.term.text()
        d.press("Q")  # typed into the PIN, not quitting
        d.press("esc")
        await d.wait_for(_("Play against bots"))
        d.press("Q")

    choice = run(lambda: run_lobby(model), script, cols=80, rows=24)
    assert isinstance(choice, LobbyChoice) and choice.kind == "quit"


def test_the_chosen_rows_words_are_shown_in_full_at_80_columns(language: str) -> None:
    model = LobbyModel(load_plugins(None), player="Anna", network=True, tables=_tables())
    seen: dict[str, str] = {}

    async def script(d: Driver) -> None:
        await d.wait_for(_("Open a table on the network"))
        for tag, _label, detail in model.entries():
            _to(d, model, tag)
            await d.settle(0.05)
            seen[detail] = " ".join(d.term.text().split())
        d.press("esc")

    run(lambda: run_lobby(model), script, cols=80, rows=24)
    for detail, text in seen.items():
        assert " ".join(detail.split()) in text, detail


def test_the_lobbys_rules_page_fits_80_columns(language: str) -> None:
    model = LobbyModel(load_plugins(None), player="Anna")
    seen: list[str] = []

    async def script(d: Driver) -> None:
        await _open(d, model, "rules", _("Rules of which game?"))
        names = [v.name for v in model.variants()]
        d.press(*["down"] * names.index("koenigrufen-club"), "enter")
        await d.wait_for(lambda t: model.page == "rules")
        for _page in range(30):
            await d.settle(0.05)
            seen.append(d.term.text())
            d.press("pgdn")
        d.press("esc", "esc", "esc")

    run(lambda: run_lobby(model), script, cols=80, rows=24)
    shown = {line.strip() for screen in seen for line in screen.splitlines()}
    assert model.rules_shown is not None
    for line in model.rules_shown(76):  # every line whole, as wrapped to the screen
        assert line.strip() in shown, line
    assert any(p_("premium", "Uhu") + ":" in s for s in seen)
