"""Who hosts a table: this node while the table's host agreement elects it, and only then.

Once a table is full its nodes agree on the host by Raft
(:class:`~net.agreement.driver.Agreement`): the node the agreement elects hosts
the table at the term it was elected in (:meth:`Succession.take_over`, with the
score sheet of every outcome in its log), a node that loses the leadership stops
hosting, and what the log commits counts at the host and at every seat of this
node (docs/protocol.md, "Host agreement").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import trio

from tarock.core.players import Policy
from tarock.net.agreement.driver import Agreement
from tarock.net.agreement.outcome import Outcome
from tarock.net.host import HostCore
from tarock.net.host_ledger import sheet_of
from tarock.net.hosting import HostDriver
from tarock.net.identity import Identity
from tarock.net.protocol.limits import Timing
from tarock.net.seat import SeatCore
from tarock.net.seat_driver import SeatDriver
from tarock.net.store import Store
from tarock.net.transport import PeerAddress

log = logging.getLogger("tarock.net")


class Home(Protocol):
    """What the succession needs of its node (:class:`net.node.Node`)."""

    me: str
    name: str
    identity: Identity
    store: Store
    timing: Timing
    pin: str | None
    addresses: tuple[str, ...]
    port: int
    lost: str
    bot_for: Callable[[int], Policy] | None
    seats: list[SeatDriver]
    nursery: trio.Nursery | None
    lookup: Callable[[str], list[PeerAddress]] | None

    async def open(self, address: PeerAddress) -> trio.abc.Stream: ...


class Succession:
    """The host agreements of the tables a node sits at, and the table it hosts."""

    def __init__(self, node: Home, host_store_path: Path) -> None:
        self.node = node
        self.host_store_path = host_store_path
        self._host_store: Store | None = None
        self.host: HostDriver | None = None
        self.hosting_changed = trio.Event()
        self.agreements: dict[str, Agreement] = {}
        """The host agreement of each table this node sits at (from the moment the table is full)."""
        self.agreement_joined = trio.Event()
        """Set (and replaced) whenever an agreement joins :attr:`agreements`."""

    # -- hosting -------------------------------------------------------------------------
    def start_hosting(self, core: HostCore) -> HostDriver:
        node = self.node
        assert node.nursery is not None
        driver = HostDriver(core, node.name, identity=node.identity, pin=node.pin)
        self.host = driver
        agreement = self.agreements.get(core.info.id)
        if agreement is not None:
            self._attach(driver, agreement)
        else:
            driver.propose = lambda _outcome: False  # nothing counts before the agreement runs
        node.nursery.start_soon(driver.timers)
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
        node = self.node
        info = core.info
        if info is None or core.watch or core.me != node.me or len(core.roster) < info.seats:
            return None
        found = self.agreements.get(info.id)
        if found is not None:
            return found
        if node.nursery is None:
            return None
        agreement = Agreement(me=node.me, name=node.name, identity=node.identity, info=info,
                              roster=core.roster,
                              store=node.store, timing=node.timing, open_stream=node.open,
                              port=lambda: node.port, addresses=node.addresses, pin=node.pin,
                              lookup=self._lookup, first_host=core.table.host, first_term=max(1, core.epoch),
                              lost=bool(node.lost))
        self.agreements[info.id] = agreement
        self.agreement_joined.set()
        self.agreement_joined = trio.Event()
        agreement.applied.append(lambda _index, outcome: self._committed(info.id, outcome))
        for seat in node.seats:
            if seat.core.table_id == info.id and not seat.core.watch:
                seat.core.follows_log = True
        node.nursery.start_soon(agreement.run)
        node.nursery.start_soon(self._follow, agreement)
        host = self.host
        if host is not None and host.core.info.id == info.id and host.stepped_down is None:
            self._attach(host, agreement)
        return agreement

    def _lookup(self, node: str) -> list[PeerAddress]:
        return self.node.lookup(node) if self.node.lookup is not None else []

    def _committed(self, table: str, outcome: Outcome) -> None:
        """An outcome the table's log committed: the host (if this node hosts) and every seat of
        this node count it."""
        host = self.host
        if host is not None and host.core.info.id == table and host.stepped_down is None:
            host.apply(host.core.committed(outcome, trio.current_time()))
        for seat in self.node.seats:
            if seat.core.table_id == table and not seat.core.watch:
                seat.core.follows_log = True
                seat.apply(seat.core.committed(outcome))

    async def _follow(self, agreement: Agreement) -> None:
        """Host the table while the agreement elects this node, and only then."""
        node = self.node
        while not agreement.closed:
            lead = agreement.leadership()
            host = self.host
            hosting = (host is not None and host.stepped_down is None
                       and host.core.info.id == agreement.info.id)
            resigned = host is not None and host.core.phase == "resigned" and host.core.epoch == lead.term
            if lead.role == "leader" and lead.leader == node.me and resigned:
                agreement.resign()
            elif lead.role == "leader" and lead.leader == node.me:
                if not hosting or (host is not None and host.core.epoch != lead.term):
                    if hosting and host is not None:
                        self._step_down(host, lead.term, node.me)
                    self._take_over(agreement, lead.term)
            elif hosting and host is not None:
                self._step_down(host, lead.term, lead.leader or "")
            mine = [s for s in node.seats if s.core.table_id == agreement.info.id]
            if mine and all(s.left is not None for s in mine):
                await agreement.linger(self.linger_timeout())
                agreement.close()
                return
            await agreement.wait_changed(0.5)

    def linger_timeout(self) -> float:
        """How long a leader whose seats left stays for the members still catching up."""
        timing = self.node.timing
        return max(timing.check, timing.seat_timeout)

    async def wind_down(self) -> None:
        """Before the node stops: wait until each table agreement has closed, that is, a table
        this node leads has let every member learn its last outcomes (:meth:`Agreement.linger`),
        at most :meth:`linger_timeout` and a moment.  Stopping at once would leave a member that
        lacked the last entry with no leader to learn it from, waiting for a host that is gone."""
        with trio.move_on_after(self.linger_timeout() + 1.0):
            while True:
                open_ = [a for a in self.agreements.values() if not a.closed]
                if not open_:
                    return
                await open_[0].wait_changed(0.5)

    def _step_down(self, host: HostDriver, term: int, leader: str) -> None:
        log.warning("%s: no longer the host of table %r (term %d, host %s)", self.node.name,
                    host.core.info.name, term, leader[:8] or "unknown")
        host.apply(host.core.step_down(term, leader))
        for link in list(host.links.values()):
            link.close("superseded", "another node hosts the table now")

    def host_store(self) -> Store:
        self._host_store = Store(self.host_store_path)
        return self._host_store

    def failure(self) -> str:
        """Why the host's store failed, or ""."""
        return self._host_store.failure if self._host_store is not None else ""

    def _take_over(self, agreement: Agreement, term: int) -> HostDriver | None:
        """Host the agreement's table at ``term``: the roster this node's seat holds, the score
        sheet of every outcome in this node's log (a leader's log holds every committed one)."""
        node = self.node
        seat = next((s.core for s in node.seats if s.core.table_id == agreement.info.id and not s.core.watch
                     and s.core.me == node.me), None)
        if seat is None or seat.info is None or seat.table.game is None:
            return None
        game = seat.table.game
        store = self.host_store()
        sheet = sheet_of(game, seat.info.id, agreement.log_outcomes(), store)
        core = HostCore(game, seat.info, node.me, store, now=trio.current_time(), identity=node.identity,
                        epoch=term, roster=list(seat.roster), sheet=sheet, takeover=True,
                        last_deal=max(seat.deal, sheet.done), timing=node.timing, bot_for=node.bot_for,
                        reachable=agreement.reachable)
        log.info("%s hosts table %r at epoch %d", node.name, seat.info.name, term)
        return self.start_hosting(core)
