"""The agreement's links: one outgoing ``peer`` connection to every other member of a table.

Every member keeps one outgoing connection to every other member and sends its Raft
messages on it; what arrives on any peer connection from a member (its own outgoing one,
or the one the member opened to this node, :meth:`Peers.serve`) goes to the driver.
While a member's connection is down its messages wait in a short outbox.  Peers are
found by their node id: whatever address a peer's own hello named when it last connected
(a node restarted on a new port or address) first, then the roster's, then what
discovery last saw of that node id (an advert names its node), docs/protocol.md "Host
agreement".
"""

from __future__ import annotations

import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import trio

from tarock.net.admission import FAULTS, drop
from tarock.net.agreement.messages import RaftMessage
from tarock.net.agreement.wire import encode
from tarock.net.identity import Identity
from tarock.net.link import Link
from tarock.net.pake import Pake
from tarock.net.protocol.channel import Channel, QueueFull
from tarock.net.protocol.connection import Authenticated, BodyReceived, Event, Welcomed
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN, Timing
from tarock.net.protocol.messages import Hello, MessageError, SeatInfo, TableInfo, Welcome
from tarock.net.transport import ConnectError, PeerAddress

log = logging.getLogger("tarock.net")

OUTBOX: int = 128
"""Raft messages kept for a peer while its connection is down (older ones are dropped: Raft
resends what matters)."""

Open = Callable[[PeerAddress], Awaitable[trio.abc.Stream]]
Lookup = Callable[[str], Sequence[PeerAddress]]


@dataclass(frozen=True, slots=True)
class Reach:
    """How this node reaches the table's other members and proves who it is: its node id and
    name, its key, the table, its timeouts, how it opens a stream, the port and addresses
    its hellos name, the table's PIN, and discovery's addresses of a node id."""

    me: str
    name: str
    identity: Identity
    info: TableInfo
    timing: Timing
    open_stream: Open
    port: Callable[[], int]
    addresses: tuple[str, ...] = ()
    pin: str | None = None
    lookup: Lookup | None = None


def seat_addresses(seat: SeatInfo) -> list[PeerAddress]:
    """Where the roster says ``seat``'s node listens (its addresses that parse, at its port)."""
    out: list[PeerAddress] = []
    for host in seat.addresses:
        try:
            out.append(PeerAddress(host, seat.port))
        except ValueError:
            continue
    return out


