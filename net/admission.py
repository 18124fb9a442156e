"""Who may hold a connection to this node, sans-IO: caps, per-peer failure limits, drop log.

A node on a LAN can be sent any number of connections by anybody.  :class:`Gate` bounds
them (like nginx's ``limit_conn`` and OpenSSH's ``MaxStartups``): in total (derived from
the file-descriptor limit, with a reserve for the node's own files and links), per remote
address, and while they have not finished their handshake.  The table's own members are
always preferred: strangers are capped below the total so a part of it is kept for the
members, a newcomer may evict the oldest stranger that has not even said hello, and a
connection whose hello names a member is never evicted by strangers.
:class:`Failures` counts failures (wrong PINs) per peer, so one node's mistakes lock out
only that node.  :class:`DropLog` says why a peer was dropped, once per peer and reason
in a while.  Time only comes in as ``now`` (seconds).
"""

from __future__ import annotations

import itertools
import logging
import resource
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["FAULTS", "Arrival", "DropLog", "Failures", "Gate", "Limits", "drop"]

RESERVE = 64
"""Descriptors kept for the node itself, never used for incoming connections: standard
streams, the event loop and its wake-up pipe, discovery's sockets and its thread's loop, two
SQLite stores with their WAL and shared-memory files, a record being written, the listener,
the node's own outgoing links (to its host, to each member of the agreement, info
questions, invitations), and room for Python itself (imports, random numbers)."""

