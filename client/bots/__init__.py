"""Bots: policies that decide from an :class:`~core.observation.Observation` only.

A bot is a synchronous :class:`~core.players.Policy` that knows no UI and no
event loop; a table seats it through :class:`~core.players.BotSeat`.
"""

from __future__ import annotations

from collections.abc import Callable

from tarock.client.bots.heuristic import HeuristicBot
from tarock.client.bots.levels import HARD, MEDIUM, SearchBot
from tarock.client.bots.random_bot import RandomBot
from tarock.core.players import Policy

_FACTORIES: dict[str, Callable[[int, str], Policy]] = {
    "random": lambda seed, name: RandomBot(seed, name),
    "heuristic": lambda seed, name: HeuristicBot(seed, name),
    "medium": lambda seed, name: SearchBot(MEDIUM, seed, name),
    "hard": lambda seed, name: SearchBot(HARD, seed, name),
}

BOT_KINDS: tuple[str, ...] = tuple(_FACTORIES)
"""The kinds :func:`make_bot` knows."""


def make_bot(kind: str, seed: int, name: str | None = None) -> Policy:
    """A bot of ``kind`` (one of :data:`BOT_KINDS`) seeded with ``seed``."""
    factory = _FACTORIES.get(kind)
    if factory is None:
        raise ValueError(f"unknown bot kind {kind!r} (known: {', '.join(BOT_KINDS)})")
    return factory(seed, name if name is not None else f"{kind.capitalize()} {seed}")


__all__ = ["BOT_KINDS", "HeuristicBot", "RandomBot", "SearchBot", "make_bot"]
