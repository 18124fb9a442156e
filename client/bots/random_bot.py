"""The random bot: a uniform choice among the legal actions."""

from __future__ import annotations

import random

from core.actions import Action
from core.observation import Observation


class RandomBot:
    """Picks uniformly from ``obs.legal`` with its own seeded generator."""

    def __init__(self, seed: int, name: str = "Random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def decide(self, obs: Observation) -> Action:
        """One of ``obs.legal``, chosen uniformly at random."""
        if not obs.legal:
            raise ValueError(f"seat {obs.seat} has no legal action in phase {obs.phase!r}")
        return self._rng.choice(obs.legal)
