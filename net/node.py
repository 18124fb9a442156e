"""A node: the trio program around the sans-IO cores.

Every node listens (for seats when it hosts, for invitations while it waits,
for the other members' agreement messages, for ``info`` questions always),
plays one or more seats (:class:`SeatDriver`) and may host a table
(:class:`~net.hosting.HostDriver`).  Once a table is full its nodes agree on
the host by Raft (:class:`~net.agreement.driver.Agreement`): the node the
agreement elects hosts the table at the term it was elected in, a node that
loses the leadership stops hosting, and every seat follows the leader the
agreement names (docs/protocol.md, "Host agreement").  Every wait has a timeout.
"""

from __future__ import annotations

import logging
import math
import os
import secrets
import time
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from tarock.core.players import Player, Policy
from tarock.core.plugins import Catalogue
from tarock.net.admission import FAULTS, Gate, Limits, drop
from tarock.net.agreement.driver import Agreement, seat_addresses
from tarock.net.agreement.outcome import Outcome
from tarock.net.effects import Decide, Drop, Effect, FirstCard, HandOver, Leave, Note, Show, Shown, ToHost
from tarock.net.game import CheckFailed, Game, Sheet
from tarock.net.host import HostCore
from tarock.net.hosting import HostDriver
from tarock.net.identity import Identity
from tarock.net.link import Link, read_hello
from tarock.net.local import local_pair
from tarock.net.pake import Pake
from tarock.net.protocol.channel import Channel, QueueFull
from tarock.net.protocol.connection import BodyReceived, Closed, Event, HelloRefused, InfoReceived, Welcomed
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN, Timing
from tarock.net.protocol.messages import (
    Act,
    Hello,
    Info,
    MessageError,
    Refuse,
    SeatInfo,
    Signed,
    Welcome,
    dump,
    parse,
)
from tarock.net.seat import SeatCore
from tarock.net.store import Store
from tarock.net.transport import ConnectError, PeerAddress, TcpTransport, Transport

log = logging.getLogger("tarock.net")

LOCAL = PeerAddress("127.0.0.1", 0)
"""The node itself, reached through an in-process stream (never through the network)."""

GIVE_UP = 600.0
"""How long a seat looks for a host before it gives up."""

Listener = Callable[[Shown], None]


def local_identity(host: Identity, index: int) -> Identity:
    """The identity of a bot of ``tarock host --bots`` (it lives in the host's process)."""
    return host.derived(index)


RTT_KEPT = 4096
"""How many of a seat's latest action round trips :class:`Stats` keeps (a fixed amount of memory
however long the table plays)."""


@dataclass
class Stats:
    """What a seat measured: round trips of its actions (the latest :data:`RTT_KEPT`; ``actions``
    counts them all), messages and bytes."""

    rtt: deque[float] = field(default_factory=lambda: deque(maxlen=RTT_KEPT))
    actions: int = 0
    frames: int = 0
    bytes: int = 0
    first_card: float | None = None
    hands: int = 0


@dataclass
class Invitation:
    hello: Hello
    address: PeerAddress


