"""A node's crash-safe store: SQLite (stdlib) in WAL mode with synchronous=FULL.

Every change is one transaction that is on disk when the call returns, so a
``kill -9`` at any moment loses nothing that was written: the node's
identity, its tables (the table, the roster, the host and its epoch), the
outcome of every finished deal (its record, or why it was void) and the deal
in progress (what was dealt and every action, the seat's dealing secret and
the observations it was sent).

Whatever cannot be done on disk (a full disk, a read-only or missing folder, a
damaged file), in the store or in the records folder, is one :class:`StoreError`
whose text names the folder and the reason; a write that fails changes nothing.
The node's command catches it (client/netcli.py): at the start it is a usage
error, during a table the node says bye on every connection and leaves.

The node's signing key is not in the store but beside it, in ``NAME.key`` (mode
0600; the store holds the node id it makes), so that a store that is lost or
damaged does not take the node's identity with it.  At the open the store is
checked, and the node's own store that is damaged made anew (:mod:`net.store_open`);
:attr:`Store.lost` says when it may not hold everything the node had stored, and the
node rejoins its table as a member that lost its memory (docs/protocol.md, "A node
that lost its memory").  The files beside it and the errors: :mod:`net.store_files`.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from tarock.net.store_files import (
    Guard,
    StoreError,
    check_folder,
    read_key,
    reason,
    write_file,
    write_key,
    write_private,
)
from tarock.net.store_open import FORMAT, Opening, wal_damage

__all__ = ["FORMAT", "Store", "StoreError", "check_folder", "reason", "wal_damage", "write_file"]


class Store:
    """One node's store file (``NAME.sqlite`` in the node's state folder) and its key file
    (``NAME.key`` beside it).

    ``recover``: the node's own store.  A damaged one is moved aside (``NAME.sqlite.damaged``)
    and made anew, keeping what can be read of its tables, when the node's key is known (its
    key file, or the damaged store); else a :class:`StoreError` says what to do.  Without
    ``recover`` a damaged store is a :class:`StoreError`.  :attr:`lost` is "" or one line
    saying why this store may not hold everything the node had stored (it lost its memory);
    :attr:`warnings` are lines the node shows at its start.
    """

    def __init__(self, path: Path, *, recover: bool = False) -> None:
        self.path = path
        self._guard = Guard(path)
        memory = str(path) == ":memory:"
        self.key: Path | None = None if memory else path.with_suffix(".key")
        self.seat_file: Path | None = path.with_suffix(".seat") if recover and not memory else None
        """(The node's own store) a copy of the table it sits at (:meth:`save_table`)."""
        self.new_key = False
        """The key was made at this open: a new player (no store and no key file before)."""
        opening = Opening(path, self.key, self.seat_file, self._guard)
        self.db = opening.open(recover)
        self.lost, self.warnings = opening.lost, opening.warnings
        if self.lost:
            self._seat_back()

    @property
    def failure(self) -> str:
        """The first :class:`StoreError`'s text (why the node that holds this store stops)."""
        return self._guard.failure

    def close(self) -> None:
        self.db.close()

    def _tx(self) -> AbstractContextManager[None]:
        return self._guard.transaction(self.db)

    def transaction(self) -> AbstractContextManager[None]:
        """One transaction for a caller that writes several tables at once (the agreement's log)."""
        return self._tx()

    # -- meta ---------------------------------------------------------------------------
    def _meta(self, key: str) -> str | None:
        with self._guard("read"):
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _set_meta(self, key: str, value: str) -> None:
        with self._tx():
            self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def identity_seed(self) -> bytes:
        """This node's Ed25519 key (its 32-byte seed), made at the first start and kept in the key
        file beside the store (mode 0600).  A store of an older version that holds the key gives
        it to the key file and keeps only the node id; one that holds a random node id and no key
        gets a key, and with it a new node id (the id is made of the key)."""
        key = self.key
        if key is not None and key.exists():
            return read_key(key)
        found = self._meta("identity")
        if key is None:
            if found is None:
                found = secrets.token_hex(32)
                self._set_meta("identity", found)
            return bytes.fromhex(found)
        seed = bytes.fromhex(found) if found is not None else secrets.token_bytes(32)
        write_key(key, seed)
        from tarock.net.identity import Identity

        with self._tx():
            self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('node', ?)",
                            (Identity(seed).node,))
            self.db.execute("DELETE FROM meta WHERE key = 'identity'")
        self.new_key = found is None
        return seed

    def node_id(self) -> str:
        """This node's id (32 hex digits): the one its key makes (net.identity.node_of); a
        StoreError when the store names another node than its key makes."""
        from tarock.net.identity import Identity

        made = Identity(self.identity_seed()).node
        found = self._meta("node")
        if found is None:
            self._set_meta("node", made)
        elif found != made:
            raise StoreError(f"the store {self.path} is of node {found[:8]}, its key {self.key} of node "
                             f"{made[:8]}: put back the key file that belongs to the store")
        return made

    def get(self, key: str) -> Any:
        raw = self._meta(f"x:{key}")
        return None if raw is None else json.loads(raw)

    def put(self, key: str, value: Any) -> None:
        self._set_meta(f"x:{key}", json.dumps(value))

    # -- tables -------------------------------------------------------------------------
    def save_table(self, table_id: str, info: Any, state: Any) -> None:
        """The table and this node's state at it (seat, roster, host, epoch ...); the node's own
        store also keeps it in ``NAME.seat`` beside the key, so that a node whose store was
        lost or damaged finds its seat again."""
        with self._tx():
            self.db.execute(
                "INSERT INTO tables (id, info, state, created) VALUES (?, ?, ?, "
                "(SELECT COALESCE(MAX(created), 0) + 1 FROM tables)) "
                "ON CONFLICT(id) DO UPDATE SET info = excluded.info, state = excluded.state",
                (table_id, json.dumps(info), json.dumps(state)))
        if self.seat_file is not None:
            write_private(self.seat_file, json.dumps({"id": table_id, "info": info, "state": state}))

    def _seat_back(self) -> None:
        """(A store that lost its memory) the table of ``NAME.seat`` back in the store, if the
        store does not hold it: the node reclaims its seat there."""
        if self.seat_file is None or not self.seat_file.exists():
            return
        try:
            kept = json.loads(self.seat_file.read_text(encoding="utf-8"))
            table_id, info, state = str(kept["id"]), kept["info"], kept["state"]
        except (OSError, ValueError, KeyError, TypeError):
            self.warnings.append(f"the seat file {self.seat_file} cannot be read: the node looks for a "
                                 "table as a new one")
            return
        if self.table(table_id) is None:
            self.save_table(table_id, info, state)

    def table(self, table_id: str) -> tuple[Any, Any, bool] | None:
        with self._guard("read"):
            row = self.db.execute("SELECT info, state, over FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else (json.loads(row[0]), json.loads(row[1]), bool(row[2]))

    def current_table(self) -> str | None:
        """The table this node sits at and that is not over (the latest one)."""
        with self._guard("read"):
            row = self.db.execute("SELECT id FROM tables WHERE over = 0 ORDER BY created DESC LIMIT 1"
                                  ).fetchone()
        return None if row is None else str(row[0])

    def table_over(self, table_id: str) -> None:
        with self._tx():
            self.db.execute("UPDATE tables SET over = 1 WHERE id = ?", (table_id,))
        if self.seat_file is not None:
            with contextlib.suppress(FileNotFoundError):
                self.seat_file.unlink()

    # -- outcomes -------------------------------------------------------------------------
    def save_outcome(self, table_id: str, deal: int, record: Any | None, reason: str = "",
                     culprit: str = "") -> None:
        """A finished deal (its record) or a void one (``record`` None); the deal's
        progress goes in the same transaction."""
        kind = "hand" if record is not None else "void"
        with self._tx():
            self.db.execute("INSERT OR REPLACE INTO outcomes (table_id, deal, kind, record, reason, culprit) "
                            "VALUES (?, ?, ?, ?, ?, ?)",
                            (table_id, deal, kind, None if record is None else json.dumps(record),
                             reason, culprit))
            self.db.execute("DELETE FROM progress WHERE table_id = ? AND deal <= ?", (table_id, deal))

    def outcomes(self, table_id: str) -> list[tuple[int, Any | None, str, str]]:
        """``(deal, record or None, reason, culprit)`` in deal order."""
        with self._guard("read"):
            rows = self.db.execute("SELECT deal, record, reason, culprit FROM outcomes WHERE table_id = ? "
                                   "ORDER BY deal", (table_id,)).fetchall()
        return [(int(d), None if r is None else json.loads(r), str(why), str(who)) for d, r, why, who in rows]

    def outcome(self, table_id: str, deal: int) -> tuple[Any | None, str, str] | None:
        """``(record or None, reason, culprit)`` of one deal; None if the store has no outcome of it."""
        with self._guard("read"):
            row = self.db.execute("SELECT record, reason, culprit FROM outcomes "
                                  "WHERE table_id = ? AND deal = ?", (table_id, deal)).fetchone()
        if row is None:
            return None
        return None if row[0] is None else json.loads(row[0]), str(row[1]), str(row[2])

    def iter_outcomes(self, table_id: str, first: int = 1, batch: int = 32
                      ) -> Iterator[tuple[int, Any | None, str, str]]:
        """What :meth:`outcomes` returns, from deal ``first`` on, read ``batch`` deals at a time
        (a node's memory holds a few records, not every one; no read stays open between
        batches, so the caller may write to the store meanwhile)."""
        deal = first
        while True:
            with self._guard("read"):
                rows = self.db.execute("SELECT deal, record, reason, culprit FROM outcomes "
                                       "WHERE table_id = ? AND deal >= ? ORDER BY deal LIMIT ?",
                                       (table_id, deal, batch)).fetchall()
            for d, r, why, who in rows:
                yield int(d), None if r is None else json.loads(r), str(why), str(who)
            if len(rows) < batch:
                return
            deal = int(rows[-1][0]) + 1

    # -- the deal in progress -------------------------------------------------------------
    def put_progress(self, table_id: str, deal: int, key: str, value: Any) -> None:
        with self._tx():
            self.db.execute("INSERT OR REPLACE INTO progress (table_id, deal, key, value) "
                            "VALUES (?, ?, ?, ?)", (table_id, deal, key, json.dumps(value)))

    def progress(self, table_id: str, deal: int) -> dict[str, Any]:
        with self._guard("read"):
            rows = self.db.execute("SELECT key, value FROM progress WHERE table_id = ? AND deal = ?",
                                   (table_id, deal)).fetchall()
        return {str(k): json.loads(v) for k, v in rows}

    def progress_deals(self, table_id: str) -> list[int]:
        with self._guard("read"):
            rows = self.db.execute("SELECT DISTINCT deal FROM progress WHERE table_id = ? ORDER BY deal",
                                   (table_id,)).fetchall()
        return [int(r[0]) for r in rows]
