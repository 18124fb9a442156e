"""The mouse at the table: a click lifts a card, a second click plays it; a click takes a dialog's row.

The app of docs/rules.md §1.1: "Eine Karte antippen hebt sie an, nochmal antippen spielt sie aus."
"""

from __future__ import annotations

from pathlib import Path

from ui_harness import Driver, run
from ui_play import hand_tokens, until

from tarock.client.i18n import _, set_language
from tarock.client.ui.app import play_local
from tarock.client.ui.cards import card_text
from tarock.client.ui.local import LocalTable, SavedTable, TableSetup
from tarock.client.ui.model import TableModel
from tarock.core.actions import Play
from tarock.core.plugins import load_plugins


def test_click_lifts_and_a_second_click_plays(tmp_path: Path) -> None:
    set_language("de")
    setup = TableSetup(
        "tarock40", {}, ["Du", "Franz", "Hilde", "Sepp"], ["", "heuristic", "heuristic", "heuristic"], 1, 3
    )
    ref: dict[str, object] = {}
    done: dict[str, object] = {}

    def keep(table: LocalTable, model: TableModel) -> None:
        ref["model"] = model

    async def script(d: Driver) -> None:
        await until(lambda: "model" in ref)
        model = ref["model"]
        assert isinstance(model, TableModel)
        while True:
            await until(lambda: model.waiting)
            await d.settle(0.08)
            decision = model.decision
            assert decision is not None
            if decision.kind == "dialog":
                # a click on the dialog's first row (pass, or the one choice there is)
                box = d.term.find("┌─")
                assert box is not None
                row, col = box
                before = len(model.obs.history) if model.obs else 0
                d.click(row + 1, col + 4)
                await until(lambda before=before: model.obs is not None and len(model.obs.history) > before)
                continue
            if decision.kind != "play":
                d.press("h")
                await d.wait_for("Tipp")
                d.press("enter")
                continue
            card = next(c for c in model.hand() if c in decision.playable)
            words = dict(hand_tokens(d.term, d.term.rows - 5))
            col = words[card_text(card)]
            d.click(d.term.rows - 5, col)
            await d.settle(0.08)
            lifted = dict(hand_tokens(d.term, d.term.rows - 6))
            assert card_text(card) in lifted and model.lifted == card
            before = len(model.obs.history) if model.obs else 0
            d.click(d.term.rows - 6, lifted[card_text(card)])
            await until(lambda before=before: model.obs is not None and len(model.obs.history) > before)
            assert Play(0, card) in model.obs.history  # type: ignore[union-attr]
            done["card"] = card
            break
        d.press("q")
        await d.wait_for(_("Leave the table?"))
        d.press("1")

    outcome = run(
        lambda: play_local(setup, load_plugins(None), SavedTable(tmp_path / "t.json"), None, seen=keep),
        script,
        cols=100,
        rows=36,
    )
    assert outcome == "closed"
    assert "card" in done
