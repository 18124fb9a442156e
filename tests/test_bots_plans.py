"""Selective plan search: a level searches only the decision kinds its
:class:`~client.bots.plans.PlanBudget` names and leaves the rest to the rule of thumb."""

from __future__ import annotations

from dataclasses import replace

from helpers54 import act, rigged_hand

from tarock.client.bots.heuristic import HeuristicBot
from tarock.client.bots.levels import HARD, Level, SearchBot
from tarock.client.bots.plans import PlanBudget
from tarock.core.actions import Call, Discard, Kontra, Pass
from tarock.core.cards import parse_card
from tarock.core.engine import Hand
from tarock.core.observation import observe


def level(kinds: frozenset[str] | None) -> Level:
    """``HARD`` searching ``kinds`` only (announcements and Kontras too left to ``plans``:
    tests/test_bots_announce.py has their own judgement)."""
    return replace(HARD, name="test", plans=PlanBudget(worlds=8, kinds=kinds, cards_by_policy=False),
                   announce=None)


def test_the_budget_searches_only_the_kinds_it_names() -> None:
    kontra = PlanBudget(worlds=8, kinds=frozenset({"kontra"}))
    assert kontra.searches((Pass(1), Kontra(1)))
    assert not kontra.searches((Pass(0), Call(0, parse_card("XX"))))
    assert not kontra.searches((Discard(0, (30, 31, 32)), Discard(0, (30, 31, 33))))
    assert not kontra.searches((Pass(1),))  # Pass alone is no kind of decision
    every = PlanBudget(worlds=8)
    assert every.searches((Pass(0), Call(0, parse_card("XX"))))
    assert every.searches((Pass(1), Kontra(1)))


DECLARER = "XX I II III IV cK cQ cC cJ c10 c9 sK"  # calls the XIX
STRONG = "Sküs XXI XVIII XVII XVI XV XIV XIII XII hK dK sQ"
WEAK = "V VI c7 c8 sC sJ s10 s9 s8 s7 h1 h2"


def kontra_turn(defender: str) -> Hand:
    """Seat 0 calls the XIX with a thin hand and lays three away; seat 1 (``defender``) to say Kontra."""
    hand = rigged_hand([DECLARER, defender, "", ""], fill=True, dealer=3)
    act(hand, "0 call XIX")
    hand.apply(hand.legal(0)[0])
    assert hand.state.phase == "kontra" and hand.state.to_move == 1
    return hand


def test_a_level_searching_kontra_only_leaves_the_bidding_to_the_rule_of_thumb() -> None:
    bot = SearchBot(level(frozenset({"kontra"})), 7)
    hand = rigged_hand([DECLARER, STRONG, "", ""], fill=True, dealer=3)
    obs = observe(hand, 0)
    decision = bot.explain(obs)
    assert decision.worlds == 0 and "does not search" in decision.reason
    assert decision.action == HeuristicBot(7).decide(obs)
    searched = bot.explain(observe(kontra_turn(STRONG), 1))
    assert searched.worlds > 0 and set(searched.values) == {Pass(1), Kontra(1)}


def test_the_kontra_search_doubles_a_won_game_and_not_a_lost_one() -> None:
    bot = SearchBot(level(frozenset({"kontra"})), 3)
    strong = bot.explain(observe(kontra_turn(STRONG), 1))
    assert strong.action == Kontra(1), strong.reason
    assert strong.values[Kontra(1)] > strong.values[Pass(1)] > 0
    weak = bot.explain(observe(kontra_turn(WEAK), 1))
    assert weak.action == Pass(1), weak.reason
    assert weak.values[Kontra(1)] < weak.values[Pass(1)]


def test_the_call_search_calls_a_strong_hand_and_passes_a_hopeless_one() -> None:
    bot = SearchBot(replace(level(frozenset({"call"})), plans=PlanBudget(worlds=8, kinds=frozenset({"call"}),
                                                                         confidence=2.0)), 5)
    strong = bot.explain(observe(rigged_hand(["Sküs XXI XX XIX XVIII XVII XVI XV cK sK hK dK", "", "", ""],
                                             fill=True, dealer=3), 0))
    assert isinstance(strong.action, Call) and strong.worlds > 0, strong.reason
    hopeless = bot.explain(observe(rigged_hand(["c7 c8 c9 s7 s8 s9 h1 h2 h3 d1 d2 d3", "", "", ""],
                                               fill=True, dealer=3), 0))
    assert hopeless.action == Pass(0) and hopeless.worlds > 0, hopeless.reason
    assert bot.explain(observe(kontra_turn(STRONG), 1)).worlds == 0  # Kontra is left to the rule of thumb
