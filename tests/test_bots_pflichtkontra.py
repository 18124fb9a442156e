"""A bot held to the Pflichtkontra says Kontra rather than bidding a game it cannot win.

docs/rules.md §8.3: "Wer als Gegner eines Rufspiels alle drei Trullstücke (Pagat, Mond und Sküs)
auf der Hand hält, muss Kontra geben, solange der Rufer nichts zusätzlich angesagt hat."
In tarock40-online that seat may outbid instead, but passing is not offered.
"""

from __future__ import annotations

import random

from tarock.client.bots import make_bot
from tarock.client.bots.forty import choose_bid
from tarock.core.actions import Bid, Kontra, Pass
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.registry import find_variant


def test_a_weak_seat_held_to_the_pflichtkontra_says_kontra() -> None:
    rules = find_variant("tarock40-online").rules()
    seen = 0
    for seed in range(3000):
        rng = random.Random(seed)
        hands, talon = deal(rules, rng)
        hand = Hand(rules, seed % 4, hands, talon)
        bots = [make_bot("heuristic", seed * 4 + s) for s in range(4)]
        while not hand.done and hand.state.phase == "bidding":
            seat = hand.state.to_move
            assert seat is not None
            obs = observe(hand, seat)
            kinds = {type(a) for a in obs.legal}
            if Kontra in kinds and Pass not in kinds:
                bids = [a for a in obs.legal if isinstance(a, Bid)]
                choice = bots[seat].decide(obs)
                assert choice in obs.legal
                if not bids or choose_bid(obs, bids, False) is None:
                    assert isinstance(choice, Kontra), (seed, choice)
                    seen += 1
                break
            hand.apply(bots[seat].decide(obs))
        if seen >= 3:
            return
    raise AssertionError(f"only {seen} weak Pflichtkontra seats found in 3000 deals")
