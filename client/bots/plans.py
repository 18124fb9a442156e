"""Decisions outside card play, by simulating the rest of the hand.

Bids and the choice of contract, calls, the talon half and the discard,
announcements, Kontra and the trump suit are all decided the same way:
each candidate action is taken in worlds sampled from the bot's
information (:mod:`client.bots.worlds`, weighted by how plausible the
others' bids are), and the hand is played on from there through the
engine: the remaining decisions outside card play by the heuristic player
for every seat (the bot itself included), the cards by the playout player
(:mod:`client.bots.playout`), the finished hand scored by the engine.  The
candidate with the best weighted mean amount for the bot wins.  All
candidates meet the same worlds.

A sense of risk: a candidate is preferred to the heuristic's own choice
only when it is better by more than ``PlanBudget.confidence`` standard
errors of the paired differences, so a thin sample never talks the bot
into a game or a Kontra; with ``PlanBudget.confirm`` such a candidate must
beat it once more in fresh worlds (a few worlds per decision, over many
decisions, now and then favour one by luck alone); and candidates are
dropped by successive halving (the worse half after each round of worlds),
so the work goes to the close calls.

Where there are many candidates (a discard of three cards from fifteen),
the heuristic's rating of the candidates picks the few that are simulated
(:func:`shortlist`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tarock.client.bots.rollout import rollout
from tarock.client.bots.rulebook import TableEngine
from tarock.client.bots.weighing import clearly_better, weighted_mean
from tarock.client.bots.worlds import Model, Sampler, World
from tarock.core.actions import Action, Discard, Pass
from tarock.core.cards import SUIT_OF, Card
from tarock.core.observation import Observation

DISCARDS = 5
"""Discards simulated at most (the best by :func:`discard_rating`, and the default)."""


@dataclass(frozen=True, slots=True)
class PlanBudget:
    """How much work one decision outside card play may take."""

    worlds: int
    """Worlds in which the finalists are compared."""
    screen: int = 4
    """Worlds in which every candidate is tried first, when there are more than
    ``finalists`` of them (cards by the playout player: cheap)."""
    finalists: int = 4
    """Candidates compared in all worlds (the default among them)."""
    confidence: float = 1.0
    """Standard errors by which a candidate must beat the default to replace it."""
    cards_by_policy: bool = True
    """Whether the finalists' simulations play the cards by the policy too (each
    seat from its own observation) rather than by the perfect-information
    playout player."""
    kinds: frozenset[str] | None = None
    """The decisions searched, by the ``type`` tag of the actions offered
    besides Pass (``"kontra"``, ``"call"``, ``"discard"`` ...); the others are
    left to the rule of thumb.  None: every decision outside card play."""
    confirm: int = 0
    """Fresh worlds in which a candidate that clearly beat the default must beat
    it once more, by ``confirm_by`` standard errors, before it is taken (0: no
    second look; see :func:`search_action`)."""
    confirm_by: float = 1.0
    """Standard errors of the second look (at the first's two it turned down
    contracts ``medium`` wins, docs/bots.md)."""

    def searches(self, legal: Sequence[Action]) -> bool:
        """Whether a decision offering ``legal`` is searched (see ``kinds``)."""
        if self.kinds is None:
            return True
        return any(a.type in self.kinds for a in legal if not isinstance(a, Pass))


@dataclass(frozen=True, slots=True)
class PlanChoice:
    """The outcome of a planning search."""

    action: Action
    values: dict[Action, float]
    worlds: int
    kept_default: bool = False
    """The best mean was another candidate's, but not by more than the noise."""
    unconfirmed: bool = False
    """Kept because the best did not clearly beat the default again in fresh worlds."""


def discard_rating(obs: Observation, cards: Sequence[Card]) -> float:
    """A quick rating of laying ``cards`` away: points laid away count for the
    declarer, a suit made void helps, tarocks are kept (the heuristic's rule)."""
    rules = obs.rules
    values = rules.facts.card_values if rules is not None else ()
    hand = obs.hand
    gone = set(cards)
    score = 0.0
    for suit in range(4):
        before = sum(1 for c in hand if SUIT_OF[c] == suit)
        after = sum(1 for c in hand if SUIT_OF[c] == suit and c not in gone)
        if before and not after:
            score += 30
    for c in cards:
        score += -(40 + c) if c < 22 else 6 * values[c]
    return score


def shortlist(obs: Observation, legal: Sequence[Action], default: Action) -> list[Action]:
    """The candidates to simulate: actions announcing at most one premium (a
    bid with several additions is rarely right and multiplies the choices),
    of many discards the ``DISCARDS`` best-rated ones; the default always."""
    chosen = [a for a in legal if len(getattr(a, "announce", ())) <= 1]
    discards = [a for a in chosen if isinstance(a, Discard)]
    if len(discards) > DISCARDS:
        ranked = sorted(discards, key=lambda a: -discard_rating(obs, a.cards))[:DISCARDS]
        chosen = [a for a in chosen if not isinstance(a, Discard)]
        chosen.extend(ranked)
    if default not in chosen:
        chosen.append(default)
    return chosen


