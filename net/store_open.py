"""Opening a node's store: its schema, the checks of its files and the recovery of a damaged one.

At the open the store is checked: its write-ahead log frame by frame (SQLite's WAL
format: a committed frame after a damaged one means SQLite would silently drop
committed writes), then SQLite's ``PRAGMA quick_check``.  The node's own store
(``recover``) that is damaged is kept aside as ``NAME.sqlite.damaged`` and made anew
when the key is known; an empty store beside a key is a store that was lost.  Either
way :attr:`Opening.lost` says so.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import struct
from pathlib import Path
from typing import Any

from tarock.net.store_files import Guard, StoreError, check_folder, keep_aside, private, reason, write_key

FORMAT = "tarock-store/1"

SCHEMA = """
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


def wal_damage(wal: Path) -> str:
    """Why SQLite would silently drop committed writes of the write-ahead log ``wal`` ("" when
    it would not): its header's checksum does not hold, or a frame of the log's current
    generation (its salts) fails its checksum and that frame or a later one of the same
    generation ends a transaction (SQLite's WAL format, sqlite.org/fileformat.html#walformat:
    recovery stops at the first frame whose cumulative checksum fails)."""
    try:
        with wal.open("rb") as f:
            data = f.read()
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"cannot read {wal.name}: {reason(exc)}"
    if len(data) < 32:
        return ""  # empty (checkpointed and truncated) or never written: nothing to replay
    magic, _version, page, _seq, salt1, salt2, c1, c2 = struct.unpack(">8I", data[:32])
    if magic not in (0x377F0682, 0x377F0683):
        return "its write-ahead log has a damaged header"
    order = ">" if magic & 1 else "<"
    s = _wal_sum(data[:24], order, 0, 0)
    if s != (c1, c2):
        return "its write-ahead log has a damaged header"
    if page < 512 or page > 65536 or page & (page - 1):
        return "its write-ahead log has a damaged header"
    size = 24 + page
    bad = -1
    frames = (len(data) - 32) // size
    for k in range(frames):
        at = 32 + k * size
        pgno, commit, f1, f2, k1, k2 = struct.unpack(">6I", data[at:at + 24])
        if (f1, f2) != (salt1, salt2):
            if bad < 0:
                return ""  # an older generation's frames: where the log ends
            continue
        if bad < 0:
            s = _wal_sum(data[at + 24:at + size], order, *_wal_sum(data[at:at + 8], order, *s))
            if s == (k1, k2) and pgno:
                continue
            bad = k
        if commit:
            return (f"its write-ahead log is damaged at frame {bad + 1} of {frames}: committed writes "
                    "after it would be lost")
    return ""


