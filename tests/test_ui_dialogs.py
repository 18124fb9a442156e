"""Dialogs: a question with one answer "Weiter" is not asked (the log says it); a question with
one answer the rules force says so; a dialog leaves the log's first line (how the deal began) in
view at 80×24 and 100×30.

docs/rules.md §15.5: the announcements close with "Gut!" (a pass).
"""

from __future__ import annotations

import pytest
from ui_harness import Driver
from ui_static import at_decision, find

from tarock.client.i18n import _, set_language
from tarock.client.ui.model import TableModel
from tarock.core.actions import Discard, Pass, Play


def test_a_question_whose_only_answer_is_to_pass_is_not_asked() -> None:
    obs = find("tarock54", lambda o: len(o.legal) == 1 and isinstance(o.legal[0], Pass))
    shown: list[str] = []

    async def script(d: Driver, model: TableModel) -> None:
        shown.append(await d.settle(0.3))
        assert not model.waiting

    assert at_decision(obs, script) == obs.legal[0]
    assert "┌─" not in shown[0], shown[0]


def test_a_forced_choice_says_the_rules_allow_nothing_else() -> None:
    obs = find(
        "koenigrufen-course",
        lambda o: len(o.legal) == 1 and not isinstance(o.legal[0], Pass | Play | Discard),
    )

    async def script(d: Driver, model: TableModel) -> None:
        await d.wait_for(" ".join(_("The only choice the rules allow here.").split()[:3]))
        d.press("1")
        await d.wait_for(lambda t: not model.waiting)

    assert at_decision(obs, script) == obs.legal[0]


@pytest.mark.parametrize("cols, rows", [(80, 24), (100, 30), (120, 40)])
def test_a_dialog_leaves_the_start_of_the_deal_in_view(cols: int, rows: int) -> None:
    obs = find("tarock54", lambda o: len(o.legal) > 1 and not isinstance(o.legal[0], Play | Discard))

    async def script(d: Driver, model: TableModel) -> None:
        text = await d.wait_for("┌─")
        lines = text.splitlines()
        bottom = max(i for i, line in enumerate(lines) if "└" in line and "┘" in line)
        rules = [i for i, line in enumerate(lines) if line.startswith("──")]
        log_top = rules[-2]
        assert bottom < log_top, text
        assert lines[log_top + 1].strip() == model.log[0].strip()

    at_decision(obs, script, cols=cols, rows=rows)


def test_the_player_named_after_another_is_written_in_lower_case() -> None:
    """German "Hilde und du" (not "Hilde und Du"); first in a list the name stays "Du"."""
    from tarock.client.text.rule_words import names_text

    assert names_text([2, 0], ["Du", "Franz", "Hilde"]) == "Hilde und du"
    assert names_text([0, 2], ["Du", "Franz", "Hilde"]) == "Du und Hilde"
    set_language("en")
    assert names_text([1, 0], ["You", "Franz"]) == "Franz and you"
