"""The random bot: a uniform choice among the legal actions it may take."""

from __future__ import annotations

import random

from tarock.client.bots.limits import NO_RAISE_FROM, raises_too_far, valat_filter
from tarock.core.actions import Action, Pass
from tarock.core.observation import Observation

__all__ = ["NO_RAISE_FROM", "RandomBot"]


class RandomBot:
    """Picks uniformly from ``obs.legal`` with its own seeded generator, within
    the limits every bot keeps (:mod:`client.bots.limits`):

    - actions announcing a Valat are dropped before the draw unless the hand
      clears the Valat bar (docs/rules.md §11.1: "Bots sagen nur einen Valat an, und nur
      mit einer nahezu unschlagbaren Hand");
    - a Kontra drawn on a chain at level 2 or higher becomes a pass (docs/rules.md §11.1:
      "Bots wagen kein Subkontra und kein Re-Sub"), so the generator advances
      the same way either way.
    """

    def __init__(self, seed: int, name: str = "Random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def decide(self, obs: Observation) -> Action:
        """One of ``obs.legal``, chosen uniformly at random."""
        if not obs.legal:
            raise ValueError(f"seat {obs.seat} has no legal action in phase {obs.phase!r}")
        action = self._rng.choice(valat_filter(obs))
        if raises_too_far(obs, action):
            return next((a for a in obs.legal if isinstance(a, Pass)), action)
        return action
