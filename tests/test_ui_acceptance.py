"""Issue 24's acceptance: a whole 12-card Königrufen hand played at 80×24 in German with only the
keys the screen shows, and one at 100×30 in English; the settlement's and the score sheet's
figures in aligned columns with their cents.

docs/rules.md §15.1: Königrufen deals 12 cards to each of four players and 6 to the talon;
docs/rules.md §4.1: a card is played by following suit, else a trump, else any (the dimmed cards may not go).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ui_harness import Driver, run
from ui_keys_only import play_shown
from ui_play import until
from ui_static import keeper

from tarock.client.i18n import _, set_language
from tarock.client.ui.app import play_local
from tarock.client.ui.local import SavedTable, TableSetup
from tarock.client.ui.model import TableModel
from tarock.core.actions import Play
from tarock.core.plugins import load_plugins


def _aligned(rows: list[str]) -> None:
    """The names row and the amounts row below it end their columns at the same places."""
    names, amounts = rows
    ends = [m.end() for m in re.finditer(r"\S+", names)]
    money = [m.end() for m in re.finditer(r"[+−-]?\d+ ct|[+−-]?0\b", amounts)]
    assert ends[-len(money):] == money, (names, amounts)


async def _whole_hand(d: Driver, ref: dict[str, object], out: dict[str, object]) -> None:
    await until(lambda: "model" in ref)
    model = ref["model"]
    assert isinstance(model, TableModel)
    for _hand in range(6):
        obs = await play_shown(d, model)
        mine = [a for a in obs.history if isinstance(a, Play) and a.seat == model.seat]
        text = d.term.text()
        assert _("Enter: go on") in text
        if len(mine) == 12:
            out["settlement"] = text
            lines = [line.strip().strip("│").rstrip() for line in text.splitlines()]
            total = next(i for i, line in enumerate(lines) if line.lstrip().startswith(_("Settlement") + " "))
            _aligned([lines[total - 1], lines[total]])
            d.press("enter")
            await until(lambda: model.overlay != "settlement")
            d.press("S")
            sheet = await d.wait_for(_("Total"))
            out["sheet"] = sheet
            d.press("esc")
            d.press("Q")
            await d.wait_for(_("Leave the table?"))
            d.press("2")
            await d.wait_for("─ " + _("Final standings"))
            d.press("enter")
            return
        d.press("enter")
        await until(lambda: model.overlay != "settlement")
    raise AssertionError("no hand of twelve tricks in six deals")


@pytest.mark.parametrize("lang, cols, rows", [("de", 80, 24), ("en", 100, 30)])
def test_a_whole_koenigrufen_hand_with_the_keys_on_the_screen(lang: str, cols: int, rows: int,
                                                              tmp_path: Path) -> None:
    set_language(lang)
    names = ["Du" if lang == "de" else "You", "Franz", "Hilde", "Sepp"]
    setup = TableSetup("koenigrufen-club", {}, names, ["", "heuristic", "heuristic", "heuristic"], 6, 11)
    ref: dict[str, object] = {}
    out: dict[str, object] = {}
    outcome = run(lambda: play_local(setup, load_plugins(None), SavedTable(tmp_path / "t.json"), None,
                                     seen=keeper(ref)),
                  lambda d: _whole_hand(d, ref, out), cols=cols, rows=rows, timeout=500)
    assert outcome == "ended"
    sheet = str(out["sheet"])
    assert "ct(" not in sheet and ")−" not in sheet
    head = next(line for line in sheet.splitlines() if "Sepp" in line and "Hilde" in line)
    total = next(line for line in sheet.splitlines() if _("Total") in line)
    _aligned([head.strip().strip("│").rstrip(), total.strip().strip("│").rstrip()])
    word = _("{names} and {last}").split("}")[1].split("{")[0].strip()  # "und"
    for after in (f", {names[0]} ", f" {word} {names[0]}"):  # the player after another name: "und du"
        assert after not in str(out["settlement"]), after
    other = {"de": ("Trick", "Round", "Hint"), "en": ("Stich", "Runde", "Tipp")}[lang]
    for word in other:
        assert word not in str(out["settlement"]) + sheet, word
