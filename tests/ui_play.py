"""A player at the full-screen table, driven through the screen: what the tests check at each step.

:func:`play_hand` plays one deal at a :class:`~ui_harness.Driver`'s terminal
with key presses only (the hint key, then Enter, so the player plays as the
bot would), and at every decision checks what the screen shows against the
seat's observation: a dialog lists exactly the legal choices; while a card
is to be played, the cards that may not be played are dimmed and the others
are not; the card the hint lifted is raised and drawn reversed; while
laying away, a card that may not go says why; the settlement lists every
line item.  The engine is only looked at to know what must be shown.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ui_harness import Driver, Terminal

from tarock.client.i18n import _
from tarock.client.text.results import item_title
from tarock.client.text.rule_words import game_title
from tarock.client.ui.cards import card_text
from tarock.client.ui.decisions import decision_of
from tarock.client.ui.model import TableModel
from tarock.client.ui.row_keys import row_key
from tarock.client.ui.style import DIMMED
from tarock.core.cards import rank_of
from tarock.core.observation import Observation

DIM = DIMMED.lstrip("#")


@dataclass
class Seen:
    """What the checks saw, for the test to assert on at the end."""

    dialogs: list[str] = field(default_factory=list)
    plays: int = 0
    dimmed: int = 0
    lifted: int = 0
    discards: int = 0
    discard_reasons: list[str] = field(default_factory=list)
    settlements: list[str] = field(default_factory=list)
    court_colours: set[tuple[int, str]] = field(default_factory=set)
    screens: list[str] = field(default_factory=list)


async def until(test: Callable[[], bool], timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or test}")
        await asyncio.sleep(0.02)


def hand_tokens(term: Terminal, row: int) -> list[tuple[str, int]]:
    """The words of a screen row with their columns."""
    line = term.line(row)
    out: list[tuple[str, int]] = []
    col = 0
    for word in line.split(" "):
        if word and word != "│":
            out.append((word, col))
        col += len(word) + 1
    return out


def check_hand(term: Terminal, obs: Observation, model: TableModel, seen: Seen) -> None:
    """Every card shown; the ones that may not be played dimmed, the others not."""
    rows = term.rows  # from the bottom: keys, message (2), the keys of the cards, the cards, the lifted card
    shown = {w: c for w, c in hand_tokens(term, rows - 5)} | {w: c for w, c in hand_tokens(term, rows - 6)}
    texts = {card_text(c): c for c in obs.hand}
    assert set(texts) <= set(shown), (
        f"hand {sorted(texts)} not all on the screen row: {term.line(rows - 5)!r}"
    )
    legal = model.decision.playable if model.decision is not None else frozenset()
    for text, card in texts.items():
        row = rows - 6 if model.lifted == card else rows - 5
        col = shown[text]
        cell = term.cell(row, col + (len(text) - 1))
        dimmed = cell.fg == DIM
        assert dimmed == (card not in legal), f"{text}: dimmed {dimmed}, legal {card in legal}"
        seen.dimmed += dimmed
        if not dimmed and card >= 22 and rank_of(card) < 4:
            seen.court_colours.add((rank_of(card), cell.fg))


def dialog_text(term: Terminal) -> str:
    lines = term.text().splitlines()
    top = next(i for i, line in enumerate(lines) if "┌─" in line)
    left = lines[top].index("┌")
    right = lines[top].index("┐", left)
    bottom = next(i for i in range(top + 1, len(lines)) if lines[i][left : left + 1] == "└")
    return "\n".join(line[left : right + 1] for line in lines[top : bottom + 1])


def check_dialog(term: Terminal, obs: Observation, model: TableModel, seen: Seen) -> None:
    """The dialog shows its title and exactly the legal choices, numbered."""
    expected = decision_of(obs, model.names)
    box = dialog_text(term)
    assert expected.title in box, box
    rows = [line for line in box.splitlines()[1:-1] if line.strip("│ ")]
    numbered = [line for i, line in enumerate(rows) if line.startswith(f"│ {row_key(i)}")]
    assert len(numbered) == min(len(rows), len(expected.options)), f"{len(expected.options)} options:\n{box}"
    for option in expected.options:
        assert option.label[:20] in box, f"{option.label!r} missing from\n{box}"
    seen.dialogs.append(expected.title)


async def play_hand(d: Driver, ref: dict[str, object], seen: Seen, timeout: float = 120.0) -> Observation:
    """Play decisions through the screen until a settlement shows; return the hand's final view."""
    model = ref["model"]
    assert isinstance(model, TableModel)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            await until(
                lambda: model.waiting or model.overlay == "settlement",
                timeout=60,
                what="a decision or the settlement",
            )
        except AssertionError as exc:
            raise AssertionError(f"{exc}; the screen:\n{d.term.text()}\nlog: {list(model.log)}") from None
        await d.settle(0.08)
        obs = model.obs
        assert obs is not None
        if model.overlay == "settlement":
            return check_settlement(d, model, seen)
        decision = model.decision
        assert decision is not None
        seen.screens.append(d.term.text())
        if decision.kind == "dialog":
            check_dialog(d.term, obs, model, seen)
        elif decision.kind == "play":
            check_hand(d.term, obs, model, seen)
            seen.plays += 1
        elif decision.kind == "discard":
            await check_discard(d, obs, model, seen)
        d.press("h")
        hint = _("Hint: {action} — {reason}").split("{")[0]
        seen.screens.append(await d.wait_for(hint))
        if decision.kind == "play":
            lifted = model.lifted
            assert lifted is not None
            await d.settle(0.05)
            words = dict(hand_tokens(d.term, d.term.rows - 6))
            assert card_text(lifted) in words, f"the lifted {card_text(lifted)} is not raised"
            assert d.term.cell(d.term.rows - 6, words[card_text(lifted)]).reverse
            seen.lifted += 1
        before = len(obs.history)
        d.press("enter")
        await until(
            lambda before=before: (  # type: ignore[misc]
                model.obs is not None
                and (
                    len(model.obs.history) > before
                    or model.obs.result is not None
                    or model.overlay == "settlement"
                )
            ),
            what="the action to be taken",
        )
    raise AssertionError("the hand did not end in time")


