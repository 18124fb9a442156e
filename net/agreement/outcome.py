"""What the agreement's log holds: the outcome of one deal (its record, or void with the reason).

An entry's data is the plain map ``{"deal": n, "record": {...}}`` for a hand that
counts, ``{"deal": n, "record": null, "reason": "...", "culprit": "..."}`` for a void
deal, or nil for a new host's first entry (Raft's no-op, which commits what earlier
hosts left).  A host proposes at most one outcome per deal: the deal after the last
one its log holds (docs/protocol.md, "Host agreement").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """A deal's outcome: ``record`` for a hand that counts, None for a void deal."""

    deal: int
    record: dict[str, Any] | None
    reason: str = ""
    culprit: str = ""

    @property
    def void(self) -> bool:
        return self.record is None

    def data(self) -> dict[str, Any]:
        return {"deal": self.deal, "record": self.record, "reason": self.reason, "culprit": self.culprit}

    def row(self) -> tuple[int, Any | None, str, str]:
        """As :meth:`net.store.Store.outcomes` returns it."""
        return self.deal, self.record, self.reason, self.culprit


def outcome_of(data: Any) -> Outcome | None:
    """The outcome an entry's data holds; None for a no-op (or data that is no outcome)."""
    if not isinstance(data, dict):
        return None
    deal, record = data.get("deal"), data.get("record")
    reason, culprit = data.get("reason", ""), data.get("culprit", "")
    if isinstance(deal, bool) or not isinstance(deal, int) or deal < 1:
        return None
    if record is not None and not isinstance(record, dict):
        return None
    if not isinstance(reason, str) or not isinstance(culprit, str):
        return None
    return Outcome(deal, record, reason, culprit)


def last_deal(entries: Any) -> int:
    """The highest deal an iterable of entries holds an outcome of (0: none)."""
    best = 0
    for entry in entries:
        found = outcome_of(entry.data)
        if found is not None:
            best = max(best, found.deal)
    return best
