"""The live view of peers that a discovery keeps, with its change signal and event log.

Shared by the mDNS and the manual discovery; runs in the trio thread only.
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import trio

from tarock.net.advert import Advert, Seen
from tarock.net.transport import PeerAddress

__all__ = ["AskAdvert", "DiscoveryEvent", "EventKind", "PeerView", "ask_within"]

log = logging.getLogger("tarock.net.discovery")

EventKind = Literal["added", "updated", "removed"]

AskAdvert = Callable[[PeerAddress], Awaitable[Advert]]
"""Ask the node at an address for its advert; raise (any exception) when it cannot."""


async def ask_within(ask: AskAdvert, address: PeerAddress, timeout: float) -> Advert | Exception | None:
    """The advert of the node at ``address``; the exception asking raised (whatever a peer
    did, it must not stop discovery); None when it did not answer within ``timeout`` s."""
    with trio.move_on_after(timeout):
        try:
            return await ask(address)
        except Exception as exc:
            return exc
    return None


@dataclass(frozen=True)
class DiscoveryEvent:
    """One change of the view: a peer appeared, changed its advert or addresses, or left.

    For "removed", ``seen`` is what was known last.
    """

    kind: EventKind
    seen: Seen


def _identity(seen: Seen) -> tuple[str, str, int, tuple[str, ...]]:
    """What a peer's answer vouches for: a new boot, port or address must answer again."""
    return seen.advert.node_id, seen.advert.boot, seen.advert.port, seen.addresses


class PeerView:
    """Peers keyed by a discovery-specific key (the mDNS instance name, or HOST:PORT),
    at most ``max_peers`` of them: a segmented LRU (SLRU; Karedla, Love and Wherry 1994).

    A peer enters on *probation*; one that answered us (:meth:`confirm`: the game
    protocol's ``info`` exchange) moves to the *protected* segment, which holds at most
    ``protected`` peers (its least recently confirmed one goes back on probation).  A
    newcomer is never refused: when the view is full the least recently announced peer on
    probation leaves it (the least recently confirmed protected one if none is on
    probation).  A flood of adverts nobody answers for therefore only churns the
    probation segment, and the peers that answer stay.  A peer we could not reach is
    dropped by its discovery (:meth:`drop`); a new boot, port or address puts a peer
    back on probation until it answers again.

    ``wait_changed`` and ``next_event`` are for one consumer each: the first reports
    whether anything changed since it last returned, the second hands out events in
    order (the oldest are dropped past ``max_events``, with a log line).
    """

    def __init__(self, *, max_peers: int = 256, max_events: int = 1024, protected: int | None = None) -> None:
        if max_peers < 1:
            raise ValueError("a view holds at least one peer")
        self._peers: dict[str, Seen] = {}  # in the order first seen
        self._probation: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._protected: collections.OrderedDict[str, None] = collections.OrderedDict()
        self._protected_nodes: collections.Counter[str] = collections.Counter()
        self._max_peers = max_peers
        default = max_peers - max_peers // 4  # a quarter of the view stays for newcomers on probation
        self._max_protected = min(max_peers, protected if protected is not None else default)
        self._events: collections.deque[DiscoveryEvent] = collections.deque()
        self._max_events = max_events
        self._changed = trio.Event()
        self._unseen_change = False
        self.evicted = 0
        """How many peers left the view to make room for newcomers (for a rescan and for figures)."""
        self._warned_full = False
        self._dropping = False

    def __len__(self) -> int:
        return len(self._peers)

    @property
    def room(self) -> int:
        """How many peers fit before the view evicts one."""
        return self._max_peers - len(self._peers)

    def current(self) -> Sequence[Seen]:
        """The peers known now, in the order they were first seen."""
        return tuple(self._peers.values())

    def get(self, key: str) -> Seen | None:
        return self._peers.get(key)

    def confirmed(self, key: str) -> bool:
        """Whether the peer at ``key`` answered since its advert last changed where it is."""
        return key in self._protected

    def node_confirmed(self, node_id: str) -> bool:
        """Whether a peer with this node id answered (is protected)."""
        return self._protected_nodes[node_id] > 0

    def drop_node(self, node_id: str) -> None:
        """Drop every peer whose advert carries ``node_id``."""
        for key in [k for k, seen in self._peers.items() if seen.advert.node_id == node_id]:
            self.drop(key)

    def put(self, key: str, seen: Seen) -> None:
        """Add or replace the peer at ``key``; an identical value is no change.

        An announcement makes the peer the most recent of its segment; a new peer in a
        full view makes room by evicting (see the class docstring)."""
        old = self._peers.get(key)
        if old == seen:
            self._touch(key)
            return
        if old is None:
            while len(self._peers) >= self._max_peers:
                self._evict()
            self._probation[key] = None
        elif _identity(old) != _identity(seen):
            self._unprotect(key)
            self._probation[key] = None
            self._probation.move_to_end(key)
        else:
            self._touch(key)
        self._peers[key] = seen
        self._emit(DiscoveryEvent("added" if old is None else "updated", seen))

    def confirm(self, key: str) -> None:
        """The peer at ``key`` answered: protect it (the most recent of the protected)."""
        if key not in self._peers:
            return
        self._probation.pop(key, None)
        if key not in self._protected:
            self._protected_nodes[self._peers[key].advert.node_id] += 1
        self._protected[key] = None
        self._protected.move_to_end(key)
        while len(self._protected) > self._max_protected:
            demoted = next(iter(self._protected))
            self._unprotect(demoted)
            self._probation[demoted] = None

    def _unprotect(self, key: str) -> None:
        if key in self._protected:
            del self._protected[key]
            node = self._peers[key].advert.node_id
            self._protected_nodes[node] -= 1
            if not self._protected_nodes[node]:
                del self._protected_nodes[node]

    def drop(self, key: str) -> None:
        if key in self._peers:
            self._unprotect(key)
        old = self._peers.pop(key, None)
        self._probation.pop(key, None)
        if old is not None:
            self._emit(DiscoveryEvent("removed", old))

    def _touch(self, key: str) -> None:
        for segment in (self._probation, self._protected):
            if key in segment:
                segment.move_to_end(key)

    def _evict(self) -> None:
        segment = self._probation if self._probation else self._protected
        key = next(iter(segment))
        if not self._warned_full:
            log.warning("%d peers in view: the least recently announced unconfirmed peers make room "
                        "for newcomers", self._max_peers)
            self._warned_full = True
        log.debug("%s leaves the view to make room", key)
        self.evicted += 1
        self.drop(key)

    def _emit(self, event: DiscoveryEvent) -> None:
        log.debug("%s %s", event.kind, event.seen)
        if len(self._events) >= self._max_events:
            dropped = self._events.popleft()
            if not self._dropping:  # one line per overflow, not one per event of a flood
                log.warning("discovery event log full (%d): dropping the oldest, first a %s event",
                            self._max_events, dropped.kind)
            self._dropping = True
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
        if not self._events:
            return None
        event = self._events.popleft()
        self._dropping = self._dropping and bool(self._events)
        return event
