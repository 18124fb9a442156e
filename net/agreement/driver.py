"""The agreement's trio driver: ticks, peer links and the store around a :class:`~net.agreement.raft.Raft`.

One :class:`Agreement` per table a node sits at.  Every member (the table's nodes,
not the host's bots) keeps one outgoing ``peer`` connection to every other member and
sends its Raft messages on it; what arrives on any peer connection from a member is
stepped into the core.  After every change the driver takes the core's
:class:`~net.agreement.raft.Ready`: it persists the hard state and the entries, then
hands the committed outcomes to the node, then sends the messages (etcd-io/raft's
order: persist before send).  Peers are found by their node id: whatever address a
peer's own hello named when it last connected (a node restarted on a new port or
address) first, then the roster's, then what discovery last saw of that node id (an
advert names its node), docs/protocol.md "Host agreement".
"""

from __future__ import annotations

import logging
import random
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass

import trio

from tarock.net.admission import FAULTS, drop
from tarock.net.agreement.messages import Envelope, HardState, RaftMessage, Ready
from tarock.net.agreement.outcome import Outcome, outcome_of
from tarock.net.agreement.persist import RaftStore
from tarock.net.agreement.raft import Raft
from tarock.net.agreement.wire import decode, encode
from tarock.net.identity import Identity
from tarock.net.link import Link
from tarock.net.pake import Pake
from tarock.net.protocol.channel import Channel, QueueFull
from tarock.net.protocol.connection import Authenticated, BodyReceived, Event, Welcomed
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN, Timing
from tarock.net.protocol.messages import Hello, MessageError, SeatInfo, TableInfo, Welcome
from tarock.net.store import Store
from tarock.net.transport import ConnectError, PeerAddress

log = logging.getLogger("tarock.net")

BATCH: int = 1024 * 1024
"""The most bytes of log entries read from the store at once (:meth:`Agreement.log_outcomes`)."""

OUTBOX: int = 128
"""Raft messages kept for a peer while its connection is down (older ones are dropped: Raft
resends what matters)."""

Open = Callable[[PeerAddress], Awaitable[trio.abc.Stream]]
Lookup = Callable[[str], Sequence[PeerAddress]]
Applied = Callable[[int, Outcome], None]


@dataclass(frozen=True, slots=True)
class Leadership:
    """Who leads the table now, as this node knows it."""

    term: int
    leader: str | None
    role: str


def members_of(roster: Sequence[SeatInfo]) -> list[SeatInfo]:
    """The table's voting members: its nodes in seat order, each once, the host's bots left out."""
    out: list[SeatInfo] = []
    for seat in sorted(roster, key=lambda s: s.seat):
        if not seat.local and all(m.node != seat.node for m in out):
            out.append(seat)
    return out


