"""The host's side of a table, sans-IO: seating, dealing, the engine, checks.

The host is the node that runs the engine's :class:`~core.engine.Hand`.  It
seats nodes, runs the dealing scheme with every seat, applies the actions the
seats send (the engine checks them), sends each seat its own observation and
each watcher the public one, and at a hand's end sends every node the full
record, waits for their checks and enters the hand on the score sheet.

A seat whose node is away longer than ``Timing.seat_timeout`` is played by a
bot (``bot_for``) until it returns; the record lists those actions.  A host
that takes over after the previous one was lost (``takeover``) first gathers
the seats and the finished hands any of them holds, then voids the deal that
was in progress and deals again (docs/protocol.md, "Host loss").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from core.engine import Hand
from core.observation import observe
from core.players import Player
from net.dealing import DealContext, DealingFault, HostDealer, Outgoing, PayloadError, RandomBytes
from net.effects import Drop, Effect, Note, Send, StepDown, TableDone
from net.game import CheckFailed, Finished, Game, GameError, Sheet
from net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN, Timing
from net.protocol.messages import (
    Act,
    Begin,
    Body,
    Checked,
    Dealing,
    HandEnd,
    Hello,
    Info,
    Record,
    Refused,
    Seated,
    SeatInfo,
    TableInfo,
    View,
    Void,
    plain,
)
from net.store import Store

Phase = Literal["seating", "gathering", "dealing", "playing", "checking", "paused", "over"]


@dataclass(frozen=True, slots=True)
class Admit:
    seat: int | None


@dataclass(frozen=True, slots=True)
class Reject:
    code: str
    message: str
    host: str = ""
    epoch: int = 0


@dataclass
class Chair:
    """One seat as the host sees it."""

    info: SeatInfo | None = None
    connected: bool = False
    away_since: float | None = None
    substituted: bool = False
    bot: Player | None = None


@dataclass
class Run:
    """The deal in progress."""

    ctx: DealContext
    round: int
    dealer: int
    active: tuple[int, ...]
    dealer_proto: HostDealer
    hand: Hand | None = None
    bots: list[int] = field(default_factory=list)
    record: dict[str, Any] | None = None
    pending: set[str] = field(default_factory=set)
    checks_until: float = 0.0


class HostCore:
    """The authority of one table at one epoch."""

    def __init__(self, game: Game, info: TableInfo, me: str, store: Store, *, now: float,
                 epoch: int = 1, roster: Sequence[SeatInfo | None] = (), sheet: Sheet | None = None,
                 takeover: bool = False, last_deal: int = 0, timing: Timing | None = None,
                 rand: RandomBytes = os.urandom,
                 bot_for: Callable[[int], Player] | None = None) -> None:
        self.game = game
        self.info = info
        self.me = me
        self.store = store
        self.epoch = epoch
        self.timing = timing or Timing()
        self.rand = rand
        self.bot_for = bot_for
        self.chairs = [Chair(info=roster[s] if s < len(roster) else None) for s in range(info.seats)]
        self.sheet = sheet or Sheet(game.new_table())
        self.watchers: set[str] = set()
        self.last_deal = max(last_deal, self.sheet.done)
        self.run: Run | None = None
        self.phase: Phase = "seating"
        self.gather_until = now + self.timing.gather
        self.takeover = takeover
        self.stale = False
        self.messages = 0
        if all(c.info is not None for c in self.chairs):
            self.phase = "gathering" if takeover else "seating"
        for chair in self.chairs:
            if chair.info is not None:
                chair.away_since = now  # away until its node connects (a bot plays a local seat at once)
        self.expect_done = self.sheet.done
        """The most deals any seat said it holds (a new host waits for their records)."""
        self._save_table()
        self._store_sheet()

    def _store_sheet(self) -> None:
        """Keep every outcome of the sheet this host starts from in its own store: a successor's
        store is new, and a node that rejoins is sent what it lacks from there."""
        held = {d for d, _, _, _ in self.store.outcomes(self.info.id)}
        for deal in sorted(self.sheet.finished):
            if deal not in held:
                self.store.save_outcome(self.info.id, deal, self.sheet.finished[deal].record)
        for deal in sorted(self.sheet.void - held - set(self.sheet.finished)):
            self.store.save_outcome(self.info.id, deal, None, "void under an earlier host")

    # -- who is where ------------------------------------------------------------------------
    def roster(self) -> tuple[SeatInfo, ...]:
        return tuple(c.info for c in self.chairs if c.info is not None)

    def seat_of(self, node: str) -> int | None:
        for seat, chair in enumerate(self.chairs):
            if chair.info is not None and chair.info.node == node:
                return seat
        return None

    def nodes(self) -> list[str]:
        """The table's nodes (not the host's bots), each once, in seat order."""
        out: list[str] = []
        for chair in self.chairs:
            if chair.info is not None and not chair.info.local and chair.info.node not in out:
                out.append(chair.info.node)
        return out

    def quorum(self) -> bool:
        """Whether this host reaches a majority of the table's nodes (itself included); on a
        tie, the half that holds the roster's first node.  Without it the host neither deals
        nor lets bots play away seats: a host cut off from the others waits instead of
        playing on alone (docs/protocol.md, "Host loss")."""
        nodes = self.nodes()
        if not nodes:
            return True
        reach = {self.me} | {c.info.node for c in self.chairs if c.info is not None and c.connected}
        have = sum(1 for n in nodes if n in reach)
        return have * 2 > len(nodes) or (have * 2 == len(nodes) and nodes[0] in reach)

    @property
    def free(self) -> int:
        return sum(1 for c in self.chairs if c.info is None)

    def _save_table(self) -> None:
        state = {"epoch": self.epoch, "host": self.me, "roster": [plain(s) for s in self.roster()]}
        self.store.save_table(self.info.id, plain(self.info), state)

    def info_message(self, name: str, port: int, boot: str) -> Info:
        return Info(PROTOCOL_MIN, PROTOCOL_MAX, self.me, name, "table", self.info.id, self.info.name,
                    self.info.variant, dict(self.info.options), self.info.rules, self.info.rounds,
                    self.free, self.epoch, self.me, port, boot)

    # -- handshake ---------------------------------------------------------------------------
    def admit(self, hello: Hello) -> Admit | Reject:
        """Whether to welcome ``hello`` (and at which seat)."""
        if hello.role == "watch":
            return Admit(None)
        if hello.role != "seat":
            return Reject("role", f"a host does not take {hello.role!r} connections")
        if hello.epoch > self.epoch:
            self.stale = True
            return Reject("stale-epoch", f"this host's epoch {self.epoch} is older than yours "
                                         f"({hello.epoch}): it steps down", epoch=self.epoch)
        if hello.table not in ("", self.info.id):
            return Reject("table", f"this node hosts table {self.info.name!r} ({self.info.id}), "
                                   f"not {hello.table}")
        if hello.rules != self.info.rules:
            return Reject("rules", f"table {self.info.name!r} plays {self.info.variant} with rules "
                                   f"{self.info.rules[:12]}, yours are {hello.rules[:12] or 'none'}: "
                                   "the same variant, plugins and options are needed")
        seat = self.seat_of(hello.node)
        if seat is not None:
            return Admit(seat)
        if self.phase != "seating" or self.free == 0:
            return Reject("full", f"table {self.info.name!r} has no free seat")
        seat = next(s for s, c in enumerate(self.chairs) if c.info is None)
        self.chairs[seat].info = SeatInfo(seat, hello.node, hello.name, hello.addresses, hello.port,
                                          local=False)
        self._save_table()
        return Admit(seat)

    def seat_local(self, node: str, name: str, local: bool, addresses: tuple[str, ...] = (),
                   port: int = 0) -> int:
        """Seat one of this node's own players (the host's, or a bot of ``--bots``)."""
        seat = self.seat_of(node)
        if seat is not None:
            return seat
        seat = next(s for s, c in enumerate(self.chairs) if c.info is None)
        self.chairs[seat].info = SeatInfo(seat, node, name, addresses, port, local)
        self._save_table()
        return seat

    # -- connections ---------------------------------------------------------------------------
    def connected(self, node: str, hello: Hello, now: float) -> list[Effect]:
        """A node's connection is up (new or resumed session): send it what it needs."""
        out: list[Effect] = []
        seat = self.seat_of(node)
        if seat is None:
            self.watchers.add(node)
        else:
            chair = self.chairs[seat]
            chair.connected = True
            chair.away_since = None
            if chair.substituted:
                chair.substituted = False
                out.append(Note(f"seat {seat} ({chair.info.name if chair.info else '?'}) is back"))
            self.last_deal = max(self.last_deal, hello.deal)
            self.expect_done = max(self.expect_done, hello.done)
        out += self._snapshot(node, seat, hello.done)
        if self.phase == "seating":
            out += self._seated_all()
            out += self._maybe_start(now)
        elif self.phase == "gathering":
            out += self._maybe_gathered(now)
        elif self.phase == "paused" and self.quorum():
            out += self._next_deal(now)
        return out

    def disconnected(self, node: str, now: float) -> list[Effect]:
        self.watchers.discard(node)
        seat = self.seat_of(node)
        out: list[Effect] = []
        if seat is not None:
            chair = self.chairs[seat]
            chair.connected = False
            chair.away_since = now
            run = self.run
            if run is not None and node in run.pending:
                run.pending.discard(node)
                out += self._maybe_counted(now)
        return out

    def _snapshot(self, node: str, seat: int | None, done: int) -> list[Effect]:
        out: list[Effect] = [Send(node, Seated(self.info, self.epoch, self.me, seat, self.roster()))]
        # Outcomes the node lacks (and the last one, which may have changed to void).
        outcomes = {d: r for d, r, _, _ in self.store.outcomes(self.info.id)}
        voids = {d: (why, who) for d, r, why, who in self.store.outcomes(self.info.id) if r is None}
        for deal in sorted(outcomes):
            if deal > done or deal == self.sheet.done:
                if deal in voids:
                    why, who = voids[deal]
                    out.append(Send(node, Void(self.epoch, deal, why, who)))
                else:
                    out.append(Send(node, HandEnd(self.epoch, deal, outcomes[deal])))
        run = self.run
        if run is not None and run.record is None and self.phase in ("dealing", "playing"):
            out.append(Send(node, self._begin(run)))
            if seat is not None:
                out += [self._dealing_send(o, node) for o in run.dealer_proto.resend(seat)]
            if run.hand is not None:
                out.append(Send(node, View(self.epoch, run.ctx.deal, self.game.view(run.hand, seat))))
        return out

    def _seated_all(self) -> list[Effect]:
        return [Send(node, Seated(self.info, self.epoch, self.me, seat, self.roster()))
                for node, seat in self._audience()]

    def _audience(self) -> list[tuple[str, int | None]]:
        """Every connected node and its seat (None: a watcher)."""
        out: list[tuple[str, int | None]] = [(c.info.node, s) for s, c in enumerate(self.chairs)
                                             if c.info is not None and c.connected]
        return out + [(w, None) for w in sorted(self.watchers)]

    # -- time ------------------------------------------------------------------------------------
    def tick(self, now: float) -> list[Effect]:
        out: list[Effect] = []
        if self.phase in ("seating", "over"):
            return out
        if not self.quorum():
            return out  # cut off from most of the table: wait, do not play on with bots
        if self.phase == "paused":
            return self._next_deal(now)
        for seat, chair in enumerate(self.chairs):
            if (chair.info is not None and not chair.connected and not chair.substituted
                    and chair.away_since is not None
                    and (chair.info.local or now - chair.away_since >= self.timing.seat_timeout)):
                chair.substituted = True
                out.append(Note(f"seat {seat} ({chair.info.name}) is away: a bot plays it until it returns"))
                out += self._substitute(seat, now)
        if self.phase == "gathering":
            out += self._maybe_gathered(now)
        run = self.run
        if run is not None and self.phase == "checking" and now >= run.checks_until and run.pending:
            out.append(Note(f"no check of deal {run.ctx.deal} from {len(run.pending)} node(s) in time"))
            run.pending.clear()
            out += self._maybe_counted(now)
        return out

    def next_deadline(self, now: float) -> float | None:
        """When :meth:`tick` has something to do at the latest (None: nothing timed)."""
        times: list[float] = []
        if self.phase in ("seating", "over"):
            return None
        if self.phase == "paused" or not self.quorum():
            return now + 1.0
        for chair in self.chairs:
            if chair.info is not None and not chair.connected and not chair.substituted \
                    and chair.away_since is not None:
                times.append(chair.away_since + (0 if chair.info.local else self.timing.seat_timeout))
        if self.phase == "gathering":
            times.append(self.gather_until)
        if self.run is not None and self.phase == "checking":
            times.append(self.run.checks_until)
        return min(times) if times else None

    # -- starting, gathering -------------------------------------------------------------------
    def _maybe_start(self, now: float) -> list[Effect]:
        if self.phase != "seating" or self.free:
            return []
        self.phase = "gathering" if self.takeover else "dealing"
        out: list[Effect] = [Note(f"table {self.info.name!r} is full: " +
                                  ", ".join(f"{s.seat}: {s.name}" for s in self.roster()))]
        if self.phase == "gathering":
            return out + self._maybe_gathered(now)
        return out + self._next_deal(now)

    def _maybe_gathered(self, now: float) -> list[Effect]:
        others = [c for c in self.chairs
                  if c.info is not None and not c.info.local and c.info.node != self.me]
        waiting = not all(c.connected or c.substituted for c in others) or self.sheet.done < self.expect_done
        if (now < self.gather_until and waiting) or not self.quorum():
            return []
        self.phase = "dealing"
        self.takeover = False
        out: list[Effect] = []
        dropped = self.last_deal
        if dropped > self.sheet.done:
            out += self._void(dropped, "the host was lost during this deal; it is dealt again", "", now,
                              next_deal=False)
        return out + self._next_deal(now)

    # -- dealing ---------------------------------------------------------------------------------
    def _begin(self, run: Run) -> Begin:
        return Begin(self.epoch, run.ctx.deal, run.round, run.dealer, run.active, self.info.dealing)

    def _next_deal(self, now: float) -> list[Effect]:
        if self.sheet.table.over:
            self.phase = "over"
            self.run = None
            return [Note(f"table {self.info.name!r} is over"), TableDone()]
        if not self.quorum():
            self.phase = "paused"
            self.run = None
            return [Note("most of the table is out of reach: the next deal waits for them")]
        deal = max(self.last_deal, self.sheet.done) + 1
        self.last_deal = deal
        table = self.sheet.table
        dealer = table.dealer
        active = self.game.active(dealer)
        ctx = DealContext(self.info.id, self.epoch, deal, self.info.seats)
        proto = self.game.scheme.host(ctx, self.game.layout(active), self.rand)
        self.run = Run(ctx, table.round, dealer, active, proto)
        self.phase = "dealing"
        self.store.put_progress(self.info.id, deal, "begin",
                                {"epoch": self.epoch, "round": table.round, "dealer": dealer,
                                 "active": list(active)})
        begin = self._begin(self.run)
        out: list[Effect] = [Send(node, begin) for node, _ in self._audience()]
        for seat, chair in enumerate(self.chairs):
            if chair.substituted:
                out += self._substitute(seat, now)
        return out

    def _dealing_send(self, item: Outgoing, node: str) -> Send:
        assert self.run is not None
        return Send(node, Dealing(self.epoch, self.run.ctx.deal, item.payload))

    def _dealing_out(self, items: list[Outgoing]) -> list[Effect]:
        out: list[Effect] = []
        for item in items:
            if item.to is None:
                out += [self._dealing_send(item, node) for node, seat in self._audience() if seat is not None]
            else:
                chair = self.chairs[item.to]
                if chair.info is not None and chair.connected:
                    out.append(self._dealing_send(item, chair.info.node))
        return out

    def _dealt(self, now: float) -> list[Effect]:
        run = self.run
        assert run is not None
        result = run.dealer_proto.result()
        if result is None or run.hand is not None:
            return []
        hands, talon = result
        run.hand = self.game.hand(run.dealer, run.active, hands, talon)
        self.phase = "playing"
        self.store.put_progress(self.info.id, run.ctx.deal, "dealing", run.dealer_proto.opening())
        return self._views() + self._advance(now)

    def _substitute(self, seat: int, now: float) -> list[Effect]:
        run = self.run
        if run is None or self.phase not in ("dealing", "playing"):
            return []
        if self.phase == "dealing":
            try:
                out = self._dealing_out(run.dealer_proto.substitute(seat))
            except DealingFault as exc:
                return self._fault(exc.reason, self._node_of(exc.seat), now)
            return out + self._dealt(now)
        return self._advance(now)

    # -- playing -----------------------------------------------------------------------------------
    def _views(self) -> list[Effect]:
        run = self.run
        assert run is not None and run.hand is not None
        return [Send(node, View(self.epoch, run.ctx.deal, self.game.view(run.hand, seat)))
                for node, seat in self._audience()]

    def _bot(self, seat: int) -> Player:
        chair = self.chairs[seat]
        if chair.bot is None:
            if self.bot_for is None:
                raise RuntimeError("no bot to play an absent seat")
            chair.bot = self.bot_for(seat)
        return chair.bot

    def _advance(self, now: float) -> list[Effect]:
        """Let bots play absent seats; finish the hand when it is over."""
        run = self.run
        assert run is not None and run.hand is not None
        hand = run.hand
        out: list[Effect] = []
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            if not self.chairs[seat].substituted:
                return out
            action = self._bot(seat).decide(observe(hand, seat))
            run.bots.append(len(hand.state.actions))
            refusal = self.game.applies(hand, action)
            if refusal is not None:
                raise RuntimeError(f"the substitute bot of seat {seat} chose an illegal action: {refusal}")
            self._save_actions(run)
            out += self._views()
        return out + self._finish(now)

    def _save_actions(self, run: Run) -> None:
        assert run.hand is not None
        self.store.put_progress(self.info.id, run.ctx.deal, "actions",
                                {"actions": [self.game.encode_action(a) for a in run.hand.state.actions],
                                 "bots": run.bots})

    def _finish(self, now: float) -> list[Effect]:
        run = self.run
        assert run is not None and run.hand is not None
        record = self.game.record(run.hand, run.ctx, run.round, run.dealer_proto.opening(), run.bots)
        finished = self.game.check(record)
        run.record = record
        self._count(finished)
        self.phase = "checking"
        run.pending = {node for node, seat in self._audience() if seat is not None}
        run.checks_until = now + self.timing.check
        end = HandEnd(self.epoch, run.ctx.deal, record)
        out: list[Effect] = [Send(node, end) for node, _ in self._audience()]
        return out + self._maybe_counted(now)

    def _count(self, finished: Finished) -> None:
        self.store.save_outcome(self.info.id, finished.deal, finished.record)
        self.sheet.finished[finished.deal] = finished
        self.game.sheet_add(self.sheet.table, finished)

    def _maybe_counted(self, now: float) -> list[Effect]:
        run = self.run
        if run is None or self.phase != "checking" or run.pending:
            return []
        return self._next_deal(now)

    # -- faults and voids ------------------------------------------------------------------------
    def _node_of(self, seat: int | None) -> str:
        if seat is None:
            return self.me
        info = self.chairs[seat].info
        return info.node if info is not None else ""

    def _fault(self, reason: str, culprit: str, now: float) -> list[Effect]:
        run = self.run
        assert run is not None
        return self._void(run.ctx.deal, reason, culprit, now)

    def _void(self, deal: int, reason: str, culprit: str, now: float, next_deal: bool = True) -> list[Effect]:
        counted = self.sheet.finished.pop(deal, None)
        self.sheet.void.add(deal)
        if counted is not None:
            self._rebuild_sheet()
        self.store.save_outcome(self.info.id, deal, None, reason, culprit)
        out: list[Effect] = [Note(f"deal {deal} is void: {reason}")]
        out += [Send(node, Void(self.epoch, deal, reason, culprit)) for node, _ in self._audience()]
        self.run = None
        return out + (self._next_deal(now) if next_deal else [])

    def _rebuild_sheet(self) -> None:
        table = self.game.new_table()
        for deal in sorted(self.sheet.finished):
            self.game.sheet_add(table, self.sheet.finished[deal])
        self.sheet.table = table

    # -- messages ----------------------------------------------------------------------------------
    def receive(self, node: str, body: Body, now: float) -> list[Effect]:
        """A body from a connected node."""
        self.messages += 1
        seat = self.seat_of(node)
        if seat is None:
            return [Drop(node, "protocol", f"a watcher may not send {body.tag!r}")]
        if isinstance(body, Dealing):
            return self._on_dealing(node, seat, body, now)
        if isinstance(body, Act):
            return self._on_act(node, seat, body, now)
        if isinstance(body, Checked):
            return self._on_checked(node, body, now)
        if isinstance(body, Record):
            return self._on_record(node, body, now)
        return [Drop(node, "protocol", f"a seat may not send {body.tag!r}")]

    def _stale(self, node: str, epoch: int, deal: int, what: str) -> list[Effect] | None:
        run = self.run
        if epoch != self.epoch:
            return [Note(f"{what} of epoch {epoch} from {node[:8]} ignored (epoch is {self.epoch})")]
        if run is None or deal != run.ctx.deal:
            return [Note(f"{what} for deal {deal} from {node[:8]} ignored (not the deal in progress)")]
        return None

    def _on_dealing(self, node: str, seat: int, body: Dealing, now: float) -> list[Effect]:
        stale = self._stale(node, body.epoch, body.deal, "dealing")
        if stale is not None:
            return stale
        run = self.run
        assert run is not None
        if self.phase != "dealing":
            return [Note(f"dealing payload from seat {seat} after the deal was made, ignored")]
        try:
            out = self._dealing_out(run.dealer_proto.receive(seat, body.payload))
        except PayloadError as exc:
            return [Drop(node, "protocol", f"bad dealing payload: {exc}")]
        except DealingFault as exc:
            return self._fault(exc.reason, self._node_of(exc.seat if exc.seat is not None else seat), now)
        return out + self._dealt(now)

    def _on_act(self, node: str, seat: int, body: Act, now: float) -> list[Effect]:
        stale = self._stale(node, body.epoch, body.deal, "act")
        if stale is not None:
            return stale
        run = self.run
        assert run is not None
        if run.hand is None or self.phase != "playing":
            return [Send(node, Refused(body.deal, body.index, "not-now", "no hand is being played"))]
        hand = run.hand
        try:
            action = self.game.read_action(body.action)
        except GameError as exc:
            return [Drop(node, "protocol", f"bad action: {exc}")]
        if body.index != len(hand.state.actions):
            return [Send(node, Refused(body.deal, body.index, "stale",
                                       f"the hand has {len(hand.state.actions)} actions, not {body.index}"))]
        if action.seat != seat:
            return [Send(node, Refused(body.deal, body.index, "not-your-seat",
                                       f"you sit at seat {seat}, not {action.seat}"))]
        refusal = self.game.applies(hand, action)
        if refusal is not None:
            code, _, message = refusal.partition(": ")
            return [Send(node, Refused(body.deal, body.index, code, message))]
        self._save_actions(run)
        return self._views() + self._advance(now)

    def _on_checked(self, node: str, body: Checked, now: float) -> list[Effect]:
        run = self.run
        if run is not None and body.deal == run.ctx.deal and not body.ok and run.record is None:
            # A fault a seat found while the deal was being dealt or played.
            return self._void(body.deal, f"{node[:8]} found a fault: {body.reason}", body.culprit, now)
        if run is None or self.phase != "checking" or body.deal != run.ctx.deal:
            if not body.ok and body.deal in self.sheet.finished and body.deal == self.sheet.done:
                return self._void(body.deal, f"a node's check failed: {body.reason}", body.culprit, now,
                                  next_deal=False)
            return []
        run.pending.discard(node)
        if not body.ok:
            return self._void(body.deal, f"the check of {node[:8]} failed: {body.reason}", body.culprit, now)
        return self._maybe_counted(now)

    def _on_record(self, node: str, body: Record, now: float) -> list[Effect]:
        if body.deal <= self.sheet.done or body.deal in self.sheet.void:
            return []
        if body.deal != self.sheet.done + 1:
            return [Note(f"record of deal {body.deal} from {node[:8]} skipped "
                         f"(this host holds up to {self.sheet.done})")]
        try:
            finished = self.game.check(body.record)
        except CheckFailed as exc:
            return [Note(f"record of deal {body.deal} from {node[:8]} refused: {exc.reason}")]
        if finished.deal != body.deal:
            return [Note(f"record from {node[:8]} is of deal {finished.deal}, not {body.deal}")]
        self._count(finished)
        out: list[Effect] = [Note(f"deal {body.deal} learned from {node[:8]}")]
        end = HandEnd(self.epoch, body.deal, body.record)
        out += [Send(n, end) for n, _ in self._audience() if n != node]
        if self.phase == "gathering":
            out += self._maybe_gathered(now)
        return out

    def step_down(self, epoch: int, host: str) -> list[Effect]:
        self.stale = True
        return [StepDown(epoch, host)]

