"""The files of a node's state folder and how their failures read: :class:`StoreError`, the
guard that turns SQLite's and the OS's errors into it, whole-or-nothing writes, the key file
and owner-only modes (the store itself: :mod:`net.store`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


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


def damaged(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _DAMAGED


class Guard:
    """One store file's SQLite and OS errors as one :class:`StoreError` that names the folder
    or file and the reason; ``failure`` is the first one's text."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.failure = ""

    @contextmanager
    def __call__(self, doing: str) -> Iterator[None]:
        """Guard a block (``doing``: "open", "read" or "write")."""
        try:
            yield
        except (sqlite3.Error, OSError) as exc:
            if damaged(exc):
                failure = f"cannot use the store {self.path}: {reason(exc)}"
            elif doing == "write":
                failure = f"cannot write the state folder {self.path.parent}: {reason(exc)}"
            else:
                failure = f"cannot {doing} the store {self.path}: {reason(exc)}"
            self.failure = self.failure or failure
            raise StoreError(failure) from None

    @contextmanager
    def transaction(self, db: sqlite3.Connection) -> Iterator[None]:
        """One transaction: on disk (fsync'd) when the block ends, or nothing of it (a write
        or a commit that fails, e.g. on a full disk, is rolled back: the store keeps what it
        held before)."""
        with self("write"):
            db.execute("BEGIN IMMEDIATE")
            try:
                yield
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise


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


def private(paths: list[Path], warnings: list[str], what: str) -> None:
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


def read_key(key: Path) -> bytes:
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


def write_key(key: Path, seed: bytes) -> None:
    """The key file, mode 0600 from its first byte, whole or not at all."""
    write_private(key, seed.hex() + "\n")


def write_private(path: Path, text: str) -> None:
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


def keep_aside(src: Path, dst: Path, *, copy: bool = False) -> None:
    """Move ``src`` to ``dst`` (a copy, mode 0600, with ``copy``); nothing if it is missing."""
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
