"""Bot stand-ins: a seat whose node is away is played by a bot of the host's node.

From the deal after a seat went away (``begin.bots``), the host's node follows
that seat's part of the hand with the seat's cards and lets a bot choose its
actions; the seat's player gets it back from the deal after its node returns.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarock.core.players import Player
from tarock.net.handplay import Ask, HandPlay, Out


@dataclass
class Sub:
    """A seat the host's node plays with a bot in this deal (its node is away)."""

    play: HandPlay
    bot: Player
    asked: int = -1


def sub_decide(seat: int, sub: Sub) -> list[Out]:
    """The stand-in's action when its seat is to move (once per question)."""
    ask: Ask | None = sub.play.ask()
    if ask is None or ask.index == sub.asked:
        return []
    sub.asked = ask.index
    action = sub.bot.decide(ask.obs)
    outs, refusal = sub.play.decide(ask.index, action)
    if refusal is not None:
        raise RuntimeError(f"the substitute bot of seat {seat} chose an illegal action: {refusal}")
    return outs
