"""Sampling deals consistent with what one seat knows (information-set sampling).

A search bot decides by playing the hand on in many *worlds*: deals of the
cards it cannot see that agree with everything public and with its own
hand.  A :class:`Sampler` reads one observation: where the unseen cards may
lie (:class:`~client.bots.whereabouts.Whereabouts`: the hands, hidden
discards and talon piles, narrowed by the play and the auction).

It deals the unseen cards at random to those places
(:mod:`client.bots.drawing`), rebuilds the deal, and replays the public
history through the engine with the sampled hidden cards (:class:`World`).
The engine is the judge: a world in which any recorded action is illegal (a
bid the hand may not make, a discard of a King, a card play) is thrown away
and another is drawn.  So the worlds agree with the table's own rules,
house rules included, and the bot sees nothing hidden: only the
observation is read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from tarock.client.bots.drawing import assign, deal_of, neighbour, repair, with_hidden
from tarock.client.bots.rulebook import TableEngine
from tarock.client.bots.whereabouts import Whereabouts
from tarock.core.actions import Action, Discard, Play
from tarock.core.cards import Card, sort_key
from tarock.core.engine import DealError, Hand, IllegalAction
from tarock.core.observation import Observation, observe
from tarock.core.rules import RuleError

TRIES = 40
"""Deals drawn per world before :meth:`Sampler.sample` gives up."""
MODEL_CACHE = 20_000
"""Model decisions a sampler remembers at most."""
BURN_IN = 4
"""Steps of the chain (:meth:`Sampler.worlds`) at least before its first world is kept."""
THIN = 2
"""Steps of the chain between two worlds kept."""
FRESH = 0.25
"""The share of the chain's steps that propose a fresh random assignment."""
CONDITIONED_TRIES = 16
"""Random deals drawn for one fresh proposal that meets the chain's conditions."""
MAX_CONDITIONS = 4
"""Decisions the chain makes conditions of at most."""
BURN_IN_MAX = 30
"""Steps the chain may take to come to agree with every decision."""


@dataclass(slots=True)
class World:
    """One deal consistent with an observation, replayed to its decision point."""

    hand: Hand
    hands: list[list[Card]]
    talon: list[list[Card]]
    history: list[Action]
    """The observation's history with the sampled cards of hidden discards."""
    weight: float = 1.0
    """How plausible the others' public decisions are in this deal (:class:`Sampler`'s ``model``)."""
    used: bool = False
    """Whether ``hand`` has been played on (a fresh one is rebuilt from the deal)."""


@dataclass(frozen=True, slots=True)
class _Condition:
    """A decision of another seat, made with the hand it was dealt, that the
    chain's deals must explain: the seat, what it saw then, what it did."""

    seat: int
    obs: Observation
    action: Action


@dataclass(frozen=True, slots=True)
class _Scored:
    """An assignment of the unseen cards, its log plausibility, its deal and
    the first decision it does not explain (if one made with the dealt hand)."""

    placed: list[list[Card]]
    score: float
    dealt: tuple[list[list[Card]], list[list[Card]], dict[int, list[Card]]]
    miss: _Condition | None


class Model(Protocol):
    """A player the sampler takes the others for, to weigh their decisions."""

    def decide(self, obs: Observation) -> Action: ...


UNLIKELY = 0.05
"""The weight a world loses for each public decision the model would not have taken."""
_LOG_UNLIKELY = math.log(UNLIKELY)