class Node:
    """One running node: its identity, store, listener and what it hosts."""

    def __init__(self, name: str, catalogue: Catalogue, transport: Transport, state_dir: Path, *,
                 timing: Timing | None = None, records_dir: Path | None = None,
                 addresses: tuple[str, ...] = (), pin: str | None = None) -> None:
        self.name = name
        self.catalogue = catalogue
        self.transport = transport
        self.timing = timing or Timing()
        self.records_dir = records_dir
        self.store = Store(state_dir / f"{_file_name(name)}.sqlite", recover=True)
        self.host_store_path = state_dir / f"{_file_name(name)}.host.sqlite"
        self._host_store: Store | None = None
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
        self.host: HostDriver | None = None
        self.seats: list[SeatDriver] = []
        self.nursery: trio.Nursery | None = None
        self.waiting: Waiting | None = None
        self.hosting_changed = trio.Event()
        self.agreements: dict[str, Agreement] = {}
        """The host agreement of each table this node sits at (from the moment the table is full)."""
        self.lookup: Callable[[str], list[PeerAddress]] | None = None
        """Where discovery last saw a node (by its node id), for a peer that moved."""
        self.bot_for: Callable[[int], Policy] | None = None
        self.gate = Gate(Limits.for_this_process())
        """Which incoming connections this node holds (net/admission.py)."""
        self._scopes: dict[int, tuple[trio.CancelScope, str]] = {}

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
            await self._on_invite(link, hello, peer_ip)
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
                         newer.host if newer is not None else seat.host if seat is not None else "",
                         newer.epoch if newer is not None else seat.epoch if seat is not None else 0)
        await link.flush()

    def info(self) -> Info:
        host = self.host
        if host is not None and host.stepped_down is None:
            return host.core.info_message(self.name, self.port, self.boot)
        seat = self.seats[0].core if self.seats else None
        if seat is not None and seat.info is not None:
            i = seat.info
            return Info(PROTOCOL_MIN, PROTOCOL_MAX, self.me, self.name, "table", i.id, i.name, i.variant,
                        dict(i.options), i.rules, i.rounds, 0, seat.epoch, seat.host, self.port, self.boot,
                        i.private)
        w = self.waiting
        variant, options, rules, rounds = (w.game.variant, w.game.options, w.game.hash, w.game.rounds) \
            if w is not None else ("", {}, "", 0)
        return Info(PROTOCOL_MIN, PROTOCOL_MAX, self.me, self.name, "waiting", "", "", variant, options,
                    rules, rounds, 0, 0, "", self.port, self.boot, self.pin is not None)

    async def _on_invite(self, link: Link, hello: Hello, peer_ip: str | None) -> None:
        w = self.waiting
        if w is None or w.invitation is not None or hello.rules != w.game.hash or not hello.table:
            link.conn.refuse("busy", f"{self.name} is not waiting for a table with these rules")
            await link.flush()
            return
        # The addresses the host names first; the connection's peer address only without them.
        host_ip = hello.addresses[0] if hello.addresses else (peer_ip or "")
        if not host_ip or not 0 < hello.port <= 65535:
            link.conn.refuse("busy", "the invitation names no address to join")
            await link.flush()
            return
        w.invitation = Invitation(hello, PeerAddress(host_ip, hello.port))
        link.conn.accept(Welcome(PROTOCOL_MAX, self.me, self.name, hello.table, hello.rules, 0, "", "", 0,
                                 False, None, 0), None)
        await link.flush()
        w.event.set()

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

    # -- hosting -------------------------------------------------------------------------
    def start_hosting(self, core: HostCore) -> HostDriver:
        assert self.nursery is not None
        driver = HostDriver(core, self.name, identity=self.identity, pin=self.pin)
        self.host = driver
        agreement = self.agreements.get(core.info.id)
        if agreement is not None:
            self._attach(driver, agreement)
        else:
            driver.propose = lambda _outcome: False  # nothing counts before the agreement runs
        self.nursery.start_soon(driver.timers)
        self.hosting_changed.set()
        self.hosting_changed = trio.Event()
        return driver

    def _attach(self, driver: HostDriver, agreement: Agreement) -> None:
        """The host counts through the agreement: it proposes outcomes and knows who it reaches."""
        driver.core.reachable = agreement.reachable

        def propose(outcome: Outcome) -> bool:
            return (agreement.leads() and agreement.raft.term == driver.core.epoch
                    and agreement.propose(outcome))

        driver.propose = propose
        driver.retry_proposals()

    # -- the host agreement ---------------------------------------------------------------------
    def join_agreement(self, core: SeatCore) -> Agreement | None:
        """Take part in the host agreement of ``core``'s table once its roster is full (the node's
        own seat calls this); returns the agreement, None while there is none to take part in."""
        info = core.info
        if info is None or core.watch or core.me != self.me or len(core.roster) < info.seats:
            return None
        found = self.agreements.get(info.id)
        if found is not None:
            return found
        if self.nursery is None:
            return None
        agreement = Agreement(me=self.me, name=self.name, identity=self.identity, info=info,
                              roster=core.roster,
                              store=self.store, timing=self.timing, open_stream=self.open,
                              port=lambda: self.port, addresses=self.addresses, pin=self.pin,
                              lookup=self._lookup, first_host=core.host, first_term=max(1, core.epoch),
                              lost=bool(self.lost))
        self.agreements[info.id] = agreement
        agreement.applied.append(lambda _index, outcome: self._committed(info.id, outcome))
        for seat in self.seats:
            if seat.core.table_id == info.id and not seat.core.watch:
                seat.core.follows_log = True
        self.nursery.start_soon(agreement.run)
        self.nursery.start_soon(self._follow, agreement)
        host = self.host
        if host is not None and host.core.info.id == info.id and host.stepped_down is None:
            self._attach(host, agreement)
        return agreement

    def _lookup(self, node: str) -> list[PeerAddress]:
        return self.lookup(node) if self.lookup is not None else []

    def _committed(self, table: str, outcome: Outcome) -> None:
        """An outcome the table's log committed: the host (if this node hosts) and every seat of
        this node count it."""
        host = self.host
        if host is not None and host.core.info.id == table and host.stepped_down is None:
            host.apply(host.core.committed(outcome, trio.current_time()))
        for seat in self.seats:
            if seat.core.table_id == table and not seat.core.watch:
                seat.core.follows_log = True
                seat.apply(seat.core.committed(outcome))

    async def _follow(self, agreement: Agreement) -> None:
        """Host the table while the agreement elects this node, and only then."""
        while not agreement.closed:
            lead = agreement.leadership()
            host = self.host
            hosting = (host is not None and host.stepped_down is None
                       and host.core.info.id == agreement.info.id)
            resigned = host is not None and host.core.phase == "resigned" and host.core.epoch == lead.term
            if lead.role == "leader" and lead.leader == self.me and resigned:
                agreement.resign()
            elif lead.role == "leader" and lead.leader == self.me:
                if not hosting or (host is not None and host.core.epoch != lead.term):
                    if hosting and host is not None:
                        self._step_down(host, lead.term, self.me)
                    self._take_over(agreement, lead.term)
            elif hosting and host is not None:
                self._step_down(host, lead.term, lead.leader or "")
            mine = [s for s in self.seats if s.core.table_id == agreement.info.id]
            if mine and all(s.left is not None for s in mine):
                await agreement.linger(max(self.timing.check, self.timing.seat_timeout))
                agreement.close()
                return
            await agreement.wait_changed(0.5)

    def _step_down(self, host: HostDriver, term: int, leader: str) -> None:
        log.warning("%s: no longer the host of table %r (term %d, host %s)", self.name, host.core.info.name,
                    term, leader[:8] or "unknown")
        host.apply(host.core.step_down(term, leader))
        for link in list(host.links.values()):
            link.close("superseded", "another node hosts the table now")

    def host_store(self) -> Store:
        self._host_store = Store(self.host_store_path)
        return self._host_store

    def stop_reason(self) -> str:
        """Why this node stops for its own fault (a store that failed), or ""."""
        host = self._host_store
        return self.store.failure or (host.failure if host is not None else "")

    def _take_over(self, agreement: Agreement, term: int) -> HostDriver | None:
        """Host the agreement's table at ``term``: the roster this node's seat holds, the score
        sheet of every outcome in this node's log (a leader's log holds every committed one)."""
        seat = next((s.core for s in self.seats if s.core.table_id == agreement.info.id and not s.core.watch
                     and s.core.me == self.me), None)
        if seat is None or seat.info is None or seat.game is None:
            return None
        game = seat.game
        sheet = Sheet(game.new_table())
        store = self.host_store()
        for outcome in agreement.log_outcomes():  # read from the store a batch at a time
            store.save_outcome(seat.info.id, *outcome.row())
            if outcome.record is None:
                sheet.void.add(outcome.deal)
                continue
            try:
                finished = game.check(outcome.record)
            except CheckFailed:
                sheet.void.add(outcome.deal)
                continue
            sheet.count(finished)
        core = HostCore(game, seat.info, self.me, store, now=trio.current_time(), identity=self.identity,
                        epoch=term, roster=list(seat.roster), sheet=sheet, takeover=True,
                        last_deal=max(seat.deal, sheet.done), timing=self.timing, bot_for=self.bot_for,
                        reachable=agreement.reachable)
        log.info("%s hosts table %r at epoch %d", self.name, seat.info.name, term)
        return self.start_hosting(core)


