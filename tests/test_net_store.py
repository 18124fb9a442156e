"""The crash-safe store: SQLite in WAL mode, synchronous=FULL; kill -9 at any moment loses
nothing that was written, and a restarted node finds its identity and table."""

from __future__ import annotations

import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tarock.net.identity import Identity
from tarock.net.store import Store, StoreError, wal_damage

WRITER = textwrap.dedent("""
    import sys, json
    from pathlib import Path
    from tarock.net.store import Store
    store = Store(Path(sys.argv[1]))
    table = "ab" * 16
    store.save_table(table, {"name": "t"}, {"epoch": 1})
    deal = 0
    while True:
        deal += 1
        store.put_progress(table, deal, "actions", list(range(deal % 50)))
        store.save_outcome(table, deal, {"deal": deal, "pad": "x" * 2000})
        print(deal, flush=True)
""")


def test_kill_9_while_writing_loses_no_finished_deal(tmp_path: Path) -> None:
    path = tmp_path / "node.sqlite"
    for attempt in range(3):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True,
                                cwd=Path(__file__).resolve().parent.parent)
        assert proc.stdout is not None
        written = 0
        deadline = time.monotonic() + 30
        while written < 40 * (attempt + 1) and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            written = int(line)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        store = Store(path)
        outcomes = store.outcomes("ab" * 16)
        deals = [d for d, _, _, _ in outcomes]
        # Every deal reported as written is there, whole; numbering has no holes.
        assert written <= deals[-1] and deals == list(range(1, len(deals) + 1))
        assert all(r is not None and r["deal"] == d for d, r, _, _ in outcomes)
        # The deal in progress of a finished deal is gone with it (one transaction).
        assert all(d > deals[-1] for d in store.progress_deals("ab" * 16))
        store.close()


def test_identity_and_table_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite"
    first = Store(path)
    me = first.node_id()
    first.save_table("cd" * 16, {"name": "t"}, {"epoch": 3, "seat": 2})
    first.close()
    again = Store(path)
    assert again.node_id() == me
    assert again.current_table() == "cd" * 16
    found = again.table("cd" * 16)
    assert found is not None and found[1]["seat"] == 2
    again.table_over("cd" * 16)
    assert again.current_table() is None
    mode = again.db.execute("PRAGMA journal_mode").fetchone()[0]
    sync = again.db.execute("PRAGMA synchronous").fetchone()[0]
    assert mode == "wal" and sync == 2  # FULL


def test_a_file_that_is_not_a_store_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    try:
        Store(path)
    except StoreError as exc:
        assert str(path) in str(exc)
    else:
        raise AssertionError("a junk file was taken for a store")


def test_a_write_that_does_not_fit_changes_nothing_and_says_where(tmp_path: Path) -> None:
    """SQLITE_FULL (a page limit: the database's own "disk is full"): the failed write is rolled
    back, one StoreError names the folder, and what was stored before is intact."""
    path = tmp_path / "node.sqlite"
    store = Store(path)
    table = "ab" * 16
    store.save_table(table, {"name": "t"}, {"epoch": 1})
    store.save_outcome(table, 1, {"deal": 1})
    store.put_progress(table, 2, "begin", {"deal": 2})
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")
    try:
        store.save_outcome(table, 2, {"deal": 2, "pad": "x" * 100_000})
    except StoreError as exc:
        assert str(exc).startswith(f"cannot write the state folder {tmp_path}: No space left on device")
    else:
        raise AssertionError("a write larger than the store may grow was taken")
    assert not store.db.in_transaction
    assert [d for d, _, _, _ in store.outcomes(table)] == [1]
    assert store.progress(table, 2) == {"begin": {"deal": 2}}  # the outcome's delete was rolled back too
    store.close()
    again = Store(path)
    assert [d for d, _, _, _ in again.outcomes(table)] == [1] and again.progress_deals(table) == [2]


def test_a_store_cut_short_is_a_clear_error_at_the_open(tmp_path: Path) -> None:
    path = tmp_path / "node.sqlite"
    store = Store(path)
    for deal in range(1, 30):
        store.save_outcome("ab" * 16, deal, {"deal": deal, "pad": "x" * 4000})
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    try:
        Store(path)
    except StoreError as exc:
        assert str(exc).startswith(f"cannot use the store {path}: the file is damaged")
    else:
        raise AssertionError("a store cut in half was opened")


def test_a_state_folder_that_is_a_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    for folder, why in ((tmp_path / "f", "it is a file, not a folder"),
                        (tmp_path / "f" / "sub", "a part of the path is a file, not a folder")):
        try:
            Store(folder / "node.sqlite")
        except StoreError as exc:
            assert str(exc) == f"cannot write the state folder {folder}: {why}"
        else:
            raise AssertionError(f"{folder} was taken for a folder")


