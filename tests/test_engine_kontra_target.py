"""The generic Kontra chain (tarock54) is on the whole game: a targeted Kontra is refused.

docs/rules.md §8.1: "Wer Kontra sagt, verdoppelt den Spielwert samt allen Prämien (× 2)."
"""

from __future__ import annotations

import random

import pytest

from tarock.core.actions import Kontra, KontraTarget
from tarock.core.deal import deal
from tarock.core.engine import Hand, IllegalAction
from tarock.core.registry import find_variant


def test_a_kontra_naming_a_target_is_refused_and_changes_nothing() -> None:
    rules = find_variant("tarock54").rules()
    for seed in range(200):
        rng = random.Random(seed)
        hands, talon = deal(rules, rng)
        hand = Hand(rules, 0, hands, talon)
        while not hand.done and hand.state.phase != "kontra":
            assert hand.state.to_move is not None
            hand.apply(rng.choice(hand.legal(hand.state.to_move)))
        if hand.state.phase != "kontra":
            continue
        seat = hand.state.to_move
        assert seat is not None
        if Kontra(seat) not in hand.legal(seat):
            continue
        before = len(hand.state.actions)
        for target in (KontraTarget("valat"), KontraTarget(declarer=seat), KontraTarget(answer=0)):
            with pytest.raises(IllegalAction) as caught:
                hand.apply(Kontra(seat, target))
            assert caught.value.reason.code == "kontra-target"
            assert len(hand.state.actions) == before and hand.state.kontra_level == 0
        hand.apply(Kontra(seat))
        assert hand.state.kontra_level == 1
        return
    raise AssertionError("no Kontra round with a Kontra allowed in 200 deals")
