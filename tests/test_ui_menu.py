"""The table's menu and keys against bots: U takes back the player's last action while nothing
hidden came to light since (the same question is asked again), N starts a new game (the lobby's
form), the leaving question's footer names its keys; a watcher is offered no hint and a network
seat no undo, and leaving a network table says what it does.

docs/rules.md §1.3: illegal actions are never offered (the menu offers undo only where it is allowed).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from ui_harness import Driver, run
from ui_play import until
from ui_static import against_bots, at_decision, dealt, find, keeper, model_of, step_until

from tarock.client.i18n import _
from tarock.client.ui.app import play_local
from tarock.client.ui.layout import status_keys
from tarock.client.ui.local import SavedTable
from tarock.client.ui.model import QUESTIONS, TableModel
from tarock.client.ui.undo import known
from tarock.core.observation import Observation, observe
from tarock.core.plugins import load_plugins
from tarock.core.table import Table

NAMES = ["Du", "Franz", "Hilde", "Sepp"]


def _footer(d: Driver) -> str:
    return d.term.line(d.term.rows - 1)


def test_undo_takes_back_the_last_action_only_while_nothing_came_to_light(tmp_path: Path) -> None:
    setup = against_bots("koenigrufen-club", 4, 3)
    ref: dict[str, object] = {}
    done: dict[str, object] = {}

    async def script(d: Driver) -> None:
        model = await model_of(ref)
        for _step in range(300):
            await until(lambda: model.waiting or model.overlay == "settlement", 60)
            await d.settle(0.05)
            if model.overlay == "settlement":
                d.press("enter")
                await until(lambda: model.overlay != "settlement")
                continue
            obs = model.obs
            assert obs is not None
            if model.can_undo() and "undone" not in done:
                assert "U " + _("undo") in _footer(d)
                mine = max(i for i, a in enumerate(obs.history) if a.seat == model.seat)
                d.press("U")
                await d.wait_for(_("You took back your last action."))
                await until(lambda: model.waiting)
                now = model.obs
                assert now is not None and now.history == obs.history[:mine]
                assert known(now)[0] <= known(obs)[0]
                done["undone"] = True
            elif not model.can_undo() and "refused" not in done and len(obs.history) > 8:
                assert "U " + _("undo") not in _footer(d)
                d.press("u")
                nothing = _("Nothing to take back: a card has been seen since, or it is not your turn.")
                await d.wait_for(nothing.split(":")[0])
                done["refused"] = True
            if len(done) == 2:
                break
            before = len(model.obs.history) if model.obs is not None else 0
            d.press("h")
            await d.wait_for(_("Hint: {action}").split("{")[0])
            d.press("enter")
            await until(lambda before=before: model.obs is not None and len(model.obs.history) > before)
        d.press("f2")
        await d.wait_for(_("New game (this table is closed, as with Q)"))
        assert "Esc " + _("back to the table") in _footer(d)
        d.press("esc")
        d.press("q")
        await d.wait_for(_("Leave the table?"))
        assert _("choose") in _footer(d) and _("scroll") not in _footer(d)
        d.press("esc")
        d.press("f2")
        await d.wait_for(_("New game (this table is closed, as with Q)"))
        d.press("N")

    outcome = run(lambda: play_local(setup, load_plugins(None), SavedTable(tmp_path / "t.json"), None,
                                     seen=keeper(ref)), script, cols=80, rows=24, timeout=300)
    assert outcome == "new"
    assert done == {"undone": True, "refused": True}


def test_a_watcher_sees_no_hint_key_and_h_says_nothing() -> None:
    obs = find("tarock54", lambda o: o.phase == "play" and len(o.tricks) >= 1)

    async def script(d: Driver, model: TableModel) -> None:
        await d.wait_for(_("You are watching this table."))
        assert "H " + _("hint") not in _footer(d)
        d.press("h", "H")
        text = await d.settle(0.2)
        assert _("No hint now: it is not your turn.") not in text
        d.press("q")
        text = await d.wait_for(_("Leave the table?"))
        assert _("Stop watching") in text and _("End the table now (final standings)") not in text
        d.press("esc")

    at_decision(obs, script, ask=False, watching=True, network=True)


def test_a_network_seat_is_told_what_leaving_does_and_has_no_undo() -> None:
    obs = find("tarock54", lambda o: o.phase == "play" and bool(o.legal))

    async def script(d: Driver, model: TableModel) -> None:
        await d.wait_for(lambda t: model.waiting)
        d.press("q")
        text = await d.wait_for(_("Leave the table?"))
        assert _("Leave the table now (the lobby takes you back to your seat)") in text
        assert _("End the table now (final standings)") not in text
        d.press("esc")
        d.press("f2")
        menu = await d.wait_for(_("Back to the table"))
        assert _("New game (this table is closed, as with Q)") not in menu
        assert _("Undo your last action") not in menu
        d.press("esc")

    at_decision(obs, script, network=True)


def test_a_watcher_is_offered_no_hint_and_a_network_seat_no_undo() -> None:
    watcher = TableModel(seat=0, names=["Anna", "Berta", "Cilli", "Dora"], watching=True, network=True)
    keys = dict(status_keys(watcher))
    assert "H" not in keys and "U" not in keys
    seat = TableModel(seat=0, names=["Anna", "Berta", "Cilli", "Dora"], network=True, can_undo=lambda: True)
    assert "U" not in dict(status_keys(seat)) and "H" in dict(status_keys(seat))


def _finished(variant: str = "tarock54", seed: int = 3) -> Observation:
    """Seat 0's observation of a hand bots played to its end."""
    hand = dealt(variant, seed)
    assert step_until(hand, lambda _o: False) is None
    obs = observe(hand, 0)
    assert obs.result is not None
    return obs


def test_a_hand_that_ends_while_the_player_is_asked_waits_behind_the_question() -> None:
    """The leaving question (or the menu) stays when the hand ends meanwhile, so its key still does
    what it says; the settlement shows when it is closed, and only closing the settlement lets the
    table go on. The standings come after the settlement. A view (the sheet) gives way at once."""
    obs = _finished()

    async def check() -> None:
        for question in QUESTIONS:
            model = TableModel(seat=0, names=list(NAMES))
            model.open(question)
            model.hand_over(obs, None)
            assert model.overlay == question and model.overlay_after == ["settlement"]
            went_on = model.acknowledge()
            assert not went_on.done()
            model.close_overlay()  # Esc: back to the table, where the settlement waited
            assert model.overlay == "settlement" and not went_on.done()
            model.close_overlay()
            assert model.overlay is None and went_on.done()

        model = TableModel(seat=0, names=list(NAMES))
        model.open("quit")
        model.hand_over(obs, None)
        model.table_over(Table(seats=len(NAMES), rounds=1))
        assert model.overlay == "quit" and model.overlay_after == ["settlement", "standings"]
        model.close_overlay()
        model.close_overlay()
        assert model.overlay == "standings"

        model = TableModel(seat=0, names=list(NAMES))
        model.open("sheet")
        model.hand_over(obs, None)
        assert model.overlay == "settlement" and not model.overlay_after

    asyncio.run(check())
