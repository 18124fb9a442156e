"""The hint key asks a bot of the table's strength (issue 11).

At a table of search bots the hint is the search bot's own decision in the
player's observation, with the search's reason (the sampled deals and the
mean amounts) in the player's language; at a table of rule-of-thumb bots it
is the heuristic's choice with its reason read off the observation.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tarock.client.bots import make_bot
from tarock.client.bots.levels import HARD, MEDIUM, SearchBot
from tarock.client.i18n import language, p_, set_language
from tarock.client.ui.hint import HINT, heuristic_hint, search_hint
from tarock.core.actions import Play
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe
from tarock.core.registry import find_variant

SEARCH_REASONS = {
    "{deals} sampled deals: it averages {mine}",
    "{deals} sampled deals: it averages {mine}, the best other choice {other}",
    "{deals} sampled deals: nothing clearly better ({mine}, the best other {other})",
}


def late_choices(seed: int) -> Iterator[Observation]:
    """Observations of card decisions with a choice in the last two tricks of a
    tarock54 hand played by heuristic bots."""
    rules = find_variant("tarock54").rules()
    hands, talon = deal(rules, random.Random(seed))
    hand = Hand(rules, seed % 4, hands, talon)
    bots = [make_bot("heuristic", s) for s in range(4)]
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        obs = observe(hand, seat)
        if hand.state.phase == "play" and len(obs.hand) <= 2 and len(obs.legal) > 1:
            yield obs
        hand.apply(bots[seat].decide(obs))


@pytest.fixture
def german() -> Iterator[None]:
    before = language()
    set_language("de")
    yield
    set_language(before)


def test_the_client_asks_the_search_hint() -> None:
    assert HINT is search_hint


@pytest.mark.parametrize("strength", ["medium", "hard"])
def test_a_search_table_hints_the_search_bots_move_and_why(strength: str, german: None) -> None:
    level = {"medium": MEDIUM, "hard": HARD}[strength]
    searched = 0
    for seed in range(6):
        for obs in late_choices(seed):
            hint = search_hint(obs, strength)
            decision = SearchBot(level, 0, "hint").explain(obs)
            assert hint.action == decision.action and hint.action in obs.legal
            if decision.worlds:
                assert hint.reason in SEARCH_REASONS
                assert hint.fields["deals"] == str(decision.worlds)
                text = hint.text(["A", "B", "C", "D"], obs)
                assert "ausgeloste Verteilungen" in text and "{" not in text
                searched += 1
    assert searched >= 4


def test_a_rule_of_thumb_table_hints_the_heuristics_move(german: None) -> None:
    for obs in late_choices(1):
        hint = search_hint(obs, "heuristic")
        assert hint == heuristic_hint(obs, "heuristic")
        assert isinstance(hint.action, Play) and hint.reason not in SEARCH_REASONS
        assert not hint.reason or p_("hint", hint.reason) != hint.reason  # a catalogue message, translated
