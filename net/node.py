"""A node: the trio program around the sans-IO cores.

Every node listens (for seats when it hosts, for invitations while it waits,
for ``info`` questions always), plays one or more seats (:class:`SeatDriver`)
and may host a table (:class:`~net.hosting.HostDriver`).  A seat that loses
its host tries it again for ``Timing.host_grace`` seconds, then goes through
the succession (the roster in seat order after the host): the first node in
it that answers is the new host, and a node that finds itself first takes
over (docs/protocol.md, "Host loss").  Every wait has a timeout.
"""

from __future__ import annotations

import logging
import math
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from core.actions import Action
from core.observation import Observation
from core.players import Player
from core.plugins import Catalogue
from net.effects import Decide, Drop, Effect, FirstCard, HandOver, Leave, Note, Show, Shown, ToHost
from net.game import Game, Sheet
from net.host import HostCore
from net.hosting import HostDriver
from net.link import Link, read_hello
from net.local import local_pair
from net.protocol.channel import Channel, QueueFull
from net.protocol.connection import BodyReceived, Closed, Event, HelloRefused, InfoReceived, Welcomed
from net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN, Timing
from net.protocol.messages import (
    Body,
    Hello,
    Info,
    MessageError,
    Refuse,
    SeatInfo,
    View,
    Welcome,
    dump,
    parse,
)
from net.seat import SeatCore
from net.store import Store
from net.transport import ConnectError, PeerAddress, Transport

log = logging.getLogger("tarock.net")

LOCAL = PeerAddress("127.0.0.1", 0)
"""The node itself, reached through an in-process stream (never through the network)."""

GIVE_UP = 600.0
"""How long a seat looks for a host before it gives up."""

Listener = Callable[[Shown], None]


def local_node_id(host: str, index: int) -> str:
    """The node id of a bot of ``tarock host --bots`` (it lives in the host's process)."""
    import hashlib

    return hashlib.sha256(f"{host}/bot/{index}".encode()).hexdigest()[:32]