async def check_discard(d: Driver, obs: Observation, model: TableModel, seen: Seen) -> None:
    """Cards that may go are lit; a card that may not go is dimmed, and its key says why."""
    decision = model.decision
    assert decision is not None
    allowed = set().union(*decision.discards)
    hand = model.hand()
    forbidden = [c for c in hand if c not in allowed]
    seen.discards += 1
    if forbidden and row_key(hand.index(forbidden[0])):
        d.press(row_key(hand.index(forbidden[0])))
        text = await d.wait_for(
            card_text(forbidden[0])
            + " "
            + _("{card} may not be laid away: {reason}").split("{card} ")[1].split("{")[0]
        )
        seen.discard_reasons.append(
            next(line for line in text.splitlines() if card_text(forbidden[0]) + " " in line and ":" in line)
        )
        assert not model.chosen


async def close_settlement(d: Driver, ref: dict[str, object]) -> None:
    """Go on from a settlement, and wait until the key closed it (the next hand is looked for
    only then: a key still in flight would answer the next question)."""
    model = ref["model"]
    assert isinstance(model, TableModel)
    d.press("enter")
    await until(lambda: model.overlay != "settlement", what="the settlement closed")


def check_settlement(d: Driver, model: TableModel, seen: Seen) -> Observation:
    """The settlement names every line item of the result."""
    obs = model.settled
    assert obs is not None and obs.result is not None
    text = d.term.text()
    assert _("Settlement") in text
    flat = " ".join(text.split())
    if obs.contract is not None:
        assert game_title(obs.contract.spec) in flat, "the headline names the game"
    for item in obs.result.items:
        title = item_title(item, model.names, obs.rules, "")  # the game is named in the headline
        assert " ".join(title.split()) in flat, f"item {title!r} not in the settlement:\n{text}"
    seen.settlements.append(text)
    seen.screens.append(text)
    return obs