class Sampler:
    """Worlds for one observation (see the module docstring)."""

    def __init__(self, obs: Observation, table: TableEngine, model: Model | None = None) -> None:
        self.model = model
        self._decided: dict[object, Action] = {}
        self.obs = obs
        self._legal = set(obs.legal)
        self.table = table
        self.where = Whereabouts(obs)

    def replay(self, hands: list[list[Card]], talon: list[list[Card]], history: Sequence[Action],
               rng: random.Random | None = None, accept: float = 0.0,
               weigh_from: int = 0) -> tuple[Hand, list[Action], float] | None:
        """The engine's hand of this deal after ``history``, the history as
        replayed and the world's plausibility, or None if the deal cannot have
        produced it.  With ``rng`` a hidden discard the deal makes illegal is
        chosen again (:func:`~client.bots.drawing.repair`).  With a ``model`` each public decision
        of another seat outside card play that the model, in that seat's
        place, would have taken otherwise costs the plausibility a factor
        ``UNLIKELY`` (from action ``weigh_from`` on); the replay stops (None)
        as soon as it falls below ``accept``."""
        obs = self.obs
        rules = self.table.rules
        if rules.redeal_reason(hands) is not None:
            return None
        done: list[Action] = []
        weight = 1.0
        model = self.model
        try:
            hand = Hand(rules, obs.dealer, hands, talon, obs.seats, obs.active, obs.context)
            for index, action in enumerate(history):
                if isinstance(action, Discard) and action.seat != self.where.me:
                    if rng is not None:
                        if hand.why_not(action) is not None:
                            repaired = repair(self.where, hand, action, rng)
                            if repaired is None:
                                return None
                            action = repaired
                        hand.apply_unchecked(action)  # checked just now: a discard's check is dear
                        done.append(action)
                        continue
                elif model is not None and index >= weigh_from and action.seat != self.where.me \
                        and not isinstance(action, Play) \
                        and len(hand.legal(action.seat)) > 1 \
                        and self._model_decides(observe(hand, action.seat)) != action:
                    weight *= UNLIKELY
                    if weight < accept:
                        return None
                hand.apply(action)
                done.append(action)
        except (IllegalAction, DealError, RuleError):
            return None
        if hand.state.to_move != obs.seat or set(hand.legal(obs.seat)) != self._legal:
            return None
        return hand, done, weight

    def _prefix_end(self) -> int:
        """The number of actions the chain replays to score a deal: those
        before the first card played or the first discard laid away hidden
        (the engine's check of a discard can be dear: every legal discard)."""
        for i, action in enumerate(self.obs.history):
            if isinstance(action, Play) or (isinstance(action, Discard) and action.seat != self.where.me):
                return i
        return len(self.obs.history)

    def _score(self, placed: list[list[Card]], rng: random.Random,
               floor: float = -math.inf) -> _Scored | None:
        """The log plausibility of an assignment (its deal replayed up to the
        first card, the model asked at every decision of the others) and its
        deal; None when the deal cannot have produced the history, or as soon
        as the plausibility is known to fall below ``floor``."""
        dealt = deal_of(self.where, placed, rng)
        if dealt is None:
            return None
        hands, talon, hidden = dealt
        rules = self.table.rules
        if rules.redeal_reason(hands) is not None:
            return None
        model = self.model
        misses = 0
        miss: _Condition | None = None
        prior = 0.0
        for c, (inside, _, pile) in self.where.via_pile.items():
            for i in inside:
                if c in placed[i]:
                    prior += math.log(pile / sum(self.where.pools[j].size for j in inside))
                    break
        if prior < floor:
            return None
        try:
            obs = self.obs
            hand = Hand(rules, obs.dealer, hands, talon, obs.seats, obs.active, obs.context)
            for action in with_hidden(self.where, hidden)[:self._prefix_end()]:
                if isinstance(action, Discard) and action.seat != self.where.me:
                    if hand.why_not(action) is not None:
                        repaired = repair(self.where, hand, action, rng)
                        if repaired is None:
                            return None
                        action = repaired
                    hand.apply_unchecked(action)  # checked just now
                    continue
                if model is not None and action.seat != self.where.me and len(hand.legal(action.seat)) > 1:
                    seen = observe(hand, action.seat)
                    if self._model_decides(seen) != action:
                        misses += 1
                        if prior + misses * _LOG_UNLIKELY < floor:
                            return None
                        dealt_hand = sorted(hands[action.seat])
                        if miss is None and sorted(hand.state.hands[action.seat]) == dealt_hand:
                            miss = _Condition(action.seat, seen, action)
                hand.apply(action)
        except (IllegalAction, DealError, RuleError):
            return None
        return _Scored(placed, prior + misses * _LOG_UNLIKELY, dealt, miss)

    def _model_decides(self, seen: Observation) -> Action:
        """The model's decision in ``seen``, remembered by everything the
        observation says (the chain asks about the same hands again and again)."""
        model = self.model
        assert model is not None
        contract = seen.contract
        key = (seen.seat, seen.phase, seen.hand, seen.history, seen.legal, seen.talon_seen,
               seen.talon_shown, seen.discards, seen.announcements, seen.kontra_level, seen.called,
               seen.partner, seen.declarer, seen.hand_sizes,
               None if contract is None else (contract.name, contract.trump, contract.declarers))
        found = self._decided.get(key)
        if found is None:
            found = model.decide(seen)
            if len(self._decided) > MODEL_CACHE:
                self._decided.clear()
            self._decided[key] = found
        return found

    def _meets(self, hands: list[list[Card]], conditions: Sequence[_Condition]) -> bool:
        """Whether the model, given these dealt hands, decides as each condition says."""
        model = self.model
        assert model is not None
        for cond in conditions:
            seen = replace(cond.obs, hand=tuple(sorted(hands[cond.seat], key=sort_key)))
            if self._model_decides(seen) != cond.action:
                return False
        return True

    def _fresh(self, rng: random.Random, conditions: Sequence[_Condition], tries: int) -> _Scored | None:
        """A fresh random assignment meeting ``conditions`` (None after ``tries`` draws), scored."""
        for _ in range(tries):
            placed = assign(self.where, rng)
            if placed is None:
                continue
            dealt = deal_of(self.where, placed, rng)
            if dealt is None or (conditions and not self._meets(dealt[0], conditions)):
                continue
            scored = self._score(placed, rng)
            if scored is not None:
                return scored
        return None

    def worlds(self, rng: random.Random, count: int) -> list[World]:
        """``count`` worlds (fewer if the deals run out of agreement).

        Without a ``model`` each is drawn on its own (:meth:`sample`).  With
        one they are read off a Metropolis chain over the assignments of the
        unseen cards whose target weighs each deal by the model's agreement
        with the others' decisions (``UNLIKELY`` per decision it would have
        taken otherwise), so a strong bid is explained by a strong hand even
        when such hands are rare among random deals.

        A decision the chain's deal does not explain and that was made with
        the hand as dealt (a bid) becomes a condition: from then on every
        deal the chain moves to must explain it, checked cheaply by asking
        the model with that hand in what the seat saw then.  A step proposes
        either a fresh random deal meeting the conditions (``FRESH`` of the
        steps; up to ``CONDITIONED_TRIES`` draws) or a small change (two
        cards swapped, or two places dealt again) that meets them, accepted
        by the ratio of the plausibilities.  After at least ``BURN_IN``
        steps, and until the deal explains every decision or
        ``BURN_IN_MAX`` steps, every ``THIN``-th state that replays through
        the whole history is kept."""
        if not self.where.consistent:
            return []
        if self.model is None:
            found = (self.sample(rng) for _ in range(count))
            return [w for w in found if w is not None]
        current = self._fresh(rng, (), TRIES)
        if current is None:
            return []
        conditions: list[_Condition] = []

        def step(state: _Scored) -> _Scored:
            miss = state.miss
            if miss is not None and len(conditions) < MAX_CONDITIONS and \
                    all(c.seat != miss.seat or c.action != miss.action for c in conditions):
                conditions.append(miss)
            if rng.random() < FRESH:
                proposal = self._fresh(rng, conditions, CONDITIONED_TRIES)
                if proposal is None:
                    return state
            else:
                placed = neighbour(self.where, state.placed, rng)
                if placed is None:
                    return state
                dealt = deal_of(self.where, placed, rng)
                if dealt is None or (conditions and not self._meets(dealt[0], conditions)):
                    return state
                floor = state.score + math.log(1.0 - rng.random())
                found = self._score(placed, rng, floor)
                if found is None or found.score < floor:
                    return state
                return found
            if proposal.score >= state.score or rng.random() < math.exp(proposal.score - state.score):
                return proposal
            return state
        steps = 0
        while steps < BURN_IN or (current.score < -1e-9 and steps < BURN_IN_MAX):
            current = step(current)
            steps += 1
        out: list[World] = []
        for _ in range(count * 2):
            if len(out) >= count:
                break
            for _ in range(THIN):
                current = step(current)
            hands, talon, hidden = current.dealt
            history = with_hidden(self.where, hidden)
            replayed = self.replay(hands, talon, history, rng, weigh_from=self._prefix_end())
            if replayed is not None:
                # the decisions after the chain's part weigh the world
                out.append(World(replayed[0], hands, talon, replayed[1], replayed[2]))
        return out

    def rebuild(self, world: World) -> Hand:
        """A fresh engine hand of ``world`` at the decision point (replayed again,
        unchecked: every action of its history passed the engine's check when the
        world was drawn)."""
        hand = Hand(self.table.rules, self.obs.dealer, world.hands, world.talon, self.obs.seats,
                    self.obs.active, self.obs.context)
        for action in world.history:
            hand.apply_unchecked(action)
        return hand

    def sample(self, rng: random.Random, tries: int = TRIES) -> World | None:
        """One world (see the module docstring), or None after ``tries`` deals.

        With a ``model`` a consistent deal is kept with probability equal to
        its plausibility (rejection sampling), so the worlds drawn follow the
        model's reading of the others' decisions and weigh the same; if none
        is kept in ``tries`` deals, the most plausible consistent one is taken."""
        if not self.where.consistent:
            return None
        fallback: World | None = None
        for _ in range(tries):
            placed = assign(self.where, rng)
            if placed is None:
                continue
            dealt = deal_of(self.where, placed, rng)
            if dealt is None:
                continue
            hands, talon, hidden = dealt
            accept = rng.random() if self.model is not None else 0.0
            stop = 0.0 if fallback is None else min(accept, fallback.weight)
            replayed = self.replay(hands, talon, with_hidden(self.where, hidden), rng, stop)
            if replayed is None:
                continue
            world = World(replayed[0], hands, talon, replayed[1], replayed[2])
            if world.weight >= accept:
                world.weight = 1.0
                return world
            if fallback is None or world.weight > fallback.weight:
                fallback = world
        if fallback is not None:
            fallback.weight = 1.0
        return fallback
