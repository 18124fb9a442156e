"""The seat interface shared by humans, bots and remote peers: observation in, action out.

A :class:`Player` is awaited: a person answers when the screen or the line
says so, a remote seat when its message arrives, and nobody polls.  A bot is
a :class:`Policy`: a synchronous, CPU-bound function of the observation that
knows no event loop.  :class:`BotSeat` is the one adapter that seats a
policy: each decision runs in a worker thread (:func:`off_loop`), on asyncio
(the full-screen client) as on trio (the network node).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol, TypeVar, TypeVarTuple

import anyio.to_thread
from anyio import CapacityLimiter
from anyio.lowlevel import RunVar

from tarock.core.actions import Action
from tarock.core.observation import Observation

T = TypeVar("T")
Args = TypeVarTuple("Args")

BOT_THREADS = 4
"""Worker threads deciding at once per event loop; more decisions wait for a free one."""

_LIMITER: RunVar[CapacityLimiter] = RunVar("tarock-bot-threads")


class Player(Protocol):
    """Anything that takes a seat: observation in, action out, awaited."""

    name: str

    async def decide(self, observation: Observation) -> Action:
        """Choose one of ``observation.legal``."""
        ...


class Policy(Protocol):
    """A bot: chooses one of ``observation.legal`` synchronously (seat it with :class:`BotSeat`)."""

    name: str

    def decide(self, observation: Observation) -> Action: ...


async def off_loop(fn: Callable[[*Args], T], *args: *Args) -> T:
    """``fn(*args)`` in a worker thread, awaited on the running loop (asyncio or trio), at most
    :data:`BOT_THREADS` at once; a cancelled wait abandons the thread and its result."""
    limiter = _LIMITER.get(None)
    if limiter is None:
        limiter = CapacityLimiter(BOT_THREADS)
        _LIMITER.set(limiter)
    return await anyio.to_thread.run_sync(fn, *args, abandon_on_cancel=True, limiter=limiter)


class BotSeat:
    """A :class:`Player` made of a :class:`Policy`: it decides off the event loop, one decision
    at a time (a policy keeps state, such as its random numbers, and a thread whose wait was
    cancelled may still be running)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.name = policy.name
        self._turn = threading.Lock()

    async def decide(self, observation: Observation) -> Action:
        return await off_loop(self._decide, observation)

    def _decide(self, observation: Observation) -> Action:
        with self._turn:
            return self.policy.decide(observation)
