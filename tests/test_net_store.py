"""The crash-safe store: SQLite in WAL mode, synchronous=FULL; kill -9 at any moment loses
nothing that was written, and a restarted node finds its identity and table."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from net.store import Store, StoreError

WRITER = textwrap.dedent("""
    import sys, json
    from pathlib import Path
    from net.store import Store
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
