"""tarock tables, watch and a refused join, with real processes on loopback."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from net_procs import ROOT, bot_args, digest, env, records, tarock
from netns import Procs

LOOP = ("--interface", "127.0.0.1")


def test_tables_lists_an_open_table_and_a_watcher_follows_it(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with Procs(log_dir=tmp_path / "logs", lifetime=150) as procs:
        host = procs.spawn(bot_args("h", tmp_path, 2, *LOOP, "--host", "--table", "Beisl"), name="h",
                           env=env(state), cwd=ROOT)
        host.wait_for_json(lambda e: e.get("event") == "open", timeout=60)
        listed = subprocess.run(tarock("tables", "--json", "--wait", "4", "--state", str(state), *LOOP),
                                capture_output=True, text=True, env=env(state), cwd=ROOT, timeout=60)
        assert listed.returncode == 0, listed.stderr
        found = [t for t in json.loads(listed.stdout) if t["kind"] == "table"]
        assert [(t["name"], t["free"], t["rounds"]) for t in found] == [("Beisl", 3, 2)]
        plain = subprocess.run(tarock("tables", "--wait", "4", "--state", str(state), *LOOP),
                               capture_output=True, text=True, env=env(state), cwd=ROOT, timeout=60)
        assert "'Beisl': tarock40, 2 rounds, 3 seat(s) free" in plain.stdout, plain.stdout
        watcher = procs.spawn(tarock("watch", "Beisl", "--state", str(state), *LOOP), name="watch",
                              env=env(state), cwd=ROOT)
        watcher.wait_for("Joined table 'Beisl'", timeout=60)
        seats = [procs.spawn(bot_args(f"s{i}", tmp_path, 2, *LOOP, "--table", "Beisl"), name=f"s{i}",
                             env=env(state), cwd=ROOT) for i in range(3)]
        for p in (host, *seats):
            assert p.wait(timeout=120) == 0, p.tail()
        assert watcher.wait(timeout=60) == 0, watcher.tail()
    out = "\n".join(watcher.lines())
    assert "as a watcher" in out and "=== Round 1 of 2" in out and "Final standings after 2 rounds" in out
    assert "Your hand" not in out and "your turn" not in out
    files = [records(tmp_path, n) for n in ("h", "s0", "s1", "s2")]
    assert all(digest(f) == digest(files[0]) for f in files)


def test_a_join_with_other_rules_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    state = tmp_path / "state"
    other = tmp_path / "plugins.toml"
    other.write_text('[plugins]\nenabled = ["tarock54-club"]\n\n[[variant]]\nname = "tarock54-club"\n'
                     'base = "tarock54"\ntitle = "not the club\'s rules"\nplugins = []\n', encoding="utf-8")
    with Procs(log_dir=tmp_path / "logs", lifetime=90) as procs:
        host = procs.spawn(bot_args("h", tmp_path, 1, *LOOP, "--host", "--table", "Klub", "--variant",
                                    "tarock54-club"), name="h", env=env(state), cwd=ROOT)
        opened = host.wait_for_json(lambda e: e.get("event") == "open", timeout=60)
        join = subprocess.run(tarock("join", "--to", f"127.0.0.1:{opened['port']}", "--plugins", str(other),
                                     "--state", str(state), *LOOP),
                              capture_output=True, text=True, env=env(state), cwd=ROOT, timeout=60,
                              stdin=subprocess.DEVNULL)
        assert join.returncode == 2, join.stdout + join.stderr
        assert "cannot join table 'Klub'" in join.stderr and "Traceback" not in join.stderr
        bad = subprocess.run(tarock("join", "--to", "nowhere:x", "--state", str(state), *LOOP),
                             capture_output=True, text=True, env=env(state), cwd=ROOT, timeout=60)
        assert bad.returncode == 2 and "port" in bad.stderr and "Traceback" not in bad.stderr
        host.kill()
