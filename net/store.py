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
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

FORMAT = "tarock-store/1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, info TEXT NOT NULL, state TEXT NOT NULL, over INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS outcomes (
    table_id TEXT NOT NULL, deal INTEGER NOT NULL, kind TEXT NOT NULL, record TEXT,
    reason TEXT NOT NULL DEFAULT '', culprit TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (table_id, deal));
CREATE TABLE IF NOT EXISTS raft_state (
    table_id TEXT PRIMARY KEY, term INTEGER NOT NULL, vote TEXT NOT NULL, commit_index INTEGER NOT NULL,
    applied INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS raft_log (
    table_id TEXT NOT NULL, idx INTEGER NOT NULL, term INTEGER NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (table_id, idx));
CREATE TABLE IF NOT EXISTS progress (
    table_id TEXT NOT NULL, deal INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (table_id, deal, key));
"""


class StoreError(RuntimeError):
    """The node cannot keep its state: its store or a folder it writes cannot be opened, read or
    written (a full disk, a read-only or missing folder, a damaged file, a store of another
    format).  The text is one line naming the folder or file and the reason.  A failed write
    changed nothing: its transaction was rolled back, and what was stored before is intact."""


_SQLITE_REASONS = {
    8: "it is read-only",  # SQLITE_READONLY
    10: "input/output error",  # SQLITE_IOERR
    11: "the file is damaged",  # SQLITE_CORRUPT
    13: "No space left on device",  # SQLITE_FULL (also what ENOSPC becomes)
    14: "the file cannot be opened",  # SQLITE_CANTOPEN
    26: "the file is damaged or not a store",  # SQLITE_NOTADB
}
_DAMAGED = (11, 26)


def reason(exc: BaseException) -> str:
    """Why an OS or SQLite operation failed, in one short phrase."""
    if isinstance(exc, NotADirectoryError):
        return "a part of the path is a file, not a folder"
    if isinstance(exc, FileExistsError):
        return "it is a file, not a folder"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    known = _SQLITE_REASONS.get(code & 0xFF) if isinstance(code, int) else None
    return f"{known} ({exc})" if known else str(exc)


def _damaged(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _DAMAGED


def check_folder(folder: Path, what: str) -> None:
    """Make ``folder`` if it is missing and write a file in it (removed at once): a
    :class:`StoreError` naming the folder (``what``: "state folder", "records folder") and the
    reason when that cannot be done."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise StoreError(f"cannot write the {what} {folder}: {reason(exc)}") from None


def write_file(path: Path, text: str, what: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file renamed over it; a
    failed write leaves no part of it): a :class:`StoreError` naming the folder (``what``:
    "records folder") and the reason when that cannot be done."""
    tmp = path.with_suffix(".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise StoreError(f"cannot write the {what} {path.parent}: {reason(exc)}") from None


class Store:
    """One node's store file (``NAME.sqlite`` in the node's state folder)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        check_folder(path.parent, "state folder")
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store {path}: {reason(exc)}") from None
        try:
            with self._guard("open"):
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                # A truncated or overwritten file is found now, not in the middle of a hand.
                found = self.db.execute("PRAGMA quick_check").fetchone()
                if found is None or found[0] != "ok":
                    raise StoreError(f"cannot use the store {path}: the file is damaged "
                                     f"({found[0] if found else 'no answer'})")
                self.db.executescript(_SCHEMA)
                fmt = self._meta("format")
                if fmt is None:
                    self._set_meta("format", FORMAT)
                elif fmt != FORMAT:
                    raise StoreError(f"{path} is a {fmt} store, not {FORMAT}")
        except StoreError:
            self.db.close()
            raise

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """SQLite's and the OS's errors as one :class:`StoreError` that names the folder or
        file and the reason (``doing``: "open", "read" or "write")."""
        try:
            yield
        except (sqlite3.Error, OSError) as exc:
            if _damaged(exc):
                raise StoreError(f"cannot use the store {self.path}: {reason(exc)}") from None
            if doing == "write":
                raise StoreError(f"cannot write the state folder {self.path.parent}: {reason(exc)}") from None
            raise StoreError(f"cannot {doing} the store {self.path}: {reason(exc)}") from None

    @contextmanager
    def _tx(self) -> Iterator[None]:
        """One transaction: on disk (fsync'd) when the block ends, or nothing of it (a write
        or a commit that fails, e.g. on a full disk, is rolled back: the store keeps what it
        held before)."""
        with self._guard("write"):
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self.db.execute("ROLLBACK")
                raise

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
        """This node's Ed25519 key (its 32-byte seed), made at the first start and kept.
        A store of an older version holds a random node id and no key: it gets a key,
        and with it a new node id (the id is made of the key)."""
        found = self._meta("identity")
        if found is None:
            found = secrets.token_hex(32)
            with self._tx():
                self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('identity', ?)", (found,))
                self.db.execute("DELETE FROM meta WHERE key = 'node'")
        return bytes.fromhex(found)

    def node_id(self) -> str:
        """This node's id (32 hex digits): the one its key makes (net.identity.node_of)."""
        from net.identity import Identity

        found = self._meta("node")
        if found is None:
            found = Identity(self.identity_seed()).node
            self._set_meta("node", found)
        return found

    def get(self, key: str) -> Any:
        raw = self._meta(f"x:{key}")
        return None if raw is None else json.loads(raw)

    def put(self, key: str, value: Any) -> None:
        self._set_meta(f"x:{key}", json.dumps(value))

    # -- tables -------------------------------------------------------------------------
    def save_table(self, table_id: str, info: Any, state: Any) -> None:
        """The table and this node's state at it (seat, roster, host, epoch ...)."""
        with self._tx():
            self.db.execute(
                "INSERT INTO tables (id, info, state, created) VALUES (?, ?, ?, "
                "(SELECT COALESCE(MAX(created), 0) + 1 FROM tables)) "
                "ON CONFLICT(id) DO UPDATE SET info = excluded.info, state = excluded.state",
                (table_id, json.dumps(info), json.dumps(state)))

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
