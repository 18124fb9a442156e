"""The deal in progress as its host sequences it, sans-IO.

A :class:`Run` holds the hand's log and the host's :class:`~net.handplay.HandPlay`
(without the proofs).  :meth:`Run.take` checks an entry against the rules of the
log, appends it and relays it to every node, and lets the host's own parts (the
dealer's messages, the bots of away seats) answer.  An entry that breaks the
rules is a :data:`Fault`: the host voids the deal.  :func:`judge` replays a
whole log with every proof checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgpack

from tarock.core.table import Table
from tarock.net.audit import Verdict, audit
from tarock.net.dealing import HOST, DealContext, RandomBytes
from tarock.net.effects import Effect, Note, Send
from tarock.net.game import CheckFailed, Game
from tarock.net.handplay import HandFault, HandPlay, Out, roster_of
from tarock.net.host_seating import Seating
from tarock.net.protocol.limits import MAX_FRAME
from tarock.net.protocol.messages import Begin, Checked, Dealing, Log, SeatInfo, Signed, dump, parse
from tarock.net.standins import Sub, sub_question

Fault = tuple[str, str]
"""Why a deal is void and the node at fault ("": nobody)."""

Step = tuple[list[Effect], Fault | None]
"""What a step of the log sends, and the fault that stops it (None: it went on)."""


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

    def take(self, env: Signed, sender: str | None, now: float, seating: Seating) -> Step:
        """Put ``env`` in the log if it keeps the rules (else the fault, naming its sender or the
        author at fault), send it to everyone, and let the host's own parts answer."""
        queue: list[tuple[Signed, str | None]] = [(env, sender)]
        out: list[Effect] = []
        bots = self.play.begin.bots
        while queue:
            item, sender = queue.pop(0)
            try:
                outs = self.play.receive(item)
            except HandFault as exc:
                culprit = seating.node_of(exc.author, bots) if exc.author not in (None, HOST) \
                    else (sender or seating.me)
                if exc.author == HOST and sender is None:
                    culprit = seating.me
                return out, (exc.reason, culprit)
            self.log.append(item)
            self.since = now
            out += [Send(node, item) for node, _ in seating.audience()]
            queue += [(o.env, None) for o in outs if o.to is None]
            sent, fault = self.privates([o for o in outs if o.to is not None], seating)
            out += sent
            if fault is not None:
                return out, fault
            for seat, sub in list(self.subs.items()):
                try:
                    answers = sub.play.receive(item)
                except HandFault as exc:
                    why = f"the bot of seat {seat} found: {exc.reason}"
                    return out, (why, self.culprit(exc.author, seating))
                queue += [(o.env, None) for o in answers if o.to is None]
                sent, fault = self.privates([o for o in answers if o.to is not None], seating, seat)
                out += sent
                if fault is not None:
                    return out, fault
                out += sub_question(sub, self.ctx.deal)
        waiting, decision = self.play.waiting()
        self.waiting = (tuple(waiting), decision)
        return out, None

    def privates(self, outs: list[Out], seating: Seating, from_seat: int | None = None) -> Step:
        """Private dealing messages: to a seat's node, or (from a bot's seat) to the host itself,
        or (to a seat a bot plays) to that bot.  One the host's own parts refuse is a fault (the
        hand could not go on without it), naming the author the refusal names."""
        effects: list[Effect] = []
        for o in outs:
            try:
                if o.to == HOST:
                    answers = self.play.private(from_seat if from_seat is not None else HOST, o.env)
                    sent, fault = self.privates([a for a in answers if a.to is not None], seating)
                    effects += sent
                    if fault is not None:
                        return effects, fault
                    continue
                assert o.to is not None
                if o.to in self.subs:
                    self.subs[o.to].play.private(HOST, o.env)
                    continue
            except HandFault as exc:
                why = f"a private message was refused: {exc.reason}"
                return effects, (why, self.culprit(exc.author, seating))
            chair = seating.chairs[o.to]
            if chair.info is not None and chair.connected:
                effects.append(Send(chair.info.node, o.env))
        return effects, None

    def take_private(self, seat: int, body: Signed, node: str, seating: Seating) -> tuple[list[Effect],
                                                                                        Fault | None,
                                                                                        list[Signed]]:
        """A seat's private dealing message to the host (from ``node``): what it sends privately,
        the fault it is, and the entries it puts in the log."""
        try:
            outs = self.play.private(seat, body)
        except HandFault as exc:
            return [], (exc.reason, node), []
        out, fault = self.privates([o for o in outs if o.to is not None], seating)
        return out, fault, [o.env for o in outs if o.to is None]

    def checks_overdue(self) -> Note:
        """The seats' checks of the record did not all come in time: they are not waited for."""
        note = Note(f"no check of deal {self.ctx.deal} from {len(self.pending)} node(s) in time")
        self.pending.clear()
        return note

    def culprit(self, seat: int | None, seating: Seating) -> str:
        """The node that answers for an entry of ``seat`` in this deal (None: nobody)."""
        return seating.node_of(seat, self.play.begin.bots) if seat is not None else ""

    def catch_up(self, node: str, seat: int | None, seating: Seating) -> list[Effect]:
        """For a node that (re)connects mid-hand: the log so far, and its seat's private cards."""
        parts = log_parts([dump(e) for e in self.log])
        out: list[Effect] = [seating.send(node, Log(part, more=i < len(parts) - 1), self.ctx.deal)
                             for i, part in enumerate(parts)]
        if seat is not None and seat not in self.subs:  # a bot's cards stay with the bot
            out += [Send(node, self.play.sign(Dealing(o.payload), o.to))
                    for o in self.play.dealer.resend(seat)]
        return out


