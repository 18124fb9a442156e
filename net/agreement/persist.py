"""The agreement's crash-safe part: a table's Raft hard state and log in the node's store.

What a :class:`~net.agreement.raft.Ready` asks to persist is written in one
transaction before any of its messages leave the node (as etcd-io/raft requires);
an outcome is marked applied only after the seats stored it, so after a crash an
outcome may be applied again (which changes nothing) but is never lost.

:class:`RaftStore` is also the core's :class:`~net.agreement.log.Storage` (etcd-io/raft's
design): the core reads an entry from here when it must send it or apply it, and keeps none
of the persisted ones in memory.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from tarock.net.agreement.log import entry_size
from tarock.net.agreement.messages import Entry, HardState, Ready
from tarock.net.store import Store


class RaftStore:
    """One table's hard state and log in ``store``."""

    def __init__(self, store: Store, table_id: str) -> None:
        self.store = store
        self.table = table_id

    def exists(self) -> bool:
        row = self.store.db.execute("SELECT 1 FROM raft_state WHERE table_id = ?", (self.table,)).fetchone()
        return row is not None

    def load(self) -> tuple[HardState, int]:
        """The hard state and the applied index (empty for a new table); the log is read from
        this store as the core asks (:meth:`entries`)."""
        row = self.store.db.execute("SELECT term, vote, commit_index, applied FROM raft_state "
                                    "WHERE table_id = ?", (self.table,)).fetchone()
        hard = HardState() if row is None else HardState(int(row[0]), str(row[1]), int(row[2]))
        applied = 0 if row is None else int(row[3])
        return hard, min(applied, hard.commit)

    # -- the core's Storage ------------------------------------------------------------------------
    def last_index(self) -> int:
        row = self.store.db.execute("SELECT MAX(idx) FROM raft_log WHERE table_id = ?",
                                    (self.table,)).fetchone()
        return 0 if row is None or row[0] is None else int(row[0])

    def term_runs(self) -> list[tuple[int, int]]:
        """Read index by index (the terms only), keeping one pair per run of a term."""
        out: list[tuple[int, int]] = []
        for index, term in self.store.db.execute("SELECT idx, term FROM raft_log WHERE table_id = ? "
                                                 "ORDER BY idx", (self.table,)):
            if not out or out[-1][1] != term:
                out.append((int(index), int(term)))
        return out

    def entries(self, lo: int, hi: int, max_bytes: int | None = None) -> list[Entry]:
        out: list[Entry] = []
        size = 0
        full = False
        cursor = self.store.db.execute("SELECT idx, term, data FROM raft_log WHERE table_id = ? AND idx >= ? "
                                       "AND idx < ? ORDER BY idx", (self.table, lo, hi))
        try:
            for index, term, data in cursor:
                e = Entry(int(term), int(index), json.loads(data))
                if max_bytes is not None:
                    size += entry_size(e)
                    if out and size > max_bytes:
                        full = True
                        break
                out.append(e)
        finally:
            cursor.close()
        if not full and (len(out) != hi - lo or (out and (out[0].index, out[-1].index) != (lo, hi - 1))):
            raise IndexError(f"the store lacks entries of {lo}..{hi - 1} of table {self.table}")
        return out

    def save(self, ready: Ready) -> None:
        """What ``ready`` asks to persist, in one transaction (the first one holds a hard state)."""
        if ready.hard is None and ready.truncate_from is None and not ready.entries:
            return
        with self.store.transaction():
            if ready.hard is not None:
                self._hard(ready.hard)
            if ready.truncate_from is not None:
                self.store.db.execute("DELETE FROM raft_log WHERE table_id = ? AND idx >= ?",
                                      (self.table, ready.truncate_from))
            self._append(ready.entries)

    def _hard(self, hard: HardState) -> None:
        self.store.db.execute(
            "INSERT INTO raft_state (table_id, term, vote, commit_index, applied) VALUES (?, ?, ?, ?, 0) "
            "ON CONFLICT(table_id) DO UPDATE SET term = excluded.term, vote = excluded.vote, "
            "commit_index = excluded.commit_index", (self.table, hard.term, hard.vote, hard.commit))

    def _append(self, entries: Sequence[Entry]) -> None:
        self.store.db.executemany(
            "INSERT OR REPLACE INTO raft_log (table_id, idx, term, data) VALUES (?, ?, ?, ?)",
            [(self.table, e.index, e.term, json.dumps(e.data)) for e in entries])

    def applied(self, index: int) -> None:
        """Entries up to ``index`` are applied (their outcomes are in the seats' stores): a
        restarted node does not apply them again."""
        with self.store.transaction():
            self.store.db.execute("UPDATE raft_state SET applied = MAX(applied, ?) WHERE table_id = ?",
                                  (index, self.table))
