"""A bounded work queue of keys handed out newest first (trio, one event loop).

Discovery asks its resolvers and probers for peers through it: the rank of a key is the
generation of its latest announcement, so a newcomer is served before the names already
waiting, however many a flood left there (docs/discovery.md, "A flood of adverts").
"""

from __future__ import annotations

import heapq

import trio

__all__ = ["NewestFirst"]


class NewestFirst:
    """Keys waiting for work, each with a rank; :meth:`get` hands out the highest rank first.

    A key put again takes its new rank (it is handed out once). At most ``limit`` keys
    wait: past it, the lowest ranks are forgotten.
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError("a queue holds at least one key")
        self._limit = limit
        self._rank: dict[str, int] = {}
        self._heap: list[tuple[int, str]] = []  # (-rank, key); entries whose rank changed are stale
        self._wake = trio.Event()

    def __len__(self) -> int:
        return len(self._rank)

    def __contains__(self, key: object) -> bool:
        return key in self._rank

    def put(self, key: str, rank: int) -> None:
        if self._rank.get(key) == rank:
            return
        self._rank[key] = rank
        heapq.heappush(self._heap, (-rank, key))
        if len(self._heap) > 2 * self._limit:
            self._compact()
        self._wake.set()  # every waiter wakes; later ones wait for the next put
        self._wake = trio.Event()

    def discard(self, key: str) -> None:
        self._rank.pop(key, None)

    def _compact(self) -> None:
        """Drop stale heap entries and the keys past ``limit`` (the lowest ranks)."""
        kept = heapq.nsmallest(self._limit, ((-rank, key) for key, rank in self._rank.items()))
        self._rank = {key: -negative for negative, key in kept}
        self._heap = kept  # sorted ascending: a valid heap

    async def get(self) -> str:
        """The waiting key of the highest rank, waiting for one to be put."""
        while True:
            while self._heap:
                negative, key = heapq.heappop(self._heap)
                if self._rank.get(key) == -negative:
                    del self._rank[key]
                    return key
            await self._wake.wait()