def test_the_key_is_kept_apart_and_private(tmp_path: Path) -> None:
    import os
    import stat

    state = tmp_path / "new" / "state"
    store = Store(state / "n.sqlite", recover=True)
    me = store.node_id()
    store.close()
    key = state / "n.key"
    def mode(p: Path) -> int:
        return stat.S_IMODE(p.stat().st_mode)

    assert mode(state) == 0o700 and mode(key) == 0o600 and mode(state / "n.sqlite") == 0o600
    assert store.new_key and len(key.read_text().strip()) == 64
    db = sqlite3.connect(state / "n.sqlite")
    assert db.execute("SELECT value FROM meta WHERE key = 'identity'").fetchone() is None  # not in the store
    db.close()
    os.chmod(key, 0o644)
    os.chmod(state / "n.sqlite", 0o644)
    again = Store(state / "n.sqlite", recover=True)
    assert again.node_id() == me and not again.lost and not again.new_key
    assert again.warnings == [f"the key file {key} (mode 0644) was readable by other users: now 0600",
                              f"the store {state / 'n.sqlite'} (mode 0644) was readable by other users: "
                              "now 0600"]
    assert mode(key) == 0o600 and mode(state / "n.sqlite") == 0o600


def test_a_store_of_the_older_version_gives_its_key_to_the_key_file(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite"
    Store(path).close()
    db = sqlite3.connect(path)
    seed = "11" * 32
    db.execute("INSERT INTO meta (key, value) VALUES ('identity', ?)", (seed,))
    db.commit()
    db.close()
    store = Store(path, recover=True)
    assert store.identity_seed() == bytes.fromhex(seed) and not store.new_key
    assert (tmp_path / "n.key").read_text().strip() == seed
    assert store._meta("identity") is None and store.node_id() == Identity(bytes.fromhex(seed)).node


def test_an_emptied_store_beside_its_key_is_a_store_that_lost_its_memory(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite"
    first = Store(path, recover=True)
    me = first.node_id()
    first.save_table("ab" * 16, {"name": "t"}, {"epoch": 1})
    first.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(b"")  # emptied
    again = Store(path, recover=True)
    assert again.node_id() == me  # the same node, not a new identity
    assert again.lost == (f"the store {path} is empty (removed or emptied), but the node's key "
                          f"{tmp_path / 'n.key'} is here: this node rejoins its table as a node that lost "
                          "its memory")
    again.close()
    assert not Store(path, recover=True).lost  # said once: the store is its again


def test_a_key_that_is_not_the_stores_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite"
    Store(path, recover=True).node_id()
    (tmp_path / "n.key").write_text("22" * 32 + "\n")
    with pytest.raises(StoreError, match=r"the store .* is of node \w{8}, its key .* of node \w{8}: put"):
        Store(path, recover=True).node_id()
    (tmp_path / "n.key").write_text("not a key")
    with pytest.raises(StoreError, match=r"the key file .* is damaged \(not 64 hex digits\)"):
        Store(path, recover=True).node_id()


def committed_wal(path: Path, deals: int) -> bytes:
    """A store with ``deals`` outcomes, all of them still in its write-ahead log."""
    store = Store(path)
    store.db.execute("PRAGMA wal_autocheckpoint=0")
    for deal in range(1, deals + 1):
        store.save_outcome("ab" * 16, deal, {"deal": deal, "pad": "x" * 3000})
    wal = Path(f"{path}-wal").read_bytes()
    store.db.close()  # no checkpoint at the close: copy the files first, as a kill -9 would leave them
    return wal


def test_a_damaged_write_ahead_log_is_found_before_sqlite_drops_what_follows(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite"
    db_bytes_wal = committed_wal(tmp_path / "src.sqlite", 20)
    assert wal_damage(tmp_path / "missing-wal") == ""
    good = tmp_path / "good-wal"
    good.write_bytes(db_bytes_wal)
    assert wal_damage(good) == ""
    bad = bytearray(db_bytes_wal)
    bad[len(bad) // 3] ^= 0xFF  # one byte of a page in the middle
    (tmp_path / "bad-wal").write_bytes(bytes(bad))
    assert re.fullmatch(r"its write-ahead log is damaged at frame \d+ of \d+: committed writes after it "
                        r"would be lost", wal_damage(tmp_path / "bad-wal"))
    head = bytearray(db_bytes_wal)
    head[12] ^= 1
    (tmp_path / "head-wal").write_bytes(bytes(head))
    assert wal_damage(tmp_path / "head-wal") == "its write-ahead log has a damaged header"
    # Through the store: the node's own store says so and keeps a copy; another store refuses.
    shutil.copy(tmp_path / "src.sqlite", path)
    Path(f"{path}-wal").write_bytes(bytes(bad))
    (tmp_path / "n.key").write_text("33" * 32 + "\n")
    store = Store(path, recover=True)
    assert "its write-ahead log is damaged at frame" in store.lost and "lost its memory" in store.lost
    assert Path(f"{path}-wal.damaged").read_bytes() == bytes(bad)
    store.close()
    Path(f"{path}-wal").write_bytes(bytes(bad))
    with pytest.raises(StoreError, match=r"cannot use the store .*: its write-ahead log is damaged"):
        Store(path)


def test_a_store_that_lost_its_memory_finds_its_seat_in_the_seat_file(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite"
    first = Store(path, recover=True)
    first.node_id()
    first.save_table("ab" * 16, {"name": "t"}, {"epoch": 4, "seat": 2})
    first.save_outcome("ab" * 16, 1, {"deal": 1})
    first.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    again = Store(path, recover=True)
    assert again.lost and again.current_table() == "ab" * 16
    assert again.table("ab" * 16) == ({"name": "t"}, {"epoch": 4, "seat": 2}, False)
    assert again.outcomes("ab" * 16) == []  # the outcomes come from the table's log
    again.table_over("ab" * 16)
    assert not (tmp_path / "n.seat").exists()