class Waiting:
    """A node waiting to be invited to a table (``tarock bot`` without a table)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.invitation: Invitation | None = None
        self.event = trio.Event()


class SeatDriver:
    """Plays one seat: connects to the host, resumes after a drop, follows the succession."""

    def __init__(self, node: Node, core: SeatCore, player: Player | None, listener: Listener, *,
                 threaded: bool = False, bot_for: Callable[[int], Policy] | None = None,
                 me: str | None = None, name: str | None = None) -> None:
        self.node = node
        self.core = core
        self.player = player
        self.listener = listener
        self.threaded = threaded
        self.bot_for = bot_for
        core.shows = threaded  # a person's screen shows every view; a bot decodes those it acts on
        self.me = me or node.me
        self.name = name or node.name
        self.channel: Channel | None = None
        self.link: Link | None = None
        self.left: Leave | None = None
        self.refusal: Refuse | None = None
        self.host_address: PeerAddress | None = None
        self.decided: set[tuple[int, int]] = set()
        """(deal, index) of the questions this seat's player was asked (of this deal and the last)."""
        self._deal = 0
        self.stats = Stats()
        self._asked: dict[tuple[int, int], float] = {}
        self._nursery: trio.Nursery | None = None
        self._decisions: trio.Nursery | None = None
        """Where the player's decisions run: the whole seat, so a dropped connection does not lose
        a question on the screen (the answer is sent, or queued for the resumed session)."""
        if bot_for is not None and node.bot_for is None:
            node.bot_for = bot_for

    # -- effects -------------------------------------------------------------------------
    def apply(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, ToHost):
                self._to_host(effect.body)
            elif isinstance(effect, Decide):
                self._decide(effect)
            elif isinstance(effect, Show):
                self._show(effect.event)
            elif isinstance(effect, Leave):
                self.left = effect
                if self.link is not None:
                    self.link.close("done" if effect.code == "done" else "leaving", effect.reason)
            elif isinstance(effect, Drop):
                log.warning("%s: closing the connection to the host: %s", self.name, effect.reason)
                if self.link is not None:
                    self.link.close(effect.code, effect.reason)
            elif isinstance(effect, Note):
                log.info("%s: %s", self.name, effect.text)
        info = self.core.info
        if info is not None and info.id not in self.node.agreements and len(self.core.roster) == info.seats:
            self.node.join_agreement(self.core)

    def _measure(self, msg: object) -> None:
        """Round trips of this seat's actions (sent to back in the log) and the first card."""
        if not isinstance(msg, Signed) or not isinstance(msg.body, dict) or msg.body.get("t") != Act.tag:
            return
        index = msg.body.get("index")
        action = msg.body.get("action")
        if not isinstance(index, int):
            return
        sent = self._asked.pop((msg.deal, index), None) if msg.author == self.me else None
        if sent is not None:
            self.stats.rtt.append(time.perf_counter() - sent)
            self.stats.actions += 1
        if self.stats.first_card is None and isinstance(action, dict) and action.get("type") == "play":
            self.stats.first_card = time.time()
            self._show(FirstCard(msg.deal, index))

    def _show(self, event: Shown) -> None:
        if isinstance(event, HandOver):
            self.stats.hands += 1
        try:
            self.listener(event)
        except Exception:  # the screen must never stop the table
            log.exception("%s: the listener failed", self.name)

    def _new_deal(self, deal: int) -> None:
        """A later deal began: forget what this seat decided and asked in deals before the last
        one (their answers no longer matter), so these sets stay the size of a deal or two."""
        self._deal = deal
        self.decided = {k for k in self.decided if k[0] >= deal - 1}
        self._asked = {k: t for k, t in self._asked.items() if k[0] >= deal - 1}

    def _to_host(self, body: Signed) -> None:
        inner = body.body
        if isinstance(inner, dict) and inner.get("t") == Act.tag and isinstance(inner.get("index"), int):
            if body.deal > self._deal:
                self._new_deal(body.deal)
            self._asked[(body.deal, int(inner["index"]))] = time.perf_counter()
        if self.channel is None:
            return
        if self.link is not None and not self.link.conn.closed and self.link.conn.channel is self.channel:
            self.link.conn.send_body(dump(body), trio.current_time())
            self.link.push()
            return
        try:
            self.channel.wrap(dump(body))  # resent after the next welcome that resumes the session
        except QueueFull:
            self.channel = None

    def _decide(self, effect: Decide) -> None:
        key = (effect.deal, effect.index)
        if key in self.decided or self.player is None or self._nursery is None:
            return
        if effect.deal > self._deal:
            self._new_deal(effect.deal)
        self.decided.add(key)
        (self._decisions or self._nursery).start_soon(self._await_decision, effect)

    async def _await_decision(self, effect: Decide) -> None:
        player = self.player
        assert player is not None
        try:
            action = await player.decide(effect.obs)
        except Exception as exc:
            self.left = Leave("leaving", f"the player left: {exc}")
            if self.link is not None:
                self.link.close("leaving", "the player left the table")
            return
        self.apply(self.core.decided(effect.deal, effect.index, action))

    # -- one connection ------------------------------------------------------------------
    async def session(self, address: PeerAddress) -> str:
        """Connect, shake hands and play until the connection ends.

        Returns ``unreachable``, ``refused`` (see :attr:`refusal`), ``silent``
        (no answer to the hello) or ``ended`` (a session ran and is over).
        """
        try:
            stream = await self.node.open(address)
        except (ConnectError, OSError) as exc:
            log.debug("%s: %s", self.name, exc)
            return "unreachable"
        link = Link(stream, "client", self.node.timing, f"{self.name} to {address}",
                    stop_reason=self.node.stop_reason)
        role = "watch" if self.core.watch else "seat"
        pin = self.node.pin
        pake = Pake(self.core.table_id, pin, "client") if pin and self.core.table_id else None
        link.conn.hello(self.node.hello(role, self.core, self.channel, self.me, self.name, pake),
                        trio.current_time(), self.channel, self.core.identity, pake)
        await link.flush()
        event = await link.handshake(self.node.timing.handshake)
        if isinstance(event, HelloRefused):
            self.refusal = event.refuse
            await trio.aclose_forcefully(stream)
            return "refused"
        if isinstance(event, Closed) and event.code in ("pin", "identity"):
            self.refusal = Refuse("pin" if event.code == "pin" else "identity", event.reason, "", 0)
            await trio.aclose_forcefully(stream)
            return "refused"
        if not isinstance(event, Welcomed):
            await trio.aclose_forcefully(stream)
            return "silent"
        welcome = event.welcome
        if welcome.epoch < self.core.epoch:
            await trio.aclose_forcefully(stream)
            self.refusal = Refuse("stale-epoch", f"{address} answers for the old epoch {welcome.epoch}",
                                  "", welcome.epoch)
            return "refused"
        self.channel = link.conn.channel
        self.host_address = address
        self.link = link
        self.refusal = None
        self.apply(self.core.welcomed(welcome, link.conn.peer_key))

        async def on_event(ev: Event) -> None:
            if isinstance(ev, BodyReceived):
                try:
                    msg = parse(ev.body, "body")
                except MessageError as exc:
                    link.close("protocol", f"bad body: {exc}")
                    return
                self._measure(msg)
                self.apply(self.core.receive(msg))
            link.conn.flush_ack(trio.current_time())

        host_node = self.node.me if address is LOCAL else welcome.node

        async def follow_leader() -> None:
            """Leave a host the table's agreement no longer names (the seat then joins the new one)."""
            while True:
                agreement = self.node.agreements.get(self.core.table_id)
                if agreement is None:
                    await trio.sleep(0.5)
                    continue
                lead = agreement.leadership()
                if lead.leader is not None and lead.leader != host_node:
                    link.close("superseded", "another node hosts the table now")
                    return
                await agreement.wait_changed(1.0)

        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                if not self.core.watch:
                    nursery.start_soon(follow_leader)
                closed: Closed = await link.run(on_event)
                nursery.cancel_scope.cancel()
        finally:
            self._nursery = None
            self.link = None
            self.stats.frames += link.conn.frames_in + link.conn.frames_out
            self.stats.bytes += link.conn.bytes_in + link.conn.bytes_out
        log.info("%s: connection to the host ended: %s (%s)", self.name, closed.reason, closed.code)
        if closed.code in FAULTS and not closed.by_peer:
            drop(f"the host at {address}", closed.code, closed.reason)
        return "ended"

    # -- the whole seat ------------------------------------------------------------------
    async def run(self, first: PeerAddress | None) -> Leave:
        """Play the seat until the table is over (or the seat cannot go on)."""
        async with trio.open_nursery() as decisions:
            self._decisions = decisions
            try:
                return await self._run(first)
            finally:
                self._decisions = None
                decisions.cancel_scope.cancel()

    async def _run(self, first: PeerAddress | None) -> Leave:
        outcome = await self.session(first) if first is not None else "unreachable"
        started = trio.current_time()
        while True:
            if self.left is not None:
                return self.left
            if outcome == "refused" and self.refusal is not None and self.refusal.code not in (
                    "not-host", "stale-epoch", "busy", "identity"):
                return Leave(self.refusal.code, self.refusal.message)
            if outcome == "ended":
                started = trio.current_time()
            if trio.current_time() - started > GIVE_UP:
                return Leave("lost", f"no host found for {GIVE_UP:g} s")
            if self.core.info is None and self.core.roster == ():
                if first is None or trio.current_time() - started > self.node.timing.host_grace * 3:
                    why = self.refusal.message if self.refusal is not None else "no answer"
                    return Leave("unreachable", f"could not join the table at {first}: {why}")
                await trio.sleep(0.3)
                outcome = await self.session(first)
                continue
            outcome = await self.recover(first)

    def _addresses(self, seat: SeatInfo) -> list[PeerAddress]:
        """Where ``seat``'s node may be reached, in the order to try."""
        if seat.node == self.node.me and self.node.host is not None and self.node.host.stepped_down is None:
            return [LOCAL]
        return seat_addresses(seat)

    def _address(self, seat: SeatInfo) -> PeerAddress | None:
        found = self._addresses(seat)
        return found[0] if found else None

    async def _session_at(self, seat: SeatInfo) -> str:
        """A session with ``seat``'s node, trying each of its addresses until one answers."""
        outcome = "unreachable"
        for address in self._addresses(seat):
            outcome = await self.session(address)
            if outcome != "unreachable":
                return outcome
        return outcome

    async def recover(self, first: PeerAddress | None) -> str:
        """The connection to the host ended: join the host the table's agreement elects (or,
        before the table is full and for a watcher, find who hosts it)."""
        agreement = self.node.agreements.get(self.core.table_id) or self.node.join_agreement(self.core)
        if agreement is None:
            return await self._find_host(first)
        lead = agreement.leadership()
        if lead.leader == self.node.me:
            host = self.node.host
            if host is not None and host.stepped_down is None and host.core.epoch == lead.term \
                    and host.core.info.id == self.core.table_id:
                return await self.session(LOCAL)
        elif lead.leader is not None:
            outcome = "unreachable"
            for address in agreement.addresses(lead.leader):
                outcome = await self.session(address)
                if outcome == "ended" or self.left is not None:
                    return outcome
                if outcome != "unreachable":
                    break
            if outcome == "refused":
                await trio.sleep(0.1)  # it has not taken up hosting yet
                return outcome
        await agreement.wait_changed(0.5)
        return "unreachable"

    async def _find_host(self, first: PeerAddress | None) -> str:
        """Without an agreement: the host again, then each node of the roster (a node that does
        not host names the one it follows)."""
        again = self.host_address or first
        if again is not None and again is not LOCAL:
            outcome = await self.session(again)
            if outcome == "ended" or self.left is not None:
                return outcome
        named = self.refusal.host if self.refusal is not None else ""
        candidates = sorted((s for s in self.core.roster if not s.local), key=lambda s: s.node != named)
        for cand in candidates:
            if cand.node == self.node.me:
                continue
            outcome = await self._session_at(cand)
            if outcome == "ended" or self.left is not None:
                return outcome
        await trio.sleep(0.3)
        return "unreachable"


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


def percentile(values: Collection[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank method; nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def default_state_dir() -> Path:
    import platformdirs

    return Path(os.environ.get("TAROCK_STATE") or platformdirs.user_state_dir("tarock"))
