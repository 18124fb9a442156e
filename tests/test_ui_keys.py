"""Every card and every dialog line has a key, at every hand size, and every key works in either case.

docs/rules.md §4.1: which cards may follow; every card of the hand has a key either way.
A Königrufen hand has 12 cards (docs/rules.md §15.1): cards 11 and 12 are played here by their keys
(``a`` and ``b``, shown under them), in lower and in upper case.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_harness import Driver, run
from ui_play import dialog_text, until
from ui_static import at_decision, find, keeper

from tarock.client.i18n import _
from tarock.client.ui.app import play_local
from tarock.client.ui.decisions import decision_of
from tarock.client.ui.dialog_view import talon_line
from tarock.client.ui.local import SavedTable, TableSetup
from tarock.client.ui.model import TableModel
from tarock.client.ui.row_keys import COMMAND_LETTERS, ROW_KEYS, keys_span, row_key
from tarock.core.actions import Play
from tarock.core.observation import Observation
from tarock.core.plugins import load_plugins

NAMES = ["Du", "Franz", "Hilde", "Sepp"]


def test_the_scheme_reaches_eighteen_cards_and_twenty_lines_without_a_command_letter() -> None:
    assert len(ROW_KEYS) >= 20 and len(set(ROW_KEYS)) == len(ROW_KEYS)
    assert not set(ROW_KEYS) & set(COMMAND_LETTERS)
    assert [row_key(i) for i in range(12)] == list("1234567890ab")
    assert keys_span(9) == "1-9" and keys_span(10) == "1-0" and keys_span(12) == "1-0 a-b"
    assert row_key(len(ROW_KEYS)) == ""


async def _hint_and_take(d: Driver, model: TableModel) -> None:
    """The bot's choice for this decision, through the screen (the hint key, then Enter)."""
    obs = model.obs
    assert obs is not None
    before = len(obs.history)
    d.press("H")  # the footer's H, in upper case
    await d.wait_for(_("Hint: {action}").split("{")[0])
    d.press("enter")
    await until(lambda: model.obs is not None and (len(model.obs.history) > before or not model.waiting))


def test_cards_eleven_and_twelve_are_played_by_their_keys(tmp_path: Path) -> None:
    bots = ["", "heuristic", "heuristic", "heuristic"]
    setup = TableSetup("koenigrufen-club", {}, list(NAMES), bots, 12, 7)
    ref: dict[str, object] = {}
    played: dict[int, str] = {}
    dialogs: list[int] = []

    async def script(d: Driver) -> None:
        await until(lambda: "model" in ref)
        model = ref["model"]
        assert isinstance(model, TableModel)
        for _step in range(400):
            try:
                await until(lambda: model.waiting or model.overlay == "settlement", 60)
            except AssertionError:
                raise AssertionError(f"no decision; the screen:\n{d.term.text()}\nplayed {played}") from None
            await d.settle(0.05)
            if model.overlay == "settlement":
                d.press("enter")
                await until(lambda: model.overlay != "settlement")
                if len(played) == 2:
                    break
                continue
            decision = model.decision
            assert decision is not None
            hand = model.hand()
            if decision.kind == "dialog":
                dialogs.append(len(decision.options))
                box = dialog_text(d.term).splitlines()
                inner = len(box) - 5 - (1 if talon_line(model) else 0)
                for i in range(min(len(decision.options), inner)):
                    assert box[1 + i].startswith(f"│ {row_key(i)}"), box
            want = next(
                (i for i in (10, 11) if i not in played and i < len(hand) and hand[i] in decision.playable),
                None,
            ) if decision.kind == "play" else None
            if want is None:
                await _hint_and_take(d, model)
                continue
            key = row_key(want)
            text = d.term.text()
            assert keys_span(len(hand)) in text, "the footer names the keys of every card"
            keys_row = d.term.line(d.term.rows - 4)
            assert key in keys_row.split(), keys_row
            card = hand[want]
            obs = model.obs
            assert obs is not None
            before = len(obs.history)
            d.press(key if want == 10 else key.upper())
            await until(lambda card=card: model.lifted == card, 10, "the card lifted by its key")
            d.press(key.upper() if want == 10 else key)
            await until(lambda before=before: model.obs is not None and len(model.obs.history) > before)
            mine = [a for a in model.obs.history if isinstance(a, Play) and a.seat == model.seat]
            assert mine[-1].card == card
            played[want] = key
        d.press("q")
        await d.wait_for(_("Leave the table?"))
        d.press("2")
        await d.wait_for("─ " + _("Final standings"))
        d.press("enter")

    save = SavedTable(tmp_path / "t.json")
    run(lambda: play_local(setup, load_plugins(None), save, None, seen=keeper(ref)), script, cols=80, rows=24,
        timeout=400)
    assert played == {10: "a", 11: "b"}
    assert dialogs


def _after(obs: Observation, keys: list[str]) -> tuple[object, bool, int]:
    """What ``keys`` pressed in the dialog of ``obs`` lead to: the action taken (None: none yet),
    whether the additions page is open, and the line it is for."""
    state: dict[str, object] = {}

    async def script(d: Driver, model: TableModel) -> None:
        await d.wait_for("┌─")
        d.press(*keys)
        await d.settle(0.1)
        state["additions"], state["option"] = model.stage.additions, model.stage.option

    action = at_decision(obs, script)
    return action, bool(state.get("additions")), int(str(state.get("option", -1))) if state else -1


@pytest.mark.parametrize("variant, phase", [("tarock40", "bidding"), ("koenigrufen-club", "announce")])
def test_a_lines_key_does_what_enter_does_on_that_line_in_every_dialog(variant: str, phase: str) -> None:
    obs = find(variant, lambda o: o.phase == phase and len(o.legal) > 2 and o.legal[0].type != "play")
    lines = len(decision_of(obs, NAMES).options)
    for i in range(min(lines, 4)):
        by_key = _after(obs, [row_key(i)])
        by_enter = _after(obs, ["down"] * i + ["enter"])
        assert by_key == by_enter, (i, by_key, by_enter)
        assert by_key[0] is not None or by_key[1], "the key took the line (or opened its additions)"
