"""Choosing a card: perfect-information Monte Carlo over sampled worlds.

For a card decision the bot draws worlds consistent with its observation
(:mod:`client.bots.worlds`), plays each candidate card in each world and
finishes the hand there, then plays the card with the best mean result.
A result is the bot's own amount in the engine's settlement of the
finished hand (every premium and house rule counted as at the table),
plus a thousandth of its party's card points to break ties (a safer
margin).  How the hand is finished:

- with the playout player (:mod:`client.bots.playout`): every seat plays
  by simple perfect-information rules;
- near the end (``Budget.solve_at`` tricks left, the current one counted),
  exactly: the solver (:mod:`client.bots.solver`) finds the best play of
  both parties to the end in that world;
- with ``Budget.rollout_solve``, a playout stops at that many tricks left
  and the solver finishes it exactly (``hard`` before its last four tricks,
  see :mod:`client.bots.levels`); the solves of one world share what they
  found (:class:`~client.bots.solver.WorldMemo`).

All candidates are tried in the same worlds, so their differences are not
blurred by the luck of the draw.  Cards that are equivalent from what the
bot knows (neighbours in one suit with the same value, every card between
them played in an earlier trick or in its own hand, none of them a card a
premium names) are tried once.  With ``Budget.prune_every`` the cards the
rule of thumb's card beats by ``Budget.prune_z`` standard errors are
dropped as the worlds come in, and the search ends once only it is left.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tarock.client.bots.playout import Aims, Player, aims_of, play_out
from tarock.client.bots.rollout import rollout
from tarock.client.bots.rulebook import TableEngine
from tarock.client.bots.simulate import Sim
from tarock.client.bots.solver import Solver, WorldMemo
from tarock.client.bots.weighing import clearly_better, mostly_better, weighted_mean
from tarock.client.bots.worlds import Model, Sampler
from tarock.core.actions import Play
from tarock.core.cards import KAKADU, MARABU, MOND, PAGAT, SKUS, STRENGTH, SUIT_OF, UHU, Card, is_king
from tarock.core.observation import Observation

SPECIAL: frozenset[Card] = frozenset({PAGAT, UHU, KAKADU, MARABU, MOND, SKUS})
"""Cards never merged with a neighbour: premiums and tricks name them."""
TIE_BREAK = 0.001
"""Weight of the own party's card points (in the table's unit) next to its amount."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work one card decision may take (deterministic: no clock)."""

    worlds: int
    """Worlds sampled."""
    solve_at: int = 0
    """Tricks left (the current one counted) from which each world is solved exactly; 0: never."""
    node_limit: int = 200_000
    """Solver nodes per world (its candidates together) before it falls back to the playout."""
    decision_nodes: int = 0
    """Solver nodes for the whole decision, over all worlds (0: no bound); once spent, the
    remaining worlds are played out (a bound on the slowest decisions, without a clock)."""
    rollouts: bool = False
    """Whether positions too early for the solver are searched by playouts
    (else the default card is played there)."""
    rollout_solve: int = 0
    """Tricks left (the current one counted) at which a playout hands over to the
    solver, which finishes that world exactly (0: the playout plays to the end)."""
    early_nodes: int = 0
    """``decision_nodes`` for a decision before ``solve_at`` (0: the same): each of its
    worlds is played out first, so its solver's nodes are worth less."""
    confidence: float = 1.0
    """Standard errors by which a card must beat the default card to be chosen instead."""
    prune_every: int = 0
    """Every so many worlds, the cards the default card beats by ``prune_z`` standard
    errors are dropped, and the search ends once only the default is left (0: never)."""
    prune_z: float = 2.0


@dataclass(frozen=True, slots=True)
class CardChoice:
    """The outcome of a card search."""

    card: Card
    values: dict[Card, float]
    """Mean result per candidate tried (a card dropped early: over the worlds it was tried in)."""
    worlds: int
    solved: bool
    kept_default: bool = False
    """The best mean was another card's, but not by more than the noise: the default stays."""


def equivalent_groups(obs: Observation, cards: Sequence[Card]) -> list[list[Card]]:
    """``cards`` grouped into classes the bot cannot tell apart (see the module docstring)."""
    rules = obs.rules
    values = rules.facts.card_values if rules is not None else ()
    known = set(obs.hand)  # a card of the trick on the table is not gone: it may lie between them
    for t in obs.tricks:
        known |= set(t.cards)
    called = obs.called
    deck = rules.deck if rules is not None else ()
    groups: list[list[Card]] = []
    for card in sorted(cards, key=lambda c: (SUIT_OF[c], STRENGTH[c])):
        special = card in SPECIAL or is_king(card) or card == called
        if groups and not special:
            prev = groups[-1][-1]
            if (SUIT_OF[prev] == SUIT_OF[card] and prev not in SPECIAL and not is_king(prev)
                    and prev != called and values[prev] == values[card]):
                lo, hi = STRENGTH[prev], STRENGTH[card]
                between = [c for c in deck if SUIT_OF[c] == SUIT_OF[card] and lo < STRENGTH[c] < hi]
                if all(c in known for c in between):
                    groups[-1].append(card)
                    continue
        groups.append([card])
    return groups


