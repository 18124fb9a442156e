"""The host's side of a table, sans-IO: seating, the hand's log, timeouts, the score sheet.

The host no longer holds the deal or an authoritative engine (issue 9): it is
the table's *sequencer*.  It seats nodes, starts each deal (``begin``), checks
every entry a seat sends against the rules of the log (signature, chain, turn,
who may send what: :class:`~net.handplay.HandPlay` without the proofs), puts
it in the hand's log and sends it to every node; it names a seat that breaks
those rules, that stalls a step no person takes (``Timing.step``), and voids a
hand whose seat is away longer than ``Timing.seat_timeout`` (its cards cannot
be opened without it).  When every secret is opened it audits the hand as
every node does, sends the record (``hand-end``) and enters it on the score
sheet once the seats' checks agree.  Any fault named during the hand is judged
by replaying the whole log with every proof checked (:func:`judge`).

From the deal after a seat went away, a bot of the host's node plays it
(``begin.bots``): the host's node then knows that seat's cards.  A host that
takes over after the previous one was lost first gathers the seats and the
finished hands any of them holds, then voids the deal that was in progress
and deals again (docs/protocol.md, "Host loss").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import msgpack

from tarock.core.actions import Action
from tarock.core.players import Policy
from tarock.net.agreement.outcome import Outcome
from tarock.net.audit import Verdict, audit
from tarock.net.dealing import HOST, DealContext, RandomBytes
from tarock.net.effects import Decide, Drop, Effect, Note, Propose, Send, StepDown, TableDone
from tarock.net.game import CheckFailed, Game, Sheet
from tarock.net.handplay import Ask, HandFault, HandPlay, Out, roster_of
from tarock.net.identity import Identity, envelope_hash, fingerprint, signed_bytes, verify
from tarock.net.protocol.limits import MAX_FRAME, PROTOCOL_MAX, PROTOCOL_MIN, Timing
from tarock.net.protocol.messages import (
    HAND,
    Begin,
    Checked,
    Dealing,
    HandEnd,
    Hello,
    Info,
    Inner,
    Log,
    MessageError,
    Record,
    Seated,
    SeatInfo,
    Signed,
    TableInfo,
    Void,
    dump,
    inner_of,
    parse,
    plain,
)
from tarock.net.store import Store

Phase = Literal["seating", "gathering", "dealing", "playing", "checking", "committing", "paused", "over",
                "resigned"]

OWN_VOIDS: Final = 3
"""Deals in a row void with the host's own node named, after which the host stops dealing and
leaves the table to the next node in succession (docs/protocol.md, "Blame")."""


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
    back_since: float = 0.0
    """When its node last connected: a seat can stall only while it is connected, so the step
    timeout runs from here at the earliest (a seat cut off, then back, is not a staller)."""
    substituted: bool = False
    bot: Policy | None = None


@dataclass
class Sub:
    """A seat the host's node plays with a bot in this deal (its node is away)."""

    play: HandPlay
    bot: Policy
    asked: int = -1


@dataclass
class Run:
    """The deal in progress."""

    ctx: DealContext
    round: int
    dealer: int
    active: tuple[int, ...]
    play: HandPlay
    log: list[Signed] = field(default_factory=list)
    subs: dict[int, Sub] = field(default_factory=dict)
    record: dict[str, Any] | None = None
    pending: set[str] = field(default_factory=set)
    checks_until: float = 0.0
    waiting: tuple[tuple[int, ...], bool] = ((), False)
    since: float = 0.0


