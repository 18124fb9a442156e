"""Players for tests that need a whole table but no bot: each takes a random
legal action from its observation (seeded, so a table is reproducible)."""

from __future__ import annotations

import random

from tarock.core.actions import Action
from tarock.core.observation import Observation


class RandomPlayer:
    """A seat that picks uniformly among the legal actions it is shown."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.rng = random.Random(seed)

    async def decide(self, obs: Observation) -> Action:
        assert obs.legal, "asked to move with nothing legal"
        return self.rng.choice(obs.legal)


def random_players(seats: int = 4, seed: int = 0) -> list[RandomPlayer]:
    return [RandomPlayer(f"r{s}", seed + s) for s in range(seats)]
