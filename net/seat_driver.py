"""A seat's trio driver: connects to the host, carries out its core's effects, resumes after a
drop and follows the host the table's agreement elects."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

import trio

from tarock.core.players import Player, Policy
from tarock.net.admission import FAULTS, drop
from tarock.net.agreement.driver import Agreement, seat_addresses
from tarock.net.effects import Decide, Drop, Effect, HandOver, Leave, Note, Show, Shown, ToHost
from tarock.net.hosting import HostDriver
from tarock.net.link import Link
from tarock.net.local import LOCAL
from tarock.net.pake import Pake
from tarock.net.protocol.channel import Channel, QueueFull
from tarock.net.protocol.connection import Closed, HelloRefused, Welcomed
from tarock.net.protocol.limits import Timing
from tarock.net.protocol.messages import Hello, Refuse, SeatInfo, dump, parse_body
from tarock.net.seat import SeatCore
from tarock.net.seat_stats import Questions, Stats
from tarock.net.transport import ConnectError, PeerAddress

log = logging.getLogger("tarock.net")

GIVE_UP = 600.0
"""How long a seat looks for a host before it gives up."""
WATCH = 1.0
"""Longest wait of a seat's watch on the table's agreement before it looks again."""

Listener = Callable[[Shown], None]


class SeatHome(Protocol):
    """What a seat needs of the node it runs in (:class:`net.node.Node`)."""

    me: str
    name: str
    timing: Timing
    pin: str | None
    bot_for: Callable[[int], Policy] | None

    @property
    def agreements(self) -> dict[str, Agreement]: ...

    @property
    def agreement_joined(self) -> trio.Event: ...

    @property
    def host(self) -> HostDriver | None: ...

    def join_agreement(self, core: SeatCore) -> Agreement | None: ...

    async def open(self, address: PeerAddress) -> trio.abc.Stream: ...

    def stop_reason(self) -> str: ...

    def hello(self, role: str, core: SeatCore | None = None, channel: Channel | None = None,
              me: str | None = None, name: str | None = None, pake: Pake | None = None) -> Hello: ...


class SeatDriver:
    """Plays one seat: connects to the host, resumes after a drop, follows the succession."""

    def __init__(self, node: SeatHome, core: SeatCore, player: Player | None, listener: Listener, *,
                 shows_all: bool = False, bot_for: Callable[[int], Policy] | None = None,
                 me: str | None = None, name: str | None = None) -> None:
        self.node = node
        self.core = core
        self.player = player
        self.listener = listener
        core.hand.shows = shows_all  # a person's screen shows every view; a bot decodes those it acts on
        self.me = me or node.me
        self.name = name or node.name
        self.channel: Channel | None = None
        self.link: Link | None = None
        self.left: Leave | None = None
        self.refusal: Refuse | None = None
        self.host_address: PeerAddress | None = None
        self.stats = Stats()
        self.questions = Questions(self.me, self.stats)
        self._nursery: trio.Nursery | None = None
        self._decisions: trio.Nursery | None = None
        """Where a person's decisions run: the whole seat, so a dropped connection does not lose
        a question on the screen (the answer is sent, or queued for the resumed session)."""
        if bot_for is not None and node.bot_for is None:
            node.bot_for = bot_for

    # -- effects -------------------------------------------------------------------------
    def apply(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, ToHost):
                body = effect.body
                self.questions.sent(body)
                if self.channel is None:
                    continue
                link = self.link
                if link is not None and not link.conn.closed and link.conn.channel is self.channel:
                    if link.local is not None:
                        link.local.post(body)
                    else:
                        link.conn.send_body(body, trio.current_time())
                        link.push()
                    continue
                try:
                    self.channel.wrap(dump(body))  # resent after the next welcome that resumes the session
                except QueueFull:
                    self.channel = None
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

    def _show(self, event: Shown) -> None:
        if isinstance(event, HandOver):
            self.stats.hands += 1
        try:
            self.listener(event)
        except Exception:  # the screen must never stop the table
            log.exception("%s: the listener failed", self.name)

    def _decide(self, effect: Decide) -> None:
        if self.player is None or self._nursery is None or not self.questions.ask(effect.deal, effect.index):
            return
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

    def _receive(self, msg: object, now: float) -> list[Effect]:
        """A body from the host: shown if it answers a question of this seat's, then the core's."""
        first = self.questions.back(msg)
        if first is not None:
            self._show(first)
        return self.core.receive(msg)

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
                        trio.current_time(), self.channel, self.core.identity, pake, bodies=parse_body)
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


        host_node = self.node.me if address is LOCAL else welcome.node

        async def follow_leader() -> None:
            """Leave a host the table's agreement no longer names (the seat then joins the new one)."""
            while True:
                joined = self.node.agreement_joined  # taken before the look, so no join is missed
                agreement = self.node.agreements.get(self.core.table_id)
                if agreement is None:
                    with trio.move_on_after(WATCH):
                        await joined.wait()
                    continue
                lead = agreement.leadership()
                if lead.leader is not None and lead.leader != host_node:
                    link.close("superseded", "another node hosts the table now")
                    return
                await agreement.wait_changed(WATCH)

        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                if not self.core.watch:
                    nursery.start_soon(follow_leader)
                closed: Closed = await link.run(receive=self._receive, apply=self.apply)
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
