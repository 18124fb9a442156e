"""Bot stand-ins: a seat whose node is away is played by a bot of the host's node.

From the deal after a seat went away (``begin.bots``), the host's node follows
that seat's part of the hand with the seat's cards and lets a bot choose its
actions; the seat's player gets it back from the deal after its node returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tarock.core.actions import Action
from tarock.core.players import Policy
from tarock.net.effects import Decide
from tarock.net.handplay import Ask, HandPlay, Out


@dataclass
class Sub:
    """A seat the host's node plays with a bot in this deal (its node is away)."""

    play: HandPlay
    bot: Policy
    asked: int = -1


def sub_question(sub: Sub, deal: int) -> list[Decide]:
    """Ask the stand-in when its seat is to move (once per question); the host's driver
    answers with :meth:`HostCore.stand_in_decided`, the bot deciding off the event loop."""
    ask: Ask | None = sub.play.ask()
    if ask is None or ask.index == sub.asked:
        return []
    sub.asked = ask.index
    return [Decide(ask.obs, deal, ask.index)]


def sub_answer(subs: Mapping[int, Sub], index: int, action: Action) -> list[Out]:
    """The stand-in's ``action`` for question ``index`` (``subs``: the deal's stand-ins): what it
    adds to the log, nothing for an answer to a question that is no longer asked (the hand
    moved on, or was voided)."""
    sub = subs.get(action.seat)
    ask = sub.play.ask() if sub is not None and sub.asked == index else None
    if sub is None or ask is None or ask.index != index or action not in ask.obs.legal:
        return []
    outs, refusal = sub.play.decide(index, action)
    if refusal is not None:
        raise RuntimeError(f"the substitute bot of seat {action.seat} chose an illegal action: {refusal}")
    return outs
