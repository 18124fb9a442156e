"""The full-screen table end to end: real key presses in, the screen a player sees out.

Each test plays whole hands of a variant against three bots through the
screen (tests/ui_play.py checks every decision: the dialogs list exactly
the legal choices, cards that may not be played are dimmed, the lifted card
is raised, a card that may not be laid away says why, the settlement names
every line item), then looks at the score sheet and the standings.
docs/rules.md §4.1 (the app's words): "In der App sind nicht spielbare Karten abgedunkelt. Eine Karte
antippen hebt sie an, nochmal antippen spielt sie aus." and "Den
Bummerl-Stand zeigt das Menü (≡) am Tisch."
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_harness import Driver, run
from ui_play import Seen, close_settlement, play_hand, until

from tarock.client.i18n import _, set_language
from tarock.client.ui.app import play_local
from tarock.client.ui.local import LocalTable, SavedTable, TableSetup
from tarock.client.ui.model import TableModel
from tarock.client.ui.style import CAVALL, JACK, KING, QUEEN
from tarock.core.plugins import load_plugins

NAMES = ["Du", "Franz", "Hilde", "Sepp"]


@pytest.fixture(autouse=True)
def german() -> object:
    set_language("de")
    yield
    set_language("de")


def _table(
    variant: str, seed: int, rounds: int, tmp: Path
) -> tuple[TableSetup, SavedTable, dict[str, object]]:
    setup = TableSetup(variant, {}, list(NAMES), ["", "heuristic", "heuristic", "heuristic"], rounds, seed)
    return setup, SavedTable(tmp / "table.json"), {}


def _seen(ref: dict[str, object]) -> object:
    def keep(table: LocalTable, model: TableModel) -> None:
        ref["table"], ref["model"] = table, model

    return keep


async def _sheet_and_leave(d: Driver, ref: dict[str, object]) -> str:
    """Open the score sheet from the menu, then end the table: the standings so far."""
    model = ref["model"]
    assert isinstance(model, TableModel)
    await until(lambda: model.waiting)
    d.press("f2")
    await d.wait_for(_("Menu"))
    d.press("s")
    sheet = await d.wait_for(_("Score sheet"))
    d.press("esc")
    d.press("q")
    await d.wait_for(_("Leave the table?"))
    d.press("2")
    standings = await d.wait_for("─ " + _("Final standings"))
    d.press("enter")
    return sheet + "\n" + standings


@pytest.mark.parametrize("variant, seed", [("tarock40", 3), ("tarock54", 5), ("koenigrufen-club", 2)])
def test_a_hand_through_the_screen(variant: str, seed: int, tmp_path: Path) -> None:
    setup, save, ref = _table(variant, seed, 2, tmp_path)
    seen = Seen()
    result: dict[str, object] = {}

    async def script(d: Driver) -> None:
        await until(lambda: "model" in ref)
        while True:
            obs = await play_hand(d, ref, seen)
            assert obs.result is not None
            await close_settlement(d, ref)
            if not obs.result.passed_out:
                break
        result["obs"] = obs
        result["screens"] = await _sheet_and_leave(d, ref)

    outcome = run(
        lambda: play_local(setup, load_plugins(None), save, tmp_path / "records", seen=_seen(ref)),
        script,
        cols=100,
        rows=36,
    )
    assert outcome == "ended"
    obs = result["obs"]
    screens = str(result["screens"])
    assert seen.plays >= 1 and seen.lifted == seen.plays
    assert seen.dialogs, "a bid (or a pass) was asked in a dialog"
    assert seen.settlements
    # the sheet names the round's declarer (and the partner in brackets where there was one)
    declarer = NAMES[obs.declarer] if obs.declarer is not None else "–"
    assert any(line.strip("│ ").startswith("1 ") and declarer in line for line in screens.splitlines()), (
        screens
    )
    assert _("The table ended after {n} of {rounds} rounds.").format(n=1, rounds=2) in screens
    assert _("HP") in screens and _("SP") in screens
    # the records folder has the finished hand; the save is gone with the table
    assert list((tmp_path / "records").glob("table-*.json"))
    assert not save.exists()
    if variant == "tarock54":
        assert seen.discards or obs.declarer != 0


def test_court_cards_have_their_colours(tmp_path: Path) -> None:
    """King purple, Queen ruby red, Cavall green, Jack blue, as the screen draws them."""
    from ui_harness import session  # noqa: F401  (the harness is what draws)

    colours = {0: KING, 1: QUEEN, 2: CAVALL, 3: JACK}
    seen_all: set[tuple[int, str]] = set()
    for seed in range(1, 4):
        setup, save, ref = _table("tarock54", seed, 1, tmp_path / str(seed))
        seen = Seen()

        async def script(d: Driver, ref: dict[str, object] = ref, seen: Seen = seen) -> None:
            await until(lambda: "model" in ref)
            await play_hand(d, ref, seen)
            d.press("enter")
            await d.wait_for("─ " + _("Final standings"))
            d.press("enter")

        run(
            lambda setup=setup, save=save, ref=ref: play_local(
                setup, load_plugins(None), save, None, seen=_seen(ref)
            ),
            script,
            cols=100,
            rows=36,
        )
        seen_all |= seen.court_colours
    for rank, fg in seen_all:
        assert fg == colours[rank].lstrip("#"), (rank, fg)
    assert {rank for rank, _fg in seen_all} == {0, 1, 2, 3}
