"""Announcements and Kontra levels judged in sampled worlds (client/bots/announce_judgement.py):
the rule of thumb's choice is the prior, left only for a choice the worlds rate
higher by the noise and by a share of the game's value (Kontra: docs/rules.md §8.1;
premiums silent and announced: docs/rules.md §9.1)."""

from __future__ import annotations

import random
from dataclasses import replace

from test_bots_plans import STRONG, WEAK, kontra_turn

from tarock.client.bots.announce_judgement import AnnounceBudget, candidates, judge, judged, stake
from tarock.client.bots.heuristic import HeuristicBot
from tarock.client.bots.levels import HARD, MEDIUM, SearchBot
from tarock.client.bots.plans import PlanBudget, RolloutPolicy
from tarock.client.bots.rulebook import engine_for
from tarock.core.actions import Action, Announce, Bid, Kontra, Pass, Play
from tarock.core.observation import Observation, observe
from tarock.core.registry import find_variant

CLEAR = "XXI XVIII XVII XVI XV XIV XIII hK dK sQ s7 s8"
"""A defender's hand with which the sampled worlds rate a Kontra clearly above passing."""


def test_only_announcement_and_kontra_turns_are_judged_here() -> None:
    assert judged((Pass(1), Kontra(1)))
    assert judged((Pass(1), Announce(1, ("trull",)), Kontra(1, "game@0")))
    assert not judged((Pass(1),))
    assert not judged((Pass(1), Bid(1, "rufspiel"), Kontra(1)))  # an auction's turn: the bid judgement's
    assert not judged((Play(1, 3), Play(1, 4)))


def test_open_card_playouts_judge_only_what_they_can_see() -> None:
    """Passing and the material premiums (read off the premium data); the game's chain as the prior's only."""
    facts = find_variant("koenigrufen-club").rules().facts
    obs = replace(observe(kontra_turn(STRONG), 1), rules=facts)
    material = {p.name for p in facts.premiums if p.material}
    bird = next(p.name for p in facts.premiums if not p.material)
    assert material
    trull = next(iter(sorted(material)))
    legal = [Pass(1), Announce(1, (trull,)), Announce(1, (bird,)), Kontra(1), Kontra(1, bird),
             Kontra(1, trull)]
    seen = candidates(obs, legal, Pass(1), open_cards=True)
    assert seen == [Pass(1), Announce(1, (trull,)), Kontra(1, trull)]
    assert candidates(obs, legal, Kontra(1), open_cards=True) == [*seen, Kontra(1)]  # the prior's
    assert candidates(obs, legal, Kontra(1, bird), open_cards=True)[-1] == Kontra(1, bird)  # the default
    assert candidates(obs, legal, Pass(1), open_cards=False) == legal


def test_the_stake_is_the_games_value() -> None:
    obs = observe(kontra_turn(STRONG), 1)
    assert obs.contract is not None
    assert stake(obs) == obs.contract.spec.value > 0


def _judge(obs: Observation, default: Action, margin: float, confidence: float, open_cards: bool = False,
           ) -> tuple[Action, dict[Action, float]]:
    table = engine_for(obs.rules)
    assert table is not None
    plans = PlanBudget(worlds=8, confidence=confidence, cards_by_policy=not open_cards)
    budget = AnnounceBudget(plans, margin)
    plan = judge(obs, obs, table, random.Random(0), budget, default, RolloutPolicy(HeuristicBot(3)),
                 HeuristicBot(3))
    assert plan is not None and plan.worlds in (0, 8)
    return plan.action, dict(plan.values)


def test_a_kontra_the_prior_does_not_say_is_said_where_the_worlds_rate_it_clearly_higher() -> None:
    obs = observe(kontra_turn(CLEAR), 1)
    action, values = _judge(obs, Pass(1), margin=0.25, confidence=2.0)
    assert action == Kontra(1) and values[Kontra(1)] - values[Pass(1)] >= 0.25 * stake(obs)
    assert _judge(obs, Pass(1), margin=0.25, confidence=2.0, open_cards=True)[0] == Pass(1)  # not proposed
    decision = SearchBot(HARD, 3).explain(obs)
    assert decision.action == Kontra(1) and decision.worlds > 0, decision.reason


def test_the_prior_stays_without_the_margin() -> None:
    """The same worlds, a margin of more than the whole gap: the prior's pass stays."""
    obs = observe(kontra_turn(CLEAR), 1)
    action, values = _judge(obs, Pass(1), margin=0.0, confidence=0.0)
    gap = values[Kontra(1)] - values[Pass(1)]
    assert action == Kontra(1) and gap > 0
    kept, _ = _judge(obs, Pass(1), margin=1.01 * gap / stake(obs), confidence=0.0)
    assert kept == Pass(1)


def test_a_weak_hand_is_talked_out_of_a_kontra_and_a_strong_one_keeps_its_own() -> None:
    weak = observe(kontra_turn(WEAK), 1)
    action, values = _judge(weak, Kontra(1), margin=0.25, confidence=2.0, open_cards=True)
    assert action == Pass(1) and values[Kontra(1)] < values[Pass(1)]
    strong = observe(kontra_turn(STRONG), 1)
    assert HeuristicBot(3).decide(strong) == Kontra(1)
    assert SearchBot(MEDIUM, 3).explain(strong).action == Kontra(1)


def test_a_judged_kontra_is_a_function_of_the_observation_and_the_seed() -> None:
    obs = observe(kontra_turn(CLEAR), 1)
    first, again = SearchBot(MEDIUM, 11).explain(obs), SearchBot(MEDIUM, 11).explain(obs)
    assert first.action == again.action and first.values == again.values
