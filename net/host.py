"""The host's side of a table, sans-IO: seating, the hand's log, timeouts, the score sheet.

The host no longer holds the deal or an authoritative engine (issue 9): it is
the table's *sequencer*.  It seats nodes (:mod:`net.host_seating`), starts each
deal (``begin``), checks every entry a seat sends against the rules of the log
(signature, chain, turn, who may send what: :class:`~net.host_run.Run`), puts
it in the hand's log and sends it to every node; it names a seat that breaks
those rules, that stalls a step no person takes (:mod:`net.host_timing`), and
voids a hand whose seat is away longer than ``Timing.seat_timeout`` (its cards
cannot be opened without it).  When every secret is opened it audits the hand as
every node does, sends the record (``hand-end``) and proposes it to the table's
log (:mod:`net.host_ledger`) once the seats' checks agree.  Any fault named
during the hand is judged by replaying the whole log with every proof checked
(:func:`~net.host_run.judge`).

From the deal after a seat went away, a bot of the host's node plays it
(``begin.bots``, :mod:`net.standins`): the host's node then knows that seat's
cards.  A host that takes over after the previous one was lost first gathers
the seats and the finished hands any of them holds, then voids the deal that was
in progress and deals again (docs/protocol.md, "Host loss").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Literal

from tarock.core.actions import Action
from tarock.core.players import Policy
from tarock.net.agreement.outcome import Outcome
from tarock.net.dealing import RandomBytes
from tarock.net.effects import Drop, Effect, Note, StepDown, TableDone
from tarock.net.game import Game, Sheet
from tarock.net.host_ledger import OWN_VOIDS, Ledger
from tarock.net.host_run import Run, Step, claim, judge, new_run, record_of, stopped_by
from tarock.net.host_seating import Admit, Chair, Reject, Seating
from tarock.net.host_timing import next_tick, stalled
from tarock.net.identity import Identity
from tarock.net.protocol.limits import Timing
from tarock.net.protocol.messages import (
    HAND,
    Checked,
    Dealing,
    HandEnd,
    Hello,
    MessageError,
    Record,
    SeatInfo,
    Signed,
    TableInfo,
    Void,
    inner_of,
)
from tarock.net.standins import sub_answer
from tarock.net.store import Store

Phase = Literal["seating", "gathering", "dealing", "playing", "checking", "committing", "paused", "over",
                "resigned"]


class HostCore:
    """The sequencer of one table at one epoch."""

    def __init__(self, game: Game, info: TableInfo, me: str, store: Store, *, now: float,
                 identity: Identity | None = None,
                 epoch: int = 1, roster: Sequence[SeatInfo | None] = (), sheet: Sheet | None = None,
                 takeover: bool = False, last_deal: int = 0, timing: Timing | None = None,
                 rand: RandomBytes = os.urandom,
                 bot_for: Callable[[int], Policy] | None = None,
                 reachable: Callable[[], frozenset[str]] | None = None) -> None:
        self.game = game
        self.reachable = reachable
        """The table's nodes the host agreement heard from lately (None: no agreement, as in a
        one-node test): a node out of its reach is away at once when a deal begins."""
        self.info = info
        self.identity = identity or Identity(store.identity_seed())
        self.me = me
        if self.identity.node != me:
            raise ValueError("the host's node id is not its key's")
        self.store = store
        self.epoch = epoch
        self.timing = timing or Timing()
        self.rand = rand
        self.seating = Seating.of(info, me, self.identity, store, epoch, roster, bot_for, now)
        self.run: Run | None = None
        self.phase: Phase = "gathering" if takeover and self.seating.free == 0 else "seating"
        self.gather_until = now + self.timing.gather
        self.takeover = takeover
        self.stale = False
        self.seating.save()
        self.ledger = Ledger(game, info.id, store, sheet or Sheet(game.new_table()), last_deal)

    # -- what the seating and the ledger hold --------------------------------------------------------
    @property
    def sheet(self) -> Sheet:
        return self.ledger.sheet

    @property
    def free(self) -> int:
        return self.seating.free

    def roster(self) -> tuple[SeatInfo, ...]:
        return self.seating.roster()

    def seat_local(self, node: str, name: str, local: bool, addresses: tuple[str, ...] = (),
                   port: int = 0, key: str = "") -> int:
        return self.seating.seat_local(node, name, local, addresses, port, key)

    # -- connections ---------------------------------------------------------------------------
    def admit(self, hello: Hello) -> Admit | Reject:
        """Whether to welcome ``hello`` (and at which seat)."""
        verdict = self.seating.admit(hello, self.phase == "seating", self.reachable is not None)
        if isinstance(verdict, Reject) and verdict.code == "stale-epoch":
            self.stale = True
        return verdict

    def connected(self, node: str, hello: Hello, now: float) -> list[Effect]:
        """A node's connection is up (new or resumed session): send it what it needs."""
        seat, out = self.seating.arrived(node, now)
        if seat is not None:
            self.ledger.seen(hello.deal, hello.done)
        out += self.seating.catch_up(node, seat, hello.done, self.sheet.done)
        run = self.run
        if run is not None and run.record is None and self.phase in ("dealing", "playing"):
            out += run.catch_up(node, seat, self.seating)  # the hand so far
        if self.phase == "seating":
            out += self.seating.seated_all()
            out += self._maybe_start(now)
        elif self.phase == "gathering":
            out += self._maybe_gathered(now)
        elif self.phase == "paused" and self.seating.quorum():
            out += self._next_deal(now)
        return out

    def disconnected(self, node: str, now: float) -> list[Effect]:
        self.seating.left(node, now)
        run = self.run
        if run is not None and node in run.pending:
            run.pending.discard(node)
            return self._maybe_counted(now)
        return []

    # -- time ------------------------------------------------------------------------------------
    def tick(self, now: float) -> list[Effect]:
        if self.phase in ("seating", "over", "resigned") or not self.seating.quorum():
            return []  # cut off from most of the table: wait, do not play on with bots
        if self.phase == "paused":
            return self._next_deal(now)
        out = self.seating.away_too_long(self.timing, now)
        if self.phase == "gathering":
            out += self._maybe_gathered(now)
        run = self.run
        if run is not None and self.phase in ("dealing", "playing"):
            notes, fault = stalled(run, self.seating, self.timing, now)
            out += notes + (self._void(run.ctx.deal, *fault, now) if fault is not None else [])
        run = self.run
        if run is not None and self.phase == "checking" and now >= run.checks_until and run.pending:
            out += [run.checks_overdue(), *self._maybe_counted(now)]
        return out

    def next_deadline(self, now: float) -> float | None:
        """When :meth:`tick` has something to do at the latest (None: nothing timed)."""
        return next_tick(self.phase, self.seating, self.run, self.timing, self.gather_until, now)

    # -- starting, gathering -------------------------------------------------------------------
    def _maybe_start(self, now: float) -> list[Effect]:
        if self.phase != "seating" or self.free:
            return []
        self.phase = "gathering" if self.takeover else "dealing"
        out: list[Effect] = [self.seating.full()]
        if self.phase == "gathering":
            return out + self._maybe_gathered(now)
        return out + self._next_deal(now)

    def _maybe_gathered(self, now: float) -> list[Effect]:
        out: list[Effect] = self.seating.out_of_reach(self.reachable)
        ledger = self.ledger
        waiting = not self.seating.all_back() or ledger.sheet.done < ledger.expect_done
        if (now < self.gather_until and waiting) or not self.seating.quorum():
            return out
        self.phase = "dealing"
        self.takeover = False
        if ledger.last_deal > self.sheet.done:
            return out + self._void(ledger.last_deal, "the host was lost during this deal; it is dealt again",
                                    "", now)
        return out + self._next_deal(now)

    # -- the hand's log -----------------------------------------------------------------------------
    def _next_deal(self, now: float) -> list[Effect]:
        if self.sheet.table.over:
            self.phase = "over"
            self.run = None
            return [Note(f"table {self.info.name!r} is over"), TableDone()]
        if not self.seating.quorum():
            self.phase = "paused"
            self.run = None
            return [Note("most of the table is out of reach: the next deal waits for them")]
        notes = self.seating.out_of_reach(self.reachable)
        deal = self.ledger.next_deal()
        table = self.sheet.table
        run = self.run = new_run(self.game, self.seating, table, deal, self.rand, now)
        self.phase = "dealing"
        self.store.put_progress(self.info.id, deal, "begin",
                                {"epoch": self.epoch, "round": table.round, "dealer": run.dealer,
                                 "active": list(run.active)})
        return notes + self._taken(run, run.take(run.play.sign(run.play.begin), None, now, self.seating), now)

    def _taken(self, run: Run, step: Step, now: float) -> list[Effect]:
        """What :meth:`Run.take` did with an entry: the deal is void on a fault, checked once every
        secret is opened."""
        out, fault = step
        if fault is not None:
            return out + self._void(run.ctx.deal, *fault, now)
        self.phase = "playing" if run.play.dealer.fixed else "dealing"
        if run.play.opened:
            out += self._finish(run, now)
        return out

    def stand_in_decided(self, deal: int, index: int, action: Action, now: float) -> list[Effect]:
        """The bot of ``action.seat`` chose ``action`` for the question ``index`` of ``deal``;
        an answer to a deal or a question that is over is dropped."""
        run = self.run
        if run is None or run.ctx.deal != deal:
            return []
        out: list[Effect] = []
        for o in sub_answer(run.subs, index, action):
            if self.run is run:
                out += self._taken(run, run.take(o.env, None, now, self.seating), now)
        return out

    def _finish(self, run: Run, now: float) -> list[Effect]:
        """Every secret is opened: audit (the whole log with every proof when anyone accused
        anyone), send the record, wait for the checks."""
        record, fault = record_of(self.game, run, self.seating)
        if fault is not None:
            return self._void(run.ctx.deal, *fault, now)
        assert record is not None
        run.record = record
        self.phase = "checking"
        run.pending = {node for node, seat in self.seating.audience() if seat is not None}
        run.checks_until = now + self.timing.check
        return self.seating.to_all(HandEnd(record), run.ctx.deal) + self._maybe_counted(now)

    def _maybe_counted(self, now: float) -> list[Effect]:
        run = self.run
        if run is None or self.phase != "checking" or run.pending or run.record is None:
            return []
        self.run = None
        self.phase = "committing"
        return [self.ledger.propose(Outcome(run.ctx.deal, run.record))]

    def committed(self, outcome: Outcome, now: float) -> list[Effect]:
        """The table's log committed ``outcome`` (this host's or an earlier host's): it counts.
        Outcomes come in log order, each deal once; one this host holds already changes
        nothing."""
        ledger = self.ledger
        out = ledger.commit(outcome)
        if self.phase == "gathering":
            return out + self._maybe_gathered(now)
        if self.phase != "committing" or ledger.awaiting is None or outcome.deal < ledger.awaiting:
            return out
        ledger.awaiting = None
        if ledger.resigning:
            return out + self._resign()
        return out + self._next_deal(now)

    # -- faults and voids ------------------------------------------------------------------------
    def _void(self, deal: int, reason: str, culprit: str, now: float,
              host_named: bool = False) -> list[Effect]:
        """Void ``deal`` naming ``culprit`` ("": nobody); ``host_named``: a seat named this host."""
        reason = self.ledger.blame(reason, culprit == self.me or host_named)
        who = f" ({culprit[:8]} is at fault)" if culprit else ""
        void = Void(deal, reason[:300], culprit)
        out = [Note(f"deal {deal} is void: {reason}{who}"), *self.seating.to_all(void, deal)]
        self.run = None
        self.phase = "committing"
        return [*out, self.ledger.propose(Outcome(deal, None, reason[:300], culprit))]

    def _resign(self) -> list[Effect]:
        """Stop hosting: this node's own entries were at fault deal after deal (a host whose
        messages no seat accepts would void and redeal for ever).  Every connection is closed;
        the seats go through the succession as when a host is lost (docs/protocol.md, "Host
        loss"), and this node's own seat joins the new host."""
        self.phase = "resigned"
        why = f"the host was named for {self.ledger.own_voids} deals in a row and stops hosting"
        drops = [Drop(node, "resigned", why) for node, _ in self.seating.audience()]
        return [Note(f"table {self.info.name!r}: {why}; the next node in succession takes over"), *drops,
                *self.step_down(self.epoch, "")]

    def step_down(self, epoch: int, host: str) -> list[Effect]:
        self.stale = True
        return [StepDown(epoch, host)]

    # -- messages ----------------------------------------------------------------------------------
    def receive(self, node: str, body: object, now: float) -> list[Effect]:
        """A body from a connected node."""
        seat = self.seating.seat_of(node)
        if seat is None:
            return [Drop(node, "protocol", "a watcher sends nothing")]
        if not isinstance(body, Signed):
            return [Drop(node, "protocol", "every body is a signed message")]
        if body.author != node:
            return self._forged(node, seat, "a message in the name of another node", now)
        try:
            inner = inner_of(body)
        except MessageError as exc:
            return [Drop(node, "protocol", f"bad message: {exc}")]
        run = self.run
        if type(inner) in HAND:
            if body.epoch != self.epoch or run is None or body.deal != run.ctx.deal:
                return [Note(f"{inner.tag} for deal {body.deal} (epoch {body.epoch}) from {node[:8]} ignored "
                             "(not the deal in progress)")]
            if self.phase not in ("dealing", "playing"):
                return [Note(f"{inner.tag} from {node[:8]} after the hand, ignored")]
            if not body.to:
                return self._taken(run, run.take(body, node, now, self.seating), now)
            if body.to != self.me or not isinstance(inner, Dealing):
                return self._forged(node, seat, "a private message that is not the host's", now)
            return self._private(run, seat, body, node, now)
        if not self.seating.signed_by(node, body):
            return self._forged(node, seat, "a table message with a bad signature", now)
        if isinstance(inner, Checked):
            return self._on_checked(node, inner, now)
        if isinstance(inner, Record):
            return self.ledger.learned(node, inner, self.phase == "gathering")
        return [Drop(node, "protocol", f"a seat may not send {inner.tag!r}")]

    def _private(self, run: Run, seat: int, body: Signed, node: str, now: float) -> list[Effect]:
        out, fault, public = run.take_private(seat, body, node, self.seating)
        if fault is not None:
            return out + self._void(run.ctx.deal, *fault, now)
        for env in public:
            if self.run is run:
                out += self._taken(run, run.take(env, None, now, self.seating), now)
        return out

    def _forged(self, node: str, seat: int, why: str, now: float) -> list[Effect]:
        run = self.run
        if run is not None and self.phase in ("dealing", "playing"):
            return self._void(run.ctx.deal, f"seat {seat} sent {why}", node, now)
        return [Drop(node, "protocol", why)]

    def _on_checked(self, node: str, body: Checked, now: float) -> list[Effect]:
        run = self.run
        if run is not None and not body.ok and body.deal == run.ctx.deal and self.phase in ("dealing",
                                                                                           "playing"):
            stop = stopped_by(run, node, body, self.seating)
            if stop is not None:
                return self._void(body.deal, stop[0], "", now, host_named=stop[1])
        if run is None or self.phase != "checking" or body.deal != run.ctx.deal:
            if not body.ok and body.deal in self.sheet.counted:
                return [Note(f"{node[:8]}'s check of deal {body.deal} failed after the table counted it: "
                             f"{body.reason}")]
            return []
        run.pending.discard(node)
        if body.ok:
            return self._maybe_counted(now)
        return self._void(body.deal, *claim(self.game, run, node, body, self.seating), now)


__all__ = ["OWN_VOIDS", "Admit", "Chair", "HostCore", "Reject", "Run", "judge"]
