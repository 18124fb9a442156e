"""The rules page at the table, read through the screen: every game numbered once, every premium
explained in a player's words, options in words, no reference to the project's documents, and
the help page not cut; German and English, at 80×24.

docs/rules.md §9.2 (the birds): "the Pagat the last trick (Pagat Ultimo), the Uhu the second to
last, the Kakadu the third to last, the Marabu the fourth to last".
"""

from __future__ import annotations

import re

import pytest
from ui_harness import Driver
from ui_static import at_decision, find

from tarock.client.i18n import _, p_, set_language
from tarock.client.ui.model import TableModel


@pytest.fixture(params=["de", "en"])
def language(request: pytest.FixtureRequest) -> object:
    set_language(request.param)
    yield request.param
    set_language("de")


async def _read_overlay(d: Driver, key: str, title: str) -> list[str]:
    """Every line of the overlay ``key`` opens, paging down to its end."""
    d.press(key)
    await d.wait_for(title)
    at: dict[int, str] = {}
    for _page in range(40):
        await d.settle(0.05)
        lines = d.term.text().splitlines()
        body = [line.strip().strip("│ ") for line in lines if line.strip().startswith("│")]
        mark = re.search(r"(\d+)-(\d+)/(\d+)", "\n".join(lines))
        first = int(mark.group(1)) - 1 if mark is not None else 0
        at.update({first + i: line for i, line in enumerate(body)})
        if mark is None or mark.group(2) == mark.group(3):
            break
        d.press("pgdn")
    seen = [at[i] for i in sorted(at)]
    d.press("esc")
    return seen


def test_the_rules_and_help_pages_explain_in_a_players_words(language: str) -> None:
    obs = find("koenigrufen-club", lambda o: o.phase == "bidding" and bool(o.legal))
    assert obs.rules is not None
    pages: dict[str, list[str]] = {}

    async def script(d: Driver, model: TableModel) -> None:
        await d.wait_for("┌─")
        pages["rules"] = await _read_overlay(d, "R", _("Rules"))
        pages["help"] = await _read_overlay(d, "?", _("Help"))

    at_decision(obs, script)
    text = "\n".join(pages["rules"])
    assert pages["rules"], pages
    for word in ("docs/", "RULES", "§", "Seed", "Plugins", "queen", "first-declarer", "[", "]"):
        assert word not in text, (word, text)
    numbers = [int(m.group(1)) for line in pages["rules"] if (m := re.match(r"(\d+)\. ", line))]
    assert numbers == list(range(1, len(obs.rules.contracts) + 1)), numbers
    for premium in obs.rules.premiums:
        line = next(x for x in pages["rules"] if x.startswith(p_("premium", premium.title) + ":"))
        assert " – " in line, line  # the premium's values, then what it takes
    uhu = p_("premium-meaning", "the II wins the second-last trick")
    at = next(i for i, x in enumerate(pages["rules"]) if x.startswith(p_("premium", "Uhu") + ":"))
    assert uhu in " ".join(pages["rules"][at : at + 2]), pages["rules"][at : at + 2]
    help_text = " ".join(pages["help"])
    assert _("Letters work in either case.") in help_text
    assert all(len(line) <= 76 for line in pages["help"])