def new_run(game: Game, seating: Seating, table: Table, deal: int, rand: RandomBytes, now: float) -> Run:
    """The next deal: the host's play of it, and a bot's for every seat whose player is away."""
    dealer = table.dealer
    active = game.active(dealer)
    bots = seating.bots()
    info = seating.info
    ctx = DealContext(info.id, seating.epoch, deal, info.seats)
    begin = Begin(table.round, dealer, active, info.dealing, bots)
    roster = roster_of(seating.roster(), seating.me, bots)
    play = HandPlay(game, ctx, begin, roster, None, signer=seating.identity, host=True, checks=False,
                    rand=rand)
    run = Run(ctx, table.round, dealer, active, play, since=now)
    for seat in bots:
        run.subs[seat] = Sub(HandPlay(game, ctx, begin, roster, seat, signer=seating.identity, checks=True,
                                      rand=rand), seating.bot(seat))
    return run


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


def record_of(game: Game, run: Run, seating: Seating) -> tuple[dict[str, Any] | None, Fault | None]:
    """Every secret is opened: the hand's record by the audit (by the whole log judged when anyone
    accused anyone), or the fault that voids the deal."""
    verdict = audit(run.play, run.round, game.hash, run.play.begin.bots)
    if not verdict.ok or run.play.fault is not None:
        verdict = judge(game, run, seating.roster(), seating.me, run.round, game.hash)
    if not verdict.ok:
        return None, (verdict.reason, run.culprit(verdict.culprit, seating))
    assert verdict.record is not None
    try:
        game.check(verdict.record)
    except CheckFailed as exc:
        return None, (f"the host's own record does not hold: {exc.reason}", seating.me)
    return verdict.record, None


def stopped_by(run: Run, node: str, body: Checked, seating: Seating) -> tuple[str, bool] | None:
    """A seat's failed check that stops the hand in progress: why it is void (nobody named), and
    whether it counts as a deal that named the host; None: the check is judged as any other."""
    seat = seating.seat_of(node)
    if body.culprit == seating.me:
        # A seat found an entry of this host's bad and stopped the hand on its side: it will
        # not go on, so the deal is void now (not named for stalling later).  Only that seat
        # saw the entry, so nobody is named here (its own store names the host); it counts
        # as a deal that named the host.
        return (f"seat {seat} ({seating.name_of(seat)}) cannot accept the host's entries: {body.reason}",
                True)
    if body.culprit == node and node != seating.me and run.play.fault is None:
        # A seat says its own entries no longer hold with what its node holds: its store lost
        # them (docs/protocol.md, "A node that lost its memory").  The hand cannot go on
        # without its secret, as for a seat away too long: void, nobody named (not once the
        # log holds a fault: that is judged as any other).
        return (f"seat {seat} ({seating.name_of(seat)}) lost its memory of this deal (its store): it is "
                "dealt again", False)
    return None


def claim(game: Game, run: Run, node: str, body: Checked, seating: Seating) -> Fault:
    """A seat's check of the record failed: who is at fault, by the whole log judged."""
    if body.log and body.log != run.play.head:
        return f"{node[:8]} holds another log of the hand", seating.me
    verdict = judge(game, run, seating.roster(), seating.me, run.round, game.hash)
    if verdict.ok:
        return f"{node[:8]} claims a fault the log does not show: {body.reason}", node
    return verdict.reason, run.culprit(verdict.culprit, seating)


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
