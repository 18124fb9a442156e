"""The queue discovery's resolvers and probers share (net/newest_first.py): the newest
announcement first, bounded, and no worker left asleep while keys wait."""

from __future__ import annotations

import time
from typing import cast

import pytest
import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st
from zeroconf import ServiceInfo, ServiceStateChange, Zeroconf

from tarock.net.advert import SERVICE_TYPE
from tarock.net.discovery import RESOLVERS, ZeroconfDiscovery
from tarock.net.netif import NetworkChoice
from tarock.net.newest_first import NewestFirst


async def test_the_highest_rank_comes_first_and_a_key_put_again_takes_its_new_rank() -> None:
    queue = NewestFirst(limit=100)
    for rank, key in enumerate(["flood1", "flood2", "flood3"]):
        queue.put(key, rank)
    queue.put("newcomer", 10)
    queue.put("flood1", 11)  # announced anew
    got = [await queue.get() for _ in range(4)]
    assert got == ["flood1", "newcomer", "flood3", "flood2"]
    assert len(queue) == 0


async def test_a_discarded_key_is_not_handed_out() -> None:
    queue = NewestFirst(limit=10)
    queue.put("a", 1)
    queue.put("b", 2)
    queue.discard("b")
    assert "b" not in queue
    assert await queue.get() == "a"


@settings(max_examples=100, deadline=None, derandomize=True)  # trio.run per example: no timing
@given(st.lists(st.tuples(st.sampled_from("abcdefghij"), st.integers(0, 1000)), max_size=200),
       st.integers(1, 8))
def test_past_the_limit_the_lowest_ranks_are_forgotten(puts: list[tuple[str, int]], limit: int) -> None:
    async def main() -> list[str]:
        queue = NewestFirst(limit=limit)
        latest: dict[str, int] = {}
        for key, rank in puts:
            queue.put(key, rank)
            latest[key] = rank
        assert len(queue) <= max(limit, len(latest))
        return [await queue.get() for _ in range(len(queue))]

    got = trio.run(main)
    latest = {key: rank for key, rank in puts}
    assert len(got) == len(set(got)) and set(got) <= set(latest)
    assert len(got) >= min(limit, len(latest))
    if len(puts) <= 2 * limit:  # nothing forgotten before the heap holds twice the limit
        assert set(got) == set(latest)
    # Handed out by falling rank (each key's latest rank).
    assert [latest[k] for k in got] == sorted((latest[k] for k in got), reverse=True)


async def test_every_waiting_worker_gets_work() -> None:
    """Eight workers asleep on an empty queue, then eight keys: all eight are handed out
    at once (no worker misses the wake-up of the others)."""
    queue = NewestFirst(limit=100)
    taken: list[str] = []
    release = trio.Event()

    async def worker() -> None:
        taken.append(await queue.get())
        await release.wait()  # busy: it will not come back for more

    async with trio.open_nursery() as nursery:
        for _ in range(8):
            nursery.start_soon(worker)
        await trio.testing.wait_all_tasks_blocked()
        for i in range(8):
            queue.put(f"k{i}", i)
            await trio.testing.wait_all_tasks_blocked()
        with trio.fail_after(5):
            while len(taken) < 8:
                await trio.sleep(0.01)
        release.set()
    assert sorted(taken) == [f"k{i}" for i in range(8)]


def test_a_queue_holds_at_least_one_key() -> None:
    with pytest.raises(ValueError, match="at least one"):
        NewestFirst(limit=0)


async def test_discovery_resolves_a_newcomer_before_the_flood_announced_earlier() -> None:
    """Resolution that takes its time (a loaded machine, a slow responder) and three hundred
    flood names waiting: a name announced later is asked next, not after the flood
    (docs/discovery.md, "A flood of adverts")."""
    asked: list[str] = []

    class SlowResolution(ZeroconfDiscovery):
        def _request(self, key: str) -> ServiceInfo | None:
            asked.append(key)
            time.sleep(0.02)
            return None  # did not resolve

    disc = SlowResolution(cast(Zeroconf, None), NetworkChoice(("127.0.0.1",), ("127.0.0.1",), True),
                          service_type=SERVICE_TYPE, resolve_timeout=1.0, op_timeout=1.0)
    newcomer = f"newcomer.{SERVICE_TYPE}".lower()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(disc.pump)
        for i in range(300):
            disc._note(f"flood{i}.{SERVICE_TYPE}", ServiceStateChange.Added)
        with trio.fail_after(10):
            while len(asked) < 20:  # the resolvers are busy with the flood
                await trio.sleep(0.01)
            before = len(asked)
            disc._note(f"newcomer.{SERVICE_TYPE}", ServiceStateChange.Added)
            while newcomer not in asked:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert asked.index(newcomer) <= before + 2 * RESOLVERS, (before, asked.index(newcomer))