def _points(sim: Sim, side: Sequence[int], seat: int, values: Sequence[int]) -> int:
    mine = side[seat]
    return sum(values[c] for t in sim.tricks if t.winner is not None and side[t.winner] == mine
               for c in t.cards)


def search_card(obs: Observation, table: TableEngine, rng: random.Random, budget: Budget,
                default: Card | None = None, model: Model | None = None,
                policy: Model | None = None) -> CardChoice | None:
    """The card to play (None when no world could be sampled).

    With ``default`` (the heuristic's card) the search departs from it only
    where the best card's gain over it, world by world, is clearly more than
    the noise of the sample (``Budget.confidence`` standard errors) and, where
    the worlds were played out rather than solved, the best card is also
    better in clearly more worlds than worse (a sign test at the same
    confidence): a few played-out worlds, whose values are the playout
    player's, must not decide it alone (docs/bots.md, "Where tarock54's
    margin goes")."""
    cards = [a.card for a in obs.legal if isinstance(a, Play)]
    groups = equivalent_groups(obs, cards)
    if len(groups) == 1:
        return CardChoice(groups[0][0], {groups[0][0]: 0.0}, 0, False)
    left = max(obs.hand_sizes)
    if not budget.rollouts and not (budget.solve_at and left <= budget.solve_at):
        return None
    sampler = Sampler(obs, table, model)
    worlds = sampler.worlds(rng, budget.worlds)
    if not worlds:
        return None
    rules = obs.rules
    assert rules is not None
    values = rules.facts.card_values
    me = obs.seat
    reps = [g[0] for g in groups]
    if default is not None:
        default = next((g[0] for g in groups if default in g), None)
    results: dict[Card, list[float]] = {c: [] for c in reps}
    solved = False
    nodes = budget.early_nodes if budget.early_nodes and not (budget.solve_at and left <= budget.solve_at) \
        else budget.decision_nodes
    spare = nodes if nodes > 0 else None
    live = list(reps)
    weights = [w.weight for w in worlds]
    used = 0
    for world in worlds:
        if len(live) == 1:
            break  # every other card is clearly worse than the default: the rest would not change it
        used += 1
        state = world.hand.state
        sim = Sim(table, state)
        aims = aims_of(state)
        player = Player(sim, aims, values)
        exact = budget.solve_at > 0 and sim.tricks_left <= budget.solve_at and (spare is None or spare > 0)
        limit = budget.node_limit if spare is None else min(budget.node_limit, spare)
        memo = WorldMemo()
        solver = Solver(sim, aims, me, values, limit, memo=memo) if exact else None
        for card in live:
            sim.play(card)
            result: float | None = None
            if solver is not None:
                result = solver.value()
                if result is not None:
                    solved = True
            if result is None and policy is not None:
                hand = sampler.rebuild(world)
                hand.apply(Play(me, card))
                result = rollout(table, hand, me, policy, True)
            if result is None:
                depth = len(sim.stack)
                result, spent = _finish(sim, player, aims, me, values, budget, spare, memo)
                if spare is not None:
                    spare -= spent
                if result is None:
                    play_out(sim, player)
                    result = sim.settlement()[me] + TIE_BREAK * _points(sim, aims.side, me, values)
                sim.rewind(depth)
            sim.rewind(0)
            results[card].append(result)
        if solver is not None and spare is not None:
            spare -= solver.nodes
        if default is not None and budget.prune_every and used % budget.prune_every == 0:
            live = _survivors(live, default, results, weights[:used], budget.prune_z)
    means = {c: weighted_mean(v, weights[:len(v)]) for c, v in results.items()}
    best = max(live, key=lambda c: (means[c], -STRENGTH[c]))
    weights = weights[:used]
    kept = False
    if default is not None and best != default and not (
            clearly_better(results[best], results[default], weights, budget.confidence)
            and (solved or mostly_better(results[best], results[default], budget.confidence))):
        best, kept = default, True  # played-out values: a few worlds must not decide it alone
    return CardChoice(best, means, used, solved, kept)


def _survivors(live: list[Card], default: Card, results: dict[Card, list[float]], weights: Sequence[float],
               z: float) -> list[Card]:
    """``live`` without the cards ``default`` beats by ``z`` standard errors so far."""
    mine = results[default]
    return [c for c in live if c == default or not clearly_better(mine, results[c], weights, z)]


def _finish(sim: Sim, player: Player, aims: Aims, me: int, values: Sequence[int], budget: Budget,
            spare: int | None, memo: WorldMemo | None = None) -> tuple[float | None, int]:
    """A playout to ``budget.rollout_solve`` tricks left, then the solver's exact value
    of the rest, and the solver nodes spent (None, the cards of the playout taken
    back, when that is off or the solver's budget runs out)."""
    if budget.rollout_solve <= 0 or (spare is not None and spare <= 0):
        return None, 0
    depth = len(sim.stack)
    while sim.to_move >= 0 and sim.tricks_left > budget.rollout_solve:
        seat = sim.to_move
        sim.play(player.choose(seat, sim.legal(seat)))
    limit = budget.node_limit if spare is None else min(budget.node_limit, spare)
    solver = Solver(sim, aims, me, values, limit, memo=memo)
    result = solver.value()
    if result is None:
        sim.rewind(depth)
    return result, solver.nodes
