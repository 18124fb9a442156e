"""The search levels' auction judged by the expected settlement in sampled worlds
(:mod:`client.bots.judgement`, issue 23): the rule of thumb's bid of a colour game
is kept only where the worlds do not rate bidding none higher.

The positions are the colour games (Farbendreier) the rule of thumb bids in
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
from tarock.core.contracts import ContractSpec
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe
from tarock.core.plugins import load_plugins
from tarock.core.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
DEALS = (34, 106, 322, 504)
"""Seeded deals in which the rule of thumb bids a Farbendreier the worlds rate below
passing (the first three: its declarer lost; the last: won)."""


def ooe_rules() -> Rules:
    rules = load_plugins(ROOT / "plugins.toml").find("koenigrufen-ooe").rules()
    register(rules)
    return rules


def contract(rules: Rules, action: Action) -> ContractSpec | None:
    return rules.facts.contract(action.contract) if isinstance(action, (Bid, Join)) else None


def colour_game(rules: Rules, action: Action) -> bool:
    spec = contract(rules, action)
    return spec is not None and spec.tricks.trump == "colour"


def rule_of_thumb_bids(rules: Rules, index: int) -> list[Observation]:
    """The turns of deal ``index`` at which the rule of thumb (playing every seat) bids a colour game."""
    hands, talon = deal(rules, random.Random(f"2026/{index}"), 4)
    hand = Hand(rules, index % 4, hands, talon, 4, (), TableContext(dealer=index % 4))
    heuristic = HeuristicBot(0)
    found: list[Observation] = []
    while not hand.done and hand.state.phase == "bidding":
        seat = hand.state.to_move
        assert seat is not None
        obs = observe(hand, seat)
        action = heuristic.decide(obs)
        if len(obs.legal) > 1 and colour_game(rules, action):
            found.append(obs)
        hand.apply(action)
    return found


def test_a_colour_game_the_worlds_rate_below_bidding_none_is_not_made() -> None:
    rules = ooe_rules()
    given_up = 0
    for index in DEALS:
        for obs in rule_of_thumb_bids(rules, index):
            decision = SearchBot(MEDIUM, 7).explain(obs)
            assert decision.worlds > 0
            none = [v for a, v in decision.values.items() if contract(rules, a) is None]
            if colour_game(rules, decision.action) and none:
                assert decision.values[decision.action] >= max(none), decision.reason
            if contract(rules, decision.action) is None:
                given_up += 1
    assert given_up >= 3