def _wal_sum(data: bytes, order: str, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (pairs of 32-bit words) from ``(s0, s1)``."""
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    m = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & m
        s1 = (s1 + words[i + 1] + s0) & m
    return s0, s1


def salvage(path: Path) -> tuple[str | None, list[tuple[Any, ...]]]:
    """What can still be read of a damaged store: its key (hex, or None) and its tables' rows."""
    seed: str | None = None
    rows: list[tuple[Any, ...]] = []
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return None, []
    try:
        with contextlib.suppress(sqlite3.Error):
            row = db.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone()
            seed = None if row is None else str(row[0])
        with contextlib.suppress(sqlite3.Error):
            rows = db.execute("SELECT id, info, state, over, created FROM tables").fetchall()
    finally:
        db.close()
    return seed, rows


class Opening:
    """The open of the store file ``path`` (``key``: its key file, None for a store in memory):
    :meth:`open` checks it, makes it if it is missing and, with ``recover``, makes a damaged one
    anew; ``lost`` is "" or why the store may not hold everything the node had stored,
    ``warnings`` lines the node shows at its start."""

    def __init__(self, path: Path, key: Path | None, seat_file: Path | None, guard: Guard) -> None:
        self.path, self.key, self.seat_file, self.guard = path, key, seat_file, guard
        self.lost = ""
        self.warnings: list[str] = []

    def open(self, recover: bool) -> sqlite3.Connection:
        path, key = self.path, self.key
        if key is not None:
            check_folder(path.parent, "state folder", 0o700)  # a folder it makes is its owner's only
            # before SQLite opens it: its -wal and -shm take the store's mode
            private([key], self.warnings, "the key file")
            if self.seat_file is not None:
                private([self.seat_file], self.warnings, "the seat file")
            private([path, Path(f"{path}-wal"), Path(f"{path}-shm")], self.warnings, "the store")
        had_key = key is not None and key.exists()
        damage = "" if key is None else wal_damage(Path(f"{path}-wal"))
        if damage and recover:
            keep_aside(Path(f"{path}-wal"), Path(f"{path}-wal.damaged"), copy=True)
            self.lost = (f"the store {path} is damaged ({damage}; kept as {path}-wal.damaged): this node "
                         "rejoins its table as a node that lost its memory")
        elif damage:
            raise StoreError(f"cannot use the store {path}: {damage}")
        try:
            return self._open(empty_is_lost=had_key)
        except StoreError as exc:
            if not recover or key is None or not exc.args[0].startswith("cannot use the store"):
                raise
            return self._rebuild(str(exc))

    def _open(self, *, empty_is_lost: bool) -> sqlite3.Connection:
        path = self.path
        if self.key is not None and not path.exists():
            try:  # made owner-only before SQLite writes anything (its -wal and -shm take its mode)
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
            except OSError as exc:
                raise StoreError(f"cannot write the state folder {path.parent}: {reason(exc)}") from None
        try:
            db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store {path}: {reason(exc)}") from None
        try:
            with self.guard("open"):
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                # A truncated or overwritten file is found now, not in the middle of a hand.
                found = db.execute("PRAGMA quick_check").fetchone()
                if found is None or found[0] != "ok":
                    raise StoreError(f"cannot use the store {path}: the file is damaged "
                                     f"({found[0] if found else 'no answer'})")
                db.executescript(SCHEMA)
                with self.guard("read"):
                    row = db.execute("SELECT value FROM meta WHERE key = ?", ("format",)).fetchone()
                fmt = None if row is None else str(row[0])
                if fmt is None:
                    with self.guard.transaction(db):
                        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                                   ("format", FORMAT))
                    if empty_is_lost and not self.lost:
                        self.lost = (f"the store {path} is empty (removed or emptied), but the node's key "
                                     f"{self.key} is here: this node rejoins its table as a node that lost "
                                     "its memory")
                elif fmt != FORMAT:
                    raise StoreError(f"{path} is a {fmt} store, not {FORMAT}")
        except StoreError:
            db.close()
            raise
        return db

    def _rebuild(self, why: str) -> sqlite3.Connection:
        """(``recover``) The store is damaged: keep it aside and make a new one, with the node's key
        (its key file, else what can be read of the damaged store) and what can be read of its
        tables; a StoreError when the key cannot be found."""
        path, key = self.path, self.key
        assert key is not None
        seed, rows = salvage(path)
        if not key.exists():
            if seed is None:
                raise StoreError(f"{why}; the node's key is neither in it nor in {key}: restore the state "
                                 f"folder from a backup, or move {path} away to start as a new player")
            try:
                write_key(key, bytes.fromhex(seed))
            except ValueError:
                raise StoreError(f"{why}; the node's key in it is damaged too: restore the state folder "
                                 f"from a backup, or move {path} away to start as a new player") from None
        aside = Path(f"{path}.damaged")
        for suffix in ("", "-wal", "-shm"):
            keep_aside(Path(f"{path}{suffix}"), Path(f"{aside}{suffix}"))
        detail = why.removeprefix(f"cannot use the store {path}: ")
        self.lost = (f"the store {path} is damaged ({detail}); kept as {aside}, a new store made: "
                     "this node rejoins its table as a node that lost its memory")
        db = self._open(empty_is_lost=False)
        with self.guard.transaction(db):
            db.executemany("INSERT OR IGNORE INTO tables (id, info, state, over, created) "
                           "VALUES (?, ?, ?, ?, ?)", [r for r in rows if len(r) == 5])
        return db
