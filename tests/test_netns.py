"""The lab harness itself: namespaces on a bridge, processes in them, and a clean teardown."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from netns import (
    PREFIX,
    Lab,
    LabError,
    ProcExited,
    Procs,
    ProcTimeout,
    _ip,
    _lab_namespaces,
    _ns_pids,
    sweep_stale_labs,
)

PY = sys.executable
HERE = Path(__file__).resolve().parent

SERVER = """
import socket, sys
s = socket.socket(); s.bind((sys.argv[1], 7000)); s.listen()
print("listening", flush=True)
c, peer = s.accept(); c.sendall(b"hello from " + sys.argv[1].encode()); c.close()
print("served", peer[0], flush=True)
"""
CLIENT = """
import socket, sys
c = socket.create_connection((sys.argv[1], 7000), timeout=5); print(c.recv(100).decode())
"""


def test_hosts_reach_each_other_over_the_bridge_and_nothing_is_left() -> None:
    with Lab(3) as lab:
        namespaces = [lab.hub, *(h.ns for h in lab)]
        assert set(namespaces) <= set(_lab_namespaces())
        a, b, c = lab
        assert len({a.address, b.address, c.address}) == 3
        assert all(h.address.startswith("10.") for h in lab)
        server = a.spawn([PY, "-c", SERVER, a.address], name="server")
        server.wait_for("listening", timeout=10)
        answer = b.run([PY, "-c", CLIENT, a.address], timeout=10)
        assert answer.stdout.strip() == f"hello from {a.address}"
        assert server.wait_for("served", timeout=10) == f"served {b.address}"
        routes = c.run(["ip", "route"], timeout=10).stdout
        assert "224.0.0.0/4 dev eth0" in routes
        links = c.run(["ip", "-o", "link"], timeout=10).stdout
        assert "lo:" in links and "UP" in links and "MULTICAST" in links.split("eth0")[1]
        # The machine's own namespace gets no interface of the lab.
        own = _ip("-o", "link").stdout
        assert "br0" not in own.split() and f"{PREFIX}-" not in own
        sleeper = c.spawn([PY, "-c", "import time; time.sleep(600)"], name="sleeper")
        pid = sleeper.pid
    assert not set(namespaces) & set(_lab_namespaces())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_teardown_runs_when_the_test_fails_and_kills_strays() -> None:
    lab = Lab(1)
    with pytest.raises(RuntimeError, match="the test failed"), lab:
        # A process started behind the harness's back, inside the lab's namespace.
        stray = subprocess.Popen(["ip", "netns", "exec", lab[0].ns, PY, "-c", "import time; time.sleep(600)"])
        # `ip netns exec` joins the namespace a moment after it starts; a stray the
        # teardown is to find must be inside it first (else it escapes the listing).
        deadline = time.monotonic() + 10
        while stray.pid not in _ns_pids(lab[0].ns):
            assert stray.poll() is None and time.monotonic() < deadline, "the stray never joined"
            time.sleep(0.02)
        raise RuntimeError("the test failed")
    assert stray.wait(timeout=10) == -9
    assert not [ns for ns in _lab_namespaces() if lab.run_id in ns]


def test_labs_left_by_a_killed_test_run_are_swept() -> None:
    # A test process that died without cleaning up: its pid no longer exists.
    dead = subprocess.Popen([PY, "-c", "pass"])
    dead.wait(timeout=10)
    orphan = f"{PREFIX}-{dead.pid}-abcdef-h0"
    _ip("netns", "add", orphan)
    try:
        assert orphan in sweep_stale_labs()
        assert orphan not in _lab_namespaces()
    finally:
        _ip("netns", "del", orphan, check=False)


def test_a_live_owners_lab_is_not_swept() -> None:
    with Lab(1) as lab:
        assert lab[0].ns not in sweep_stale_labs()
        assert lab[0].ns in _lab_namespaces()


def test_process_output_waits_kills_and_restarts() -> None:
    with Lab(1) as lab:
        host = lab[0]
        proc = host.spawn([PY, "-c", "import time; print('one', flush=True); time.sleep(600)"], name="p")
        assert proc.wait_for(r"^one$", timeout=10) == "one"
        with pytest.raises(ProcTimeout, match=r"not printed within 0\.2 s"):
            proc.wait_for("two", timeout=0.2)
        proc.kill()
        assert not proc.alive and proc.popen.returncode == -9
        again = proc.restart()
        assert again.pid != proc.pid and again.wait_for("one", timeout=10)
        done = host.spawn([PY, "-c", 'print(\'{"event": "x", "n": 1}\'); print(\'bye\')'], name="q")
        with pytest.raises(ProcExited, match="exited"):
            done.wait_for("never", timeout=10)
        assert done.json_lines() == [{"event": "x", "n": 1}]
        assert done.wait(timeout=10) == 0


def test_lifetime_bounds_every_process() -> None:
    with Procs(lifetime=0.5) as procs:
        proc = procs.spawn([PY, "-c", "import time; time.sleep(600)"], name="long")
        started = time.monotonic()
        assert proc.wait(timeout=10) == -9
        assert proc.expired and time.monotonic() - started < 5


def test_lab_without_the_multicast_route() -> None:
    with Lab(1, multicast_route=False) as lab:
        assert "224.0.0.0/4" not in lab[0].run(["ip", "route"], timeout=10).stdout


def test_bad_size_is_refused() -> None:
    with pytest.raises(ValueError):
        Lab(0)


def test_lab_errors_name_the_command() -> None:
    with pytest.raises(LabError, match="ip netns del tkt-no-such"):
        _ip("netns", "del", "tkt-no-such")


def test_processes_die_with_the_test_process() -> None:
    """A lab process dies when the process that started it is killed (PR_SET_PDEATHSIG)."""
    with Lab(1) as lab:
        script = (
            "import sys; sys.path.insert(0, sys.argv[1]); from netns import Procs\n"
            "procs = Procs(lifetime=60)\n"
            "child = procs.spawn(['ip', 'netns', 'exec', sys.argv[2], sys.executable, '-c',"
            " 'import time; time.sleep(60)'])\n"
            "print(child.pid, flush=True)\n"
            "import time; time.sleep(60)\n"
        )
        parent = lab.procs.spawn([PY, "-c", script, str(HERE), lab[0].ns], name="parent")
        child_pid = int(parent.wait_for(r"^\d+$", timeout=10))
        os.kill(child_pid, 0)  # the grandchild runs
        parent.kill()  # the "test process" dies without any cleanup
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(child_pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"process {child_pid} outlived its parent")
