"""The agreement's trio driver: ticks, peer links and the store around a :class:`~net.agreement.raft.Raft`.

One :class:`Agreement` per table a node sits at.  Every member (the table's nodes,
not the host's bots) keeps one outgoing ``peer`` connection to every other member and
sends its Raft messages on it; what arrives on any peer connection from a member is
stepped into the core.  After every change the driver takes the core's
:class:`~net.agreement.raft.Ready`: it persists the hard state and the entries, then
hands the committed outcomes to the node, then sends the messages (etcd-io/raft's
order: persist before send) on the member's links (:mod:`net.agreement.peers`).
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import trio

from tarock.net.agreement.messages import Envelope, HardState, Ready
from tarock.net.agreement.outcome import Outcome, outcome_of
from tarock.net.agreement.peers import Lookup, Open, Peers, Reach, seat_addresses
from tarock.net.agreement.persist import RaftStore
from tarock.net.agreement.raft import Raft
from tarock.net.agreement.wire import decode
from tarock.net.identity import Identity
from tarock.net.link import Link
from tarock.net.protocol.limits import Timing
from tarock.net.protocol.messages import Hello, SeatInfo, TableInfo
from tarock.net.store import Store, StoreError
from tarock.net.transport import PeerAddress

__all__ = ["BATCH", "Agreement", "Applied", "Leadership", "members_of", "seat_addresses"]

log = logging.getLogger("tarock.net")

BATCH: int = 1024 * 1024
"""The most bytes of log entries read from the store at once (:meth:`Agreement.log_outcomes`)."""

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
        self.me, self.name, self.info, self.timing = me, name, info, timing
        self.members = {m.node: m for m in members_of(roster)}
        if me not in self.members:
            raise ValueError("this node is no member of the table")
        reach = Reach(me, name, identity, info, timing, open_stream, port, tuple(addresses), pin, lookup)
        self.peers = Peers(reach, self.members, self.receive, self._state, lambda: store.failure)
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
        self.closed = False
        self._last = self.leadership()
        self._processing = False
        self._again = False
        self._save_failed = False

    # -- what the node asks ------------------------------------------------------------------------
    def leadership(self) -> Leadership:
        return Leadership(self.raft.term, self.raft.leader, self.raft.role)

    def leads(self) -> bool:
        return self.raft.role == "leader"

    def log_outcomes(self) -> Iterator[Outcome]:
        """Every outcome in this node's log, committed or not, in log order: read from the store
        a batch at a time (:data:`BATCH` bytes), never all at once."""
        index = 1
        while index <= self.raft.log.last:
            batch = self.raft.entries(index, self.raft.log.last + 1, BATCH)
            for entry in batch:
                found = outcome_of(entry.data)
                if found is not None:
                    yield found
            index += len(batch)

    def _state(self) -> tuple[int, str]:
        """The term and the leader this node's hellos and welcomes name."""
        return self.raft.term, self.raft.leader or ""

    def reachable(self) -> frozenset[str]:
        return self.raft.reachable()

    def propose(self, outcome: Outcome) -> bool:
        """Append ``outcome`` to the log (the leader only); True if it was appended."""
        if self.halted or self.raft.propose(outcome.data()) is None:
            return False
        self._process()
        return True

    def addresses(self, node: str) -> list[PeerAddress]:
        """Where ``node`` may be reached: what it said last, the roster's, discovery's."""
        return self.peers.addresses(node)

    async def serve(self, link: Link, hello: Hello, peer_ip: str | None) -> None:
        """(Server) a ``peer`` hello from a member: prove both keys, then read its messages."""
        await self.peers.serve(link, hello, peer_ip)

    async def wait_changed(self, timeout: float) -> None:
        with trio.move_on_after(timeout):
            await self.changed.wait()

    # -- the core ----------------------------------------------------------------------------------
    def receive(self, frm: str, raw: object) -> None:
        """A body from member ``frm`` (MessageError if it is no agreement message)."""
        msg = decode(raw)
        if self.halted:
            return
        self.raft.step(Envelope(frm, self.me, msg))
        self._process()

    @property
    def halted(self) -> bool:
        """Closed, or one of its saves failed: the core has handed over what it asked to store,
        and answers only from the store (Raft's rule: persist before acting on it), so a member
        whose save failed acts on nothing more, as if it had crashed. The node leaves with the
        store's one line; a store opened again starts a new :class:`Agreement`."""
        return self.closed or self._save_failed

    def _process(self) -> None:
        """Persist, apply, send: until the core has nothing more (applying an outcome may
        propose the next one, which is taken in the next round, not inside this one)."""
        if self.halted:
            return
        if self._processing:
            self._again = True
            return
        self._processing = True
        try:
            self._again = True
            while self._again:
                self._again = False
                self._round()
        except StoreError:
            self._save_failed = True
            raise
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
            self.peers.send(env.to, env.msg)
        now = self.leadership()
        if now != self._last:
            log.info("%s: table %r: term %d, %s (leader %s)", self.name, self.info.name, now.term, now.role,
                     (now.leader or "unknown")[:8])
            self._last = now
        self.changed.set()
        self.changed = trio.Event()

    # -- running -----------------------------------------------------------------------------------
    async def run(self) -> None:
        """Tick the core and keep a connection to every other member, until :meth:`close`."""
        async with trio.open_nursery() as nursery:
            self.peers.start(nursery)
            self._process()
            while not self.closed:
                await trio.sleep(self.timing.tick)
                if not self.halted:
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
                if all(self.raft.matched(p) >= self.raft.log.committed for p in self.raft.peers()):
                    await trio.sleep(3 * self.timing.beat)
                    return
                await self.wait_changed(0.2)

    def close(self) -> None:
        self.closed = True
        self.peers.close()
        self.changed.set()
        self.changed = trio.Event()
