"""The bare loop the engine bench measures against plays whole hands of every variant's shape."""

from __future__ import annotations

import random

import pytest

from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.registry import find_variant
from tarock.tools import barehand


@pytest.mark.parametrize("name", ["tarock54", "tarock40", "tarock40-online", "koenigrufen-club"])
def test_bare_hands_are_whole_and_zero_sum(name: str) -> None:
    rules = find_variant(name).rules()
    rng = random.Random(7)
    phases: set[str] = set()
    for i in range(4):  # the phases the engine visits, as the bench finds them
        cards, talon = deal(rules, rng)
        hand = Hand(rules, i, cards, talon)
        while not hand.done:
            phases.add(hand.state.phase)
            seat = hand.state.to_move
            assert seat is not None
            hand.apply(rng.choice(hand.legal(seat)))
    plan = barehand.plan(rules, frozenset(phases))
    played = 0
    for i in range(200):
        amounts, actions = barehand.play(plan, rng, i % 4)
        assert sum(amounts) == 0
        if any(amounts):
            played += 1
            assert actions >= rules.hand_size * 4 + 1  # every card and at least one bid
    assert played > 100


def test_bench_all_prints_a_ratio_per_enabled_variant(capsys: pytest.CaptureFixture[str]) -> None:
    from tarock.client.cli import main

    assert main(["bench", "--all", "--hands", "10", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("variant | engine"):].splitlines()[1:]
    assert [line.split(" | ")[0] for line in table][:3] == ["tarock40", "tarock40-online", "tarock54"]
    assert all(line.endswith("x") for line in table)
