"""What the screen marks is visible without reverse video: cards ticked to lay away (✓), cards taken
from the talon (*), the dialog line chosen or hinted (▸); a dialog over the table shows the talon.

docs/rules.md §15.4 (Königrufen): the declarer takes talon cards and lays as many away.
"""

from __future__ import annotations

from ui_harness import Driver
from ui_play import dialog_text
from ui_static import at_decision, find

from tarock.client.i18n import _
from tarock.client.ui.hint import heuristic_hint
from tarock.client.ui.model import TableModel
from tarock.client.ui.row_keys import row_key
from tarock.core.actions import Discard, Pass
from tarock.core.observation import Observation


def _keys_row(d: Driver) -> str:
    return d.term.line(d.term.rows - 4)


def test_talon_cards_and_ticked_cards_are_marked_beside_their_keys() -> None:
    obs = find("koenigrufen-club", lambda o: bool(o.legal) and all(isinstance(a, Discard) for a in o.legal))
    assert obs.talon_seen

    async def script(d: Driver, model: TableModel) -> None:
        await d.wait_for(_("Lay {n} cards away: {k} chosen.").split(":")[0].format(n=len(obs.legal[0].cards)))
        hand = model.hand()
        row = _keys_row(d)
        for i, card in enumerate(hand):
            token = row_key(i) + ("*" if card in obs.talon_seen else "")
            assert token in row.split(), (token, row)
        assert "(*)" in d.term.text() or "*" in d.term.text()
        allowed = set().union(*(a.cards for a in obs.legal if isinstance(a, Discard)))
        first = next(i for i, c in enumerate(hand) if c in allowed and c not in obs.talon_seen)
        d.press(row_key(first).upper())
        await d.wait_for(lambda t: row_key(first) + "✓" in _keys_row(d).split())
        d.press(row_key(first))
        await d.wait_for(lambda t: row_key(first) + "✓" not in _keys_row(d))

    at_decision(obs, script)


def test_a_dialog_over_the_talon_shows_it_and_marks_the_chosen_line() -> None:
    obs = find(
        "koenigrufen-club",
        lambda o: o.phase != "bidding" and any(o.talon_shown) and not o.tricks and bool(o.legal)
        and not any(isinstance(a, Discard) for a in o.legal) and all(a.type != "talon" for a in o.legal)
        and o.legal[0].type != "play",
    )

    async def script(d: Driver, model: TableModel) -> None:
        await d.wait_for("┌─")
        box = dialog_text(d.term)
        assert _("Talon") + ":" in box, box
        lines = box.splitlines()
        assert lines[1].startswith(f"│ {row_key(0)}▸"), box
        d.press("down")
        await d.wait_for(lambda t: dialog_text(d.term).splitlines()[2].startswith(f"│ {row_key(1)}▸"))

    at_decision(obs, script)


def test_a_hint_to_pass_among_the_announcements_says_the_lines_word() -> None:
    """The dialog's line reads "Gut!" (docs/rules.md §15.5): the hint names it the same."""

    def passing(o: Observation) -> bool:
        if o.phase != "announce" or not any(isinstance(a, Pass) for a in o.legal):
            return False
        return isinstance(heuristic_hint(o, "heuristic").action, Pass)

    obs = find("koenigrufen-club", passing)

    async def script(d: Driver, model: TableModel) -> None:
        await d.wait_for("┌─")
        d.press("H")
        text = await d.wait_for(_("Hint: {action}").split("{")[0])
        line = next(row for row in text.splitlines() if _("Hint: {action}").split("{")[0] in row)
        assert _("Gut!") in line and _("Pass") not in line, line

    at_decision(obs, script)
