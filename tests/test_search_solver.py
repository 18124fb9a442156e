"""The endgame solver's values equal brute force (issue 11).

Small endgames (two or three cards left in each hand) are taken from the
hands of ``tests/corpus`` of every variant enabled: positive, negative and
each-for-himself games, suit and colour games, house rules.  Brute force
plays every legal card of every seat through the engine itself (no bit
sets, no pruning, no merged cards), scores each finished hand by the
engine's settlement, and takes the maximum where the solving seat's party
moves and the minimum elsewhere; the solver
(:class:`client.bots.solver.Solver`) must find the same value, and its
zero-window test must say yes at that value and no just above it.
"""

from __future__ import annotations

import copy
import gzip
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from table_rules import TableRules

from tarock.client.bots.cardsearch import Budget, search_card
from tarock.client.bots.playout import Aims, aims_of
from tarock.client.bots.rulebook import TableEngine, register
from tarock.client.bots.simulate import Sim
from tarock.client.bots.solver import TIE_BREAK, Solver
from tarock.core.engine import Hand, IllegalAction
from tarock.core.observation import Observation, observe
from tarock.core.plugins import load_plugins
from tarock.core.record import parse_record, replay

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
CATALOGUE = load_plugins(ROOT / "plugins.toml")
TABLES = TableRules(CATALOGUE.variants)  # each table's rules built once, as a table plays its hands
VARIANTS = sorted(p.name.removesuffix(".jsonl.gz") for p in CORPUS.glob("*.jsonl.gz"))
PER_VARIANT = 6
"""Endgames solved per variant."""


def endgames(variant: str) -> Iterator[tuple[str, Hand]]:
    """Hands of the corpus replayed to a position with two or three cards
    left in each hand (alternately), part of a trick possibly played."""
    found = 0
    with gzip.open(CORPUS / f"{variant}.jsonl.gz", "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            entry: dict[str, Any] = json.loads(line)
            hand = replay({**entry["record"], "actions": []}, rules=TABLES.rules(entry["record"])).hand
            assert hand is not None
            left = 2 + found % 2
            offset = i % 4  # cards already in the trick
            try:
                for raw in parse_record(entry["record"]).raw_actions:
                    state = hand.state
                    in_trick = len(state.trick.cards) if state.trick is not None else 0
                    if state.phase == "play" and max(len(h) for h in state.hands) == left and \
                            in_trick == offset:
                        break
                    action = hand.rules.codec.decode_action(raw, hand.state.seats)
                    hand.apply(action)
            except IllegalAction:
                continue
            state = hand.state
            if hand.done or state.phase != "play" or max(len(h) for h in state.hands) != left:
                continue
            yield f"{variant} hand {i}, {left} cards left", hand
            found += 1
            if found == PER_VARIANT:
                return


def clone(hand: Hand) -> Hand:
    """A copy of ``hand`` to play on: its own state, the same rules and the
    same immutable parts (options, table context, contract)."""
    state = hand.state
    keep = (hand.rules, state.options, state.context, state.contract)
    child = copy.copy(hand)
    child.state = copy.deepcopy(state, {id(x): x for x in keep})
    child._legal_cache = None
    return child


def brute_force(hand: Hand, seat: int, aims: Aims, values: tuple[int, ...] | list[int]) -> float:
    """The value of ``hand`` for ``seat`` by trying every card of every seat in the engine."""
    if hand.done:
        result = hand.state.result
        assert result is not None
        mine = aims.side[seat]
        points = sum(values[c] for t in hand.state.tricks
                     if t.winner is not None and aims.side[t.winner] == mine for c in t.cards)
        return result.settlement[seat] + TIE_BREAK * points
    mover = hand.state.to_move
    assert mover is not None
    outcomes = []
    for action in hand.legal(mover):
        child = clone(hand)
        child.apply(action)
        outcomes.append(brute_force(child, seat, aims, values))
    return max(outcomes) if aims.side[mover] == aims.side[seat] else min(outcomes)


@pytest.mark.parametrize("variant", VARIANTS)
def test_solver_values_equal_brute_force(variant: str) -> None:
    solved = 0
    for where, hand in endgames(variant):
        state = hand.state
        table = register(hand.rules)
        values = hand.rules.facts.facts.card_values
        aims = aims_of(state)
        declarer = state.declarer or 0
        for seat in sorted({state.to_move or 0, declarer, (declarer + 1) % state.seats}):
            expected = brute_force(hand, seat, aims, values)
            sim = Sim(table, clone(hand).state)
            solver = Solver(sim, aims, seat, values, node_limit=1_000_000)
            assert solver.value() == pytest.approx(expected), f"{where}, seat {seat}"
            assert not sim.stack, "the solver leaves the position as it found it"
            assert solver.at_least(expected - 1e-6) is True, f"{where}, seat {seat}"
            assert solver.at_least(expected + 1e-3) is False, f"{where}, seat {seat}"
            solved += 1
    assert solved >= PER_VARIANT, solved


def choices(variant: str) -> Iterator[tuple[str, Observation, TableEngine]]:
    """The endgames of :func:`endgames` whose seat to move has a choice: its
    observation and the table's engine rules."""
    for where, hand in endgames(variant):
        seat = hand.state.to_move
        assert seat is not None
        obs = observe(hand, seat)
        if len(obs.legal) >= 2:
            yield where, obs, register(hand.rules)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_playout_that_hands_over_to_the_solver_finds_the_solvers_values(variant: str) -> None:
    """``Budget.rollout_solve``: a playout that reaches the solver's trick count at
    once is finished exactly, so each card's mean is the exact search's, world by world."""
    compared = 0
    for where, obs, table in choices(variant):
        exact = search_card(obs, table, random.Random(5), Budget(worlds=3, solve_at=3))
        handed = search_card(obs, table, random.Random(5), Budget(worlds=3, rollouts=True, rollout_solve=3))
        played = search_card(obs, table, random.Random(5), Budget(worlds=3, rollouts=True))
        assert exact is not None and handed is not None and played is not None, where
        if not exact.worlds:
            continue  # one class of equivalent cards: nothing searched
        assert handed.values == pytest.approx(exact.values), where
        assert handed.card == exact.card, where
        assert exact.solved and not played.solved, where
        compared += 1
    assert compared >= 1, compared


def test_dropping_the_cards_the_default_clearly_beats_ends_searches_early() -> None:
    """``Budget.prune_every``: with the full search's best card as the default,
    the pruned search keeps it and never uses more worlds; where the default
    beats every other card clearly, it stops before its last world (in some
    endgame of the corpus)."""
    compared = early = 0
    for variant in VARIANTS:
        for where, obs, table in choices(variant):
            full = search_card(obs, table, random.Random(7), Budget(worlds=8, solve_at=3))
            assert full is not None, where
            if not full.worlds:
                continue
            pruned = search_card(obs, table, random.Random(7), Budget(worlds=8, solve_at=3, prune_every=2),
                                 default=full.card)
            assert pruned is not None, where
            assert pruned.card == full.card and pruned.worlds <= full.worlds, where
            early += pruned.worlds < full.worlds
            compared += 1
    assert compared >= 10 and early >= 1, (compared, early)