class Agreement:
    """One table's Raft member on this node."""

    def __init__(self, *, me: str, name: str, identity: Identity, info: TableInfo,
                 roster: Sequence[SeatInfo], store: Store, timing: Timing, open_stream: Open,
                 port: Callable[[], int], addresses: Sequence[str] = (), pin: str | None = None,
                 lookup: Lookup | None = None, first_host: str = "", first_term: int = 1,
                 rand: random.Random | None = None, lost: bool = False) -> None:
        self.me = me
        self.name = name
        self.identity = identity
        self.info = info
        self.timing = timing
        self.open_stream = open_stream
        self.port = port
        self.own_addresses = tuple(addresses)
        self.pin = pin
        self.lookup = lookup
        self.members = {m.node: m for m in members_of(roster)}
        if me not in self.members:
            raise ValueError("this node is no member of the table")
        self.where: dict[str, list[PeerAddress]] = {n: seat_addresses(m) for n, m in self.members.items()}
        self.persist = RaftStore(store, info.id)
        fresh = not self.persist.exists()
        if fresh:
            # Joining the table, every member has voted for the host that seated it in that
            # host's term; only that host can lead it (docs/protocol.md, "Host agreement").
            hard, applied = HardState(first_term, first_host, 0), 0
        else:
            hard, applied = self.persist.load()
        order = list(self.members)
        self.store = store
        self._lost_key = f"lost:{info.id}"
        # A store that lost its memory (found at the open, or told by a leader before and not yet
        # caught up) votes in no election until a leader has brought it the committed log.
        lost = lost or bool(store.get(self._lost_key))
        self.raft = Raft(me, order, hard=hard, storage=self.persist, applied=applied,
                         rand=rand or random.Random(secrets.randbits(64)),
                         election_ticks=max(2, round(timing.election / timing.tick)),
                         heartbeat_ticks=max(1, round(timing.beat / timing.tick)),
                         tie_breaker=order[0], lost=lost)
        self._lost = lost
        if lost:
            store.put(self._lost_key, True)  # the node said why at its start
        if fresh:
            self.persist.save(Ready(hard, None, (), (), ()))
            if first_host == me and not lost:
                self.raft.lead()
        self.applied: list[Applied] = []
        """Called with every committed outcome, in log order, once per start of this node."""
        self.changed = trio.Event()
        self.outbox: dict[str, deque[RaftMessage]] = {n: deque(maxlen=OUTBOX) for n in self.members
                                                      if n != me}
        self.links: dict[str, Link] = {}
        self._wake: dict[str, trio.Event] = {n: trio.Event() for n in self.outbox}
        self.closed = False
        self._last = self.leadership()
        self._processing = False
        self._again = False

    # -- what the node asks ------------------------------------------------------------------------
    def leadership(self) -> Leadership:
        return Leadership(self.raft.term, self.raft.leader, self.raft.role)

    def leads(self) -> bool:
        return self.raft.role == "leader"

    def log_outcomes(self) -> Iterator[Outcome]:
        """Every outcome in this node's log, committed or not, in log order: read from the store
        a batch at a time (:data:`BATCH` bytes), never all at once."""
        index = 1
        while index <= self.raft.last_index:
            batch = self.raft.entries(index, self.raft.last_index + 1, BATCH)
            for entry in batch:
                found = outcome_of(entry.data)
                if found is not None:
                    yield found
            index += len(batch)

    def reachable(self) -> frozenset[str]:
        return self.raft.reachable()

    def propose(self, outcome: Outcome) -> bool:
        """Append ``outcome`` to the log (the leader only); True if it was appended."""
        if self.closed or self.raft.propose(outcome.data()) is None:
            return False
        self._process()
        return True

    def addresses(self, node: str) -> list[PeerAddress]:
        """Where ``node`` may be reached: what it said last, the roster's, discovery's."""
        found = list(self.where.get(node, []))
        if self.lookup is not None:
            for address in self.lookup(node):
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

    async def wait_changed(self, timeout: float) -> None:
        with trio.move_on_after(timeout):
            await self.changed.wait()

    # -- the core ----------------------------------------------------------------------------------
    def receive(self, frm: str, raw: object) -> None:
        """A body from member ``frm`` (MessageError if it is no agreement message)."""
        msg = decode(raw)
        if self.closed:
            return
        self.raft.step(Envelope(frm, self.me, msg))
        self._process()

    def _process(self) -> None:
        """Persist, apply, send: until the core has nothing more (applying an outcome may
        propose the next one, which is taken in the next round, not inside this one)."""
        if self._processing:
            self._again = True
            return
        self._processing = True
        try:
            self._again = True
            while self._again:
                self._again = False
                self._round()
        finally:
            self._processing = False

    def _note_lost(self) -> None:
        """Keep the core's lost-memory mark in the store (a restart before it caught up keeps
        it), and say once when a leader found that this node's store lost entries."""
        if self.raft.lost == self._lost:
            return
        self.store.put(self._lost_key, self.raft.lost)
        self._lost = self.raft.lost
        if self._lost:
            log.warning("%s: table %r: this node lost its memory of the table (its store lost what it had "
                        "stored): it takes the table's outcomes from the others and votes in no election "
                        "until it has them", self.name, self.info.name)
        else:
            log.info("%s: table %r: caught up with the table's log; voting again", self.name, self.info.name)

    def _round(self) -> None:
        self._note_lost()
        ready = self.raft.ready()
        if ready.empty():
            return
        if self.raft.applying:
            self._again = True  # more committed entries than one Ready hands over
        self.persist.save(ready)
        for entry in ready.committed:
            found = outcome_of(entry.data)
            if found is not None:
                for applied in self.applied:
                    applied(entry.index, found)
            self.persist.applied(entry.index)
        for env in ready.messages:
            self._send(env.to, env.msg)
        now = self.leadership()
        if now != self._last:
            log.info("%s: table %r: term %d, %s (leader %s)", self.name, self.info.name, now.term, now.role,
                     (now.leader or "unknown")[:8])
            self._last = now
        self.changed.set()
        self.changed = trio.Event()

    def _send(self, to: str, msg: RaftMessage) -> None:
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

    # -- running -----------------------------------------------------------------------------------
    async def run(self) -> None:
        """Tick the core and keep a connection to every other member, until :meth:`close`."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            for peer in self.outbox:
                nursery.start_soon(self._dial, peer)
            self._process()
            while not self.closed:
                await trio.sleep(self.timing.tick)
                self.raft.tick()
                self._process()
            nursery.cancel_scope.cancel()

    def resign(self) -> None:
        """(Leader) stop leading and stand for no election for two election timeouts, so that
        another member hosts (a host named deal after deal, docs/protocol.md section 11)."""
        self.raft.resign(2 * self.raft.election_ticks)
        self._process()

    async def linger(self, timeout: float) -> None:
        """(Leader) until every member holds the whole committed log, and a few heartbeats more
        to tell them it is committed (the table's last hands then count everywhere, also at a
        member that was cut off when the table ended and is back within ``timeout`` seconds).
        A member away longer gets no leader to catch up from: its sheet stops short."""
        with trio.move_on_after(timeout):
            while self.leads():
                if all(self.raft.matched(p) >= self.raft.commit for p in self.raft.peers()):
                    await trio.sleep(3 * self.timing.beat)
                    return
                await self.wait_changed(0.2)

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
        try:
            with trio.fail_after(self.timing.connect):
                stream = await self.open_stream(address)
        except (ConnectError, OSError, trio.TooSlowError) as exc:
            log.debug("%s: peer %s at %s: %s", self.name, peer[:8], address, exc)
            return False
        link = Link(stream, "client", self.timing, f"{self.name} to peer {peer[:8]}",
                    stop_reason=lambda: self.store.failure)
        pake = Pake(self.info.id, self.pin, "client") if self.pin and self.info.private else None
        hello = Hello(PROTOCOL_MIN, PROTOCOL_MAX, self.me, self.name, "peer", self.info.id, self.info.rules,
                      "", 0, self.raft.term, 0, 0, self.port(), self.own_addresses[:8], self.identity.key,
                      secrets.token_hex(32), pake.message.hex() if pake else "")
        link.conn.hello(hello, trio.current_time(), None, self.identity, pake, expect=peer)
        await link.flush()
        event = await link.handshake(self.timing.handshake)
        if not isinstance(event, Welcomed) or link.conn.channel is None:
            await trio.aclose_forcefully(stream)
            return False
        return await self._serve(peer, link)

    async def serve(self, link: Link, hello: Hello, peer_ip: str | None) -> None:
        """(Server) a ``peer`` hello from a member: prove both keys, then read its messages."""
        member = self.members.get(hello.node)
        if member is None or hello.node == self.me or member.key != hello.key or hello.table != self.info.id:
            link.conn.refuse("table", f"{hello.node[:8]} is no member of table {self.info.name!r}")
            await link.flush()
            return
        pake = None
        if self.info.private:
            if not hello.pake or not self.pin:
                link.conn.refuse("pin", f"table {self.info.name!r} is private: its members need its PIN")
                await link.flush()
                return
            pake = Pake(self.info.id, self.pin, "server")
        link.conn.challenge(self.identity, pake, trio.current_time())
        await link.flush()
        event = await link.handshake(self.timing.handshake)
        if not isinstance(event, Authenticated) or link.conn.closed:
            await link.flush()
            return
        self.learned(hello.node, hello, peer_ip)
        welcome = Welcome(PROTOCOL_MAX, self.me, self.name, self.info.id, self.info.rules, self.raft.term,
                          self.raft.leader or "", secrets.token_hex(16), 0, False, None, 0)
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
                    self.receive(peer, event.body)
                except MessageError as exc:
                    link.close("protocol", f"bad agreement message: {exc}")
                    return
            link.conn.flush_ack(trio.current_time())

        try:
            closed = await link.run(on_event)
            log.debug("%s: peer link %s %s ended: %s", self.name, "to" if outgoing else "from", peer[:8],
                      closed.reason)
            if closed.code in FAULTS and not closed.by_peer:
                drop(f"{link.peer} (member {peer[:8]})", closed.code, closed.reason)
        finally:
            if outgoing and self.links.get(peer) is link:
                del self.links[peer]
        return True


def seat_addresses(seat: SeatInfo) -> list[PeerAddress]:
    """Where the roster says ``seat``'s node listens (its addresses that parse, at its port)."""
    out: list[PeerAddress] = []
    for host in seat.addresses:
        try:
            out.append(PeerAddress(host, seat.port))
        except ValueError:
            continue
    return out
