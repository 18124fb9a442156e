"""The host's score sheet and the outcomes it proposes, sans-IO.

A hand's outcome counts once the table's log (the host agreement) commits it:
the :class:`Ledger` proposes outcomes, enters the committed ones on the sheet
and in the host's store, learns finished hands a seat holds (a new host), and
counts the deals in a row void with the host's own node named (:data:`OWN_VOIDS`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from tarock.net.agreement.outcome import Outcome
from tarock.net.effects import Effect, Note, Propose
from tarock.net.game import CheckFailed, Game, Sheet
from tarock.net.protocol.messages import Record
from tarock.net.store import Store

OWN_VOIDS: Final = 3
"""Deals in a row void with the host's own node named, after which the host stops dealing and
leaves the table to the next node in succession (docs/protocol.md, "Blame")."""


def sheet_of(game: Game, table: str, outcomes: Iterable[Outcome], store: Store) -> Sheet:
    """The score sheet of ``outcomes`` (a table's log, read a batch at a time), each kept in
    ``store`` as it is read (a new host's store holds every outcome it starts from)."""
    sheet = Sheet(game.new_table())
    for outcome in outcomes:
        store.save_outcome(table, *outcome.row())
        if outcome.record is None:
            sheet.void.add(outcome.deal)
            continue
        try:
            finished = game.check(outcome.record)
        except CheckFailed:
            sheet.void.add(outcome.deal)
            continue
        sheet.count(finished)
    return sheet


@dataclass
class Ledger:
    """The outcomes of one table as its host knows them."""

    game: Game
    table: str
    store: Store
    sheet: Sheet
    last_deal: int = 0
    expect_done: int = field(default=0, init=False)
    """The most deals any seat said it holds (a new host waits for their records)."""
    own_voids: int = field(default=0, init=False)
    """Deals void in a row that named this host's own node (:data:`OWN_VOIDS`)."""
    awaiting: int | None = field(default=None, init=False)
    """The deal whose outcome this host proposed and waits to see committed."""
    resigning: bool = field(default=False, init=False)
    proposed: set[int] = field(default_factory=set, init=False)
    """Deals whose outcome a seat passed on and this host proposed (each once)."""

    def __post_init__(self) -> None:
        self.last_deal = max(self.last_deal, self.sheet.done)
        self.expect_done = self.sheet.done
        self._store_sheet()

    def _store_sheet(self) -> None:
        """Keep every outcome of the sheet this host starts from in its own store: a successor's
        store is new, and a node that rejoins is sent what it lacks from there.  The records of
        the counted hands are the caller's to store (the sheet keeps no records:
        :func:`sheet_of` stores them as it reads them); a void the store lacks
        is stored here."""
        for deal in sorted(self.sheet.counted):
            if self.store.outcome(self.table, deal) is None:
                raise ValueError(f"deal {deal} counts on the sheet, but the host's store has no record of it")
        for deal in sorted(self.sheet.void - set(self.sheet.counted)):
            if self.store.outcome(self.table, deal) is None:
                self.store.save_outcome(self.table, deal, None, "void under an earlier host")

    def seen(self, deal: int, done: int) -> None:
        """A seat's node says the last deal it saw and how many it holds finished."""
        self.last_deal = max(self.last_deal, deal)
        self.expect_done = max(self.expect_done, done)

    def next_deal(self) -> int:
        """The number of the deal to begin now."""
        self.last_deal = max(self.last_deal, self.sheet.done) + 1
        return self.last_deal

    def propose(self, outcome: Outcome) -> Propose:
        """Put a deal's outcome in the table's log; the next deal begins once it is committed."""
        self.awaiting = outcome.deal
        self.last_deal = max(self.last_deal, outcome.deal)
        return Propose(outcome)

    def blame(self, reason: str, named_host: bool) -> str:
        """A deal is void, naming the host's own node or not: the reason it is void for (with the
        host's resignation once it was named :data:`OWN_VOIDS` deals in a row)."""
        self.own_voids = self.own_voids + 1 if named_host else 0
        self.resigning = self.own_voids >= OWN_VOIDS
        if not self.resigning:
            return reason
        return (f"{reason[:200]}; the host was named for {self.own_voids} deals in a row: it stops "
                "dealing, and the next node in succession hosts the table")

    def commit(self, outcome: Outcome) -> list[Effect]:
        """The table's log committed ``outcome``: on the sheet (once) and in the store."""
        out: list[Effect] = []
        deal = outcome.deal
        if deal not in self.sheet.counted and deal not in self.sheet.void:
            out += self._enter(outcome)
        self.store.save_outcome(self.table, *outcome.row())
        self.last_deal = max(self.last_deal, deal)
        return out

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

    def learned(self, node: str, body: Record, gathering: bool) -> list[Effect]:
        """A seat passes on a finished hand this host lacks (a new host gathers them)."""
        if body.deal <= self.sheet.done or body.deal in self.sheet.void or (body.deal <= self.last_deal
                                                                             and not gathering) \
                or body.deal in self.proposed:
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
