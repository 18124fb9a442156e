"""The seat interface shared by humans, bots and remote peers (defined in :mod:`core.players`)."""

from __future__ import annotations

from tarock.core.players import BotSeat, Player, Policy, off_loop

__all__ = ["BotSeat", "Player", "Policy", "off_loop"]
