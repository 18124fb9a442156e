"""A seat's (or a watcher's) side of a table, sans-IO.

:class:`SeatCore` takes the bodies its host sends and routes them: the roster
(``seated``) to the table this seat knows (:mod:`net.seat_table`), the hand's
log to the hand it follows (:mod:`net.seat_hand`), the hands' ends and voids to
its score sheet (:mod:`net.seat_score`).  A watcher (``seat`` None) follows the
log with public information only.  Everything it must not lose is in its store,
so a restarted node resumes its seat (:meth:`SeatCore.restore`): its dealing
secrets are on disk before they are used, and the host sends it the log.
"""

from __future__ import annotations

import os
from pathlib import Path

from tarock.core.actions import Action
from tarock.core.plugins import Catalogue
from tarock.core.rules import RuleError
from tarock.net.agreement.outcome import Outcome
from tarock.net.dealing import RandomBytes
from tarock.net.effects import Drop, Effect, Joined, Leave, Note, Refusal, Show
from tarock.net.forward import Forward
from tarock.net.game import Game, Sheet
from tarock.net.identity import Identity
from tarock.net.protocol.messages import (
    HAND,
    HandEnd,
    Log,
    MessageError,
    Record,
    Seated,
    SeatInfo,
    Signed,
    TableInfo,
    Void,
    Welcome,
    inner_of,
    part,
)
from tarock.net.seat_hand import HandFollower, SeatRun
from tarock.net.seat_score import SeatScore
from tarock.net.seat_table import SeatTable
from tarock.net.store import Store