@dataclass
class Stats:
    """What a seat measured: round trips of its actions, messages and bytes."""

    rtt: list[float] = field(default_factory=list)
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
                 addresses: tuple[str, ...] = ()) -> None:
        self.name = name
        self.catalogue = catalogue
        self.transport = transport
        self.timing = timing or Timing()
        self.records_dir = records_dir
        self.store = Store(state_dir / f"{_file_name(name)}.sqlite")
        self.host_store_path = state_dir / f"{_file_name(name)}.host.sqlite"
        self.me = self.store.node_id()
        self.boot = secrets.token_hex(8)
        self.addresses = addresses
        self.port = 0
        self.host: HostDriver | None = None
        self.seats: list[SeatDriver] = []
        self.nursery: trio.Nursery | None = None
        self.waiting: Waiting | None = None
        self.hosting_changed = trio.Event()

    # -- listening -----------------------------------------------------------------------
    async def serve(self, *, task_status: trio.TaskStatus[PeerAddress] = trio.TASK_STATUS_IGNORED) -> None:
        async def handler(stream: trio.abc.Stream) -> None:
            await self.handle(stream, _peer_ip(stream))

        async with trio.open_nursery() as nursery:
            bound = await nursery.start(self.transport.serve, handler)
            self.port = bound.port
            task_status.started(bound)

    async def handle(self, stream: trio.abc.Stream, peer_ip: str | None) -> None:
        """Serve one connection that a peer (or this node itself) opened."""
        link = Link(stream, "server", self.timing, f"from {peer_ip or 'this node'}")
        hello = await read_hello(link, self.timing.handshake)
        if hello is None:
            await link.flush()
            return
        if hello.role == "info":
            link.conn.info(self.info())
            await link.flush()
            return
        if hello.role == "invite":
            await self._on_invite(link, hello, peer_ip)
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
                        dict(i.options), i.rules, i.rounds, 0, seat.epoch, seat.host, self.port, self.boot)
        w = self.waiting
        variant, options, rules, rounds = (w.game.variant, w.game.options, w.game.hash, w.game.rounds) \
            if w is not None else ("", {}, "", 0)
        return Info(PROTOCOL_MIN, PROTOCOL_MAX, self.me, self.name, "waiting", "", "", variant, options,
                    rules, rounds, 0, 0, "", self.port, self.boot)

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
        link = Link(stream, "client", self.timing, f"to {address}")
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
        link = Link(stream, "client", self.timing, f"to {address}")
        try:
            hello = Hello(PROTOCOL_MIN, PROTOCOL_MAX, self.me, self.name, "invite", info.id, info.rules, "",
                          0, 1, 0, 0, self.port, self.addresses)
            link.conn.hello(hello, trio.current_time())
            await link.flush()
            event = await link.handshake(self.timing.handshake)
        finally:
            await trio.aclose_forcefully(stream)
        return isinstance(event, Welcomed)

    def hello(self, role: str, core: SeatCore | None = None, channel: Channel | None = None,
              me: str | None = None, name: str | None = None) -> Hello:
        return Hello(PROTOCOL_MIN, PROTOCOL_MAX, me or self.me, name or self.name, role,  # type: ignore[arg-type]
                     core.table_id if core else "", core.rules if core else "",
                     channel.session if channel else "", channel.received if channel else 0,
                     core.epoch if core else 0, core.deal if core else 0, core.done if core else 0,
                     self.port, self.addresses)

    # -- hosting -------------------------------------------------------------------------
    def start_hosting(self, core: HostCore) -> HostDriver:
        assert self.nursery is not None
        driver = HostDriver(core, self.name, self._ask_seat)
        self.host = driver
        self.nursery.start_soon(driver.timers)
        self.nursery.start_soon(driver.probe)
        self.hosting_changed.set()
        self.hosting_changed = trio.Event()
        return driver

    async def _ask_seat(self, seat: SeatInfo) -> Info | None:
        """The info of a seat's node, trying its addresses; None if none answers."""
        for host in seat.addresses:
            try:
                return await self.ask_info(PeerAddress(host, seat.port))
            except (ConnectError, OSError, ValueError):
                continue
        return None

    def host_store(self) -> Store:
        return Store(self.host_store_path)

    def take_over(self, seat: SeatCore, bot_for: Callable[[int], Player]) -> HostDriver:
        """Become the host of ``seat``'s table at the next epoch (the previous host was lost)."""
        assert seat.info is not None and seat.game is not None and seat.sheet is not None
        sheet = Sheet(seat.game.new_table())
        for deal in sorted(seat.sheet.finished):
            sheet.finished[deal] = seat.sheet.finished[deal]
            seat.game.sheet_add(sheet.table, seat.sheet.finished[deal])
        sheet.void = set(seat.sheet.void)
        roster = list(seat.roster)
        store = self.host_store()
        for deal, record, reason, culprit in seat.store.outcomes(seat.info.id):
            store.save_outcome(seat.info.id, deal, record, reason, culprit)
        core = HostCore(seat.game, seat.info, self.me, store, now=trio.current_time(),
                        epoch=seat.epoch + 1, roster=roster, sheet=sheet, takeover=True,
                        last_deal=seat.deal, timing=self.timing, bot_for=bot_for)
        log.info("%s takes over table %r at epoch %d", self.name, seat.info.name, core.epoch)
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
                 threaded: bool = False, bot_for: Callable[[int], Player] | None = None,
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
        self.stats = Stats()
        self._asked: dict[tuple[int, int], float] = {}
        self._nursery: trio.Nursery | None = None

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

    def _measure(self, msg: Body) -> None:
        """Round trips of this seat's actions and the first card, from the raw views."""
        if not isinstance(msg, View) or not isinstance(msg.obs, dict):
            return
        history = msg.obs.get("history")
        if not isinstance(history, list) or not history:
            return
        sent = self._asked.pop((msg.deal, len(history) - 1), None)
        if sent is not None:
            self.stats.rtt.append(time.perf_counter() - sent)
        last = history[-1]
        if self.stats.first_card is None and isinstance(last, dict) and last.get("type") == "play":
            self.stats.first_card = time.time()
            self._show(FirstCard(msg.deal, len(history) - 1))

    def _show(self, event: Shown) -> None:
        if isinstance(event, HandOver):
            self.stats.hands += 1
        try:
            self.listener(event)
        except Exception:  # the screen must never stop the table
            log.exception("%s: the listener failed", self.name)

    def _to_host(self, body: Body) -> None:
        from net.protocol.messages import Act

        if isinstance(body, Act):
            self._asked[(body.deal, body.index)] = time.perf_counter()
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
        self.decided.add(key)
        if not self.threaded:
            action = self.player.decide(effect.obs)
            self.apply(self.core.decided(effect.deal, effect.index, action))
            return
        self._nursery.start_soon(self._decide_in_thread, effect)

    async def _decide_in_thread(self, effect: Decide) -> None:
        player = self.player
        assert player is not None

        def ask(obs: Observation) -> Action:
            return player.decide(obs)

        try:
            action = await trio.to_thread.run_sync(ask, effect.obs, abandon_on_cancel=True)
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
        link = Link(stream, "client", self.node.timing, f"{self.name} to {address}")
        role = "watch" if self.core.watch else "seat"
        link.conn.hello(self.node.hello(role, self.core, self.channel, self.me, self.name),
                        trio.current_time(), self.channel)
        await link.flush()
        event = await link.handshake(self.node.timing.handshake)
        if isinstance(event, HelloRefused):
            self.refusal = event.refuse
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
        self.apply(self.core.welcomed(welcome))

        async def on_event(ev: Event) -> None:
            if isinstance(ev, BodyReceived):
                try:
                    msg = parse(ev.body, "body")
                except MessageError as exc:
                    link.close("protocol", f"bad body: {exc}")
                    return
                assert isinstance(msg, Body)
                self._measure(msg)
                self.apply(self.core.receive(msg))
            link.conn.flush_ack(trio.current_time())

        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                closed: Closed = await link.run(on_event)
                nursery.cancel_scope.cancel()
        finally:
            self._nursery = None
            self.link = None
            self.stats.frames += link.conn.frames_in + link.conn.frames_out
            self.stats.bytes += link.conn.bytes_in + link.conn.bytes_out
        log.info("%s: connection to the host ended: %s (%s)", self.name, closed.reason, closed.code)
        return "ended"

    # -- the whole seat ------------------------------------------------------------------
    async def run(self, first: PeerAddress | None) -> Leave:
        """Play the seat until the table is over (or the seat cannot go on)."""
        outcome = await self.session(first) if first is not None else "unreachable"
        started = trio.current_time()
        while True:
            if self.left is not None:
                return self.left
            if outcome == "refused" and self.refusal is not None and self.refusal.code not in (
                    "not-host", "stale-epoch", "busy"):
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
        out: list[PeerAddress] = []
        for host in seat.addresses:
            try:
                out.append(PeerAddress(host, seat.port))
            except ValueError:
                continue
        return out

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
        """The connection to the host ended: find the host again (docs/protocol.md, "Host loss")."""
        timing = self.node.timing
        if self.node.host is not None and self.node.host.core.info.id == self.core.table_id \
                and self.node.host.stepped_down is None:
            return await self.session(LOCAL)
        stepped = self.node.host.stepped_down if self.node.host is not None else None
        if stepped is not None and stepped.host and self.core.host == self.node.me:
            # This node hosted and stepped down: the newer host is the one to join.
            newer = next((s for s in self.core.roster if s.node == stepped.host), None)
            if newer is not None:
                outcome = await self._session_at(newer)
                if outcome == "ended" or self.left is not None:
                    return outcome
        host_seat = next((s for s in self.core.roster if s.node == self.core.host), None)
        again = self.host_address or first
        if again is LOCAL and stepped is not None:
            again = None
        if (again is None or again is LOCAL) and host_seat is not None:
            again = self._address(host_seat)  # a restarted node: the host's address from the roster
        deadline = trio.current_time() + timing.host_grace
        while again is not None and trio.current_time() < deadline:
            if again is not LOCAL and again is not self.host_address and host_seat is not None:
                outcome = await self._session_at(host_seat)
            else:
                outcome = await self.session(again)
            if outcome == "ended" or self.left is not None:
                return outcome
            if outcome == "refused" and self.refusal is not None and self.refusal.code == "stale-epoch":
                break
            await trio.sleep(0.2)
        # Succession: the first node after the host that answers is the host now.
        lost = self.core.host
        while True:
            candidates = [s for s in self.core.successors() if s.node != lost]
            if not candidates:
                return "unreachable"
            for cand in candidates:
                if cand.node == self.node.me:
                    if self.node.host is None or self.node.host.stepped_down is not None:
                        if self.bot_for is None:
                            return "unreachable"
                        self.node.take_over(self.core, self.bot_for)
                    return await self.session(LOCAL)
                outcome = await self._session_at(cand)
                if outcome == "ended" or self.left is not None:
                    return outcome
                if outcome == "refused":
                    refusal = self.refusal
                    if refusal is not None and refusal.host == lost and refusal.epoch >= self.core.epoch:
                        # It still follows the host this node lost: try the host again first.
                        return "refused"
                    # Alive but not (yet) the host: it takes over once it misses the host too.
                    await trio.sleep(0.3)
                    break
            else:
                await trio.sleep(0.3)


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


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank method; nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def default_state_dir() -> Path:
    import platformdirs

    return Path(os.environ.get("TAROCK_STATE") or platformdirs.user_state_dir("tarock"))
