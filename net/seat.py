"""A seat's (or a watcher's) side of a table, sans-IO.

The seat follows each hand's log (:class:`~net.handplay.HandPlay`): it takes
part in the dealing, makes its shares, plays on its virtual deal, asks its
player when it is to move, and at the hand's end opens its secrets, audits the
hand (:func:`net.audit.audit`) and compares its record with the host's before
the hand goes on its score sheet.  A seat that finds someone cheating says so
in the log (``fault``): the hand stops, every secret is opened and the audit
names the culprit.  A watcher (``seat`` None) follows the log with public
information only.  Everything it must not lose is in its store, so a
restarted node resumes its seat (:meth:`SeatCore.restore`): its dealing
secrets are on disk before they are used, and the host sends it the log.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarock.core.actions import Action
from tarock.core.observation import Observation, observe
from tarock.core.plugins import Catalogue
from tarock.core.rules import RuleError
from tarock.net.agreement.outcome import Outcome
from tarock.net.audit import Verdict, audit
from tarock.net.dealing import HOST, DealContext, RandomBytes
from tarock.net.effects import (
    Acted,
    Decide,
    Drop,
    Effect,
    HandBegins,
    HandOver,
    Joined,
    Leave,
    Note,
    Refusal,
    Show,
    TableOver,
    ToHost,
    TrickOver,
    Voided,
)
from tarock.net.game import CheckFailed, Finished, Game, Sheet, canonical
from tarock.net.handplay import HandFault, HandPlay, Out, entry_hash, roster_of
from tarock.net.identity import Identity, fingerprint, signed_bytes, verify
from tarock.net.protocol.messages import (
    HAND,
    Begin,
    Checked,
    HandEnd,
    Inner,
    Log,
    MessageError,
    Record,
    Seated,
    SeatInfo,
    Signed,
    TableInfo,
    Void,
    Welcome,
    dump,
    inner_of,
    parse,
    part,
    plain,
)
from tarock.net.store import Store, write_file


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


class SeatCore:
    """One seat of one node (``watch``: a watcher of the table)."""

    def __init__(self, me: str, name: str, catalogue: Catalogue, store: Store, *,
                 rand: RandomBytes = os.urandom, watch: bool = False,
                 records_dir: Path | None = None, identity: Identity | None = None) -> None:
        self.identity = identity or Identity(store.identity_seed())
        if self.identity.node != me:
            raise ValueError(f"node id {me[:8]} is not the one its key makes ({self.identity.node[:8]})")
        self.me = me
        self.name = name
        self.catalogue = catalogue
        self.store = store
        self.rand = rand
        self.watch = watch
        self.records_dir = records_dir
        self.info: TableInfo | None = None
        self.game: Game | None = None
        self.seat: int | None = None
        self.epoch = 0
        self.host = ""
        self.host_key = b""
        self.roster: tuple[SeatInfo, ...] = ()
        self.sheet: Sheet | None = None
        self.run: SeatRun | None = None
        self.pending_secret: tuple[int, int, dict[str, Any]] | None = None
        """(epoch, deal, secret) of the deal in progress when the node restarted."""
        self.expect_rules = ""
        self.expect_table = ""
        self.over = False
        self.joined_shown = False
        """Whether the player was shown the roster (a restarted node shows it again)."""
        self.shows = True
        """Every change is shown (a person's screen); False: only the decisions (a bot)."""
        self.follows_log = False
        """The table's log (the host agreement) says what counts: a hand this seat checked goes
        on its score sheet when :meth:`committed` brings it, not before.  False (a watcher, a
        table not yet full): a hand counts when this seat's check of the host's record holds."""
        self.checked: dict[int, Finished] = {}
        """Hands this seat checked that the table's log has not committed yet."""
        self.voids_shown: set[int] = set()

    # -- what the node says in its hello ---------------------------------------------------------
    @property
    def table_id(self) -> str:
        return self.info.id if self.info is not None else self.expect_table

    @property
    def rules(self) -> str:
        return self.info.rules if self.info is not None else self.expect_rules

    @property
    def done(self) -> int:
        return self.sheet.done if self.sheet is not None else 0

    @property
    def deal(self) -> int:
        pending = self.pending_secret[1] if self.pending_secret is not None else 0
        return max(self.done, self.run.ctx.deal if self.run is not None else 0, pending)

    @property
    def fingerprint(self) -> str:
        """The roster's fingerprint, for the players to compare (docs/protocol.md, "Identity")."""
        return fingerprint(self.table_id, [s.key for s in sorted(self.roster, key=lambda s: s.seat)])

    # -- restart -----------------------------------------------------------------------------------
    def restore(self, table_id: str | None = None) -> bool:
        """Load the table this node sits at from its store; False if there is none."""
        table_id = table_id or self.store.current_table()
        if table_id is None:
            return False
        found = self.store.table(table_id)
        if found is None:
            return False
        raw_info, state, over = found
        try:
            info = part(raw_info, TableInfo)
            roster = tuple(part(s, SeatInfo) for s in state.get("roster", []))
        except MessageError:
            return False
        self._set_table(info)
        self.epoch = int(state.get("epoch", 0))
        self.host = str(state.get("host", ""))
        host_key = next((s.key for s in roster if s.node == self.host), "")
        self.host_key = bytes.fromhex(host_key) if host_key else b""
        self.roster = roster
        self.seat = state.get("seat")
        self.over = over
        assert self.game is not None and self.sheet is not None
        for deal, record, _reason, _culprit in self.store.iter_outcomes(table_id):
            if record is None:
                self.sheet.void.add(deal)
                continue
            try:
                finished = self.game.check(record)
            except CheckFailed:
                continue
            self._enter(finished)
            self._write_file(finished, missing_only=True)  # killed between the store and the file
        progress = self.store.progress_deals(table_id)
        if progress:
            deal = progress[-1]
            stored = self.store.progress(table_id, deal)
            begin = stored.get("begin")
            if isinstance(begin, dict) and isinstance(stored.get("secret"), dict):
                self.pending_secret = (int(begin.get("epoch", 0)), deal, stored["secret"])
        return True

    def _set_table(self, info: TableInfo) -> None:
        self.info = info
        self.game = Game.make(self.catalogue, info.variant, info.options, info.seats, info.rounds,
                              info.dealing)
        self.sheet = Sheet(self.game.new_table())

    def _save_table(self) -> None:
        assert self.info is not None
        state = {"epoch": self.epoch, "host": self.host, "seat": self.seat,
                 "roster": [plain(s) for s in self.roster]}
        self.store.save_table(self.info.id, plain(self.info), state)

    # -- the handshake -------------------------------------------------------------------------------
    def welcomed(self, welcome: Welcome, host_key: str = "") -> list[Effect]:
        """The host accepted this seat; ``host_key``: the key its challenge proved."""
        if welcome.epoch < self.epoch:
            return [Drop(welcome.node, "stale-epoch",
                         f"the node answered with epoch {welcome.epoch}, this seat knows {self.epoch}")]
        if host_key:
            self.host_key = bytes.fromhex(host_key)
            self.host = welcome.host or welcome.node
        out: list[Effect] = []
        if self.sheet is not None and self.info is not None and welcome.done < self.sheet.done:
            for deal in range(welcome.done + 1, self.sheet.done + 1):
                stored = self.store.outcome(self.info.id, deal) if deal in self.sheet.counted else None
                if stored is not None and stored[0] is not None:
                    out.append(self._to_host(Record(deal, stored[0]), deal))
        return out

    def _to_host(self, body: Inner, deal: int = 0) -> ToHost:
        fields: dict[str, Any] = {"t": Signed.tag, "table": self.table_id or "", "epoch": self.epoch,
                                  "deal": deal, "author": self.me, "seat": self.seat, "seq": 0, "prev": "",
                                  "head": "", "to": self.host, "body": dump(body), "sig": "0" * 128}
        fields["sig"] = self.identity.sign(signed_bytes(fields))
        env = parse(fields, "body")
        assert isinstance(env, Signed)
        return ToHost(env)

    # -- bodies from the host ------------------------------------------------------------------------
    def receive(self, body: object) -> list[Effect]:
        if not isinstance(body, Signed):
            return [Drop(self.host, "protocol", "every body is a signed message")]
        try:
            inner = inner_of(body)
        except MessageError as exc:
            return [Drop(self.host, "protocol", f"bad message from the host: {exc}")]
        if type(inner) in HAND:
            if self.info is None or self.game is None:
                return [Drop(self.host, "protocol", f"{inner.tag!r} before the table was named")]
            return self._on_entry(body)
        if not self._from_host(body):
            return [Drop(self.host, "protocol", f"a {inner.tag!r} the host did not sign")]
        if isinstance(inner, Seated):
            return self._on_seated(inner)
        if self.info is None or self.game is None:
            return [Drop(self.host, "protocol", f"{inner.tag!r} before the table was named")]
        if isinstance(inner, Log):
            return self._on_log(body, inner)
        if isinstance(inner, HandEnd):
            return self._on_hand_end(body.deal, inner)
        if isinstance(inner, Void):
            return self._on_void(inner)
        return [Drop(self.host, "protocol", f"a host may not send {inner.tag!r}")]

    def _from_host(self, env: Signed) -> bool:
        if not self.host_key or env.seat is not None or env.to not in ("", self.me):
            return False
        return verify(self.host_key, signed_bytes(dump(env)), env.sig)

    def _on_seated(self, body: Seated) -> list[Effect]:
        if body.epoch < self.epoch:
            return [Note(f"roster of the old epoch {body.epoch} ignored")]
        if self.info is not None and body.table.id != self.info.id:
            return [Drop(body.host, "table", f"this node sits at table {self.info.name!r}, "
                                             f"not {body.table.name!r}")]
        if self.info is None:
            try:
                game = Game.make(self.catalogue, body.table.variant, body.table.options, body.table.seats,
                                 body.table.rounds, body.table.dealing)
            except (RuleError, ValueError) as exc:
                return [Leave("variant", f"table {body.table.name!r} plays {body.table.variant}, "
                                         f"which this node cannot: {exc}")]
            if game.hash != body.table.rules:
                return [Leave("rules", f"table {body.table.name!r} plays {body.table.variant} with rules "
                                       f"{body.table.rules[:12]}; here the same variant gives "
                                       f"{game.hash[:12]} (other plugin versions or options)")]
            self.info = body.table
            self.game = game
            self.sheet = Sheet(game.new_table())
        if not self.watch and body.seat is None:
            return [Drop(body.host, "protocol", "the host seated this seat as a watcher")]
        if not self.watch and body.seat is not None:
            mine = next((s for s in body.roster if s.seat == body.seat), None)
            if mine is None or mine.node != self.me or mine.key != self.identity.key:
                return [Drop(body.host, "protocol", "the host seated this seat under another node or key")]
        changed = (body.roster, body.seat, body.epoch, body.host) != (self.roster, self.seat, self.epoch,
                                                                     self.host)
        self.epoch, self.host, self.roster, self.seat = body.epoch, body.host, body.roster, body.seat
        if self.run is not None and self.run.ctx.epoch < self.epoch and self.run.ctx.deal > self.done:
            self.run = None  # the deal of an older host; the new one voids and deals again
        if not self.watch:
            self._save_table()
        if not changed and self.joined_shown:
            return []
        self.joined_shown = True
        assert self.game is not None
        facts = self.game.rules.variant_facts
        return [Show(Joined(body.table, body.roster, body.seat, body.epoch, body.host, facts,
                            self.fingerprint))]

    # -- the hand's log -------------------------------------------------------------------------------
    def _on_log(self, env: Signed, log: Log) -> list[Effect]:
        out: list[Effect] = []
        for raw in log.entries:
            try:
                entry = parse(raw, "body")
            except MessageError as exc:
                return [*out, Drop(self.host, "protocol", f"a bad entry in the log: {exc}")]
            assert isinstance(entry, Signed)
            out += self._on_entry(entry, batch=True)
            if self.run is not None and self.run.stopped:
                break
        if log.more:
            return out  # the rest of the snapshot follows: nothing is sent before it is read
        run = self.run
        if run is not None and not run.stopped:
            # Only now: the snapshot may hold what this node sent before it restarted.
            if run.accuse is not None and not self.watch and run.play.me is not None:
                out += self._outs(run, run.play.accuse(*run.accuse))
            run.accuse = None
            out += self._outs(run, run.play.flush())
        return out + self._after()

    def _on_entry(self, env: Signed, batch: bool = False) -> list[Effect]:
        assert self.info is not None and self.game is not None
        run = self.run
        if env.to:
            if run is None or run.ctx.deal != env.deal or run.ctx.epoch != env.epoch or env.to != self.me:
                return [Note(f"private message for deal {env.deal} ignored")]
            try:
                outs = run.play.private(HOST, env)
            except HandFault as exc:
                return self._fault(run, exc)
            return self._outs(run, outs) + ([] if batch else self._after())
        inner = inner_of(env)
        if isinstance(inner, Begin):
            if env.epoch < self.epoch or env.deal <= self.done:
                return [Note(f"begin of deal {env.deal} (epoch {env.epoch}) ignored: old")]
            if run is None or run.ctx.deal != env.deal or run.ctx.epoch != env.epoch:
                run = self._new_run(env, inner)
                if run is None:
                    return [Drop(self.host, "protocol", f"the deal uses {inner.dealing!r}, the table "
                                                       f"{self.info.dealing!r}")]
        if run is None or run.ctx.deal != env.deal or run.ctx.epoch != env.epoch:
            return [Note(f"{inner.tag} of deal {env.deal} ignored: not the deal in progress")]
        if run.stopped:
            return []
        digest = entry_hash(env)
        if digest in run.hashes:
            return []
        if run.fresh and not run.sent and env.author == self.me and env.seat == self.seat:
            run.forgot = True
        try:
            outs = run.play.receive(env, send=not batch)
        except HandFault as exc:
            return self._fault(run, exc, batch)
        run.hashes.add(digest)
        return self._outs(run, outs) + ([] if batch else self._after())

    def _new_run(self, env: Signed, begin: Begin) -> SeatRun | None:
        assert self.info is not None and self.game is not None
        if begin.dealing != self.info.dealing:
            return None
        ctx = DealContext(self.info.id, env.epoch, env.deal, self.info.seats)
        secret = None
        stored = self.pending_secret
        if stored is not None and stored[:2] == (env.epoch, env.deal):
            secret = stored[2]
        mine = self.seat if not self.watch and self.seat not in begin.bots else None
        roster = roster_of(self.roster, self.host)
        play = HandPlay(self.game, ctx, begin, roster, mine,
                        signer=self.identity if mine is not None else None,
                        checks=mine is not None, secret=secret, rand=self.rand)
        run = SeatRun(ctx, begin, play, set(), fresh=mine is not None and secret is None)
        self.run = run
        if mine is not None:
            # The secrets are on disk before the first message that uses them leaves this node.
            self.store.put_progress(self.info.id, env.deal, "begin", {"epoch": env.epoch, **plain(begin)})
            run.stored = play.secret()
            self.store.put_progress(self.info.id, env.deal, "secret", run.stored)
        return run

    def _outs(self, run: SeatRun, outs: list[Out]) -> list[Effect]:
        run.sent = run.sent or bool(outs)
        if outs and run.play.me is not None and self.info is not None:
            secret = run.play.secret()
            if secret != run.stored:
                # A new dealing secret (a redeal) is on disk before anything made with it leaves.
                self.store.put_progress(self.info.id, run.ctx.deal, "secret", secret)
                run.stored = secret
        return [ToHost(o.env) for o in outs]

    def _after(self) -> list[Effect]:
        """What follows from the log as it stands: the screen, a decision, the hand's end."""
        run = self.run
        if run is None or run.stopped:
            return []
        play = run.play
        out: list[Effect] = []
        if play.opened and run.verdict is None:
            assert self.game is not None
            run.verdict = audit(play, run.begin.round, self.game.hash, run.begin.bots)
            if not run.verdict.ok:
                culprit = self._node_of(run.verdict.culprit)
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
            table = self.sheet.table if self.sheet is not None else None
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

    def decided(self, deal: int, index: int, action: Action) -> list[Effect]:
        """The player's choice for the decision ``(deal, index)``; dropped if the hand moved on."""
        run = self.run
        if run is None or run.ctx.deal != deal or run.stopped:
            return []
        outs, refusal = run.play.decide(index, action)
        if refusal is not None:
            code, _, message = refusal.partition(": ")
            run.asked = -1
            return [Show(Refusal(code, message)), *self._after()]
        return self._outs(run, outs)

    # -- faults, the end of a hand ---------------------------------------------------------------------
    def _node_of(self, seat: int | None) -> str:
        if seat is None:
            return ""
        if seat == HOST:
            return self.host
        run = self.run
        if run is not None and seat in run.begin.bots:
            return self.host
        for s in self.roster:
            if s.seat == seat:
                return s.node
        return ""

    def _fault(self, run: SeatRun, exc: HandFault, batch: bool = False) -> list[Effect]:
        """An entry breaks the rules: say so in the log (every secret is opened, the audit
        names the culprit); a host that relayed it is named at once.  In a snapshot the
        accusation waits until the snapshot is read (it may hold this node's own entries)."""
        culprit = self._node_of(exc.author)
        if culprit == self.me and run.forgot:
            return self._forgot(run, exc.reason)
        out: list[Effect] = [Note(f"deal {run.ctx.deal}: {exc.reason}")]
        if batch and exc.author != HOST:
            if run.accuse is None:
                run.accuse = (culprit, exc.reason)
            return out
        if exc.author == HOST:
            run.stopped = True
            deal = run.ctx.deal
            if self.info is not None and not self.watch:
                self.store.save_outcome(self.info.id, deal, None, exc.reason, culprit)
            if self.sheet is not None:
                self.sheet.void.add(deal)
            out.append(Show(Voided(deal, exc.reason, culprit)))
            if not self.watch:
                out.append(self._to_host(Checked(deal, False, culprit, exc.reason[:200], ""), deal))
            return out
        if self.watch or run.play.me is None:
            return out
        return out + self._outs(run, run.play.accuse(culprit, exc.reason))

    def _forgot(self, run: SeatRun, why: str) -> list[Effect]:
        """An entry of this seat's own, signed with its key, does not hold with what this node
        holds: its store lost what it knew of the deal (a store rolled back, damaged or emptied:
        the deal's secret is gone).  An honest node never names itself: it stops the hand and
        tells the host, which voids the deal naming nobody (docs/protocol.md, "A node that lost
        its memory")."""
        run.stopped = True
        deal = run.ctx.deal
        reason = f"this node lost its memory of deal {deal} (its store no longer holds its secret): {why}"
        return [Note(reason), self._to_host(Checked(deal, False, self.me, reason[:200], ""), deal)]

    def _on_hand_end(self, deal: int, body: HandEnd) -> list[Effect]:
        assert self.info is not None and self.game is not None and self.sheet is not None
        if deal in self.sheet.counted:
            if deal < self.done or self.watch:
                return []
            return [self._to_host(Checked(deal, True, "", "", ""), deal)]
        later = self.follows_log and deal > self.done  # the log may not have brought the last one yet
        if deal != self.done + 1 and deal not in self.sheet.void and not later:
            return [Note(f"record of deal {deal} ignored: this node holds outcomes up to {self.done}")]
        run = self.run if self.run is not None and self.run.ctx.deal == deal else None
        head = run.play.head if run is not None else ""
        verdict = run.verdict if run is not None else None
        if run is not None and verdict is None and run.play.opened:
            self._after()
            verdict = run.verdict
        try:
            finished = self.game.check(body.record, run.ctx if run is not None else None,
                                       run.begin.dealer if run is not None else None)
            if verdict is not None:
                if not verdict.ok:
                    raise CheckFailed(verdict.reason, verdict.culprit)
                if canonical(verdict.record) != canonical(body.record):
                    raise CheckFailed("the host's record is not the one the log gives", HOST)
            elif run is not None and not run.stopped:
                raise CheckFailed("the host ended a hand whose secrets this node has not all seen", HOST)
        except CheckFailed as exc:
            culprit = self._node_of(exc.seat if exc.seat is not None else HOST)
            self.store.save_outcome(self.info.id, deal, None, exc.reason, culprit)
            self.sheet.void.add(deal)
            self.run = None
            out: list[Effect] = [Show(Voided(deal, exc.reason, culprit))]
            if not self.watch:
                out.append(self._to_host(Checked(deal, False, culprit, exc.reason[:200], head), deal))
            return out
        if finished.deal != deal:
            return [Show(Voided(deal, f"the record is of deal {finished.deal}, not {deal}", self.host))]
        out = []
        if not self.watch:
            out.append(self._to_host(Checked(deal, True, "", "", head), deal))
        if self.follows_log:
            self.checked[deal] = finished
            return out
        self.sheet.void.discard(deal)
        if not self.watch:
            self.store.save_outcome(self.info.id, deal, finished.record)
        return out + self._counted(finished)

    def _counted(self, finished: Finished) -> list[Effect]:
        """A hand counts: on the sheet, in a file, on the screen; the table may be over."""
        assert self.info is not None and self.sheet is not None
        row = self._enter(finished)
        self._write_file(finished)
        if self.run is not None and self.run.ctx.deal <= finished.deal:
            self.run = None
        out: list[Effect] = []
        seat = self.seat if self.seat is not None else 0
        obs = observe(finished.hand, seat)
        net = finished.record.get("net", {})
        out.append(Show(HandOver(obs, row, self.sheet.table, tuple(net.get("bots", ())))))
        if self.sheet.table.over:
            self.over = True
            if not self.watch:
                self.store.table_over(self.info.id)
            out += [Show(TableOver(self.sheet.table)), Leave("done", "the table is over")]
        return out

    def _enter(self, finished: Finished) -> Any:
        assert self.sheet is not None
        return self.sheet.count(finished)

    def _write_file(self, finished: Finished, *, missing_only: bool = False) -> None:
        """The hand's record file, named by the table, the round, the deal and this node (nodes
        that share a records folder each write their own)."""
        if self.records_dir is None or self.info is None:
            return
        name = f"table-{self.info.id[:12]}-r{finished.round:02d}-d{finished.deal:03d}-{self.me[:8]}.json"
        path = self.records_dir / name
        if missing_only and path.exists():
            return
        write_file(path, canonical(finished.record) + "\n", "records folder")  # StoreError if it cannot

    def _on_void(self, body: Void) -> list[Effect]:
        assert self.info is not None and self.sheet is not None and self.game is not None
        if body.deal > self.deal + 1 and body.deal > self.done + 1:
            return [Note(f"void of deal {body.deal} ignored: this node holds outcomes up to {self.done}")]
        self.sheet.uncount(body.deal, self.game)
        already = body.deal in self.sheet.void
        self.sheet.void.add(body.deal)
        reason, culprit = body.reason, body.culprit
        run = self.run
        if (culprit and culprit == self.me and run is not None and run.ctx.deal == body.deal
                and run.play.cards_owed):
            # Named for not saying ready, but this seat's private cards never came: only the
            # host sends them (commit-reveal), so the host withheld them (docs/protocol.md, 12).
            reason, culprit = (f"the host never sent this seat its cards, and named it: {body.reason}"[:300],
                               self.host)
        if not self.watch and not already:  # a void this node found itself keeps its own culprit
            self.store.save_outcome(self.info.id, body.deal, None, reason, culprit)
        if self.run is not None and self.run.ctx.deal <= body.deal:
            self.run = None
        if self.follows_log:
            if not already:
                self.sheet.void.discard(body.deal)  # what counts is what the table's log commits
            self.voids_shown.add(body.deal)
        return [] if already else [Show(Voided(body.deal, reason, culprit))]

    def committed(self, outcome: Outcome) -> list[Effect]:
        """The table's log committed ``outcome``: it counts, the same at every node.  A hand this
        seat checked is taken as checked; one it did not see is checked now; one it cannot
        accept is named (the host's record does not hold here) but the log still decides."""
        if self.info is None or self.game is None or self.sheet is None:
            return []
        deal = outcome.deal
        if deal in self.sheet.counted or (outcome.void and deal in self.sheet.void
                                           and deal in self.voids_shown):
            return []
        checked = self.checked.pop(deal, None)
        for stale in [d for d in self.checked if d < deal]:
            del self.checked[stale]  # the log counted a later deal: these will never be committed
        if outcome.record is None:
            self.sheet.counted.pop(deal, None)
            self.sheet.void.add(deal)
            if not self.watch and deal not in self.voids_shown:  # a void this seat was told of keeps its view
                self.store.save_outcome(self.info.id, deal, None, outcome.reason, outcome.culprit)
            if self.run is not None and self.run.ctx.deal <= deal:
                self.run = None
            if deal in self.voids_shown:
                return []
            self.voids_shown.add(deal)
            return [Show(Voided(deal, outcome.reason, outcome.culprit))]
        out: list[Effect] = []
        if checked is None or canonical(checked.record) != canonical(outcome.record):
            try:
                checked = self.game.check(outcome.record)
            except CheckFailed as exc:
                return [Note(f"deal {deal}: the table counted a record that does not hold here: "
                             f"{exc.reason}")]
        self.sheet.void.discard(deal)
        if not self.watch:
            self.store.save_outcome(self.info.id, deal, outcome.record)
        return out + self._counted(checked)