__all__ = ["SeatCore", "SeatRun"]


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
        self.table = SeatTable(me, self.identity, store, catalogue, watch)
        self.hand = HandFollower(self.table, rand)
        self.score = SeatScore(self.table, self.hand, records_dir)
        self.expect_table = ""
        self.expect_rules = ""
        """The table and rules this seat means to join (until the host names its table)."""
        self.joined_shown = False
        """Whether the player was shown the roster (a restarted node shows it again)."""

    # -- what the table, the hand and the sheet hold -----------------------------------------------
    watch = Forward[bool]("table")
    info = Forward[TableInfo | None]("table")
    sheet = Forward[Sheet | None]("table")
    epoch = Forward[int]("table")
    roster = Forward[tuple[SeatInfo, ...]]("table")
    done = Forward[int]("table")
    run = Forward[SeatRun | None]("hand")
    deal = Forward[int]("hand")

    @property
    def table_id(self) -> str:
        """The table this seat sits at, or the one it means to join (``expect_table``)."""
        return self.table.info.id if self.table.info is not None else self.expect_table

    @property
    def rules(self) -> str:
        return self.table.info.rules if self.table.info is not None else self.expect_rules

    @property
    def follows_log(self) -> bool:
        return self.score.follows_log

    @follows_log.setter
    def follows_log(self, follows: bool) -> None:
        self.score.follows_log = follows

    @property
    def over(self) -> bool:
        return self.score.over

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
        t = self.table
        t.set_table(info)
        t.epoch = int(state.get("epoch", 0))
        t.host = str(state.get("host", ""))
        host_key = next((s.key for s in roster if s.node == t.host), "")
        t.host_key = bytes.fromhex(host_key) if host_key else b""
        t.roster = roster
        t.seat = state.get("seat")
        self.score.over = over
        self.score.restore(table_id)
        self.hand.restore(table_id)
        return True

    # -- the handshake -------------------------------------------------------------------------------
    def welcomed(self, welcome: Welcome, host_key: str = "") -> list[Effect]:
        """The host accepted this seat; ``host_key``: the key its challenge proved."""
        t = self.table
        if welcome.epoch < t.epoch:
            return [Drop(welcome.node, "stale-epoch",
                         f"the node answered with epoch {welcome.epoch}, this seat knows {t.epoch}")]
        if host_key:
            t.host_key = bytes.fromhex(host_key)
            t.host = welcome.host or welcome.node
        out: list[Effect] = []
        if t.sheet is not None and t.info is not None and welcome.done < t.sheet.done:
            for deal in range(welcome.done + 1, t.sheet.done + 1):
                stored = self.store.outcome(t.info.id, deal) if deal in t.sheet.counted else None
                if stored is not None and stored[0] is not None:
                    out.append(t.to_host(Record(deal, stored[0]), deal))
        return out

    # -- bodies from the host ------------------------------------------------------------------------
    def receive(self, body: object) -> list[Effect]:
        t = self.table
        if not isinstance(body, Signed):
            return [Drop(t.host, "protocol", "every body is a signed message")]
        try:
            inner = inner_of(body)
        except MessageError as exc:
            return [Drop(t.host, "protocol", f"bad message from the host: {exc}")]
        if type(inner) in HAND:
            if t.info is None or t.game is None:
                return [Drop(t.host, "protocol", f"{inner.tag!r} before the table was named")]
            return self.hand.on_entry(body, inner)
        if not t.from_host(body):
            return [Drop(t.host, "protocol", f"a {inner.tag!r} the host did not sign")]
        if isinstance(inner, Seated):
            return self._on_seated(inner)
        if t.info is None or t.game is None:
            return [Drop(t.host, "protocol", f"{inner.tag!r} before the table was named")]
        if isinstance(inner, Log):
            return self.hand.on_log(body, inner)
        if isinstance(inner, HandEnd):
            return self.score.on_hand_end(body.deal, inner)
        if isinstance(inner, Void):
            return self.score.on_void(inner)
        return [Drop(t.host, "protocol", f"a host may not send {inner.tag!r}")]

    def _on_seated(self, body: Seated) -> list[Effect]:
        t = self.table
        if body.epoch < t.epoch:
            return [Note(f"roster of the old epoch {body.epoch} ignored")]
        if t.info is not None and body.table.id != t.info.id:
            return [Drop(body.host, "table", f"this node sits at table {t.info.name!r}, "
                                             f"not {body.table.name!r}")]
        if t.info is None:
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
            t.set_table(body.table, game)
        if not t.watch and body.seat is None:
            return [Drop(body.host, "protocol", "the host seated this seat as a watcher")]
        if not t.watch and body.seat is not None:
            mine = next((s for s in body.roster if s.seat == body.seat), None)
            if mine is None or mine.node != self.me or mine.key != self.identity.key:
                return [Drop(body.host, "protocol", "the host seated this seat under another node or key")]
        changed = (body.roster, body.seat, body.epoch, body.host) != (t.roster, t.seat, t.epoch, t.host)
        t.epoch, t.host, t.roster, t.seat = body.epoch, body.host, body.roster, body.seat
        run = self.hand.run
        if run is not None and run.ctx.epoch < t.epoch and run.ctx.deal > t.done:
            self.hand.run = None  # the deal of an older host; the new one voids and deals again
        if not t.watch:
            t.save()
        if not changed and self.joined_shown:
            return []
        self.joined_shown = True
        assert t.game is not None
        facts = t.game.rules.variant_facts
        return [Show(Joined(body.table, body.roster, body.seat, body.epoch, body.host, facts, t.fingerprint))]

    # -- the player and the table's log ----------------------------------------------------------------
    def decided(self, deal: int, index: int, action: Action) -> list[Effect]:
        """The player's choice for the decision ``(deal, index)``; dropped if the hand moved on."""
        run = self.hand.run
        if run is None or run.ctx.deal != deal or run.stopped:
            return []
        outs, refusal = run.play.decide(index, action)
        if refusal is not None:
            code, _, message = refusal.partition(": ")
            run.asked = -1
            return [Show(Refusal(code, message)), *self.hand.after()]
        return self.hand.outs(run, outs)

    def committed(self, outcome: Outcome) -> list[Effect]:
        """The table's log committed ``outcome``: it counts, the same at every node."""
        return self.score.committed(outcome)
