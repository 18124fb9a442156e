"""The announcement round's list after a seat's own announcement or Kontra is made from
its list just before (``Announcing._following`` in variants/koenigrufen/announce.py):
at every turn of random hands it equals the list asked afresh, of a copy of the state,
under each dialect and the options that change what a word stirs: König Ultimo
showing the partner, a colour game's defender's Kontra or Valat, a Kontra ending
the turn, one announcing turn each (docs/rules.md §15.5, §18.4)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_koenigrufen_random import CLUB_NAME, COURSE_NAME, rules_for

from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.phases import ANNOUNCE

CASES: list[tuple[str, dict[str, Any] | None]] = [
    (CLUB_NAME, None),
    (COURSE_NAME, None),
    ("koenigrufen-ooe", None),
    (CLUB_NAME, {"ultimo_reveals": True, "king_ultimo": "party", "colour_kontra_or_valat": True}),
    (CLUB_NAME, {"kontra_ends_turn": True, "announce_once": True, "colour_kontra_or_valat": True}),
]


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_the_list_after_ones_own_word_is_the_list_asked_afresh(variant: str,
                                                               options: dict[str, Any] | None) -> None:
    rules = rules_for(variant, options)
    fresh = rules_for(variant, options)  # phase handlers of its own, which never saw these states
    assert fresh.phase(ANNOUNCE) is not rules.phase(ANNOUNCE)
    followed = 0
    for seed in range(150):
        rng = random.Random(seed)
        cards, talon = deal(rules, rng)
        hand = Hand(rules, seed % 4, cards, talon)
        while not hand.done:
            state = hand.state
            seat = state.to_move
            assert seat is not None
            listed = hand.legal(seat)
            if state.phase == ANNOUNCE:
                assert listed == fresh.phase(ANNOUNCE).legal(state.copy(), fresh, seat), (seed, state.actions)
                followed += bool(state.actions) and state.actions[-1].seat == seat
            hand.apply(rng.choice(listed))
    assert followed > 300
