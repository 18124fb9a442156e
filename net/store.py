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
checked (:meth:`Store.__init__`): its write-ahead log frame by frame (SQLite's WAL
format: a committed frame after a damaged one means SQLite would silently drop
committed writes), then SQLite's ``PRAGMA quick_check``.  The node's own store
(``recover=True``) that is damaged is kept aside as ``NAME.sqlite.damaged`` and
made anew when the key is known; an empty store beside a key is a store that was
lost.  Either way :attr:`Store.lost` says so, and the node rejoins its table as a
member that lost its memory (docs/protocol.md, "A node that lost its memory").
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import stat
import struct
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


def check_folder(folder: Path, what: str, mode: int = 0o777) -> None:
    """Make ``folder`` if it is missing (with ``mode``; its parents as usual) and write a file in
    it (removed at once): a :class:`StoreError` naming the folder (``what``: "state folder",
    "records folder") and the reason when that cannot be done."""
    try:
        folder.mkdir(mode=mode, parents=True, exist_ok=True)  # the parents with the default mode
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise StoreError(f"cannot write the {what} {folder}: {reason(exc)}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()
"""The mode a file written here gets: what ``open`` would give it (read once, at import,
before any thread could create a file under the momentarily cleared mask)."""


def write_file(path: Path, text: str, what: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file of its own in the same
    folder (so writers of the same name never share one), fsync'd, then renamed over ``path``;
    a failed write leaves no part of it.  A :class:`StoreError` naming the folder (``what``:
    "records folder") and the reason when that cannot be done."""
    tmp = ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            os.fchmod(out.fileno(), _FILE_MODE)
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise StoreError(f"cannot write the {what} {path.parent}: {reason(exc)}") from None


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


def _private(paths: list[Path], warnings: list[str], what: str) -> None:
    """``paths`` readable by their owner only (mode 0600): fixed, with one warning, if they were not."""
    fixed: list[str] = []
    for path in paths:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
            if mode & 0o077:
                path.chmod(0o600)
                fixed.append(f"{path} (mode {mode:04o})")
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise StoreError(f"cannot keep {what} {path} private: {reason(exc)}") from None
    if fixed:
        warnings.append(f"{what} {', '.join(fixed)} was readable by other users: now 0600")


def _read_key(key: Path) -> bytes:
    try:
        text = key.read_text(encoding="ascii").strip()
        seed = bytes.fromhex(text)
    except OSError as exc:
        raise StoreError(f"cannot read the key file {key}: {reason(exc)}") from None
    except ValueError:
        seed = b""
    if len(seed) != 32:
        raise StoreError(f"the key file {key} is damaged (not 64 hex digits): restore it from a backup, "
                         "or move it and the store away to start as a new player")
    return seed


def _write_key(key: Path, seed: bytes) -> None:
    """The key file, mode 0600 from its first byte, whole or not at all."""
    _write_private(key, seed.hex() + "\n")


def _write_private(path: Path, text: str) -> None:
    """``text`` in ``path`` (mode 0600), whole or not at all."""
    tmp = path.with_suffix(path.suffix + "-tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, text.encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise StoreError(f"cannot write the state folder {path.parent}: {reason(exc)}") from None


def _salvage(path: Path) -> tuple[str | None, list[tuple[Any, ...]]]:
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
        self.failure = ""
        """The first :class:`StoreError`'s text (why the node that holds this store stops)."""
        memory = str(path) == ":memory:"
        self.key: Path | None = None if memory else path.with_suffix(".key")
        self.seat_file: Path | None = path.with_suffix(".seat") if recover and not memory else None
        """(The node's own store) a copy of the table it sits at (:meth:`save_table`)."""
        self.lost = ""
        self.warnings: list[str] = []
        self.new_key = False
        """The key was made at this open: a new player (no store and no key file before)."""
        if not memory:
            check_folder(path.parent, "state folder", 0o700)  # a folder it makes is its owner's only
        if self.key is not None:  # before SQLite opens it: its -wal and -shm take the store's mode
            _private([self.key], self.warnings, "the key file")
            if self.seat_file is not None:
                _private([self.seat_file], self.warnings, "the seat file")
            _private([path, Path(f"{path}-wal"), Path(f"{path}-shm")], self.warnings, "the store")
        had_key = self.key is not None and self.key.exists()
        damage = "" if memory else wal_damage(Path(f"{path}-wal"))
        if damage and recover:
            self._keep_aside(Path(f"{path}-wal"), Path(f"{path}-wal.damaged"), copy=True)
            self.lost = (f"the store {path} is damaged ({damage}; kept as {path}-wal.damaged): this node "
                         "rejoins its table as a node that lost its memory")
        elif damage:
            raise StoreError(f"cannot use the store {path}: {damage}")
        try:
            self._open(empty_is_lost=had_key)
        except StoreError as exc:
            if not recover or memory or not exc.args[0].startswith("cannot use the store"):
                raise
            self._rebuild(str(exc))
        if self.lost:
            self._seat_back()

    def _open(self, *, empty_is_lost: bool) -> None:
        path = self.path
        if self.key is not None and not path.exists():
            try:  # made owner-only before SQLite writes anything (its -wal and -shm take its mode)
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
            except OSError as exc:
                raise StoreError(f"cannot write the state folder {path.parent}: {reason(exc)}") from None
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
                    if empty_is_lost and not self.lost:
                        self.lost = (f"the store {path} is empty (removed or emptied), but the node's key "
                                     f"{self.key} is here: this node rejoins its table as a node that lost "
                                     "its memory")
                elif fmt != FORMAT:
                    raise StoreError(f"{path} is a {fmt} store, not {FORMAT}")
        except StoreError:
            self.db.close()
            raise

    def _rebuild(self, why: str) -> None:
        """(``recover``) The store is damaged: keep it aside and make a new one, with the node's key
        (its key file, else what can be read of the damaged store) and what can be read of its
        tables; a StoreError when the key cannot be found."""
        path, key = self.path, self.key
        assert key is not None
        seed, rows = _salvage(path)
        if not key.exists():
            if seed is None:
                raise StoreError(f"{why}; the node's key is neither in it nor in {key}: restore the state "
                                 f"folder from a backup, or move {path} away to start as a new player")
            try:
                _write_key(key, bytes.fromhex(seed))
            except ValueError:
                raise StoreError(f"{why}; the node's key in it is damaged too: restore the state folder "
                                 f"from a backup, or move {path} away to start as a new player") from None
        aside = Path(f"{path}.damaged")
        for suffix in ("", "-wal", "-shm"):
            self._keep_aside(Path(f"{path}{suffix}"), Path(f"{aside}{suffix}"))
        detail = why.removeprefix(f"cannot use the store {path}: ")
        self.lost = (f"the store {path} is damaged ({detail}); kept as {aside}, a new store made: "
                     "this node rejoins its table as a node that lost its memory")
        self._open(empty_is_lost=False)
        with self._tx():
            self.db.executemany("INSERT OR IGNORE INTO tables (id, info, state, over, created) "
                                "VALUES (?, ?, ?, ?, ?)", [r for r in rows if len(r) == 5])

    @staticmethod
    def _keep_aside(src: Path, dst: Path, *, copy: bool = False) -> None:
        try:
            if copy:
                with src.open("rb") as f:
                    data = f.read()
                fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                try:
                    os.write(fd, data)
                finally:
                    os.close(fd)
            elif src.exists():
                os.replace(src, dst)
        except OSError as exc:
            raise StoreError(f"cannot write the state folder {dst.parent}: {reason(exc)}") from None

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
                failure = f"cannot use the store {self.path}: {reason(exc)}"
            elif doing == "write":
                failure = f"cannot write the state folder {self.path.parent}: {reason(exc)}"
            else:
                failure = f"cannot {doing} the store {self.path}: {reason(exc)}"
            self.failure = self.failure or failure
            raise StoreError(failure) from None

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
        """This node's Ed25519 key (its 32-byte seed), made at the first start and kept in the key
        file beside the store (mode 0600).  A store of an older version that holds the key gives
        it to the key file and keeps only the node id; one that holds a random node id and no key
        gets a key, and with it a new node id (the id is made of the key)."""
        key = self.key
        if key is not None and key.exists():
            return _read_key(key)
        found = self._meta("identity")
        if key is None:
            if found is None:
                found = secrets.token_hex(32)
                self._set_meta("identity", found)
            return bytes.fromhex(found)
        seed = bytes.fromhex(found) if found is not None else secrets.token_bytes(32)
        _write_key(key, seed)
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
            _write_private(self.seat_file, json.dumps({"id": table_id, "info": info, "state": state}))

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
