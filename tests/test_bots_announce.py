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
from tarock.client.bots.levels import MEDIUM, SearchBot
from tarock.client.bots.plans import PlanBudget, RolloutPolicy
from tarock.client.bots.rulebook import engine_for
from tarock.core.actions import Action, Announce, Bid, Kontra, Pass, Play
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe
from tarock.core.registry import find_variant

MEDIUM_ANNOUNCE = MEDIUM.announce
assert MEDIUM_ANNOUNCE is not None
CLEAR = "XXI XVIII XVII XVI XV XIV XIII hK dK sQ s7 s8"
"""A defender's hand with which the sampled worlds rate a Kontra clearly above passing."""


def test_only_announcement_and_kontra_turns_are_judged_here() -> None:
    assert judged((Pass(1), Kontra(1)))
    assert judged((Pass(1), Announce(1, ("trull",)), Kontra(1, "game@0")))
    assert not judged((Pass(1),))
    assert not judged((Pass(1), Bid(1, "rufspiel"), Kontra(1)))  # an auction's turn: the bid judgement's
    assert not judged((Play(1, 3), Play(1, 4)))


def test_open_card_playouts_judge_only_what_they_can_see() -> None:
    """Open-card playouts: passing and the material premiums (read off the premium data);
    a Kontra on the game's chain only as the prior's (docs/rules.md §8.1), at every level."""
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
    every = candidates(obs, legal, Pass(1), open_cards=False)  # all but the game's chain
    assert every == [a for a in legal if a != Kontra(1)]
    assert candidates(obs, legal, Kontra(1), open_cards=False) == [*every, Kontra(1)]


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


def first_announcement_turn(variant: str, seed: int) -> Observation:
    """The first turn of a hand dealt from ``seed`` played by the rule of thumb that is judged here."""
    rules = find_variant(variant).rules()
    hands, talon = deal(rules, random.Random(seed), 4)
    hand = Hand(rules, seed % 4, hands, talon)
    rule_of_thumb = HeuristicBot(0)
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        obs = observe(hand, seat)
        if judged(obs.legal) and len(obs.legal) > 1:
            return obs
        hand.apply(rule_of_thumb.decide(obs))
    raise AssertionError("no announcement turn")


def test_a_material_premium_the_prior_passes_on_is_announced_where_the_worlds_rate_it_higher() -> None:
    """``koenigrufen-club``, deal 7: the rule of thumb passes; ``medium`` announces a premium the
    data mark as material (docs/rules.md §9.3), clearly better in its worlds; a margin wider than
    the gap keeps the pass."""
    obs = first_announcement_turn("koenigrufen-club", 7)
    assert HeuristicBot(0).decide(obs) == Pass(obs.seat)
    decision = SearchBot(MEDIUM, 0).explain(obs)
    action = decision.action
    assert isinstance(action, Announce) and decision.worlds == 8, decision.reason
    assert obs.rules is not None
    assert {p.name for p in obs.rules.premiums if p.material} >= set(action.announce)
    gap = decision.values[action] - decision.values[Pass(obs.seat)]
    assert gap >= 0.25 * stake(obs)
    wide = replace(MEDIUM, announce=AnnounceBudget(MEDIUM_ANNOUNCE.plans, 1.01 * gap / stake(obs)))
    assert SearchBot(wide, 0).explain(obs).action == Pass(obs.seat)


def test_a_game_kontra_is_judged_only_where_the_prior_says_it() -> None:
    """The worlds rate a Kontra the rule of thumb does not say higher, but it is not tried
    (docs/rules.md §8.1: it doubles the game; the worlds underrate the declarer)."""
    obs = observe(kontra_turn(CLEAR), 1)
    assert _judge(obs, Pass(1), margin=0.0, confidence=0.0)[0] == Pass(1)
    action, values = _judge(obs, Kontra(1), margin=0.25, confidence=2.0)
    assert action == Kontra(1) and values[Kontra(1)] - values[Pass(1)] >= 0.25 * stake(obs)


def test_a_weak_hand_is_talked_out_of_the_priors_kontra_only_past_the_margin() -> None:
    weak = observe(kontra_turn(WEAK), 1)
    action, values = _judge(weak, Kontra(1), margin=0.25, confidence=2.0, open_cards=True)
    gap = values[Pass(1)] - values[Kontra(1)]
    assert action == Pass(1) and gap > 0
    kept, _ = _judge(weak, Kontra(1), margin=1.01 * gap / stake(weak), confidence=0.0, open_cards=True)
    assert kept == Kontra(1)
    strong = observe(kontra_turn(STRONG), 1)
    assert HeuristicBot(3).decide(strong) == Kontra(1)
    assert SearchBot(MEDIUM, 3).explain(strong).action == Kontra(1)


def test_a_judged_kontra_is_a_function_of_the_observation_and_the_seed() -> None:
    obs = first_announcement_turn("koenigrufen-club", 7)
    first, again = SearchBot(MEDIUM, 11).explain(obs), SearchBot(MEDIUM, 11).explain(obs)
    assert first.action == again.action and first.values == again.values