class RolloutPolicy:
    """The heuristic player for simulations, with a quick discard: where the
    rules allow more than ``DISCARDS`` discards the best by
    :func:`discard_rating` is laid away (the same hand gets the same discard
    in every simulation of a decision, so it is worked out once)."""

    def __init__(self, player: Model) -> None:
        self.player = player
        self._discards: dict[tuple[int, tuple[Card, ...]], Action] = {}

    def decide(self, obs: Observation) -> Action:
        legal = obs.legal
        if len(legal) > DISCARDS and isinstance(legal[0], Discard):
            key = (obs.seat, obs.hand)
            found = self._discards.get(key)
            if found is None or found not in legal:
                found = quick_discard(obs)
                if len(self._discards) > 256:
                    self._discards.clear()
                self._discards[key] = found
            return found
        return self.player.decide(obs)


def quick_discard(obs: Observation) -> Action:
    """A good discard without rating every one: the cards best laid away one by
    one (:func:`discard_rating` of each card alone), the first legal set of
    them; else the best-rated legal discard."""
    discards = [a for a in obs.legal if isinstance(a, Discard)]
    count = len(discards[0].cards)
    ranked = sorted(obs.hand, key=lambda c: -discard_rating(obs, (c,)))
    legal = {a.cards: a for a in discards}
    for skip in range(min(4, len(ranked) - count + 1)):
        for start in range(skip + 1):
            pick = tuple(sorted(ranked[:start] + ranked[start + skip:start + skip + count - start]))
            if len(pick) == count and pick in legal:
                return legal[pick]
    return max(discards, key=lambda a: discard_rating(obs, a.cards))


def _evaluate(sampler: Sampler, table: TableEngine, worlds: Sequence[World], candidates: Sequence[Action],
              seat: int, policy: Model, cards_too: bool, results: dict[Action, list[float]]) -> None:
    for world in worlds:
        unused = True
        for action in candidates:
            hand = world.hand if unused and not world.used else sampler.rebuild(world)
            unused = False
            world.used = True
            hand.apply(action)
            results.setdefault(action, []).append(rollout(table, hand, seat, policy, cards_too))


def search_action(obs: Observation, table: TableEngine, rng: random.Random, budget: PlanBudget,
                  default: Action, policy: Model, model: Model | None = None,
                  candidates: Sequence[Action] | None = None,
                  doubtful: Callable[[Action], bool] | None = None) -> PlanChoice | None:
    """The action to take (None when no world could be sampled): the best of
    ``candidates`` (default: the :func:`shortlist` of ``obs.legal``; ``obs``
    is the seat's whole observation, its legal actions as the table offers them).
    A best other than ``default`` gets the second look (``budget.confirm``)
    where ``doubtful`` says so of it (None: always)."""
    candidates = list(candidates) if candidates is not None else shortlist(obs, obs.legal, default)
    if default not in candidates:
        candidates.append(default)
    if len(candidates) == 1:
        return PlanChoice(candidates[0], {candidates[0]: 0.0}, 0)
    sampler = Sampler(obs, table, model)
    worlds = sampler.worlds(rng, max(budget.worlds, budget.screen))
    if not worlds:
        return None
    me = obs.seat
    finalists = list(candidates)
    screened: dict[Action, list[float]] = {}
    used = 1
    while len(finalists) > budget.finalists:
        # successive halving: one world more for each survivor, the worse half dropped
        used = min(used * 2, max(1, budget.screen))
        _evaluate(sampler, table, worlds[len(screened.get(finalists[0], [])):used], finalists, me, policy,
                  False, screened)
        ranked = sorted(finalists, key=lambda a: -sum(screened[a]) / len(screened[a]))
        keep = max(budget.finalists, len(ranked) // 2)
        survivors = ranked[:keep]
        if default in finalists and default not in survivors:
            survivors[-1] = default
        finalists = survivors
        if used >= budget.screen:
            break
    if len(finalists) > budget.finalists:
        finalists = finalists[:budget.finalists]
        if default in candidates and default not in finalists:
            finalists[-1] = default
    results: dict[Action, list[float]] = {}
    chosen = worlds[:budget.worlds]
    _evaluate(sampler, table, chosen, finalists, me, policy, budget.cards_by_policy, results)
    weights = [w.weight for w in chosen]
    means = {a: weighted_mean(results[a], weights) for a in finalists}
    best = max(finalists, key=lambda a: means[a])
    kept = False
    if default in means and best != default and not clearly_better(results[best], results[default], weights,
                                                                   budget.confidence):
        best, kept = default, True
    if best != default and default in means and budget.confirm > 0 and (doubtful is None or doubtful(best)) \
            and not _confirmed(sampler, table, rng, budget, best, default, me, policy):
        return PlanChoice(default, means, len(chosen), True, True)
    return PlanChoice(best, means, len(chosen), kept)


def _confirmed(sampler: Sampler, table: TableEngine, rng: random.Random, budget: PlanBudget, best: Action,
               default: Action, me: int, policy: Model) -> bool:
    """Whether ``best`` again beats ``default`` in ``budget.confirm`` fresh worlds.

    Many decisions are searched, each in a few worlds, so now and then a
    candidate beats the default by two standard errors by the luck of its
    worlds alone, and the one chosen is the one the luck favoured most (the
    games ``medium`` bid that way lost more than they won, and most rate below
    the default in other worlds: docs/bots.md).  Worlds drawn after the choice
    are free of that selection."""
    fresh = sampler.worlds(rng, budget.confirm)
    if not fresh:
        return False
    results: dict[Action, list[float]] = {}
    _evaluate(sampler, table, fresh, [default, best], me, policy, budget.cards_by_policy, results)
    return clearly_better(results[best], results[default], [w.weight for w in fresh], budget.confirm_by)
