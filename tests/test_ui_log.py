"""The log pane keeps the whole hand: its first line (dealer, forehand) always in view, older lines
by PgUp/PgDn, and the same lines after the table was closed and resumed; the last trick (L) is
numbered as it was played.

docs/rules.md §4.2: who wins a trick; the log and the last trick show each trick with its number.
"""

from __future__ import annotations

from pathlib import Path

from ui_harness import Driver, run
from ui_play import until
from ui_static import against_bots, keeper, model_of

from tarock.client.i18n import _
from tarock.client.ui.app import play_local
from tarock.client.ui.local import SavedTable, TableSetup
from tarock.client.ui.model import TableModel
from tarock.core.plugins import load_plugins

NAMES = ["Du", "Franz", "Hilde", "Sepp"]


def _log_pane(d: Driver) -> list[str]:
    """The log pane's lines: between the rule above it and the rule above the hand."""
    lines = d.term.text().splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("──")]
    top, bottom = rules[-2], rules[-1]
    return [line.strip() for line in lines[top + 1 : bottom]]


def test_the_log_scrolls_keeps_its_start_and_survives_a_resume(tmp_path: Path) -> None:
    setup = against_bots("koenigrufen-club", 2, 4)
    save = SavedTable(tmp_path / "t.json")
    ref: dict[str, object] = {}
    kept: dict[str, object] = {}

    async def first(d: Driver) -> None:
        model = await model_of(ref)
        while True:
            await until(lambda: model.waiting or model.overlay == "settlement", 60)
            obs = model.obs
            assert obs is not None
            if model.overlay == "settlement":
                d.press("enter")
                await until(lambda: model.overlay != "settlement")
                continue
            if obs.phase == "play" and len(obs.tricks) >= 3 and model.decision is not None:
                break
            before = len(obs.history)
            d.press("h")
            await d.wait_for(_("Hint: {action}").split("{")[0])
            d.press("enter")
            await until(lambda before=before: model.obs is not None and len(model.obs.history) > before)
        await d.settle(0.1)
        n = len(obs.tricks)
        pane = _log_pane(d)
        headline = model.log[0]
        start = _("Round {round} of {rounds}{again}: dealer {dealer}, forehand {forehand}").split("{")[0]
        assert pane[0] == headline.strip() and headline.startswith(start)
        assert pane[-1] == model.log[-1].strip()
        assert len(model.log) > len(pane), "more happened than the pane shows"
        hidden = model.log[1 : len(model.log) - (len(pane) - 1)]
        d.press("pgup")
        for _k in range(len(model.log)):
            if hidden[0].strip() in _log_pane(d):
                break
            d.press("pgup")
            await d.settle(0.05)
        assert hidden[0].strip() in _log_pane(d) and _log_pane(d)[0] == headline.strip()
        assert _("PgUp/PgDn: more of the hand").split(":")[0] in d.term.text()
        d.press("pgdn")
        d.press("L")
        last = await d.wait_for(_("Last trick"))
        assert f"{n:>2}. " in last and " 1. " not in last.replace(f"{n:>2}. ", ""), last
        d.press("esc")
        kept["log"] = list(model.log)
        d.press("c-c")

    outcome = run(lambda: play_local(setup, load_plugins(None), save, None, seen=keeper(ref)), first,
                  cols=80, rows=24)
    assert outcome == "closed" and save.exists()

    again: dict[str, object] = {}

    async def second(d: Driver) -> None:
        await until(lambda: "model" in again)
        model = again["model"]
        assert isinstance(model, TableModel)
        await until(lambda: model.waiting)
        await d.settle(0.1)
        assert model.log == kept["log"]
        assert _log_pane(d)[0] == model.log[0].strip()
        d.press("c-c")

    stored = TableSetup.from_json(setup.to_json())
    run(lambda: play_local(stored, load_plugins(None), save, None, resume=True, seen=keeper(again)), second,
        cols=80, rows=24)
