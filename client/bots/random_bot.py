"""The random bot: a uniform choice among the legal actions."""

from __future__ import annotations

import random

from core.actions import Action, Kontra, Pass
from core.observation import Observation

NO_RAISE_FROM = 2
"""Kontra level from which bots never raise (no Subkontra, no Re-Sub)."""


class RandomBot:
    """Picks uniformly from ``obs.legal`` with its own seeded generator.

    Like every bot it never says Subkontra or Re-Sub (seed 000: "Bots wagen
    kein Subkontra und kein Re-Sub"): a Kontra drawn at level 2 or higher
    becomes a pass, so the generator advances the same way either way.
    """

    def __init__(self, seed: int, name: str = "Random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def decide(self, obs: Observation) -> Action:
        """One of ``obs.legal``, chosen uniformly at random."""
        if not obs.legal:
            raise ValueError(f"seat {obs.seat} has no legal action in phase {obs.phase!r}")
        action = self._rng.choice(obs.legal)
        if isinstance(action, Kontra) and obs.kontra_level >= NO_RAISE_FROM:
            return next((a for a in obs.legal if isinstance(a, Pass)), action)
        return action
