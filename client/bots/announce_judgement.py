"""Announcements and Kontras judged by their expected settlement in sampled worlds.

A decision that offers announcements (premiums: a bird in the last trick,
the Trull, the four Kings, whatever the table's premium data declare) or a
Kontra level on some chain (the game's, a declarer's game, an announced
premium's; Kontra, Re, ...), and nothing of the auction or the card play
(:func:`judged`), is played on for each candidate in worlds sampled from
the seat's observation (:func:`client.bots.plans.search_action`, the
worlds and the playouts of the bid judgement, :mod:`client.bots.judgement`):
the rest of the hand's decisions by the rule of thumb for every seat, the
cards by the playout player (``medium``) or the rule of thumb (``hard``),
the finished hand settled by the table's engine, so a premium's value,
silent or announced, and every Kontra level count as the table counts them.

The rule of thumb is the prior: its choice stays unless another beats it
in the same worlds by ``PlanBudget.confidence`` standard errors of the
paired differences *and* by ``AnnounceBudget.margin`` of the stake (the
game's value, :func:`stake`), in at least half the worlds the budget asks
for, so a thin sample does not talk the bot into
an announcement or a Kontra, nor out of the rule of thumb's.  Every legal
choice within the bots' limits is a candidate, but for two exceptions.  A
Kontra level on the game (or on one declarer's game, or a Re answering
one) is tried only where the rule of thumb says it, against passing: the
worlds underrate the declarer (open-card worlds defend too well, and all
of them draw his hand from what his bid allows, not from the strength it
shows), and the Kontras they proposed lost (docs/bots.md has the boards);
the same holds where an open auction offers them among the bids
(:func:`worth_trying`, which the auction's judgement asks too).  And
open-card playouts (``medium``'s) propose only what they can judge:
passing, and the premiums the data mark as material (holding or taking
cards: the Trull, the Kings), with Kontras on their chains.  They play for
card points only, so a bird held back for the last trick or a King ultimo
is played as if nobody aimed at it: an announced bird of another seat
would look lost and a Kontra on it free.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tarock.client.bots.plans import PlanBudget, PlanChoice, search_action
from tarock.client.bots.rulebook import TableEngine
from tarock.client.bots.worlds import Model
from tarock.core.actions import Action, Announce, Bid, Call, Join, Kontra, Play
from tarock.core.observation import Observation

ANNOUNCING: frozenset[str] = frozenset({Announce.type, Kontra.type})
"""The decisions judged here (action type tags), where nothing of the auction is offered."""
_AUCTION = (Bid, Join, Call, Play)


@dataclass(frozen=True, slots=True)
class AnnounceBudget:
    """The work and the caution of one level's judgement of announcements and Kontras."""

    plans: PlanBudget
    """Worlds, screening and the standard errors a candidate must beat the default by."""
    margin: float = 0.25
    """Share of the stake (:func:`stake`) by which a candidate's mean must also
    beat the rule of thumb's choice."""


def judged(legal: Sequence[Action]) -> bool:
    """Whether a decision offering ``legal`` is an announcement or Kontra decision
    (one of :data:`ANNOUNCING` offered, nothing of the auction or card play)."""
    return any(a.type in ANNOUNCING for a in legal) and not any(isinstance(a, _AUCTION) for a in legal)


def stake(obs: Observation) -> float:
    """What the hand is played for, in the settlement's unit: the game's value
    (the smallest contract value of the table before a game is known)."""
    if obs.contract is not None and obs.contract.spec.value > 0:
        return float(obs.contract.spec.value)
    rules = obs.rules
    values = [c.value for c in rules.contracts if c.value > 0] if rules is not None else []
    return float(min(values, default=1))


def candidates(obs: Observation, legal: Sequence[Action], default: Action, open_cards: bool) -> list[Action]:
    """The choices of ``legal`` worth simulating, ``default`` always (module docstring)."""
    chosen = [a for a in legal if worth_trying(obs, a, open_cards)]
    if default not in chosen:
        chosen.append(default)
    return chosen


def worth_trying(obs: Observation, action: Action, open_cards: bool) -> bool:
    """Whether an announcement or Kontra is a candidate (module docstring): not
    a Kontra level on the game, and with ``open_cards`` only what open-card
    playouts can judge.  Any other action is left to its own judgement.  The
    auction's judgement asks this too where a table offers announcements and
    Kontras among the bids (:func:`client.bots.judgement.candidates`)."""
    if isinstance(action, Kontra) and not action.target.name:
        return False
    if not open_cards or not isinstance(action, (Announce, Kontra)):
        return True
    material = {p.name for p in obs.rules.premiums if p.material} if obs.rules is not None else set()
    if isinstance(action, Announce):
        return all(name in material for name in action.announce)
    return action.target.name in material


def judge(whole: Observation, obs: Observation, table: TableEngine, rng: random.Random,
          budget: AnnounceBudget, default: Action, policy: Model, model: Model | None = None,
          ) -> PlanChoice | None:
    """The announcement or Kontra to make (None when no world could be sampled):
    the best candidate of ``obs.legal`` (the legal actions within the bots'
    limits; ``whole`` the seat's observation as the table gave it) if it beats
    ``default`` by the noise and by the margin (module docstring)."""
    tried = candidates(obs, obs.legal, default, not budget.plans.cards_by_policy)
    plan = search_action(whole, table, rng, budget.plans, default, policy, model, tried)
    if plan is None or plan.action == default or default not in plan.values:
        return plan
    if plan.worlds < budget.plans.worlds // 2:  # too few deals agree with what was seen to leave the prior
        return replace(plan, action=default, kept_default=True)
    gain = plan.values[plan.action] - plan.values[default]
    if gain < budget.margin * stake(obs):
        return replace(plan, action=default, kept_default=True)
    return plan