MAX_TOTAL = 256
"""Most incoming connections at once, whatever the descriptor limit.  A table needs about a
dozen (three other members, each with a seat and an agreement link, and a few watchers); each
connection may hold up to one frame (128 KiB) being received, so 256 bound that memory to
32 MiB."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The caps of a :class:`Gate`."""

    total: int
    """Incoming connections at once, of every kind."""
    members: int
    """The part of ``total`` strangers never get: kept for the table's own members."""
    per_address: int
    """Connections of strangers from one remote address."""
    handshakes: int
    """Connections that have not finished their handshake."""
    claims: int = 4
    """Unfinished handshakes whose hello names one member (a forger cannot hold more)."""

    def __post_init__(self) -> None:
        if not 1 <= self.members < self.total or min(self.per_address, self.handshakes, self.claims) < 1:
            raise ValueError(f"inconsistent connection limits: {self}")

    @classmethod
    def for_descriptors(cls, nofile: int) -> Limits:
        """The caps for a process that may open ``nofile`` descriptors: the total is what is left
        after :data:`RESERVE` (at most :data:`MAX_TOTAL`, at least 8); an eighth of it (4..32)
        is kept for members; a quarter (4..64) may be in their handshake, which takes a LAN
        peer milliseconds; one address may hold an eighth (4..32): a computer with a few
        players' nodes on it opens a handful each."""
        total = max(8, min(MAX_TOTAL, nofile - RESERVE))
        return cls(total=total, members=min(32, max(4, total // 8)),
                   per_address=min(32, max(4, total // 8)), handshakes=min(64, max(4, total // 4)))

    @classmethod
    def for_this_process(cls) -> Limits:
        """:meth:`for_descriptors` of this process's soft RLIMIT_NOFILE."""
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        return cls.for_descriptors(MAX_TOTAL + RESERVE if soft == resource.RLIM_INFINITY else soft)


Stage = Literal["new", "claim", "stranger", "member"]
"""``new``: no hello yet, or a hello from a stranger still in its handshake (evictable);
``claim``: in its handshake, its hello names a member; ``stranger``: authenticated, no
member (a watcher, a node joining); ``member``: authenticated member of the table."""


@dataclass(slots=True)
class _Conn:
    address: str
    since: float
    stage: Stage = "new"
    node: str = ""
    probation: bool = False
    """Let in on the members' share because the strangers' was full: it must name a member."""


@dataclass(frozen=True, slots=True)
class Arrival:
    """What :meth:`Gate.arrive` decided: ``ticket`` (None: refused, ``reason`` says why) and
    the connections to close to make room (``evict``: tickets, each with its reason)."""

    ticket: int | None
    reason: str = ""
    evict: tuple[tuple[int, str], ...] = ()


class Gate:
    """The connections a node holds, and whether one more may come in."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.conns: dict[int, _Conn] = {}
        self._ids = itertools.count(1)
        self.refused = 0
        self.evicted = 0
        self.peak = 0

    # -- counts -------------------------------------------------------------------------
    def counts(self) -> dict[str, int]:
        """How many connections are in each stage (for figures and logs)."""
        out = {"total": len(self.conns), "refused": self.refused, "evicted": self.evicted, "peak": self.peak}
        for c in self.conns.values():
            out[c.stage] = out.get(c.stage, 0) + 1
        return out

    # -- events -------------------------------------------------------------------------
    def arrive(self, address: str, now: float) -> Arrival:
        """A connection from ``address`` was accepted: let it in (perhaps after evicting the
        oldest connections that have not said hello) or refuse it."""
        lim = self.limits
        gone: dict[int, str] = {}

        def count(test: Callable[[_Conn], bool]) -> int:
            return sum(1 for t, c in self.conns.items() if t not in gone and test(c))

        def evict_one(test: Callable[[_Conn], bool], why: str) -> bool:
            found = [(c.since, t) for t, c in self.conns.items() if t not in gone and c.stage == "new"
                     and test(c)]
            if found:
                gone[min(found)[1]] = why
            return bool(found)

        def stranger(c: _Conn) -> bool:
            return c.stage != "member" and not c.probation

        def here(c: _Conn) -> bool:
            return stranger(c) and c.address == address

        def handshaking(c: _Conn) -> bool:
            return c.stage in ("new", "claim")

        strangers = lim.total - lim.members
        checks: list[tuple[Callable[[_Conn], bool], int, str]] = [
            (here, lim.per_address, f"more than {lim.per_address} connections from {address}"),
            (handshaking, lim.handshakes, f"more than {lim.handshakes} connections in their handshake"),
            (stranger, strangers, f"more than {strangers} connections of others than the table's members"),
        ]
        probation = False
        for test, cap, why in checks:
            if count(test) >= cap and not evict_one(test, f"{why}: the oldest that said no hello is closed"):
                probation = True  # full of connections that said hello: only a member may come now
                break
        if probation:
            gone.clear()
            if count(lambda c: c.stage == "member" or c.probation) >= lim.members:
                return self._refuse(address)
        if len(self.conns) - len(gone) >= lim.total and not evict_one(
                lambda c: True, f"{lim.total} connections: the oldest that said no hello is closed"):
            return self._refuse(address)
        for ticket in gone:
            del self.conns[ticket]
        self.evicted += len(gone)
        ticket = next(self._ids)
        self.conns[ticket] = _Conn(address, now, probation=probation)
        self.peak = max(self.peak, len(self.conns))
        return Arrival(ticket, "", tuple(gone.items()))

    def _refuse(self, address: str) -> Arrival:
        self.refused += 1
        return Arrival(None, f"this node holds {len(self.conns)} connections: no room for another from "
                             f"{address}")

    def hello(self, ticket: int, node: str, member: bool) -> tuple[str, tuple[tuple[int, str], ...]]:
        """The connection's hello names ``node`` (``member``: one of the table's).  Returns why
        it is refused (``""``: it goes on) and the older claims of the same member to close."""
        conn = self.conns.get(ticket)
        if conn is None:
            return "", ()
        conn.node = node
        if not member:
            if conn.probation:
                return (f"this node holds {len(self.conns)} connections: only the table's members get "
                        f"in now"), ()
            return "", ()
        conn.stage = "claim"
        claims = sorted((c.since, t) for t, c in self.conns.items()
                        if c.stage == "claim" and c.node == node and t != ticket)
        evict = tuple((t, f"more than {self.limits.claims} unfinished handshakes naming {node[:8]}")
                      for _since, t in claims[:max(0, len(claims) + 1 - self.limits.claims)])
        for t, _why in evict:
            del self.conns[t]
        self.evicted += len(evict)
        return "", evict

    def authenticated(self, ticket: int, member: bool) -> None:
        """The connection proved its node's key; ``member``: it is one of the table's."""
        conn = self.conns.get(ticket)
        if conn is not None:
            conn.stage = "member" if member else "stranger"

    def leave(self, ticket: int) -> None:
        """The connection is closed."""
        self.conns.pop(ticket, None)


class Failures:
    """Failures (wrong PINs) per peer within a window: a node id that failed ``per_node`` times,
    or an address that failed ``per_address`` times (a guesser making up node ids), is paused
    until the window has passed.  A node that succeeded once (a known good node) is never
    paused for its address's failures; a node that never failed from an address without
    many failures is never paused."""

    def __init__(self, *, window: float = 60.0, per_node: int = 5, per_address: int = 30) -> None:
        self.window = window
        self.per_node = per_node
        self.per_address = per_address
        self._nodes: OrderedDict[str, list[float]] = OrderedDict()
        self._addresses: OrderedDict[str, list[float]] = OrderedDict()
        self._good: OrderedDict[str, None] = OrderedDict()

    def _recent(self, book: OrderedDict[str, list[float]], key: str, now: float) -> int:
        times = [t for t in book.get(key, []) if now - t < self.window]
        if times:
            book[key] = times
        else:
            book.pop(key, None)
        return len(times)

    def paused(self, node: str, address: str, now: float) -> str:
        """Why ``node`` at ``address`` may not try now, or ``""``."""
        if self._recent(self._nodes, node, now) >= self.per_node:
            return f"too many wrong PINs from this node lately: wait {self.window:g} s"
        if node not in self._good and self._recent(self._addresses, address, now) >= self.per_address:
            return f"too many wrong PINs from {address} lately: wait {self.window:g} s"
        return ""

    def failed(self, node: str, address: str, now: float) -> None:
        for book, key in ((self._nodes, node), (self._addresses, address)):
            book.setdefault(key, []).append(now)
            book.move_to_end(key)
            while len(book) > 4096:  # a flood of made-up ids cannot grow this without end
                book.popitem(last=False)

    def succeeded(self, node: str) -> None:
        self._good[node] = None
        self._good.move_to_end(node)
        while len(self._good) > 1024:
            self._good.popitem(last=False)


@dataclass(slots=True)
class _Seen:
    last: float
    hidden: int = 0


@dataclass
class DropLog:
    """Says why a peer was dropped once per peer and reason per ``window`` seconds, and at most
    ``budget`` lines per window in all (a flood from many addresses is summed up)."""

    window: float = 60.0
    budget: int = 20
    _seen: OrderedDict[tuple[str, str], _Seen] = field(default_factory=OrderedDict)
    _lines: list[float] = field(default_factory=list)
    _hidden: int = 0

    def line(self, peer: str, code: str, reason: str, now: float) -> str | None:
        """The line to log for dropping ``peer`` (``code``: the kind of reason), or None when
        one like it was logged lately."""
        key = (peer, code)
        seen = self._seen.get(key)
        if seen is not None and now - seen.last < self.window:
            seen.hidden += 1
            return None
        self._lines = [t for t in self._lines if now - t < self.window]
        if len(self._lines) >= self.budget:
            self._hidden += 1
            if seen is not None:
                seen.hidden += 1
            return None
        hidden = seen.hidden if seen is not None else 0
        self._seen[key] = _Seen(now)
        self._seen.move_to_end(key)
        while len(self._seen) > 4096:
            self._seen.popitem(last=False)
        self._lines.append(now)
        text = f"dropped {peer}: {reason}"
        if hidden:
            text += f" ({hidden} more like it since the last line)"
        if self._hidden:
            text += f"; {self._hidden} other drops not shown"
            self._hidden = 0
        return text


FAULTS = frozenset({"protocol", "timeout", "pin", "auth", "identity", "version", "limit"})
"""Close codes that mean this node dropped a peer for what it did (or for want of room)."""

_log = logging.getLogger("tarock.net")
_drops = DropLog()


def drop(peer: str, code: str, reason: str) -> None:
    """Log (at the default level, see :class:`DropLog`) that ``peer`` was dropped or refused."""
    text = _drops.line(peer, code, reason, time.monotonic())
    if text is not None:
        _log.warning("%s", text)
