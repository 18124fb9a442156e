"""A seat's (or a watcher's) side of a table, sans-IO.

The seat takes part in the dealing scheme, is sent its own observation after
every change, answers with its player's action when it is to move, and at a
hand's end checks the record against everything it was told (the deal its
seed helped make, the commitments, every observation) before the hand goes on
its score sheet.  A watcher (``seat`` None) gets the public observation and
checks the record the same way.  Everything it must not lose is in its store,
so a restarted node resumes its seat (:meth:`SeatCore.restore`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.actions import Action
from core.observation import Observation, observe
from core.plugins import Catalogue
from core.rules import RuleError
from net.dealing import DealContext, DealingFault, PayloadError, RandomBytes, SeatDealer
from net.effects import (
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
from net.game import CheckFailed, Finished, Game, GameError, Sheet, canonical
from net.protocol.messages import (
    Act,
    Begin,
    Body,
    Checked,
    Dealing,
    HandEnd,
    MessageError,
    Record,
    Refused,
    Seated,
    SeatInfo,
    TableInfo,
    View,
    Void,
    Welcome,
    part,
    plain,
)
from net.store import Store


@dataclass
class SeatRun:
    """The deal in progress as this seat knows it."""

    ctx: DealContext
    begin: Begin
    dealer: SeatDealer | None = None
    first: dict[str, Any] | None = None
    last: dict[str, Any] | None = None
    obs: Observation | None = None
    views: int = 0
    refused: set[int] = field(default_factory=set)
    length: int = 0
    """The number of actions in the last view received."""
    seen: list[dict[str, Any]] = field(default_factory=list)
    """Every observation received in this deal (checked against the record at its end)."""


class SeatCore:
    """One seat of one node (``watch``: a watcher of the table)."""

    def __init__(self, me: str, name: str, catalogue: Catalogue, store: Store, *,
                 rand: RandomBytes = os.urandom, watch: bool = False,
                 records_dir: Path | None = None) -> None:
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
        self.roster: tuple[SeatInfo, ...] = ()
        self.sheet: Sheet | None = None
        self.run: SeatRun | None = None
        self.expect_rules = ""
        self.expect_table = ""
        self.over = False
        self.shows = True
        """Every view is decoded and shown (a person's screen); False: only the views this seat
        acts on (a bot)."""

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
        return max(self.done, self.run.ctx.deal if self.run is not None else 0)

    def successors(self) -> list[SeatInfo]:
        """The nodes that would host after the current host, in succession order
        (seat order from the host's seat on, each node once, no local seats)."""
        nodes = [s for s in self.roster if not s.local]
        seen: set[str] = set()
        order: list[SeatInfo] = []
        for s in nodes:
            if s.node not in seen:
                seen.add(s.node)
                order.append(s)
        at = next((i for i, s in enumerate(order) if s.node == self.host), -1)
        return order[at + 1:] + order[:max(at, 0)] if at >= 0 else order

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
        self.roster = roster
        self.seat = state.get("seat")
        self.over = over
        assert self.game is not None and self.sheet is not None
        for deal, record, _reason, _culprit in self.store.outcomes(table_id):
            if record is None:
                self.sheet.void.add(deal)
                continue
            try:
                finished = self.game.check(record)
            except CheckFailed:
                continue
            self._enter(finished)
        progress = self.store.progress_deals(table_id)
        if progress:
            deal = progress[-1]
            stored = self.store.progress(table_id, deal)
            if "begin" in stored:
                begin = Begin(**stored["begin"])
                self.run = SeatRun(DealContext(info.id, begin.epoch, begin.deal, info.seats), begin)
                self.run.first = stored.get("first")
                self.run.last = stored.get("last")
                secret = stored.get("secret")
                if secret is not None and self.seat is not None:
                    self.run.dealer = self.game.scheme.seat(self.run.ctx, self.seat, secret)
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
    def welcomed(self, welcome: Welcome) -> list[Effect]:
        if welcome.epoch < self.epoch:
            return [Drop(welcome.node, "stale-epoch",
                         f"the node answered with epoch {welcome.epoch}, this seat knows {self.epoch}")]
        out: list[Effect] = []
        if self.sheet is not None and self.game is not None and welcome.done < self.sheet.done:
            for deal in range(welcome.done + 1, self.sheet.done + 1):
                finished = self.sheet.finished.get(deal)
                if finished is not None:
                    out.append(ToHost(Record(deal, finished.record)))
        return out

    # -- bodies from the host ------------------------------------------------------------------------
    def receive(self, body: Body) -> list[Effect]:
        if isinstance(body, Seated):
            return self._on_seated(body)
        if self.info is None or self.game is None:
            return [Drop(self.host, "protocol", f"{body.tag!r} before the table was named")]
        try:
            if isinstance(body, Begin):
                return self._on_begin(body)
            if isinstance(body, Dealing):
                return self._on_dealing(body)
            if isinstance(body, View):
                return self._on_view(body)
            if isinstance(body, Refused):
                return self._on_refused(body)
            if isinstance(body, HandEnd):
                return self._on_hand_end(body)
            if isinstance(body, Void):
                return self._on_void(body)
        except GameError as exc:
            return [Drop(self.host, "protocol", f"bad engine value from the host: {exc}")]
        return [Drop(self.host, "protocol", f"a host may not send {body.tag!r}")]

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
        changed = (body.roster, body.seat, body.epoch, body.host) != (self.roster, self.seat, self.epoch,
                                                                     self.host)
        self.epoch, self.host, self.roster, self.seat = body.epoch, body.host, body.roster, body.seat
        if self.run is not None and self.run.ctx.epoch < self.epoch and self.run.ctx.deal > self.done:
            self.run = None  # the deal of an older host; the new one voids and deals again
        if not self.watch:
            self._save_table()
        if not changed:
            return []
        assert self.game is not None
        facts = self.game.rules.variant_facts
        return [Show(Joined(body.table, body.roster, body.seat, body.epoch, body.host, facts))]

    def _current(self, epoch: int, deal: int) -> SeatRun | None:
        run = self.run
        if run is None or run.ctx.deal != deal or run.ctx.epoch != epoch:
            return None
        return run

    def _on_begin(self, body: Begin) -> list[Effect]:
        assert self.info is not None and self.game is not None
        if body.epoch < self.epoch or body.deal <= self.done:
            return [Note(f"begin of deal {body.deal} (epoch {body.epoch}) ignored: old")]
        if body.dealing != self.info.dealing:
            return [Drop(self.host, "protocol",
                         f"the deal uses {body.dealing!r}, the table {self.info.dealing!r}")]
        run = self._current(body.epoch, body.deal)
        if run is None:
            ctx = DealContext(self.info.id, body.epoch, body.deal, self.info.seats)
            run = SeatRun(ctx, body)
            self.run = run
            if not self.watch:
                self.store.put_progress(self.info.id, body.deal, "begin", plain(body))
        if self.watch or self.seat is None:
            return []
        if run.dealer is None:
            stored = self.store.progress(self.info.id, body.deal).get("secret")
            run.dealer = self.game.scheme.seat(run.ctx, self.seat, stored, self.rand)
            # The secret is on disk before the commitment leaves this node.
            self.store.put_progress(self.info.id, body.deal, "secret", run.dealer.secret())
        if run.first is not None:
            return []
        return [ToHost(Dealing(body.epoch, body.deal, p)) for p in run.dealer.start()]

    def _on_dealing(self, body: Dealing) -> list[Effect]:
        assert self.info is not None
        run = self._current(body.epoch, body.deal)
        if run is None or run.dealer is None:
            return [Note(f"dealing payload for deal {body.deal} ignored: not the deal in progress")]
        try:
            replies = run.dealer.receive(body.payload)
        except PayloadError as exc:
            return [Drop(self.host, "protocol", f"bad dealing payload: {exc}")]
        except DealingFault as exc:
            return self._fault(body.deal, exc.reason, exc.seat)
        self.store.put_progress(self.info.id, body.deal, "secret", run.dealer.secret())
        return [ToHost(Dealing(body.epoch, body.deal, p)) for p in replies]

    def _on_view(self, body: View) -> list[Effect]:
        assert self.info is not None and self.game is not None and self.sheet is not None
        run = self._current(body.epoch, body.deal)
        if run is None:
            return [Note(f"view of deal {body.deal} ignored: not the deal in progress")]
        raw = dict(body.obs)
        mine = self.seat if self.seat is not None else -1
        if raw.get("seat") != mine:
            return [Drop(self.host, "protocol", f"the host sent the view of seat {raw.get('seat')!r}")]
        history = raw.get("history")
        if not isinstance(history, list):
            return [Drop(self.host, "protocol", "an observation without a history")]
        to_act = (not self.watch and raw.get("to_move") == self.seat and bool(raw.get("legal"))
                  and raw.get("result") is None)
        if not (to_act or self.shows or run.first is None):
            # Decoded only when used; every view is checked against the record at the hand's end.
            run.last = raw
            run.views += 1
            run.seen.append(raw)
            run.obs = None
            run.length = len(history)
            return []
        obs = self.game.read_view(raw)
        out: list[Effect] = []
        before = run.obs if run.obs is not None and run.length == len(obs.history) - 1 else None
        if run.first is None:
            run.first = raw
            if not self.watch:
                self.store.put_progress(self.info.id, body.deal, "first", raw)
            table = self.sheet.table
            out.append(Show(HandBegins(obs, table.round, table.rounds, table.passed_out + 1)))
        elif before is not None and len(obs.history) == len(before.history) + 1:
            out.append(Show(Acted(obs, before.phase)))
            if len(obs.tricks) > len(before.tricks):
                out.append(Show(TrickOver(obs, obs.tricks[-1])))
        run.last = raw
        run.obs = obs
        run.length = len(obs.history)
        run.views += 1
        run.seen.append(raw)
        decide = self._maybe_decide(run)
        if decide and not self.watch:
            # The views this seat acts on are kept, to be checked against the record at the end.
            self.store.put_progress(self.info.id, body.deal, "last", raw)
        return out + decide

    def _maybe_decide(self, run: SeatRun) -> list[Effect]:
        obs = run.obs
        if (obs is None or self.watch or obs.result is not None or obs.to_move != self.seat or not obs.legal):
            return []
        return [Decide(obs, run.ctx.deal, len(obs.history))]

    def decided(self, deal: int, index: int, action: Action) -> list[Effect]:
        """The player's choice for the decision ``(deal, index)``; dropped if the hand moved on."""
        run = self.run
        assert self.game is not None
        if run is None or run.ctx.deal != deal or run.obs is None or run.length != index:
            return []
        return [ToHost(Act(run.ctx.epoch, deal, index, self.game.encode_action(action)))]

    def _on_refused(self, body: Refused) -> list[Effect]:
        run = self.run
        out: list[Effect] = [Show(Refusal(body.code, body.message))]
        if run is not None and run.ctx.deal == body.deal and body.code not in ("stale", "not-now") \
                and body.index not in run.refused:
            run.refused.add(body.index)
            out += self._maybe_decide(run)
        return out

    # -- the end of a hand ---------------------------------------------------------------------------
    def _node_of(self, seat: int | None) -> str:
        if seat is None:
            return self.host
        for s in self.roster:
            if s.seat == seat:
                return s.node
        return ""

    def _fault(self, deal: int, reason: str, seat: int | None) -> list[Effect]:
        culprit = self._node_of(seat)
        out: list[Effect] = [Show(Voided(deal, reason, culprit))]
        if not self.watch:
            out.append(ToHost(Checked(deal, False, culprit, reason[:200])))
        return out

    def _on_hand_end(self, body: HandEnd) -> list[Effect]:
        assert self.info is not None and self.game is not None and self.sheet is not None
        deal = body.deal
        if deal in self.sheet.finished:
            return [] if deal < self.done or self.watch else [ToHost(Checked(deal, True, "", ""))]
        if deal != self.done + 1 and deal not in self.sheet.void:
            return [Note(f"record of deal {deal} ignored: this node holds outcomes up to {self.done}")]
        run = self.run if self.run is not None and self.run.ctx.deal == deal else None
        seen: dict[int, str] | None = None
        views: list[dict[str, Any]] = []
        if run is not None:
            secret = run.dealer.secret() if run.dealer is not None else {}
            commits = secret.get("commits") or []
            seen = dict(enumerate(commits)) if commits else None
            views = [v for v in (run.first, run.last) if v is not None] + run.seen
        try:
            finished = self.game.check(body.record, run.ctx if run is not None else None,
                                       run.begin.dealer if run is not None else None, seen, views,
                                       self.seat if not self.watch else None)
        except CheckFailed as exc:
            self.store.save_outcome(self.info.id, deal, None, exc.reason, self._node_of(exc.seat))
            self.sheet.void.add(deal)
            self.run = None
            return self._fault(deal, exc.reason, exc.seat)
        if finished.deal != deal:
            return self._fault(deal, f"the record is of deal {finished.deal}, not {deal}", None)
        self.sheet.void.discard(deal)
        if not self.watch:
            self.store.save_outcome(self.info.id, deal, finished.record)
        row = self._enter(finished)
        self._write_file(finished)
        self.run = None
        out: list[Effect] = []
        if not self.watch:
            out.append(ToHost(Checked(deal, True, "", "")))
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
        assert self.game is not None and self.sheet is not None
        self.sheet.finished[finished.deal] = finished
        if self.sheet.table.over:
            return None
        return self.game.sheet_add(self.sheet.table, finished)

    def _write_file(self, finished: Finished) -> None:
        if self.records_dir is None or self.info is None:
            return
        self.records_dir.mkdir(parents=True, exist_ok=True)
        name = f"table-{self.info.id[:12]}-r{finished.round:02d}-d{finished.deal:03d}.json"
        path = self.records_dir / name
        tmp = path.with_suffix(".tmp")
        tmp.write_text(canonical(finished.record) + "\n", encoding="utf-8")
        os.replace(tmp, path)

    def _on_void(self, body: Void) -> list[Effect]:
        assert self.info is not None and self.sheet is not None and self.game is not None
        if body.deal > self.deal + 1 and body.deal > self.done + 1:
            return [Note(f"void of deal {body.deal} ignored: this node holds outcomes up to {self.done}")]
        counted = self.sheet.finished.pop(body.deal, None)
        if counted is not None:
            table = self.game.new_table()
            for deal in sorted(self.sheet.finished):
                self.game.sheet_add(table, self.sheet.finished[deal])
            self.sheet.table = table
        already = body.deal in self.sheet.void
        self.sheet.void.add(body.deal)
        if not self.watch:
            self.store.save_outcome(self.info.id, body.deal, None, body.reason, body.culprit)
        if self.run is not None and self.run.ctx.deal <= body.deal:
            self.run = None
        return [] if already else [Show(Voided(body.deal, body.reason, body.culprit))]
