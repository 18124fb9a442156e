"""The host's trio driver: sessions, connections and timers around a :class:`HostCore`."""

from __future__ import annotations

import dataclasses
import functools
import ipaddress
import logging
import secrets
from collections.abc import Callable

import trio

from tarock.core.players import BotSeat
from tarock.net.admission import FAULTS, Failures, drop
from tarock.net.agreement.outcome import Outcome
from tarock.net.effects import Decide, Drop, Effect, Note, Propose, Send, StepDown, TableDone
from tarock.net.host import HostCore
from tarock.net.host_seating import Reject
from tarock.net.identity import Identity
from tarock.net.link import Link
from tarock.net.pake import Pake
from tarock.net.protocol.channel import Channel, QueueFull
from tarock.net.protocol.connection import Authenticated, Closed, choose_version
from tarock.net.protocol.messages import Hello, Welcome, parse_body

log = logging.getLogger("tarock.net")


class HostDriver:
    """Runs one :class:`HostCore`: every connection of a seat or watcher goes through it."""

    def __init__(self, core: HostCore, name: str, *, identity: Identity | None = None,
                 pin: str | None = None) -> None:
        self.core = core
        self.name = name
        self.identity = identity or core.identity
        self.pin = pin
        self.failures = Failures()
        """Wrong PINs lately, per node and per address (a guesser gets a pause, nobody else)."""
        self.sessions: dict[str, Channel] = {}
        self.links: dict[str, Link] = {}
        self.finished = trio.Event()
        self.stepped_down: StepDown | None = None
        self.stepped = trio.Event()
        self.changed = trio.Event()
        self._wake = trio.Event()
        self.frames = 0
        self.bytes = 0
        self.propose: Callable[[Outcome], bool] | None = None
        """Appends an outcome to the table's log (the host agreement); None: a table of one node
        without one, where what this host proposes is committed at once."""
        self.unproposed: list[Outcome] = []
        self._nursery: trio.Nursery | None = None
        """Where the bots of the seats this host plays decide (open while :meth:`timers` runs)."""
        self._asked: list[Decide] = []
        """Questions to those bots before that nursery opened."""
        self._stand_ins: dict[int, BotSeat] = {}

    # -- effects -------------------------------------------------------------------------
    def apply(self, effects: list[Effect]) -> None:
        """Carry out the core's effects: a body goes to its node's connection (encoded and framed
        there, the writer woken), or to this node's own seat as it is."""
        proposed: list[Outcome] = []
        now = trio.current_time()
        for effect in effects:
            if isinstance(effect, Send):
                link = self.links.get(effect.to)
                if link is None or link.conn.closed:
                    continue
                if link.local is not None:
                    link.local.post(effect.body)
                    continue
                try:
                    link.conn.send_body(effect.body, now)
                except QueueFull:
                    log.warning("%s does not acknowledge: its session is dropped", effect.to[:8])
                    self.sessions.pop(effect.to, None)
                    link.close("protocol", "too many unacknowledged messages")
                link.push()
            elif isinstance(effect, Drop):
                link = self.links.get(effect.to)
                log.warning("closing the connection of %s: %s", effect.to[:8], effect.reason)
                if link is not None:
                    link.close(effect.code, effect.reason)
            elif isinstance(effect, Note):
                log.info("%s", effect.text)
            elif isinstance(effect, TableDone):
                self.finished.set()
            elif isinstance(effect, StepDown):
                self.stepped_down = effect
                self.stepped.set()
            elif isinstance(effect, Propose):
                proposed.append(effect.outcome)
            elif isinstance(effect, Decide):
                self._ask_stand_in(effect)
        self.unproposed += proposed
        self.retry_proposals()
        self._wake.set()
        self.changed.set()
        self.changed = trio.Event()

    def _ask_stand_in(self, effect: Decide) -> None:
        if self._nursery is None:
            self._asked.append(effect)
        else:
            self._nursery.start_soon(self._stand_in, effect)

    async def _stand_in(self, effect: Decide) -> None:
        """A bot of this node decides for an away seat, off the event loop."""
        seat = effect.obs.seat
        bot = self._stand_ins.get(seat)
        if bot is None or bot.policy is not self.core.seating.bot(seat):
            bot = self._stand_ins[seat] = BotSeat(self.core.seating.bot(seat))
        action = await bot.decide(effect.obs)
        if self.stepped_down is None and not self.finished.is_set():
            self.apply(self.core.stand_in_decided(effect.deal, effect.index, action, trio.current_time()))

    def retry_proposals(self) -> None:
        """Hand what the core proposed to the host agreement (kept while it cannot take it)."""
        while self.unproposed and self.stepped_down is None:
            outcome = self.unproposed.pop(0)
            if self.propose is None:
                self.apply(self.core.committed(outcome, trio.current_time()))
            elif not self.propose(outcome):
                self.unproposed.insert(0, outcome)
                return

    # -- timers ----------------------------------------------------------------------------
    async def timers(self) -> None:
        """Run the core's timeouts (away seats, checks, gathering), and its bots' decisions."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            for effect in self._asked:
                nursery.start_soon(self._stand_in, effect)
            self._asked.clear()
            try:
                await self._tick()
            finally:
                self._nursery = None
                nursery.cancel_scope.cancel()

    async def _tick(self) -> None:
        while not self.finished.is_set() and self.stepped_down is None:
            now = trio.current_time()
            deadline = self.core.next_deadline(now)
            self._wake = trio.Event()
            # At least a moment between two ticks, so that a deadline the core cannot act on yet
            # is never a busy loop.
            at = max(deadline if deadline is not None else now + 1.0, now + 0.01)
            with trio.move_on_at(at):
                await self._wake.wait()
            self.retry_proposals()
            self.apply(self.core.tick(trio.current_time()))

    # -- connections -----------------------------------------------------------------------
    async def handle(self, link: Link, hello: Hello, peer_ip: str | None) -> None:
        core = self.core
        if not await self._authenticate(link, hello, peer_ip or "this node") or link.conn.closed:
            await link.flush()
            return
        verdict = core.admit(hello if peer_ip is None else _with_address(hello, peer_ip))
        if isinstance(verdict, Reject):
            log.info("refused %s (%s): %s", hello.name, hello.node[:8], verdict.message)
            link.conn.refuse(verdict.code, verdict.message, verdict.host, verdict.epoch)
            await link.flush()
            if core.stale:
                self.apply(core.step_down(hello.epoch, ""))
            return
        node = hello.node
        version = choose_version(hello.proto_min, hello.proto_max)
        assert version is not None  # the connection refused other ranges already
        channel = self.sessions.get(node)
        # This node's own seat always starts afresh (and is sent the hand so far): what was
        # posted to it in-process is in no session's channel, so none could be resent.
        resumed = channel is not None and hello.session == channel.session and link.local is None
        if not resumed or channel is None:
            channel = Channel(secrets.token_hex(16))
            self.sessions[node] = channel
        info = core.info
        welcome = Welcome(version, core.me, self.name, info.id, info.rules, core.epoch, core.me,
                          channel.session, channel.received, resumed, verdict.seat, core.sheet.done)
        link.conn.accept(welcome, channel, trio.current_time(), parse_body)
        if resumed:
            link.conn.resend(hello.received, trio.current_time())
        old = self.links.get(node)
        if old is not None:
            old.close("superseded", "the node connected again")
        self.links[node] = link
        log.info("%s (%s) %s as %s", hello.name, node[:8], "resumed" if resumed else "connected",
                 "watcher" if verdict.seat is None else f"seat {verdict.seat}")
        self.apply(core.connected(node, hello, trio.current_time()))
        try:
            closed = await link.run(receive=functools.partial(core.receive, node), apply=self.apply)
            log.info("%s (%s) left: %s (%s)", hello.name, node[:8], closed.reason, closed.code)
            if closed.code in FAULTS and not closed.by_peer:
                drop(link.peer, closed.code, closed.reason)
        finally:
            self.frames += link.conn.frames_in + link.conn.frames_out
            self.bytes += link.conn.bytes_in + link.conn.bytes_out
            if self.links.get(node) is link:
                del self.links[node]
                self.apply(core.disconnected(node, trio.current_time()))

    async def _authenticate(self, link: Link, hello: Hello, address: str) -> bool:
        """The challenge (and for a table with a PIN, SPAKE2): True once the client proved
        its key and the PIN.  Wrong PINs pause only the node (or address) that typed them."""
        core = self.core
        now = trio.current_time()
        pake = None
        if link.conn.closed:
            return False  # the peer left between its hello and our answer
        if core.info.private:
            if not hello.pake:
                link.conn.refuse("pin", f"table {core.info.name!r} is private: join it with its PIN (--pin)")
                return False
            paused = self.failures.paused(hello.node, address, now)
            if paused:
                drop(link.peer, "pin", f"refused: {paused}")
                link.conn.refuse("pin", paused)
                return False
            pake = Pake(core.info.id, self.pin or "", "server")
        link.conn.challenge(self.identity, pake, now)
        await link.flush()
        event = await link.handshake(core.timing.handshake)
        if isinstance(event, Authenticated):
            if pake is not None:
                self.failures.succeeded(hello.node)
            return True
        if pake is not None:  # a challenge out is a guess tried (its confirm tests one PIN)
            self.failures.failed(hello.node, address, trio.current_time())
        if isinstance(event, Closed):
            if event.code in FAULTS and not event.by_peer:
                drop(link.peer, event.code, f"did not authenticate: {event.reason}")
            else:
                log.info("%s (%s) did not authenticate: %s", hello.name, hello.node[:8], event.reason)
        return False

    async def close_all(self, code: str, reason: str) -> None:
        for link in list(self.links.values()):
            link.close(code, reason)


def _with_address(hello: Hello, ip: str) -> Hello:
    """The hello with the address its connection came from added after the ones the node
    names (a node may not know its own; behind a proxy or NAT the peer address is not
    the node's).  A loopback peer address is added only when the node names none."""
    if ip in hello.addresses or (hello.addresses and _loopback(ip)):
        return hello
    return dataclasses.replace(hello, addresses=(*hello.addresses, ip)[:8])


def _loopback(ip: str) -> bool:
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:
        return False
