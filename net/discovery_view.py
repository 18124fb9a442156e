"""The live view of peers that a discovery keeps, with its change signal and event log.

Shared by the mDNS and the manual discovery; runs in the trio thread only.
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import trio

from net.advert import Seen

__all__ = ["DiscoveryEvent", "EventKind", "PeerView"]

log = logging.getLogger("tarock.net.discovery")

EventKind = Literal["added", "updated", "removed"]


@dataclass(frozen=True)
class DiscoveryEvent:
    """One change of the view: a peer appeared, changed its advert or addresses, or left.

    For "removed", ``seen`` is what was known last.
    """

    kind: EventKind
    seen: Seen


class PeerView:
    """Peers keyed by a discovery-specific key (the mDNS instance name, or HOST:PORT).

    ``wait_changed`` and ``next_event`` are for one consumer each: the first reports
    whether anything changed since it last returned, the second hands out events in
    order (the oldest are dropped past ``max_events``, with a log line).
    """

    def __init__(self, *, max_peers: int = 256, max_events: int = 1024) -> None:
        self._peers: dict[str, Seen] = {}
        self._max_peers = max_peers
        self._events: collections.deque[DiscoveryEvent] = collections.deque()
        self._max_events = max_events
        self._changed = trio.Event()
        self._unseen_change = False

    def current(self) -> Sequence[Seen]:
        """The peers known now, in the order they were first seen."""
        return tuple(self._peers.values())

    def get(self, key: str) -> Seen | None:
        return self._peers.get(key)

    def drop_node(self, node_id: str) -> None:
        """Drop every peer whose advert carries ``node_id``."""
        for key in [k for k, seen in self._peers.items() if seen.advert.node_id == node_id]:
            self.drop(key)

    def put(self, key: str, seen: Seen) -> None:
        """Add or replace the peer at ``key``; an identical value is no change."""
        old = self._peers.get(key)
        if old == seen:
            return
        if old is None and len(self._peers) >= self._max_peers:
            log.warning("ignored %s: already %d peers in view", key, self._max_peers)
            return
        self._peers[key] = seen
        self._emit(DiscoveryEvent("added" if old is None else "updated", seen))

    def drop(self, key: str) -> None:
        old = self._peers.pop(key, None)
        if old is not None:
            self._emit(DiscoveryEvent("removed", old))

    def _emit(self, event: DiscoveryEvent) -> None:
        log.debug("%s %s", event.kind, event.seen)
        if len(self._events) >= self._max_events:
            dropped = self._events.popleft()
            log.warning("discovery event log full: dropped the oldest (%s)", dropped.kind)
        self._events.append(event)
        self._unseen_change = True
        self._changed.set()
        self._changed = trio.Event()

    async def wait_changed(self, *, timeout: float) -> bool:
        """True as soon as the view changed since this last returned; False after ``timeout`` s."""
        if not self._unseen_change:
            with trio.move_on_after(timeout):
                await self._changed.wait()
        changed, self._unseen_change = self._unseen_change, False
        return changed

    async def next_event(self, *, timeout: float) -> DiscoveryEvent | None:
        """The oldest event not handed out yet, waiting at most ``timeout`` s (then None)."""
        with trio.move_on_after(timeout):
            while not self._events:
                await self._changed.wait()
        return self._events.popleft() if self._events else None
