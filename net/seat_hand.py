"""Following a hand's log at one seat (or a watcher), sans-IO.

The seat follows each hand's log (:class:`~net.handplay.HandPlay`): it takes
part in the dealing, makes its shares, plays on its virtual deal, asks its
player when it is to move (``Decide``), and once every secret is opened audits
the hand (:func:`net.audit.audit`).  A seat that finds someone cheating says
so in the log (``fault``): the hand stops, every secret is opened and the
audit names the culprit.  Its dealing secrets are on disk before they are used,
so a restarted node resumes the deal it was in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from tarock.core.observation import Observation
from tarock.net.audit import Verdict, audit
from tarock.net.dealing import HOST, DealContext, RandomBytes
from tarock.net.effects import (
    Acted,
    Decide,
    Drop,
    Effect,
    HandBegins,
    Note,
    Show,
    ToHost,
    TrickOver,
    Voided,
)
from tarock.net.handplay import HandFault, HandPlay, Out, entry_hash, roster_of
from tarock.net.protocol.messages import (
    Begin,
    Checked,
    Log,
    Message,
    MessageError,
    Signed,
    inner_of,
    parse,
    plain,
)
from tarock.net.seat_table import SeatTable


@dataclass
class SeatRun:
    """The deal in progress as this seat knows it."""

    ctx: DealContext
    begin: Begin
    play: HandPlay
    hashes: set[str]
    shown: int = -1
    """The number of actions of the last observation shown."""
    obs: Observation | None = None
    began: bool = False
    asked: int = -1
    verdict: Verdict | None = None
    stopped: bool = False
    stored: dict[str, Any] | None = None
    """The dealing secret last written to the store."""
    accuse: tuple[str, str] | None = None
    """A cheat found while reading a snapshot: accused once the snapshot is read through."""
    fresh: bool = False
    """The seat's secret for this deal was made by this process (its store held none)."""
    sent: bool = False
    """This seat sent an entry of this deal (from this process)."""
    forgot: bool = False
    """The log holds an entry of this seat's that this process did not send, and its store held no
    secret for the deal: its store lost it.  An entry of its own that does not hold is then its
    lost memory, not a cheat."""


