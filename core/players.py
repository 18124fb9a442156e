"""The seat interface shared by humans, bots and remote peers: observation in, action out."""

from __future__ import annotations

from typing import Protocol

from tarock.core.actions import Action
from tarock.core.observation import Observation


class Player(Protocol):
    """Anything that takes a seat: observation in, action out."""

    name: str

    def decide(self, obs: Observation) -> Action:
        """Choose one of ``obs.legal``."""
        ...
