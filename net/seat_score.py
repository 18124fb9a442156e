"""A seat's score sheet, sans-IO: the end of each hand, its record, voids and what counts.

At a hand's end the seat compares its own audit's record with the host's
(``hand-end``) and says so (``checked``); what counts is what the table's log
commits (:meth:`SeatScore.committed`), or, before the table's log runs, the
record this seat checked.  Every counted hand goes on the sheet, in the store
and in a record file, and on the player's screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tarock.core.observation import observe
from tarock.net.agreement.outcome import Outcome
from tarock.net.dealing import HOST
from tarock.net.effects import Effect, HandOver, Leave, Note, Show, TableOver, Voided
from tarock.net.game import CheckFailed, Finished, canonical
from tarock.net.protocol.messages import Checked, HandEnd, Void
from tarock.net.seat_hand import HandFollower
from tarock.net.seat_table import SeatTable
from tarock.net.store import write_file


class SeatScore:
    """The outcomes of one table as one seat counts them."""

    def __init__(self, table: SeatTable, hand: HandFollower, records_dir: Path | None) -> None:
        self.table = table
        self.hand = hand
        self.records_dir = records_dir
        self.over = False
        self.follows_log = False
        """The table's log (the host agreement) says what counts: a hand this seat checked goes
        on its score sheet when :meth:`committed` brings it, not before.  False (a watcher, a
        table not yet full): a hand counts when this seat's check of the host's record holds."""
        self.checked: dict[int, Finished] = {}
        """Hands this seat checked that the table's log has not committed yet."""
        self.voids_shown: set[int] = set()

    def restore(self, table_id: str) -> None:
        """The outcomes this node's store holds, on the sheet (and in files it lacks)."""
        t = self.table
        assert t.game is not None and t.sheet is not None
        for deal, record, _reason, _culprit in t.store.iter_outcomes(table_id):
            if record is None:
                t.sheet.void.add(deal)
                continue
            try:
                finished = t.game.check(record)
            except CheckFailed:
                continue
            self._enter(finished)
            self._write_file(finished, missing_only=True)  # killed between the store and the file

    def on_hand_end(self, deal: int, body: HandEnd) -> list[Effect]:
        t = self.table
        assert t.info is not None and t.game is not None and t.sheet is not None
        if deal in t.sheet.counted:
            if deal < t.done or t.watch:
                return []
            return [t.to_host(Checked(deal, True, "", "", ""), deal)]
        later = self.follows_log and deal > t.done  # the log may not have brought the last one yet
        if deal != t.done + 1 and deal not in t.sheet.void and not later:
            return [Note(f"record of deal {deal} ignored: this node holds outcomes up to {t.done}")]
        run = self.hand.run if self.hand.run is not None and self.hand.run.ctx.deal == deal else None
        head = run.play.head if run is not None else ""
        verdict = run.verdict if run is not None else None
        if run is not None and verdict is None and run.play.opened:
            self.hand.after()
            verdict = run.verdict
        try:
            finished = t.game.check(body.record, run.ctx if run is not None else None,
                                    run.begin.dealer if run is not None else None)
            if verdict is not None:
                if not verdict.ok:
                    raise CheckFailed(verdict.reason, verdict.culprit)
                if canonical(verdict.record) != canonical(body.record):
                    raise CheckFailed("the host's record is not the one the log gives", HOST)
            elif run is not None and not run.stopped:
                raise CheckFailed("the host ended a hand whose secrets this node has not all seen", HOST)
        except CheckFailed as exc:
            culprit = self.hand.node_of(exc.seat if exc.seat is not None else HOST)
            t.store.save_outcome(t.info.id, deal, None, exc.reason, culprit)
            t.sheet.void.add(deal)
            self.hand.run = None
            out: list[Effect] = [Show(Voided(deal, exc.reason, culprit))]
            if not t.watch:
                out.append(t.to_host(Checked(deal, False, culprit, exc.reason[:200], head), deal))
            return out
        if finished.deal != deal:
            return [Show(Voided(deal, f"the record is of deal {finished.deal}, not {deal}", t.host))]
        out = []
        if not t.watch:
            out.append(t.to_host(Checked(deal, True, "", "", head), deal))
        if self.follows_log:
            self.checked[deal] = finished
            return out
        t.sheet.void.discard(deal)
        if not t.watch:
            t.store.save_outcome(t.info.id, deal, finished.record)
        return out + self._counted(finished)

    def _counted(self, finished: Finished) -> list[Effect]:
        """A hand counts: on the sheet, in a file, on the screen; the table may be over."""
        t = self.table
        assert t.info is not None and t.sheet is not None
        row = self._enter(finished)
        self._write_file(finished)
        self.hand.forget(finished.deal)
        out: list[Effect] = []
        seat = t.seat if t.seat is not None else 0
        obs = observe(finished.hand, seat)
        net = finished.record.get("net", {})
        out.append(Show(HandOver(obs, row, t.sheet.table, tuple(net.get("bots", ())))))
        if t.sheet.table.over:
            self.over = True
            if not t.watch:
                t.store.table_over(t.info.id)
            out += [Show(TableOver(t.sheet.table)), Leave("done", "the table is over")]
        return out

    def _enter(self, finished: Finished) -> Any:
        assert self.table.sheet is not None
        return self.table.sheet.count(finished)

    def _write_file(self, finished: Finished, *, missing_only: bool = False) -> None:
        """The hand's record file, named by the table, the round, the deal and this node (nodes
        that share a records folder each write their own)."""
        t = self.table
        if self.records_dir is None or t.info is None:
            return
        name = f"table-{t.info.id[:12]}-r{finished.round:02d}-d{finished.deal:03d}-{t.me[:8]}.json"
        path = self.records_dir / name
        if missing_only and path.exists():
            return
        write_file(path, canonical(finished.record) + "\n", "records folder")  # StoreError if it cannot

    def on_void(self, body: Void) -> list[Effect]:
        t = self.table
        assert t.info is not None and t.sheet is not None and t.game is not None
        if body.deal > self.hand.deal + 1 and body.deal > t.done + 1:
            return [Note(f"void of deal {body.deal} ignored: this node holds outcomes up to {t.done}")]
        t.sheet.uncount(body.deal, t.game)
        already = body.deal in t.sheet.void
        t.sheet.void.add(body.deal)
        reason, culprit = body.reason, body.culprit
        run = self.hand.run
        if (culprit and culprit == t.me and run is not None and run.ctx.deal == body.deal
                and run.play.cards_owed):
            # Named for not saying ready, but this seat's private cards never came: only the
            # host sends them (commit-reveal), so the host withheld them (docs/protocol.md, 12).
            reason, culprit = (f"the host never sent this seat its cards, and named it: {body.reason}"[:300],
                               t.host)
        if not t.watch and not already:  # a void this node found itself keeps its own culprit
            t.store.save_outcome(t.info.id, body.deal, None, reason, culprit)
        self.hand.forget(body.deal)
        if self.follows_log:
            if not already:
                t.sheet.void.discard(body.deal)  # what counts is what the table's log commits
            self.voids_shown.add(body.deal)
        return [] if already else [Show(Voided(body.deal, reason, culprit))]

    def committed(self, outcome: Outcome) -> list[Effect]:
        """The table's log committed ``outcome``: it counts, the same at every node.  A hand this
        seat checked is taken as checked; one it did not see is checked now; one it cannot
        accept is named (the host's record does not hold here) but the log still decides."""
        t = self.table
        if t.info is None or t.game is None or t.sheet is None:
            return []
        deal = outcome.deal
        if deal in t.sheet.counted or (outcome.void and deal in t.sheet.void and deal in self.voids_shown):
            return []
        checked = self.checked.pop(deal, None)
        for stale in [d for d in self.checked if d < deal]:
            del self.checked[stale]  # the log counted a later deal: these will never be committed
        if outcome.record is None:
            t.sheet.counted.pop(deal, None)
            t.sheet.void.add(deal)
            if not t.watch and deal not in self.voids_shown:  # a void this seat was told of keeps its view
                t.store.save_outcome(t.info.id, deal, None, outcome.reason, outcome.culprit)
            self.hand.forget(deal)
            if deal in self.voids_shown:
                return []
            self.voids_shown.add(deal)
            return [Show(Voided(deal, outcome.reason, outcome.culprit))]
        if checked is None or canonical(checked.record) != canonical(outcome.record):
            try:
                checked = t.game.check(outcome.record)
            except CheckFailed as exc:
                return [Note(f"deal {deal}: the table counted a record that does not hold here: "
                             f"{exc.reason}")]
        t.sheet.void.discard(deal)
        if not t.watch:
            t.store.save_outcome(t.info.id, deal, outcome.record)
        return self._counted(checked)