class HandFollower:
    """The deal in progress at one seat: its log, its secrets, its questions to the player."""

    def __init__(self, table: SeatTable, rand: RandomBytes = os.urandom) -> None:
        self.table = table
        self.rand = rand
        self.run: SeatRun | None = None
        self.pending_secret: tuple[int, int, dict[str, Any]] | None = None
        """(epoch, deal, secret) of the deal in progress when the node restarted."""
        self.shows = True
        """Every change is shown (a person's screen); False: only the decisions (a bot)."""

    @property
    def deal(self) -> int:
        pending = self.pending_secret[1] if self.pending_secret is not None else 0
        return max(self.table.done, self.run.ctx.deal if self.run is not None else 0, pending)

    def restore(self, table_id: str) -> None:
        """The dealing secret of the deal in progress when the node stopped, from its store."""
        progress = self.table.store.progress_deals(table_id)
        if progress:
            deal = progress[-1]
            stored = self.table.store.progress(table_id, deal)
            begin = stored.get("begin")
            if isinstance(begin, dict) and isinstance(stored.get("secret"), dict):
                self.pending_secret = (int(begin.get("epoch", 0)), deal, stored["secret"])

    def forget(self, deal: int) -> None:
        """A deal up to ``deal`` is over (counted or void): the run of it ends."""
        if self.run is not None and self.run.ctx.deal <= deal:
            self.run = None

    def node_of(self, seat: int | None) -> str:
        """The node that answers for ``seat`` in the deal in progress ("": nobody)."""
        return self.table.node_of(seat, self.run.begin.bots if self.run is not None else ())

    def on_log(self, env: Signed, log: Log) -> list[Effect]:
        out: list[Effect] = []
        for raw in log.entries:
            try:
                entry = parse(raw, "body")
            except MessageError as exc:
                return [*out, Drop(self.table.host, "protocol", f"a bad entry in the log: {exc}")]
            assert isinstance(entry, Signed)
            out += self.on_entry(entry, batch=True)
            if self.run is not None and self.run.stopped:
                break
        if log.more:
            return out  # the rest of the snapshot follows: nothing is sent before it is read
        run = self.run
        if run is not None and not run.stopped:
            # Only now: the snapshot may hold what this node sent before it restarted.
            if run.accuse is not None and not self.table.watch and run.play.me is not None:
                out += self.outs(run, run.play.accuse(*run.accuse))
            run.accuse = None
            out += self.outs(run, run.play.flush())
        return out + self.after()

    def on_entry(self, env: Signed, inner: Message | None = None, batch: bool = False) -> list[Effect]:
        """An entry of the hand's log (``inner``: its body, when the caller read it already)."""
        assert self.table.info is not None and self.table.game is not None
        run = self.run
        if env.to:
            if run is None or (run.ctx.deal, run.ctx.epoch, env.to) != (env.deal, env.epoch, self.table.me):
                return [Note(f"private message for deal {env.deal} ignored")]
            try:
                outs = run.play.private(HOST, env)
            except HandFault as exc:
                return self._fault(run, exc)
            return self.outs(run, outs) + ([] if batch else self.after())
        if inner is None:
            inner = inner_of(env)
        if isinstance(inner, Begin):
            if env.epoch < self.table.epoch or env.deal <= self.table.done:
                return [Note(f"begin of deal {env.deal} (epoch {env.epoch}) ignored: old")]
            if run is None or run.ctx.deal != env.deal or run.ctx.epoch != env.epoch:
                run = self._new_run(env, inner)
                if run is None:
                    return [Drop(self.table.host, "protocol", f"the deal uses {inner.dealing!r}, the table "
                                                             f"{self.table.info.dealing!r}")]
        if run is None or run.ctx.deal != env.deal or run.ctx.epoch != env.epoch:
            return [Note(f"{inner.tag} of deal {env.deal} ignored: not the deal in progress")]
        if run.stopped:
            return []
        digest = entry_hash(env)
        if digest in run.hashes:
            return []
        if run.fresh and not run.sent and env.author == self.table.me and env.seat == self.table.seat:
            run.forgot = True
        try:
            outs = run.play.receive(env, send=not batch)
        except HandFault as exc:
            return self._fault(run, exc, batch)
        run.hashes.add(digest)
        return self.outs(run, outs) + ([] if batch else self.after())

    def _new_run(self, env: Signed, begin: Begin) -> SeatRun | None:
        t = self.table
        assert t.info is not None and t.game is not None
        if begin.dealing != t.info.dealing:
            return None
        ctx = DealContext(t.info.id, env.epoch, env.deal, t.info.seats)
        secret = None
        stored = self.pending_secret
        if stored is not None and stored[:2] == (env.epoch, env.deal):
            secret = stored[2]
        mine = t.seat if not t.watch and t.seat not in begin.bots else None
        roster = roster_of(t.roster, t.host)
        play = HandPlay(t.game, ctx, begin, roster, mine, signer=t.identity if mine is not None else None,
                        checks=mine is not None, secret=secret, rand=self.rand)
        run = SeatRun(ctx, begin, play, set(), fresh=mine is not None and secret is None)
        self.run = run
        if mine is not None:
            # The secrets are on disk before the first message that uses them leaves this node.
            t.store.put_progress(t.info.id, env.deal, "begin", {"epoch": env.epoch, **plain(begin)})
            run.stored = play.secret()
            t.store.put_progress(t.info.id, env.deal, "secret", run.stored)
        return run

    def outs(self, run: SeatRun, outs: list[Out]) -> list[Effect]:
        run.sent = run.sent or bool(outs)
        if outs and run.play.me is not None and self.table.info is not None:
            secret = run.play.secret()
            if secret != run.stored:
                # A new dealing secret (a redeal) is on disk before anything made with it leaves.
                self.table.store.put_progress(self.table.info.id, run.ctx.deal, "secret", secret)
                run.stored = secret
        return [ToHost(o.env) for o in outs]

    def after(self) -> list[Effect]:
        """What follows from the log as it stands: the screen, a decision, the hand's end."""
        run = self.run
        if run is None or run.stopped:
            return []
        play = run.play
        out: list[Effect] = []
        if play.opened and run.verdict is None:
            assert self.table.game is not None
            run.verdict = audit(play, run.begin.round, self.table.game.hash, run.begin.bots)
            if not run.verdict.ok:
                culprit = self.node_of(run.verdict.culprit)
                out.append(Note(f"the audit of deal {run.ctx.deal} names {culprit[:8] or 'nobody'}: "
                                f"{run.verdict.reason}"))
            return out
        if play.over:
            return out
        k = len(play.acts)
        if play.ready and play.step_complete(k) and (self.shows or not run.began):
            obs = play.observation()
            if obs is not None and k != run.shown:
                out += self._show(run, obs)
        ask = play.ask()
        if ask is not None and ask.index != run.asked:
            run.asked = ask.index
            out.append(Decide(ask.obs, run.ctx.deal, ask.index))
        return out

    def _show(self, run: SeatRun, obs: Observation) -> list[Effect]:
        out: list[Effect] = []
        before = run.obs
        if not run.began:
            run.began = True
            table = self.table.sheet.table if self.table.sheet is not None else None
            if table is not None:
                out.append(Show(HandBegins(obs, table.round, table.rounds, table.passed_out + 1,
                                           tuple(run.begin.bots))))
        elif before is not None and len(obs.history) == len(before.history) + 1:
            out.append(Show(Acted(obs, before.phase)))
            if len(obs.tricks) > len(before.tricks):
                out.append(Show(TrickOver(obs, obs.tricks[-1])))
        run.obs = obs
        run.shown = len(obs.history)
        return out

    def _fault(self, run: SeatRun, exc: HandFault, batch: bool = False) -> list[Effect]:
        """An entry breaks the rules: say so in the log (every secret is opened, the audit
        names the culprit); a host that relayed it is named at once.  In a snapshot the
        accusation waits until the snapshot is read (it may hold this node's own entries)."""
        culprit = self.node_of(exc.author)
        if culprit == self.table.me and run.forgot:
            return self._forgot(run, exc.reason)
        out: list[Effect] = [Note(f"deal {run.ctx.deal}: {exc.reason}")]
        if batch and exc.author != HOST:
            if run.accuse is None:
                run.accuse = (culprit, exc.reason)
            return out
        if exc.author == HOST:
            run.stopped = True
            deal = run.ctx.deal
            if self.table.info is not None and not self.table.watch:
                self.table.store.save_outcome(self.table.info.id, deal, None, exc.reason, culprit)
            if self.table.sheet is not None:
                self.table.sheet.void.add(deal)
            out.append(Show(Voided(deal, exc.reason, culprit)))
            if not self.table.watch:
                out.append(self.table.to_host(Checked(deal, False, culprit, exc.reason[:200], ""), deal))
            return out
        if self.table.watch or run.play.me is None:
            return out
        return out + self.outs(run, run.play.accuse(culprit, exc.reason))

    def _forgot(self, run: SeatRun, why: str) -> list[Effect]:
        """An entry of this seat's own, signed with its key, does not hold with what this node
        holds: its store lost what it knew of the deal (a store rolled back, damaged or emptied:
        the deal's secret is gone).  An honest node never names itself: it stops the hand and
        tells the host, which voids the deal naming nobody (docs/protocol.md, "A node that lost
        its memory")."""
        run.stopped = True
        deal = run.ctx.deal
        reason = f"this node lost its memory of deal {deal} (its store no longer holds its secret): {why}"
        return [Note(reason), self.table.to_host(Checked(deal, False, self.table.me, reason[:200], ""), deal)]
