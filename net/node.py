"""A node: the trio program around the sans-IO cores.

Every node listens (for seats when it hosts, for invitations while it waits,
for the other members' agreement messages, for ``info`` questions always),
plays one or more seats (:class:`~net.seat_driver.SeatDriver`) and may host a
table (:class:`~net.hosting.HostDriver`).  Once a table is full its nodes agree
on the host by Raft (:mod:`net.succession`): the node the agreement elects
hosts the table at the term it was elected in, a node that loses the leadership
stops hosting, and every seat follows the leader the agreement names
(docs/protocol.md, "Host agreement").  Every wait has a timeout.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

from tarock.core.players import Policy
from tarock.core.plugins import Catalogue
from tarock.net.admission import Gate, Limits, drop
from tarock.net.agreement.driver import Agreement
from tarock.net.host import HostCore
from tarock.net.hosting import HostDriver
from tarock.net.identity import Identity
from tarock.net.invitation import Invitation, Waiting, answer_invitation
from tarock.net.link import Link, read_hello
from tarock.net.local import LOCAL, local_pair
from tarock.net.pake import Pake
from tarock.net.protocol.channel import Channel
from tarock.net.protocol.connection import HelloRefused, InfoReceived, Welcomed
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN, Timing
from tarock.net.protocol.messages import Hello, Info
from tarock.net.seat import SeatCore
from tarock.net.seat_driver import GIVE_UP, Listener, SeatDriver
from tarock.net.seat_stats import RTT_KEPT, Stats, percentile
from tarock.net.store import Store
from tarock.net.succession import Succession
from tarock.net.transport import ConnectError, PeerAddress, TcpTransport, Transport

__all__ = ["GIVE_UP", "LOCAL", "RTT_KEPT", "Invitation", "Listener", "Node", "SeatDriver", "Stats", "Waiting",
           "default_state_dir", "local_identity", "percentile"]

log = logging.getLogger("tarock.net")

def local_identity(host: Identity, index: int) -> Identity:
    """The identity of a bot of ``tarock host --bots`` (it lives in the host's process)."""
    return host.derived(index)


class Node:
    """One running node: its identity, store, listener and what it hosts."""

    def __init__(self, name: str, catalogue: Catalogue, transport: Transport, state_dir: Path, *,
                 timing: Timing | None = None, records_dir: Path | None = None,
                 addresses: tuple[str, ...] = (), pin: str | None = None, store: str | None = None) -> None:
        """``store`` names the node's store files (default: ``name``): a player who keeps one store
        under any name keeps its identity, and so its seat, when the name changes."""
        self.name = name
        self.catalogue = catalogue
        self.transport = transport
        self.timing = timing or Timing()
        self.records_dir = records_dir
        self.store = Store(state_dir / f"{_file_name(store or name)}.sqlite", recover=True)
        self.identity = Identity(self.store.identity_seed())
        self.me = self.store.node_id()
        self.lost = self.store.lost
        """Why this node's store lost what it had stored ("": it did not, as far as it can tell):
        it takes part in its table's agreement without a vote until it has caught up."""
        if self.store.new_key:
            log.info("%s: a new player: its key is %s", name, self.store.key)
        self.pin = pin or None
        """The PIN of the private table this node hosts or joins (None: none)."""
        self.boot = secrets.token_hex(8)
        self.addresses = addresses
        self.port = 0
        self.seats: list[SeatDriver] = []
        self.nursery: trio.Nursery | None = None
        self.waiting: Waiting | None = None
        self.lookup: Callable[[str], list[PeerAddress]] | None = None
        """Where discovery last saw a node (by its node id), for a peer that moved."""
        self.bot_for: Callable[[int], Policy] | None = None
        self.gate = Gate(Limits.for_this_process())
        """Which incoming connections this node holds (net/admission.py)."""
        self._scopes: dict[int, tuple[trio.CancelScope, str]] = {}
        self.succession = Succession(self, state_dir / f"{_file_name(store or name)}.host.sqlite")

    # -- who hosts (net/succession.py) ---------------------------------------------------------
    @property
    def host(self) -> HostDriver | None:
        return self.succession.host

    @property
    def agreements(self) -> dict[str, Agreement]:
        return self.succession.agreements

    @property
    def agreement_joined(self) -> trio.Event:
        return self.succession.agreement_joined

    @property
    def hosting_changed(self) -> trio.Event:
        return self.succession.hosting_changed

    def start_hosting(self, core: HostCore) -> HostDriver:
        return self.succession.start_hosting(core)

    async def wind_down(self) -> None:
        """Before stopping: the tables this node leads let every member learn how they ended."""
        await self.succession.wind_down()

    def join_agreement(self, core: SeatCore) -> Agreement | None:
        return self.succession.join_agreement(core)

    def host_store(self) -> Store:
        return self.succession.host_store()

    def stop_reason(self) -> str:
        """Why this node stops for its own fault (a store that failed), or ""."""
        return self.store.failure or self.succession.failure()

    # -- listening -----------------------------------------------------------------------
    async def serve(self, *, task_status: trio.TaskStatus[PeerAddress] = trio.TASK_STATUS_IGNORED) -> None:
        async def handler(stream: trio.abc.Stream) -> None:
            await self.admit(stream, _peer_ip(stream) or "?")

        if isinstance(self.transport, TcpTransport):
            self.transport.on_exhausted = self._free_one
        async with trio.open_nursery() as nursery:
            bound = await self._listen(nursery, handler)
            self.port = bound.port
            if self.store.get("port") != bound.port:
                self.store.put("port", bound.port)
            task_status.started(bound)

    async def _listen(self, nursery: trio.Nursery, handler: Callable[[trio.abc.Stream], Any]) -> PeerAddress:
        """Listen on the port this node had before (so that the others find it again after a
        restart), else on the one asked for or any free one."""
        kept = self.store.get("port")
        transport = self.transport
        if isinstance(transport, TcpTransport) and transport.port == 0 and isinstance(kept, int) \
                and 0 < kept <= 65535:
            transport.port = kept
            try:
                bound: PeerAddress = await nursery.start(transport.serve, handler)
                return bound
            except OSError as exc:
                log.info("%s: port %d is taken (%s): listening on another", self.name, kept, exc)
                transport.port = 0
        bound = await nursery.start(transport.serve, handler)
        return bound

    async def admit(self, stream: trio.abc.Stream, peer_ip: str) -> None:
        """Serve one connection from the network if the gate lets it in (evicting whom it says)."""
        arrival = self.gate.arrive(peer_ip, trio.current_time())
        self._evict(arrival.evict)
        if arrival.ticket is None:
            drop(peer_ip, "limit", f"refused at once: {arrival.reason}")
            return
        ticket = arrival.ticket
        with trio.CancelScope() as scope:
            self._scopes[ticket] = (scope, peer_ip)
            try:
                await self.handle(stream, peer_ip, ticket)
            finally:
                del self._scopes[ticket]
                self.gate.leave(ticket)

    def _evict(self, victims: tuple[tuple[int, str], ...]) -> None:
        for ticket, why in victims:
            found = self._scopes.get(ticket)
            if found is not None:
                found[0].cancel()
                drop(found[1], "limit", f"closed: {why}")

    def _free_one(self) -> None:
        """Out of descriptors: close the oldest connection that has not said hello."""
        found = [(c.since, t) for t, c in self.gate.conns.items() if c.stage == "new"]
        if found:
            ticket = min(found)[1]
            self.gate.leave(ticket)
            self._evict(((ticket, "this process ran out of file descriptors"),))

    def is_member(self, node: str) -> bool:
        """``node`` is a member of a table this node sits at or hosts (its connections are
        preferred, net/admission.py)."""
        if any(node in a.members for a in self.agreements.values() if not a.closed):
            return True
        host = self.host
        if host is not None and any(s.node == node for s in host.core.roster()):
            return True
        return any(s.node == node for seat in self.seats for s in seat.core.roster)

    async def handle(self, stream: trio.abc.Stream, peer_ip: str | None, ticket: int | None = None) -> None:
        """Serve one connection that a peer (or this node itself) opened (``ticket``: its place
        in the gate; None for this node's own in-process connections)."""
        link = Link(stream, "server", self.timing, f"from {peer_ip or 'this node'}", peer_ip or "this node",
                    stop_reason=self.stop_reason)
        hello = await read_hello(link, self.timing.handshake)
        if hello is None:
            await link.flush()
            return
        link.peer = f"{peer_ip or 'this node'} (node {hello.node[:8]})"
        if ticket is not None:
            member = self.is_member(hello.node)
            refusal, evict = self.gate.hello(ticket, hello.node, member)
            self._evict(evict)
            if refusal:
                drop(link.peer, "limit", f"refused: {refusal}")
                link.conn.refuse("busy", f"{self.name} is busy: {refusal}; try again later")
                await link.flush()
                return

            def authenticated(proved: Hello) -> None:
                self.gate.authenticated(ticket, self.is_member(proved.node))

            link.on_authenticated = authenticated
        if hello.role == "info":
            link.conn.info(self.info())
            await link.flush()
            return
        if hello.role == "invite":
            await answer_invitation(self.waiting, link, hello, peer_ip, self.me, self.name)
            return
        if hello.role == "peer":
            agreement = self.agreements.get(hello.table)
            if agreement is None:
                link.conn.refuse("table", f"{self.name} takes no part in the agreement of table "
                                          f"{hello.table}")
                await link.flush()
                return
            await agreement.serve(link, hello, peer_ip)
            return
        host = self.host
        if host is not None and host.stepped_down is None:
            await host.handle(link, hello, peer_ip)
            return
        seat = self.seats[0].core if self.seats else None
        newer = host.stepped_down if host is not None else None
        link.conn.refuse("not-host", f"{self.name} does not host a table now",
                         newer.host if newer is not None else seat.table.host if seat is not None else "",
                         newer.epoch if newer is not None else seat.epoch if seat is not None else 0)
        await link.flush()

    def info(self) -> Info:
        host = self.host
        if host is not None and host.stepped_down is None:
            return host.core.seating.info_message(self.name, self.port, self.boot)
        seat = self.seats[0].core if self.seats else None
        if seat is not None and seat.info is not None:
            i = seat.info
            return Info(PROTOCOL_MIN, PROTOCOL_MAX, self.me, self.name, "table", i.id, i.name, i.variant,
                        dict(i.options), i.rules, i.rounds, 0, seat.epoch, seat.table.host, self.port,
                        self.boot, i.private)
        w = self.waiting
        variant, options, rules, rounds = (w.game.variant, w.game.options, w.game.hash, w.game.rounds) \
            if w is not None else ("", {}, "", 0)
        return Info(PROTOCOL_MIN, PROTOCOL_MAX, self.me, self.name, "waiting", "", "", variant, options,
                    rules, rounds, 0, 0, "", self.port, self.boot, self.pin is not None)

    # -- connecting ----------------------------------------------------------------------
    async def open(self, address: PeerAddress) -> trio.abc.Stream:
        """A stream to ``address``; :data:`LOCAL` is this node itself (in-process)."""
        if address is LOCAL:
            if self.nursery is None:
                raise ConnectError("the node is not running")
            client, server = local_pair()
            self.nursery.start_soon(self._handle_local, server)
            return client
        return await self.transport.connect(address, timeout=self.timing.connect)

    async def _handle_local(self, stream: trio.abc.Stream) -> None:
        try:
            await self.handle(stream, None)
        finally:
            await trio.aclose_forcefully(stream)

    async def ask_info(self, address: PeerAddress) -> Info:
        """The :class:`Info` of the node at ``address`` (ConnectError if it does not answer)."""
        stream = await self.open(address)
        link = Link(stream, "client", self.timing, f"to {address}", stop_reason=self.stop_reason)
        try:
            link.conn.hello(self.hello("info"), trio.current_time())
            await link.flush()
            event = await link.handshake(self.timing.handshake)
        finally:
            await trio.aclose_forcefully(stream)
        if isinstance(event, InfoReceived):
            return event.info
        if isinstance(event, HelloRefused):
            raise ConnectError(f"{address} refused: {event.refuse.message}")
        raise ConnectError(f"{address} did not answer with its info")

    async def invite(self, address: PeerAddress, info: Any) -> bool:
        """Ask a waiting node to join the table ``info``; True if it accepts."""
        try:
            stream = await self.open(address)
        except ConnectError as exc:
            log.info("invitation to %s: %s", address, exc)
            return False
        link = Link(stream, "client", self.timing, f"to {address}", stop_reason=self.stop_reason)
        try:
            hello = Hello(PROTOCOL_MIN, PROTOCOL_MAX, self.me, self.name, "invite", info.id, info.rules, "",
                          0, 1, 0, 0, self.port, self.addresses, self.identity.key, secrets.token_hex(32), "")
            link.conn.hello(hello, trio.current_time())
            await link.flush()
            event = await link.handshake(self.timing.handshake)
        finally:
            await trio.aclose_forcefully(stream)
        return isinstance(event, Welcomed)

    def hello(self, role: str, core: SeatCore | None = None, channel: Channel | None = None,
              me: str | None = None, name: str | None = None, pake: Pake | None = None) -> Hello:
        key = core.identity.key if core is not None else self.identity.key
        return Hello(PROTOCOL_MIN, PROTOCOL_MAX, me or self.me, name or self.name, role,  # type: ignore[arg-type]
                     core.table_id if core else "", core.rules if core else "",
                     channel.session if channel else "", channel.received if channel else 0,
                     core.epoch if core else 0, core.deal if core else 0, core.done if core else 0,
                     self.port, self.addresses, key, secrets.token_hex(32),
                     pake.message.hex() if pake else "")

def _peer_ip(stream: trio.abc.Stream) -> str | None:
    sock = getattr(stream, "socket", None)
    if sock is None:
        return None
    try:
        return str(sock.getpeername()[0])
    except OSError:
        return None


def _file_name(name: str) -> str:
    """A file name made of a player name (letters, digits, ``-_.`` kept)."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
    return safe.strip(".") or "node"


def default_state_dir() -> Path:
    import platformdirs

    return Path(os.environ.get("TAROCK_STATE") or platformdirs.user_state_dir("tarock"))