class Peers:
    """This node's links to the other members of one table.

    ``receive(member, body)`` takes every body a member sends (a MessageError closes that
    link); ``state()`` is the term and leader this node's hellos and welcomes name;
    ``stop_reason()`` why a link closes when this node stops.
    """

    def __init__(self, reach: Reach, members: dict[str, SeatInfo], receive: Callable[[str, object], None],
                 state: Callable[[], tuple[int, str]], stop_reason: Callable[[], str]) -> None:
        self.reach, self.members = reach, members
        self.where: dict[str, list[PeerAddress]] = {n: seat_addresses(m) for n, m in members.items()}
        self.outbox: dict[str, deque[RaftMessage]] = {n: deque(maxlen=OUTBOX) for n in members
                                                      if n != reach.me}
        self.links: dict[str, Link] = {}
        self._wake: dict[str, trio.Event] = {n: trio.Event() for n in self.outbox}
        self._receive, self._state, self._stop_reason = receive, state, stop_reason
        self.closed = False

    def addresses(self, node: str) -> list[PeerAddress]:
        """Where ``node`` may be reached: what it said last, the roster's, discovery's."""
        found = list(self.where.get(node, []))
        if self.reach.lookup is not None:
            for address in self.reach.lookup(node):
                if address not in found:
                    found.append(address)
        return found

    def learned(self, node: str, hello: Hello, peer_ip: str | None) -> None:
        """A member connected: the addresses and port its hello names come first from now on."""
        if node not in self.members or not 0 < hello.port <= 65535:
            return
        ips = list(hello.addresses)
        if peer_ip and peer_ip not in ips:
            ips.append(peer_ip)
        fresh: list[PeerAddress] = []
        for ip in ips:
            try:
                fresh.append(PeerAddress(ip, hello.port))
            except ValueError:
                continue
        self.where[node] = fresh + [a for a in self.where.get(node, []) if a not in fresh]

    def send(self, to: str, msg: RaftMessage) -> None:
        """``msg`` to member ``to``: now if its link is up, else when it is back."""
        link = self.links.get(to)
        if link is not None and not link.conn.closed:
            try:
                link.conn.send_body(encode(msg), trio.current_time())
                link.push()
                return
            except QueueFull:
                link.close("protocol", "too many unacknowledged messages")
        box = self.outbox.get(to)
        if box is not None:
            box.append(msg)
            self._wake[to].set()

    def start(self, nursery: trio.Nursery) -> None:
        """Keep a link to every other member, in ``nursery``, until :meth:`close`."""
        for peer in self.outbox:
            nursery.start_soon(self._dial, peer)

    def close(self) -> None:
        self.closed = True
        for link in list(self.links.values()):
            link.close("done", "the table is over")

    async def _dial(self, peer: str) -> None:
        """Keep an outgoing connection to ``peer``: connect, say hello, send what is queued, and
        step what it sends back; after a failure try again (0.2 s, up to 1 s apart)."""
        pause = 0.2
        while not self.closed:
            for address in self.addresses(peer):
                if await self._connect(peer, address):
                    pause = 0.2
                    break
            with trio.move_on_after(pause):
                await self._wake[peer].wait()
            self._wake[peer] = trio.Event()
            pause = min(1.0, pause * 2)

    async def _connect(self, peer: str, address: PeerAddress) -> bool:
        """One connection to ``peer`` at ``address``; True if it was open (and is over now)."""
        r = self.reach
        try:
            with trio.fail_after(r.timing.connect):
                stream = await r.open_stream(address)
        except (ConnectError, OSError, trio.TooSlowError) as exc:
            log.debug("%s: peer %s at %s: %s", r.name, peer[:8], address, exc)
            return False
        link = Link(stream, "client", r.timing, f"{r.name} to peer {peer[:8]}", stop_reason=self._stop_reason)
        pake = Pake(r.info.id, r.pin, "client") if r.pin and r.info.private else None
        hello = Hello(PROTOCOL_MIN, PROTOCOL_MAX, r.me, r.name, "peer", r.info.id, r.info.rules,
                      "", 0, self._state()[0], 0, 0, r.port(), r.addresses[:8], r.identity.key,
                      secrets.token_hex(32), pake.message.hex() if pake else "")
        link.conn.hello(hello, trio.current_time(), None, r.identity, pake, expect=peer)
        await link.flush()
        event = await link.handshake(r.timing.handshake)
        if not isinstance(event, Welcomed) or link.conn.channel is None:
            await trio.aclose_forcefully(stream)
            return False
        return await self._serve(peer, link)

    async def serve(self, link: Link, hello: Hello, peer_ip: str | None) -> None:
        """(Server) a ``peer`` hello from a member: prove both keys, then read its messages."""
        r = self.reach
        member = self.members.get(hello.node)
        if member is None or hello.node == r.me or member.key != hello.key or hello.table != r.info.id:
            link.conn.refuse("table", f"{hello.node[:8]} is no member of table {r.info.name!r}")
            await link.flush()
            return
        pake = None
        if r.info.private:
            if not hello.pake or not r.pin:
                link.conn.refuse("pin", f"table {r.info.name!r} is private: its members need its PIN")
                await link.flush()
                return
            pake = Pake(r.info.id, r.pin, "server")
        link.conn.challenge(r.identity, pake, trio.current_time())
        await link.flush()
        event = await link.handshake(r.timing.handshake)
        if not isinstance(event, Authenticated) or link.conn.closed:
            await link.flush()
            return
        self.learned(hello.node, hello, peer_ip)
        term, leader = self._state()
        welcome = Welcome(PROTOCOL_MAX, r.me, r.name, r.info.id, r.info.rules, term, leader,
                          secrets.token_hex(16), 0, False, None, 0)
        link.conn.accept(welcome, Channel(welcome.session), trio.current_time())
        self._wake.get(hello.node, trio.Event()).set()  # it is back: our own link to it may go again
        await self._serve(hello.node, link, outgoing=False)

    async def _serve(self, peer: str, link: Link, outgoing: bool = True) -> bool:
        if outgoing:
            old = self.links.get(peer)
            if old is not None and old is not link:
                old.close("superseded", "a new connection to the peer")
            self.links[peer] = link
            box = self.outbox[peer]
            while box and not link.conn.closed:  # the peer may have said bye with its welcome
                link.conn.send_body(encode(box.popleft()), trio.current_time())
            link.push()

        async def on_event(event: Event) -> None:
            if isinstance(event, BodyReceived):
                try:
                    self._receive(peer, event.body)
                except MessageError as exc:
                    link.close("protocol", f"bad agreement message: {exc}")

        try:
            closed = await link.run(on_event)
            way = "to" if outgoing else "from"
            log.debug("%s: peer link %s %s ended: %s", self.reach.name, way, peer[:8], closed.reason)
            if closed.code in FAULTS and not closed.by_peer:
                drop(f"{link.peer} (member {peer[:8]})", closed.code, closed.reason)
        finally:
            if outgoing and self.links.get(peer) is link:
                del self.links[peer]
        return True