def judge(game: Game, run: Run, roster: Sequence[SeatInfo], host: str, round_no: int,
          rules_hash: str) -> Verdict:
    """Replay a hand's whole log with every proof and point checked, then audit it: who cheated
    (the first entry that breaks a rule, else what the audit finds), or the record."""
    begin = parse(run.log[0].body, "inner")
    assert isinstance(begin, Begin)
    play = HandPlay(game, DealContext(run.ctx.table, run.ctx.epoch, run.ctx.deal, run.ctx.seats), begin,
                    roster_of(roster, host), None, checks=True)
    for env in run.log:
        try:
            play.receive(env)
        except HandFault as exc:
            return Verdict(None, exc.author, exc.reason)
    if not play.opened:
        return Verdict(None, None, "the log ends before every secret was opened")
    return audit(play, round_no, rules_hash, begin.bots)


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
        self.own_voids = 0
        """Deals void in a row that named this host's own node (:data:`OWN_VOIDS`)."""
        self.awaiting: int | None = None
        """The deal whose outcome this host proposed and waits to see committed."""
        self.resigning = False
        self.proposed: set[int] = set()
        """Deals whose outcome a seat passed on and this host proposed (each once)."""
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
        store is new, and a node that rejoins is sent what it lacks from there.  The records of
        the counted hands are the caller's to store (the sheet keeps no records:
        :meth:`net.node.Node._take_over` stores them as it reads them); a void the store lacks
        is stored here."""
        for deal in sorted(self.sheet.counted):
            if self.store.outcome(self.info.id, deal) is None:
                raise ValueError(f"deal {deal} counts on the sheet, but the host's store has no record of it")
        for deal in sorted(self.sheet.void - set(self.sheet.counted)):
            if self.store.outcome(self.info.id, deal) is None:
                self.store.save_outcome(self.info.id, deal, None, "void under an earlier host")

    # -- who is where ------------------------------------------------------------------------
    def roster(self) -> tuple[SeatInfo, ...]:
        return tuple(c.info for c in self.chairs if c.info is not None)

    def fingerprint(self) -> str:
        return fingerprint(self.info.id, [s.key for s in self.roster()])

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
                    self.free, self.epoch, self.me, port, boot, self.info.private)

    # -- signing the host's own messages ---------------------------------------------------------
    def signed(self, body: Inner, to: str, deal: int = 0) -> Signed:
        """A table message of the host (outside a hand's log), for the node ``to``."""
        fields: dict[str, Any] = {"t": Signed.tag, "table": self.info.id, "epoch": self.epoch, "deal": deal,
                                  "author": self.me, "seat": None, "seq": 0, "prev": "", "head": "",
                                  "to": to, "body": dump(body), "sig": "0" * 128}
        fields["sig"] = self.identity.sign(signed_bytes(fields))
        env = parse(fields, "body")
        assert isinstance(env, Signed)
        return env

    def _send(self, node: str, body: Inner, deal: int = 0) -> Send:
        return Send(node, self.signed(body, node, deal))

    # -- handshake ---------------------------------------------------------------------------
    def admit(self, hello: Hello) -> Admit | Reject:
        """Whether to welcome ``hello`` (and at which seat)."""
        if hello.role == "watch":
            return Admit(None)
        if hello.role != "seat":
            return Reject("role", f"a host does not take {hello.role!r} connections")
        if hello.epoch > self.epoch and self.reachable is not None:
            # Only the host agreement decides who hosts: a hello cannot depose a host.
            return Reject("not-host", f"this host's epoch {self.epoch} is older than yours ({hello.epoch})",
                          epoch=self.epoch)
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
            chair = self.chairs[seat]
            if chair.info is not None and chair.info.key != hello.key:
                return Reject("identity", "this node id sits at the table with another key")
            return Admit(seat)
        if self.phase != "seating" or self.free == 0:
            return Reject("full", f"table {self.info.name!r} has no free seat")
        seat = next(s for s, c in enumerate(self.chairs) if c.info is None)
        self.chairs[seat].info = SeatInfo(seat, hello.node, hello.name, hello.key, hello.addresses,
                                          hello.port, local=False)
        self._save_table()
        return Admit(seat)

    def seat_local(self, node: str, name: str, local: bool, addresses: tuple[str, ...] = (),
                   port: int = 0, key: str = "") -> int:
        """Seat one of this node's own players (the host's, or a bot of ``--bots``)."""
        seat = self.seat_of(node)
        if seat is not None:
            return seat
        seat = next(s for s, c in enumerate(self.chairs) if c.info is None)
        self.chairs[seat].info = SeatInfo(seat, node, name, key or self.identity.key, addresses, port, local)
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
            chair.back_since = now
            if chair.substituted:
                chair.substituted = False
                out.append(Note(f"seat {seat} ({chair.info.name if chair.info else '?'}) is back: "
                                "it plays again from the next deal"))
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
        out: list[Effect] = [self._send(node, Seated(self.info, self.epoch, self.me, seat, self.roster()))]
        # Outcomes the node lacks (and the last one, which may have changed to void), read from
        # the store a few at a time.
        first = min(done + 1, max(1, self.sheet.done))
        for deal, record, why, who in self.store.iter_outcomes(self.info.id, first):
            if deal > done or deal == self.sheet.done:
                if record is None:
                    out.append(self._send(node, Void(deal, why, who), deal))
                else:
                    out.append(self._send(node, HandEnd(record), deal))
        run = self.run
        if run is not None and run.record is None and self.phase in ("dealing", "playing"):
            parts = log_parts([dump(e) for e in run.log])
            out += [self._send(node, Log(part, more=i < len(parts) - 1), run.ctx.deal)
                    for i, part in enumerate(parts)]
            if seat is not None and seat not in run.subs:  # a bot's cards stay with the bot
                out += [Send(node, run.play.sign(Dealing(o.payload), o.to))
                        for o in run.play.dealer.resend(seat)]
        return out

    def _seated_all(self) -> list[Effect]:
        return [self._send(node, Seated(self.info, self.epoch, self.me, seat, self.roster()))
                for node, seat in self._audience()]

    def _audience(self) -> list[tuple[str, int | None]]:
        """Every connected node and its seat (None: a watcher)."""
        out: list[tuple[str, int | None]] = [(c.info.node, s) for s, c in enumerate(self.chairs)
                                             if c.info is not None and c.connected]
        return out + [(w, None) for w in sorted(self.watchers)]

    # -- time ------------------------------------------------------------------------------------
    def tick(self, now: float) -> list[Effect]:
        out: list[Effect] = []
        if self.phase in ("seating", "over", "resigned"):
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
                out.append(Note(f"seat {seat} ({chair.info.name}) is away: a bot of this node plays it "
                                "from the next deal until it returns"))
        if self.phase == "gathering":
            out += self._maybe_gathered(now)
        run = self.run
        if run is not None and self.phase in ("dealing", "playing"):
            out += self._timeouts(run, now)
        run = self.run
        if run is not None and self.phase == "checking" and now >= run.checks_until and run.pending:
            out.append(Note(f"no check of deal {run.ctx.deal} from {len(run.pending)} node(s) in time"))
            run.pending.clear()
            out += self._maybe_counted(now)
        return out

    def _timeouts(self, run: Run, now: float) -> list[Effect]:
        """A step no person takes that a connected seat has not sent in time: it stalls the
        hand and is named, and from the next deal a bot plays it as for an away seat, until
        its node connects again (docs/protocol.md, "Seats that go quiet"): so a seat that
        stalls is named once, and never stops the table.  A seat away longer than the seat
        timeout: the hand is void (its cards cannot be opened without it), nobody is named."""
        authors, deciding = run.waiting
        for author in authors:
            if author == HOST or author in run.subs:
                continue
            chair = self.chairs[author]
            name = chair.info.name if chair.info is not None else "?"
            node = chair.info.node if chair.info is not None else ""
            if not chair.connected:
                away = chair.away_since if chair.away_since is not None else run.since
                if now - max(away, run.since) >= self.timing.seat_timeout:
                    return self._void(run.ctx.deal, f"seat {author} ({name}) is away: the hand cannot go "
                                                    "on without it", "", now)
            elif not deciding and now - max(run.since, chair.back_since) >= self.timing.step:
                play = run.play
                step = ("kept back its opening at the hand's end (a refused reveal)" if play.over else
                        "stalled its step of the deal" if not play.dealer.fixed else
                        "stalled its step of the hand")
                chair.substituted = True
                note = Note(f"seat {author} ({name}) stalls: a bot of this node plays it from the next deal "
                            "until its node connects again")
                return [note, *self._void(run.ctx.deal, f"seat {author} ({name}) {step} for "
                                                        f"{self.timing.step:g} s", node, now)]
        return []

    def next_deadline(self, now: float) -> float | None:
        """When :meth:`tick` has something to do at the latest (None: nothing timed)."""
        times: list[float] = []
        if self.phase in ("seating", "over", "resigned"):
            return None
        if self.phase == "paused" or not self.quorum():
            return now + 1.0
        for chair in self.chairs:
            if chair.info is not None and not chair.connected and not chair.substituted \
                    and chair.away_since is not None:
                times.append(chair.away_since + (0 if chair.info.local else self.timing.seat_timeout))
        if self.phase == "gathering":
            times.append(self.gather_until)
        run = self.run
        if run is not None and self.phase == "checking":
            times.append(run.checks_until)
        if run is not None and self.phase in ("dealing", "playing") and run.waiting[0]:
            timing = self.timing
            wait = timing.seat_timeout if run.waiting[1] else min(timing.step, timing.seat_timeout)
            for author in run.waiting[0]:
                back = self.chairs[author].back_since if 0 <= author < len(self.chairs) else 0.0
                times.append(max(run.since, back) + wait)
        return min(times) if times else None

    # -- starting, gathering -------------------------------------------------------------------
    def _maybe_start(self, now: float) -> list[Effect]:
        if self.phase != "seating" or self.free:
            return []
        self.phase = "gathering" if self.takeover else "dealing"
        out: list[Effect] = [Note(f"table {self.info.name!r} is full: " +
                                  ", ".join(f"{s.seat}: {s.name}" for s in self.roster()) +
                                  f"; roster {self.fingerprint()}")]
        if self.phase == "gathering":
            return out + self._maybe_gathered(now)
        return out + self._next_deal(now)

    def _away_now(self) -> list[Effect]:
        """Seats whose node is not connected and that the host agreement has not heard from for
        an election timeout are away now: a bot plays them from this deal (their node is down
        or cut off; it gets its seat back from the deal after it returns)."""
        if self.reachable is None:
            return []
        reach = self.reachable()
        out: list[Effect] = []
        for seat, chair in enumerate(self.chairs):
            info = chair.info
            if (info is not None and not info.local and not chair.connected and not chair.substituted
                    and info.node != self.me and info.node not in reach):
                chair.substituted = True
                out.append(Note(f"seat {seat} ({info.name}) is out of reach: a bot of this node plays it "
                                "until it returns"))
        return out

    def _maybe_gathered(self, now: float) -> list[Effect]:
        others = [c for c in self.chairs
                  if c.info is not None and not c.info.local and c.info.node != self.me]
        out: list[Effect] = self._away_now()
        waiting = not all(c.connected or c.substituted for c in others) or self.sheet.done < self.expect_done
        if (now < self.gather_until and waiting) or not self.quorum():
            return out
        self.phase = "dealing"
        self.takeover = False
        dropped = self.last_deal
        if dropped > self.sheet.done:
            return out + self._void(dropped, "the host was lost during this deal; it is dealt again", "", now)
        return out + self._next_deal(now)

    # -- the hand's log -----------------------------------------------------------------------------
    def _next_deal(self, now: float) -> list[Effect]:
        if self.sheet.table.over:
            self.phase = "over"
            self.run = None
            return [Note(f"table {self.info.name!r} is over"), TableDone()]
        if not self.quorum():
            self.phase = "paused"
            self.run = None
            return [Note("most of the table is out of reach: the next deal waits for them")]
        notes = self._away_now()
        deal = max(self.last_deal, self.sheet.done) + 1
        self.last_deal = deal
        table = self.sheet.table
        dealer = table.dealer
        active = self.game.active(dealer)
        bots = tuple(s for s, c in enumerate(self.chairs)
                     if c.substituted or (c.info is not None and c.info.local and not c.connected))
        ctx = DealContext(self.info.id, self.epoch, deal, self.info.seats)
        begin = Begin(table.round, dealer, active, self.info.dealing, bots)
        roster = roster_of(self.roster(), self.me, bots)
        play = HandPlay(self.game, ctx, begin, roster, None, signer=self.identity, host=True, checks=False,
                        rand=self.rand)
        run = Run(ctx, table.round, dealer, active, play, since=now)
        self.run = run
        self.phase = "dealing"
        self.store.put_progress(self.info.id, deal, "begin",
                                {"epoch": self.epoch, "round": table.round, "dealer": dealer,
                                 "active": list(active)})
        for seat in bots:
            run.subs[seat] = Sub(HandPlay(self.game, ctx, begin, roster, seat, signer=self.identity,
                                          checks=True, rand=self.rand), self._bot(seat))
        env = play.sign(begin)
        return notes + self._log(run, env, None, now)

    def _log(self, run: Run, env: Signed, sender: str | None, now: float) -> list[Effect]:
        """Put ``env`` in the log if it keeps the rules (else void, naming its sender or the
        author at fault), send it to everyone, and let the host's own parts answer."""
        queue: list[tuple[Signed, str | None]] = [(env, sender)]
        out: list[Effect] = []
        while queue:
            item, sender = queue.pop(0)
            try:
                outs = run.play.receive(item)
            except HandFault as exc:
                culprit = self._node_of(exc.author) if exc.author not in (None, HOST) else (sender or self.me)
                if exc.author == HOST and sender is None:
                    culprit = self.me
                return out + self._fault(run, exc.reason, culprit, now)
            run.log.append(item)
            run.since = now
            out += [Send(node, item) for node, _ in self._audience()]
            queue += [(o.env, None) for o in outs if o.to is None]
            out += self._privates(run, [o for o in outs if o.to is not None], now)
            if self.run is not run:
                return out
            for seat, sub in list(run.subs.items()):
                try:
                    answers = sub.play.receive(item)
                except HandFault as exc:
                    return out + self._fault(run, f"the bot of seat {seat} found: {exc.reason}",
                                             self._node_of(exc.author) if exc.author is not None else "", now)
                queue += [(o.env, None) for o in answers if o.to is None]
                out += self._privates(run, [o for o in answers if o.to is not None], now, seat)
                if self.run is not run:
                    return out
                out += self._sub_decide(run, sub)
        run.waiting = (tuple(run.play.waiting()[0]), run.play.waiting()[1])
        self.phase = "playing" if run.play.dealer.fixed else "dealing"
        if run.play.opened:
            out += self._finish(run, now)
        return out

    def _privates(self, run: Run, outs: list[Out], now: float, from_seat: int | None = None) -> list[Effect]:
        """Private dealing messages: to a seat's node, or (from a bot's seat) to the host itself,
        or (to a seat a bot plays) to that bot.  One the host's own parts refuse voids the deal
        (the hand could not go on without it), naming the author the refusal names."""
        effects: list[Effect] = []
        for o in outs:
            try:
                if o.to == HOST:
                    answers = run.play.private(from_seat if from_seat is not None else HOST, o.env)
                    effects += self._privates(run, [a for a in answers if a.to is not None], now)
                    if self.run is not run:
                        return effects
                    continue
                assert o.to is not None
                if o.to in run.subs:
                    run.subs[o.to].play.private(HOST, o.env)
                    continue
            except HandFault as exc:
                culprit = self._node_of(exc.author) if exc.author is not None else ""
                return [*effects, *self._fault(run, f"a private message was refused: {exc.reason}", culprit,
                                               now)]
            chair = self.chairs[o.to]
            if chair.info is not None and chair.connected:
                effects.append(Send(chair.info.node, o.env))
        return effects

    def _sub_decide(self, run: Run, sub: Sub) -> list[Effect]:
        """Ask the bot of a seat the host plays (the driver answers with :meth:`stand_in_decided`)."""
        ask: Ask | None = sub.play.ask()
        if ask is None or ask.index == sub.asked:
            return []
        sub.asked = ask.index
        return [Decide(ask.obs, run.ctx.deal, ask.index)]

    def stand_in(self, seat: int) -> Policy:
        """The bot that plays ``seat`` for the host's node (the one a :class:`Decide` asks)."""
        return self._bot(seat)

    def stand_in_decided(self, deal: int, index: int, action: Action, now: float) -> list[Effect]:
        """The bot of ``action.seat`` chose ``action`` for the question ``index`` of ``deal``;
        an answer to a deal or question that is over is dropped."""
        run = self.run
        sub = run.subs.get(action.seat) if run is not None and run.ctx.deal == deal else None
        ask = sub.play.ask() if sub is not None and sub.asked == index else None
        if run is None or sub is None or ask is None or ask.index != index or action not in ask.obs.legal:
            return []
        outs, refusal = sub.play.decide(index, action)
        if refusal is not None:
            raise RuntimeError(f"the substitute bot of seat {action.seat} chose an illegal action: {refusal}")
        out: list[Effect] = []
        for o in outs:
            if self.run is run:
                out += self._log(run, o.env, None, now)
        return out

    def _bot(self, seat: int) -> Policy:
        chair = self.chairs[seat]
        if chair.bot is None:
            if self.bot_for is None:
                raise RuntimeError("no bot to play an absent seat")
            chair.bot = self.bot_for(seat)
        return chair.bot

    def _fault(self, run: Run, reason: str, culprit: str, now: float) -> list[Effect]:
        return self._void(run.ctx.deal, reason, culprit, now)

    def _finish(self, run: Run, now: float) -> list[Effect]:
        """Every secret is opened: audit (the whole log with every proof when anyone accused
        anyone), send the record, wait for the checks."""
        bots = run.play.begin.bots
        verdict = audit(run.play, run.round, self.game.hash, bots)
        if not verdict.ok or run.play.fault is not None:
            verdict = judge(self.game, run, self.roster(), self.me, run.round, self.game.hash)
        if not verdict.ok:
            culprit = self._node_of(verdict.culprit) if verdict.culprit is not None else ""
            return self._void(run.ctx.deal, verdict.reason, culprit, now)
        record = verdict.record
        assert record is not None
        try:
            self.game.check(record)
        except CheckFailed as exc:
            return self._void(run.ctx.deal, f"the host's own record does not hold: {exc.reason}", self.me,
                              now)
        run.record = record
        self.phase = "checking"
        run.pending = {node for node, seat in self._audience() if seat is not None}
        run.checks_until = now + self.timing.check
        out: list[Effect] = [self._send(node, HandEnd(record), run.ctx.deal) for node, _ in self._audience()]
        return out + self._maybe_counted(now)

    def _maybe_counted(self, now: float) -> list[Effect]:
        run = self.run
        if run is None or self.phase != "checking" or run.pending or run.record is None:
            return []
        self.run = None
        return self._propose(Outcome(run.ctx.deal, run.record))

    def _propose(self, outcome: Outcome) -> list[Effect]:
        """Put a deal's outcome in the table's log; the next deal begins once it is committed."""
        self.phase = "committing"
        self.awaiting = outcome.deal
        self.last_deal = max(self.last_deal, outcome.deal)
        return [Propose(outcome)]

    def committed(self, outcome: Outcome, now: float) -> list[Effect]:
        """The table's log committed ``outcome`` (this host's or an earlier host's): it counts.
        Outcomes come in log order, each deal once; one this host holds already changes
        nothing."""
        deal = outcome.deal
        out: list[Effect] = []
        if deal not in self.sheet.counted and deal not in self.sheet.void:
            out += self._enter(outcome)
        self.store.save_outcome(self.info.id, *outcome.row())
        self.last_deal = max(self.last_deal, deal)
        if self.phase == "gathering":
            return out + self._maybe_gathered(now)
        if self.phase != "committing" or self.awaiting is None or deal < self.awaiting:
            return out
        self.awaiting = None
        if self.resigning:
            return out + self._resign()
        return out + self._next_deal(now)

    def _enter(self, outcome: Outcome) -> list[Effect]:
        """``outcome`` on this host's score sheet."""
        if outcome.record is None:
            self.sheet.void.add(outcome.deal)
            return []
        try:
            finished = self.game.check(outcome.record)
        except CheckFailed as exc:  # a record this node cannot accept: the table's log holds it
            self.sheet.void.add(outcome.deal)
            return [Note(f"deal {outcome.deal}: the log's record does not hold here: {exc.reason}")]
        self.own_voids = 0
        self.sheet.count(finished)
        return []

    # -- faults and voids ------------------------------------------------------------------------
    def _node_of(self, seat: int | None) -> str:
        """The node that answers for ``seat`` in the deal in progress: the host's for a seat its
        bot plays (``begin.bots``), else the seat's own."""
        if seat is None or seat == HOST or (self.run is not None and seat in self.run.play.begin.bots):
            return self.me
        info = self.chairs[seat].info if 0 <= seat < len(self.chairs) else None
        return info.node if info is not None else ""

    def _void(self, deal: int, reason: str, culprit: str, now: float,
              host_named: bool = False) -> list[Effect]:
        """Void ``deal`` naming ``culprit`` ("": nobody); ``host_named``: a seat named this host
        (counted with the voids that name it, :data:`OWN_VOIDS`)."""
        self.own_voids = self.own_voids + 1 if culprit == self.me or host_named else 0
        resign = self.own_voids >= OWN_VOIDS
        if resign:
            reason = (f"{reason[:200]}; the host was named for {self.own_voids} deals in a row: it stops "
                      "dealing, and the next node in succession hosts the table")
        who = f" ({culprit[:8]} is at fault)" if culprit else ""
        out: list[Effect] = [Note(f"deal {deal} is void: {reason}{who}")]
        out += [self._send(node, Void(deal, reason[:300], culprit), deal) for node, _ in self._audience()]
        self.run = None
        self.resigning = resign
        return out + self._propose(Outcome(deal, None, reason[:300], culprit))

    def _resign(self) -> list[Effect]:
        """Stop hosting: this node's own entries were at fault deal after deal (a host whose
        messages no seat accepts would void and redeal for ever).  Every connection is closed;
        the seats go through the succession as when a host is lost (docs/protocol.md, "Host
        loss"), and this node's own seat joins the new host."""
        self.phase = "resigned"
        why = f"the host was named for {self.own_voids} deals in a row and stops hosting"
        out: list[Effect] = [Note(f"table {self.info.name!r}: {why}; the next node in succession takes over")]
        out += [Drop(node, "resigned", why) for node, _ in self._audience()]
        return out + self.step_down(self.epoch, "")

    # -- messages ----------------------------------------------------------------------------------
    def receive(self, node: str, body: object, now: float) -> list[Effect]:
        """A body from a connected node."""
        self.messages += 1
        seat = self.seat_of(node)
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
            if body.to:
                if body.to != self.me or not isinstance(inner, Dealing):
                    return self._forged(node, seat, "a private message that is not the host's", now)
                try:
                    outs = run.play.private(seat, body)
                except HandFault as exc:
                    return self._fault(run, exc.reason, node, now)
                out: list[Effect] = self._privates(run, [o for o in outs if o.to is not None], now)
                for o in outs:
                    if o.to is None and self.run is run:
                        out += self._log(run, o.env, None, now)
                return out
            return self._log(run, body, node, now)
        if not self._signed_by(node, body):
            return self._forged(node, seat, "a table message with a bad signature", now)
        if isinstance(inner, Checked):
            return self._on_checked(node, inner, now)
        if isinstance(inner, Record):
            return self._on_record(node, inner, now)
        return [Drop(node, "protocol", f"a seat may not send {inner.tag!r}")]

    def _signed_by(self, node: str, env: Signed) -> bool:
        seat = self.seat_of(node)
        info = self.chairs[seat].info if seat is not None else None
        if info is None or env.table != self.info.id or env.to != self.me:
            return False
        return verify(bytes.fromhex(info.key), signed_bytes(dump(env)), env.sig)

    def _forged(self, node: str, seat: int, why: str, now: float) -> list[Effect]:
        run = self.run
        if run is not None and self.phase in ("dealing", "playing"):
            return self._void(run.ctx.deal, f"seat {seat} sent {why}", node, now)
        return [Drop(node, "protocol", why)]

    def _on_checked(self, node: str, body: Checked, now: float) -> list[Effect]:
        run = self.run
        if (run is not None and not body.ok and body.deal == run.ctx.deal and body.culprit == self.me
                and self.phase in ("dealing", "playing")):
            # A seat found an entry of this host's bad and stopped the hand on its side: it will
            # not go on, so the deal is void now (not named for stalling later).  Only that seat
            # saw the entry, so nobody is named here (its own store names the host); it counts
            # as a deal that named the host.
            seat = self.seat_of(node)
            info = self.chairs[seat].info if seat is not None else None
            name = info.name if info is not None else "?"
            return self._void(body.deal, f"seat {seat} ({name}) cannot accept the host's entries: "
                                         f"{body.reason}", "", now, host_named=True)
        if (run is not None and not body.ok and body.deal == run.ctx.deal and body.culprit == node
                and node != self.me and self.phase in ("dealing", "playing") and run.play.fault is None):
            # A seat says its own entries no longer hold with what its node holds: its store lost
            # them (docs/protocol.md, "A node that lost its memory").  The hand cannot go on
            # without its secret, as for a seat away too long: void, nobody named (not once the
            # log holds a fault: that is judged as any other).
            seat = self.seat_of(node)
            info = self.chairs[seat].info if seat is not None else None
            name = info.name if info is not None else "?"
            return self._void(body.deal, f"seat {seat} ({name}) lost its memory of this deal (its store): "
                                         "it is dealt again", "", now)
        if run is None or self.phase != "checking" or body.deal != run.ctx.deal:
            if not body.ok and body.deal in self.sheet.counted:
                return [Note(f"{node[:8]}'s check of deal {body.deal} failed after the table counted it: "
                             f"{body.reason}")]
            return []
        run.pending.discard(node)
        if not body.ok:
            if body.log and body.log != run.play.head:
                return self._void(body.deal, f"{node[:8]} holds another log of the hand", self.me, now)
            verdict = judge(self.game, run, self.roster(), self.me, run.round, self.game.hash)
            if verdict.ok:
                return self._void(body.deal, f"{node[:8]} claims a fault the log does not show: "
                                             f"{body.reason}", node, now)
            culprit = self._node_of(verdict.culprit) if verdict.culprit is not None else ""
            return self._void(body.deal, verdict.reason, culprit, now)
        return self._maybe_counted(now)

    def _on_record(self, node: str, body: Record, now: float) -> list[Effect]:
        if body.deal <= self.sheet.done or body.deal in self.sheet.void or (body.deal <= self.last_deal \
                and self.phase != "gathering") or body.deal in self.proposed:
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
        self.proposed.add(body.deal)
        self.last_deal = max(self.last_deal, body.deal)
        return [Note(f"deal {body.deal} learned from {node[:8]}"), Propose(Outcome(body.deal, body.record))]

    def step_down(self, epoch: int, host: str) -> list[Effect]:
        self.stale = True
        return [StepDown(epoch, host)]


def envelope_of(raw: object) -> Signed:
    env = parse(raw, "body")
    assert isinstance(env, Signed)
    return env


__all__ = ["Admit", "Chair", "HostCore", "Reject", "Run", "envelope_hash", "envelope_of", "judge"]


LOG_PART: Final = MAX_FRAME // 2
"""The most bytes of entries in one ``log`` message (the rest of its frame: envelope and seal)."""


def log_parts(entries: list[Any]) -> list[tuple[Any, ...]]:
    """``entries`` cut into runs of at most :data:`LOG_PART` bytes each (one at least; an
    empty log is one empty part)."""
    parts: list[tuple[Any, ...]] = []
    run: list[Any] = []
    size = 0
    for entry in entries:
        n = len(msgpack.packb(entry, use_bin_type=True))
        if run and size + n > LOG_PART:
            parts.append(tuple(run))
            run, size = [], 0
        run.append(entry)
        size += n
    parts.append(tuple(run))
    return parts
