"""Real ``tarock bot`` processes on loopback (mDNS on 127.0.0.1): a table, a node killed
and restarted mid-hand, the host killed, and a fault-injecting proxy between seats and host."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from net_procs import ROOT, bot_args, digest, env, events, records, rounds_of, standings
from netns import Procs

LOOP = ("--interface", "127.0.0.1")


def _wait_all(procs: list, timeout: float) -> None:  # type: ignore[type-arg]
    for p in procs:
        assert p.wait(timeout=timeout) == 0, p.tail()


def test_four_bots_form_a_table_and_play_it_with_identical_records(tmp_path: Path) -> None:
    with Procs(log_dir=tmp_path / "logs", lifetime=150) as procs:
        bots = [procs.spawn(bot_args(f"b{i}", tmp_path, 2, *LOOP), name=f"b{i}", env=env(tmp_path / "state"),
                            cwd=ROOT) for i in range(4)]
        _wait_all(bots, 120)
    files = [records(tmp_path, f"b{i}") for i in range(4)]
    assert files[0] and all(digest(f) == digest(files[0]) for f in files)
    assert rounds_of(files[0]) == {1, 2}
    hosts = {events(b, "seated")[-1]["host"] for b in bots}
    assert len(hosts) == 1  # one host agreed on by all
    tables = [standings(b) for b in bots]
    assert all(t == tables[0] for t in tables) and sum(s["sub"] for s in tables[0]) == 0


def _hand_started(proc, n: int = 1) -> None:  # type: ignore[no-untyped-def]
    proc.wait_for_json(lambda e: e.get("event") == "first-card", timeout=60)


def test_a_bot_killed_mid_hand_resumes_its_seat(tmp_path: Path) -> None:
    with Procs(log_dir=tmp_path / "logs", lifetime=200) as procs:
        bots = [procs.spawn(bot_args(f"b{i}", tmp_path, 3, *LOOP, "--seed", str(i)), name=f"b{i}",
                            env=env(tmp_path / "state"), cwd=ROOT) for i in range(4)]
        seated = [b.wait_for_json(lambda e: e.get("event") == "seated", timeout=60) for b in bots]
        host = seated[0]["host"]
        victim = next(b for b, s in zip(bots, seated, strict=True) if events(b, "seated")[-1]["roster"] and
                      s["seat"] not in (0,) and events(b, "seated")[-1]["host"] == host)
        _hand_started(victim)
        victim.kill()  # SIGKILL in the middle of a hand
        again = victim.restart()
        again.wait_for_json(lambda e: e.get("event") == "resume", timeout=30)
        _wait_all([b for b in bots if b is not victim] + [again], 150)
    names = [f"b{i}" for i in range(4)]
    files = [records(tmp_path, n) for n in names]
    assert all(digest(f) == digest(files[0]) for f in files), [len(f) for f in files]
    assert rounds_of(files[0]) == {1, 2, 3}
    assert standings(again) == standings(bots[0] if bots[0] is not victim else bots[1])


def test_the_host_killed_the_table_goes_on(tmp_path: Path) -> None:
    with Procs(log_dir=tmp_path / "logs", lifetime=240) as procs:
        bots = [procs.spawn(bot_args(f"b{i}", tmp_path, 3, *LOOP, "--seed", str(i)), name=f"b{i}",
                            env=env(tmp_path / "state"), cwd=ROOT) for i in range(4)]
        seated = [b.wait_for_json(lambda e: e.get("event") == "seated", timeout=60) for b in bots]
        host_node = seated[0]["host"]
        host = next(b for b in bots if events(b, "open") or
                    any(e.get("seat") == 0 for e in events(b, "seated")))
        others = [b for b in bots if b is not host]
        # Let the first hand end, then kill the host in the middle of the second.
        others[0].wait_for_json(lambda e: e.get("event") == "hand", timeout=90)
        others[0].wait_for_json(lambda e: e.get("event") == "first-card" or e.get("event") == "begin",
                                timeout=60, start=len(others[0].lines()) - 1)
        time.sleep(0.3)
        host.kill()
        _wait_all(others, 200)
    names = [n for n, b in zip([f"b{i}" for i in range(4)], bots, strict=True) if b is not host]
    files = [records(tmp_path, n) for n in names]
    assert all(digest(f) == digest(files[0]) for f in files)
    assert rounds_of(files[0]) == {1, 2, 3}  # the score sheet is complete: no round lost
    new_hosts = {events(b, "seated")[-1]["host"] for b in others}
    assert len(new_hosts) == 1 and host_node not in new_hosts
    assert all(events(b, "seated")[-1]["epoch"] == 2 for b in others)
    sheets = [standings(b) for b in others]
    assert all(s == sheets[0] for s in sheets)


def test_through_a_fault_proxy_that_delays_stalls_and_cuts(tmp_path: Path) -> None:
    with Procs(log_dir=tmp_path / "logs", lifetime=240) as procs:
        host = procs.spawn(bot_args("h", tmp_path, 3, *LOOP, "--host", "--table", "proxied", "--seed", "1"),
                           name="h", env=env(tmp_path / "state"), cwd=ROOT)
        opened = host.wait_for_json(lambda e: e.get("event") == "open", timeout=60)
        proxy = procs.spawn([sys.executable, str(ROOT / "tests" / "faultproxy.py"), "--listen", "127.0.0.1:0",
                             "--target", f"127.0.0.1:{opened['port']}"], name="proxy", cwd=ROOT,
                            env=env(tmp_path / "state"))
        ready = proxy.wait_for_json(lambda e: e.get("event") == "listening", timeout=20)
        port = int(str(ready["address"]).rsplit(":", 1)[1])
        seats = [procs.spawn(bot_args(f"s{i}", tmp_path, 3, "--to", f"127.0.0.1:{port}", "--table", "proxied",
                                      "--seed", str(10 + i)), name=f"s{i}", env=env(tmp_path / "state"),
                             cwd=ROOT) for i in range(3)]
        seats[0].wait_for_json(lambda e: e.get("event") == "first-card", timeout=60)

        def command(text: str) -> dict:  # type: ignore[type-arg]
            start = len(proxy.lines())
            proxy.send(text + "\n")
            return proxy.wait_for_json(lambda e: True, timeout=10, start=start)
        command("delay 0.05")
        time.sleep(1.0)
        command("delay 0")
        command("stall")
        time.sleep(0.5)   # shorter than the heartbeat timeout: nobody is declared gone
        command("resume")
        time.sleep(0.5)
        cut = command("cut")  # every connection reset: the seats reconnect and resume their sessions
        time.sleep(1.0)
        command("cut")
        _wait_all([host, *seats], 200)
        proxy.send("quit\n")
        assert cut.get("connections", 0) >= 3  # all three seats were cut and came back
    names = ["h", "s0", "s1", "s2"]
    files = [records(tmp_path, n) for n in names]
    assert all(digest(f) == digest(files[0]) for f in files)
    assert rounds_of(files[0]) == {1, 2, 3}
    assert all(events(s, "seated")[-1]["epoch"] == 1 for s in seats)  # the host never changed



def test_a_stalled_path_to_the_host_is_left_for_the_direct_one(tmp_path: Path) -> None:
    """The proxy between the seats and the host stalls for much longer than the timeouts.
    The host agreement's own connections go to the roster's addresses, not through the
    proxy, so the host still hears from every member and stays the host (docs/protocol.md,
    "Host agreement"): the seats find it again at those addresses and the table ends whole,
    the same records at every node."""
    with Procs(log_dir=tmp_path / "logs", lifetime=240) as procs:
        host = procs.spawn(bot_args("h", tmp_path, 3, *LOOP, "--host", "--table", "cut", "--seed", "1"),
                           name="h", env=env(tmp_path / "state"), cwd=ROOT)
        opened = host.wait_for_json(lambda e: e.get("event") == "open", timeout=60)
        proxy = procs.spawn([sys.executable, str(ROOT / "tests" / "faultproxy.py"), "--listen", "127.0.0.1:0",
                             "--target", f"127.0.0.1:{opened['port']}"], name="proxy", cwd=ROOT,
                            env=env(tmp_path / "state"))
        ready = proxy.wait_for_json(lambda e: e.get("event") == "listening", timeout=20)
        port = int(str(ready["address"]).rsplit(":", 1)[1])
        seats = [procs.spawn(bot_args(f"s{i}", tmp_path, 3, "--to", f"127.0.0.1:{port}", "--table", "cut",
                                      "--seed", str(10 + i)), name=f"s{i}", env=env(tmp_path / "state"),
                             cwd=ROOT) for i in range(3)]
        seats[0].wait_for_json(lambda e: e.get("event") == "first-card", timeout=60)
        proxy.send("stall\n")
        for p in (host, *seats):
            assert p.wait(timeout=150) == 0, p.tail()
        proxy.send("quit\n")
    names = ["h", "s0", "s1", "s2"]
    files = [records(tmp_path, n) for n in names]
    assert all(digest(f) == digest(files[0]) for f in files), [len(f) for f in files]
    assert rounds_of(files[0]) == {1, 2, 3}
    sheets = [standings(p) for p in (host, *seats)]
    assert all(s == sheets[0] for s in sheets)
