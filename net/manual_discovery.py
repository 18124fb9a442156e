"""Discovery for networks that block multicast: peers given as HOST:PORT by the user.

The node at each address is asked for its :class:`~net.advert.Advert` with a callable the
game protocol provides (its hello/info exchange), every ``interval`` seconds. A peer that
fails to answer ``misses`` times in a row is removed from the view.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import trio

from tarock.net.advert import Advert, Seen
from tarock.net.discovery_view import AskAdvert, DiscoveryEvent, PeerView, ask_within
from tarock.net.transport import PeerAddress

__all__ = ["AskAdvert", "ManualDiscovery", "open_manual_discovery"]

log = logging.getLogger("tarock.net.discovery")

class ManualDiscovery:
    """Polls fixed addresses; make it with :func:`open_manual_discovery`.

    In a :class:`Seen` it reports, ``addresses`` is the host the user gave and
    ``advert.port`` the port the user gave (which may be a proxy's), since that is where
    the peer was reached. ``publish`` only records the node's own advert (for the node's
    info answer) and filters the node itself out of the view.
    """

    def __init__(
        self,
        targets: Sequence[PeerAddress],
        ask: AskAdvert,
        *,
        interval: float,
        timeout: float,
        misses: int,
    ) -> None:
        if not targets:
            raise ValueError("manual discovery needs at least one HOST:PORT")
        if interval <= 0 or timeout <= 0 or misses < 1:
            raise ValueError("interval and timeout must be positive and misses at least 1")
        self.targets = tuple(dict.fromkeys(targets))
        self._ask = ask
        self._interval = interval
        self._timeout = timeout
        self._misses = misses
        self._view = PeerView()
        self._failures: dict[PeerAddress, int] = {}
        self.own: Advert | None = None

    async def poll(self) -> None:
        """Poll every target forever, all of them at once, each every ``interval`` s."""
        async with trio.open_nursery() as nursery:
            for target in self.targets:
                nursery.start_soon(self._poll_one, target)

    async def _poll_one(self, target: PeerAddress) -> None:
        while True:
            await self.ask_once(target)
            await trio.sleep(self._interval)

    async def ask_once(self, target: PeerAddress) -> None:
        """Ask ``target`` once and update the view with the answer."""
        key = str(target)
        advert = await ask_within(self._ask, target, self._timeout)
        if not isinstance(advert, Advert):
            reason = f"no answer within {self._timeout:g} s"
            if advert is not None:
                reason = f"{type(advert).__name__}: {advert}"
            failures = self._failures.get(target, 0) + 1
            self._failures[target] = failures
            if failures == 1:
                log.warning("manual peer %s: %s", key, reason)
            if failures >= self._misses and self._view.get(key) is not None:
                log.info("manual peer %s removed after %d failed attempts", key, failures)
                self._view.drop(key)
            return
        if self._failures.pop(target, 0):
            log.info("manual peer %s answers again", key)
        if self.own is not None and advert.node_id == self.own.node_id:
            return
        self._view.put(key, Seen(dataclasses.replace(advert, port=target.port), (target.host,)))
        self._view.confirm(key)  # it answered: a flood of others never pushes it out

    def current(self) -> Sequence[Seen]:
        return self._view.current()

    def answered(self, node_id: str) -> bool:
        return True  # every peer in view answered

    async def wait_changed(self, *, timeout: float) -> bool:
        return await self._view.wait_changed(timeout=timeout)

    async def next_event(self, *, timeout: float) -> DiscoveryEvent | None:
        return await self._view.next_event(timeout=timeout)

    async def publish(self, advert: Advert) -> None:
        self.own = advert
        self._view.drop_node(advert.node_id)

    async def withdraw(self) -> None:
        self.own = None


@asynccontextmanager
async def open_manual_discovery(
    targets: Sequence[PeerAddress],
    ask: AskAdvert,
    *,
    interval: float = 2.0,
    timeout: float = 3.0,
    misses: int = 3,
) -> AsyncIterator[ManualDiscovery]:
    """Poll ``targets`` with ``ask`` while the block runs."""
    disc = ManualDiscovery(targets, ask, interval=interval, timeout=timeout, misses=misses)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(disc.poll)
        yield disc
        nursery.cancel_scope.cancel()
