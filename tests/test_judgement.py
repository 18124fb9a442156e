"""The search levels' auction judged by the expected settlement in sampled worlds
(:mod:`client.bots.judgement`, issue 23): the rule of thumb's contract bid is kept
against a thin sample only where the worlds do not rate bidding none higher.

The positions are the bids the rule of thumb makes in the first hands of
seeded ``koenigrufen-ooe`` deals (docs/rules.md §18 for its games; §15.2 for
the auction's "Weiter" and the forehand's hold), each judged by ``medium``.
"""

from __future__ import annotations

import random
from pathlib import Path

from tarock.client.bots.heuristic import HeuristicBot
from tarock.client.bots.levels import MEDIUM, SearchBot
from tarock.client.bots.rulebook import register
from tarock.core.actions import Action, Bid, Join
from tarock.core.context import TableContext
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe
from tarock.core.plugins import load_plugins
from tarock.core.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
DEALS = range(100, 108)
"""Seeded deals among whose bids the worlds rate some below bidding none."""


def ooe_rules() -> Rules:
    rules = load_plugins(ROOT / "plugins.toml").find("koenigrufen-ooe").rules()
    register(rules)
    return rules


def declares(rules: Rules, action: Action) -> bool:
    return isinstance(action, (Bid, Join)) and rules.facts.contract(action.contract) is not None


def rule_of_thumb_bids(rules: Rules, index: int) -> list[Observation]:
    """The turns of deal ``index`` at which the rule of thumb (playing every seat) bids a contract."""
    hands, talon = deal(rules, random.Random(f"2026/{index}"), 4)
    hand = Hand(rules, index % 4, hands, talon, 4, (), TableContext(dealer=index % 4))
    heuristic = HeuristicBot(0)
    found: list[Observation] = []
    while not hand.done and hand.state.phase == "bidding":
        seat = hand.state.to_move
        assert seat is not None
        obs = observe(hand, seat)
        action = heuristic.decide(obs)
        if len(obs.legal) > 1 and declares(rules, action):
            found.append(obs)
        hand.apply(action)
    return found


def test_a_bid_the_worlds_rate_below_bidding_none_is_not_made() -> None:
    rules = ooe_rules()
    given_up = 0
    for index in DEALS:
        for obs in rule_of_thumb_bids(rules, index):
            default = HeuristicBot(0).decide(obs)
            decision = SearchBot(MEDIUM, 7).explain(obs)
            if not decision.worlds:
                continue
            none = [v for a, v in decision.values.items() if not declares(rules, a)]
            if declares(rules, decision.action) and none:
                assert decision.values[decision.action] >= max(none)
            if decision.action != default and not declares(rules, decision.action):
                given_up += 1
    assert given_up >= 1  # the check above is not vacuous: some bid was given up
