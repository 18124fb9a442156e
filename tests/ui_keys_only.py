"""A player who uses only the keys the screen shows.

:func:`play_shown` answers every decision of a hand at a
:class:`~ui_harness.Driver`'s terminal by reading the screen: a card is
lifted and played by the key printed under it (a card drawn dimmed is never
chosen); a dialog's line is taken by the key printed beside it; cards are
laid away by their keys and the footer's Enter; the settlement is left
with the Enter its last line names.  Before each key press it checks that
the key is on the screen where the player would look for it.  The model is
read only to know when the screen waits for the player.
"""

from __future__ import annotations

import time

from ui_harness import Driver
from ui_play import DIM, dialog_text, until

from tarock.client.i18n import _
from tarock.client.ui.cards import card_text
from tarock.client.ui.model import TableModel
from tarock.core.observation import Observation


def _footer(d: Driver) -> str:
    return d.term.line(d.term.rows - 1)


def _keys_row(d: Driver) -> list[tuple[str, int]]:
    """The keys printed under the cards, with their columns (a mark after a key dropped)."""
    line = d.term.line(d.term.rows - 4)
    out, col = [], 0
    for word in line.split(" "):
        if word:
            out.append((word.rstrip("*✓"), col))
        col += len(word) + 1
    return out


def _lit_keys(d: Driver, model: TableModel) -> list[str]:
    """The keys of the cards drawn lit (not dimmed), read off the screen's colours."""
    out = []
    rows = d.term.rows
    for key, col in _keys_row(d):
        for row in (rows - 5, rows - 6):
            cell = d.term.cell(row, col)
            if cell.char.strip():
                if cell.fg != DIM:
                    out.append(key)
                break
    return out


async def _press_shown(d: Driver, key: str, where: str) -> None:
    assert key in where, f"{key!r} is not shown: {where!r}"
    d.press(key)


async def play_shown(d: Driver, model: TableModel, timeout: float = 300.0) -> Observation:
    """Play decisions with the keys on the screen until a settlement shows; return the hand's
    final observation (the settlement is left open)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await until(lambda: model.waiting or model.overlay == "settlement", 60, "a decision")
        await d.settle(0.08)
        if model.overlay == "settlement":
            assert model.settled is not None
            return model.settled
        decision, obs = model.decision, model.obs
        assert decision is not None and obs is not None
        before = len(obs.history)
        if decision.kind == "play":
            lit = _lit_keys(d, model)
            assert lit, d.term.text()
            shown = " ".join(k for k, _c in _keys_row(d))
            await _press_shown(d, lit[-1], shown)
            await d.wait_for(lambda t: model.lifted is not None)
            lifted = card_text(model.lifted)
            # raised above the hand, once the screen has drawn the lift
            await d.wait_for(lambda t, c=lifted: c in d.term.line(d.term.rows - 6), timeout=10)  # type: ignore[misc]
            await _press_shown(d, lit[-1], shown)
        elif decision.kind == "discard":
            for _k in range(decision.discard_count):
                await d.settle(0.05)
                lit = [k for k in _lit_keys(d, model) if k not in chosen_keys(d)]
                await _press_shown(d, lit[0], " ".join(k for k, _c in _keys_row(d)))
                await d.settle(0.05)
            assert _("Enter") in _footer(d), _footer(d)
            d.press("enter")
        else:
            box = dialog_text(d.term).splitlines()
            first = box[1].strip("│ ")[:1]
            await _press_shown(d, first, box[1])
            await d.settle(0.05)
            if model.waiting and model.obs is obs and model.stage.additions:
                take = next(line for line in dialog_text(d.term).splitlines() if "▶" in line)
                await _press_shown(d, take.strip("│ ")[:1], take)
        await until(
            lambda before=before: (  # type: ignore[misc]
                model.obs is not None
                and (len(model.obs.history) > before or model.overlay == "settlement")
            ),
            30,
            "the key's action to be taken",
        )
    raise AssertionError("the hand did not end in time")


def chosen_keys(d: Driver) -> list[str]:
    """The keys of the cards ticked to lay away (✓ beside the key)."""
    line = d.term.line(d.term.rows - 4)
    return [word.rstrip("✓*") for word in line.split() if word.endswith("✓")]
