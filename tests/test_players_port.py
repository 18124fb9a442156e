"""The player port: every seat is awaited; a bot's policy runs off the event loop through
one adapter (core.players.BotSeat), on trio as on asyncio, a few at once, and a cancelled
wait abandons the thread."""

from __future__ import annotations

import asyncio
import re
import threading
from pathlib import Path
from random import Random

import trio

from tarock.client.bots import make_bot
from tarock.core.actions import Action
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe
from tarock.core.players import BOT_THREADS, BotSeat
from tarock.core.registry import find_variant

ROOT = Path(__file__).resolve().parent.parent


def first_observation() -> Observation:
    rules = find_variant("tarock54").rules()
    hands, talon = deal(rules, Random(3), 4)
    hand = Hand(rules, 0, hands, talon)
    seat = hand.state.to_move
    assert seat is not None
    return observe(hand, seat)


class Recording:
    """A policy that notes the thread it decides in, and may wait for a gate."""

    name = "recording"

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.threads: list[int] = []
        self.gate = gate
        self.running = 0
        self.most = 0
        self._lock = threading.Lock()

    def decide(self, observation: Observation) -> Action:
        with self._lock:
            self.threads.append(threading.get_ident())
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            if self.gate is not None:
                assert self.gate.wait(10), "the gate was never opened"
            return observation.legal[0]
        finally:
            with self._lock:
                self.running -= 1


async def test_a_bot_decides_in_a_worker_thread_under_trio_as_its_policy_would() -> None:
    obs = first_observation()
    policy = Recording()
    assert await BotSeat(policy).decide(obs) == obs.legal[0]
    assert policy.threads and policy.threads[0] != threading.get_ident()
    bot = make_bot("heuristic", 4, "h")
    assert await BotSeat(make_bot("heuristic", 4, "h")).decide(obs) == bot.decide(obs)


def test_a_bot_decides_in_a_worker_thread_under_asyncio() -> None:
    obs = first_observation()
    policy = Recording()

    async def main() -> Action:
        return await BotSeat(policy).decide(obs)

    assert asyncio.run(main()) == obs.legal[0]
    assert policy.threads and policy.threads[0] != threading.get_ident()


async def test_a_cancelled_decision_is_abandoned_and_the_loop_goes_on() -> None:
    obs = first_observation()
    gate = threading.Event()
    policy = Recording(gate)
    with trio.move_on_after(0.2) as scope:
        await BotSeat(policy).decide(obs)
    assert scope.cancelled_caught  # the wait ended although the thread still runs
    assert policy.running == 1
    gate.set()


async def test_at_most_bot_threads_decide_at_once() -> None:
    obs = first_observation()
    gate = threading.Event()
    policies = [Recording(gate) for _ in range(BOT_THREADS + 2)]
    answers: list[Action] = []

    async def ask(policy: Recording) -> None:
        answers.append(await BotSeat(policy).decide(obs))

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            for policy in policies:
                nursery.start_soon(ask, policy)
            while sum(p.running for p in policies) < BOT_THREADS:
                await trio.sleep(0.01)
            await trio.sleep(0.1)
            assert sum(p.running for p in policies) == BOT_THREADS
            gate.set()
    assert len(answers) == len(policies)


def test_no_player_is_polled() -> None:
    """No loop asks a future or a thread for its result with a timeout (a poll)."""
    polls = []
    for folder in ("core", "variants", "net", "client"):
        for path in (ROOT / folder).rglob("*.py"):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"\.result\(timeout=", line):
                    polls.append(f"{path.relative_to(ROOT)}:{n}")
    assert not polls, polls
