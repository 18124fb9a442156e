"""Hosts for multi-host tests: Linux network namespaces joined by a bridge, real processes in them.

``with Lab(4) as lab:`` makes four namespaces ("hosts"), each with ``lo`` and an ``eth0``
holding a private 10.x address, all joined by a bridge that lives in a fifth namespace
(the "hub"), so nothing is added to or sent through the machine's own network. Multicast
is on and each host has a route for 224.0.0.0/4, so mDNS works between them.

``host.spawn([...])`` runs a real process inside a host with a bounded lifetime and
captures its output; ``Proc`` waits for output lines with timeouts, SIGKILLs and
restarts. Leaving the ``with`` block (also on a failure or Ctrl-C) kills every process in
the lab's namespaces and removes the namespaces, which takes the bridge and the veth pairs
with them. A lab left behind by a test process that was itself killed is removed by the
next lab that starts. :class:`Procs` gives the same process handling without namespaces
(for loopback tests).

Needs Linux, root and iproute2's ``ip``: :func:`lab_unavailable_reason` says what is missing.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

__all__ = [
    "Host",
    "Lab",
    "LabError",
    "Proc",
    "ProcExited",
    "ProcTimeout",
    "Procs",
    "lab_unavailable_reason",
    "require_lab",
]

PREFIX = "tkt"
_NAME = re.compile(rf"^{PREFIX}-(\d+)-([0-9a-f]+)-(hub|h\d+)$")
IP_TIMEOUT = 15.0


class LabError(RuntimeError):
    """The lab could not be built or taken down; the message holds the failed command."""


class ProcTimeout(AssertionError):
    """A process did not print the awaited line in time (the message ends with its output)."""


class ProcExited(AssertionError):
    """A process ended before it printed the awaited line."""


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    cmd = ["ip", *args]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=IP_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise LabError(f"{' '.join(cmd)}: no answer within {IP_TIMEOUT:g} s") from None
    if check and done.returncode != 0:
        raise LabError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return done


def lab_unavailable_reason() -> str | None:
    """Why this machine cannot build a lab, or None when it can (it tries one namespace)."""
    if not sys.platform.startswith("linux"):
        return "network namespaces need Linux"
    if os.geteuid() != 0:
        return "network namespaces need root (CI runs as root)"
    if shutil.which("ip") is None:
        return "the 'ip' command is missing: install iproute2 (CI: apt-get install iproute2)"
    probe = f"{PREFIX}-{os.getpid()}-{secrets.token_hex(3)}-h0"
    try:
        _ip("netns", "add", probe)
        _ip("-n", probe, "link", "add", "probe0", "type", "bridge")
    except LabError as exc:
        return f"cannot make a network namespace with a bridge here: {exc}"
    finally:
        _ip("netns", "del", probe, check=False)
    return None


def require_lab() -> None:
    """Fail (not skip) a test with a clear message when no lab can be built here."""
    reason = lab_unavailable_reason()
    if reason is not None:
        raise LabError(reason)


def _ns_pids(ns: str) -> list[int]:
    done = _ip("netns", "pids", ns, check=False)
    return [int(p) for p in done.stdout.split() if p.isdigit()]


def _kill_namespace(ns: str) -> None:
    """SIGKILL every process in ``ns`` (bounded wait), then delete it."""
    deadline = time.monotonic() + 10
    while pids := _ns_pids(ns):
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if time.monotonic() > deadline:
            raise LabError(f"processes {pids} in namespace {ns} did not die")
        time.sleep(0.05)
    _ip("netns", "del", ns, check=False)


def _lab_namespaces() -> list[str]:
    done = _ip("netns", "list", check=False)
    names = [line.split()[0] for line in done.stdout.splitlines() if line.strip()]
    return [name for name in names if _NAME.match(name)]


def sweep_stale_labs() -> list[str]:
    """Remove labs whose test process is gone (it was killed before it could clean up)."""
    removed = []
    for ns in _lab_namespaces():
        match = _NAME.match(ns)
        assert match is not None
        pid = int(match.group(1))
        try:
            os.kill(pid, 0)
            continue  # its owner still runs: not ours to touch
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        _kill_namespace(ns)
        removed.append(ns)
    return removed


try:
    _prctl: Any = ctypes.CDLL(None, use_errno=True).prctl  # looked up now, not after fork()
except (OSError, AttributeError):
    _prctl = None
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL me when the test process dies (even by SIGKILL).

    Linux ties this to the thread that forked, so it is only set for processes started
    from the main thread (a worker thread of trio may end while the child should live).
    """
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


class Proc:
    """A running process: its output (stdout and stderr, merged) as timestamped lines."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        name: str,
        env: Mapping[str, str] | None,
        cwd: str | Path | None,
        lifetime: float,
        log_path: Path | None,
        respawn: Callable[[], Proc] | None = None,
    ) -> None:
        self.argv = list(argv)
        self.name = name
        self.lifetime = lifetime
        self._respawn = respawn
        self._cond = threading.Condition()
        self._lines: list[tuple[float, str]] = []
        self._eof = False
        self.expired = False
        self.started_at = time.monotonic()
        full_env = dict(os.environ if env is None else env)
        full_env.setdefault("PYTHONUNBUFFERED", "1")
        self.popen = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=full_env,
            cwd=cwd,
            start_new_session=True,  # its own process group, killed as a whole
            preexec_fn=_die_with_parent if threading.current_thread() is threading.main_thread() else None,
        )
        self.pid = self.popen.pid
        self._log = log_path.open("ab") if log_path is not None else None
        self._reader = threading.Thread(target=self._read, name=f"proc-{name}", daemon=True)
        self._reader.start()
        self._watchdog = threading.Timer(lifetime, self._expire)
        self._watchdog.daemon = True
        self._watchdog.start()

    def __repr__(self) -> str:
        return f"<Proc {self.name} pid={self.pid} rc={self.popen.returncode}>"

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for raw in self.popen.stdout:
            if self._log is not None:
                self._log.write(raw)
                self._log.flush()
            with self._cond:
                self._lines.append((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\r\n")))
                self._cond.notify_all()
        with self._cond:
            self._eof = True
            self._cond.notify_all()
        if self._log is not None:
            self._log.close()

    def _expire(self) -> None:
        if self.popen.poll() is None:
            self.expired = True
            self.kill()

    # -- output -------------------------------------------------------------------------

    def lines(self) -> list[str]:
        with self._cond:
            return [line for _, line in self._lines]

    def timed_lines(self) -> list[tuple[float, str]]:
        """(time.monotonic() when read, line) pairs; monotonic time is shared by all namespaces."""
        with self._cond:
            return list(self._lines)

    def json_lines(self) -> list[dict[str, Any]]:
        """The lines that are JSON objects, parsed."""
        found = []
        for line in self.lines():
            if line.startswith("{"):
                with contextlib.suppress(ValueError):
                    value = json.loads(line)
                    if isinstance(value, dict):
                        found.append(value)
        return found

    def tail(self, count: int = 40) -> str:
        return "\n".join(self.lines()[-count:])

    def wait_for(
        self, match: str | re.Pattern[str] | Callable[[str], bool], *, timeout: float, start: int = 0
    ) -> str:
        """The first line from index ``start`` on that matches (a regex searched, or a predicate).

        Raises ProcTimeout after ``timeout`` s, ProcExited when the output ends first.
        """
        if callable(match):
            test = match
        else:
            pattern = re.compile(match) if isinstance(match, str) else match
            test = lambda line: pattern.search(line) is not None  # noqa: E731
        deadline = time.monotonic() + timeout
        index = start
        with self._cond:
            while True:
                while index < len(self._lines):
                    line = self._lines[index][1]
                    index += 1
                    if test(line):
                        return line
                if self._eof:
                    self.popen.wait(timeout=5)
                    raise ProcExited(
                        f"{self.name} exited ({self.popen.returncode}) before printing the awaited line; "
                        f"output:\n{self.tail()}"
                    )
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ProcTimeout(
                        f"{self.name}: awaited line not printed within {timeout:g} s; output:\n{self.tail()}"
                    )
                self._cond.wait(left)

    def wait_for_json(
        self, predicate: Callable[[dict[str, Any]], bool], *, timeout: float, start: int = 0
    ) -> dict[str, Any]:
        """The first JSON-object line (from line ``start``) that satisfies ``predicate``."""

        def test(line: str) -> bool:
            if not line.startswith("{"):
                return False
            try:
                value = json.loads(line)
            except ValueError:
                return False
            return isinstance(value, dict) and bool(predicate(value))

        result = json.loads(self.wait_for(test, timeout=timeout, start=start))
        assert isinstance(result, dict)
        return result

    # -- control ------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self.popen.poll() is None

    def send(self, text: str) -> None:
        """Write ``text`` to the process's standard input."""
        assert self.popen.stdin is not None
        self.popen.stdin.write(text.encode())
        self.popen.stdin.flush()

    def signal(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signum)

    def kill(self) -> None:
        """SIGKILL the process and its group, and reap it."""
        self.signal(signal.SIGKILL)
        self.popen.wait(timeout=10)
        self._finish()

    def terminate(self, *, timeout: float = 10.0) -> int:
        """SIGTERM, then SIGKILL after ``timeout`` s; returns the exit status."""
        self.signal(signal.SIGTERM)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        self._finish()
        return self.popen.returncode

    def exited(self, *, within: float) -> bool:
        """Whether the process ends within ``within`` s (returns as soon as it does; not killed)."""
        try:
            self.popen.wait(timeout=within)
        except subprocess.TimeoutExpired:
            return False
        return True

    def wait(self, *, timeout: float) -> int:
        """Wait for the exit (SIGKILL and raise ProcTimeout after ``timeout`` s)."""
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise ProcTimeout(
                f"{self.name} did not exit within {timeout:g} s; output:\n{self.tail()}"
            ) from None
        self._finish()
        return self.popen.returncode

    def _finish(self) -> None:
        self._watchdog.cancel()
        self._reader.join(timeout=5)
        if self.popen.stdin is not None:
            with contextlib.suppress(OSError):
                self.popen.stdin.close()

    def restart(self) -> Proc:
        """Kill this process if it still runs, and start it again with the same command."""
        if self.alive:
            self.kill()
        if self._respawn is None:
            raise RuntimeError(f"{self.name} cannot be restarted")
        return self._respawn()


class Procs:
    """Starts processes, keeps track of them, and kills the ones still running on close."""

    def __init__(self, *, log_dir: Path | None = None, lifetime: float = 300.0) -> None:
        self.log_dir = log_dir
        self.lifetime = lifetime
        self.started: list[Proc] = []
        self._counts: dict[str, int] = {}

    def __enter__(self) -> Procs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def spawn(
        self,
        argv: Sequence[str],
        *,
        name: str | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        lifetime: float | None = None,
        prefix: Sequence[str] = (),
    ) -> Proc:
        """Start ``prefix + argv``; ``lifetime`` s after the start it is SIGKILLed if still running."""
        label = name or Path(argv[0]).name
        count = self._counts[label] = self._counts.get(label, 0) + 1
        log_path = None
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            log_path = self.log_dir / f"{label}.{count}.log"

        def again() -> Proc:
            return self.spawn(argv, name=label, env=env, cwd=cwd, lifetime=lifetime, prefix=prefix)

        proc = Proc(
            [*prefix, *argv],
            name=label,
            env=env,
            cwd=cwd,
            lifetime=self.lifetime if lifetime is None else lifetime,
            log_path=log_path,
            respawn=again,
        )
        self.started.append(proc)
        return proc

    def close(self) -> None:
        for proc in self.started:
            if proc.alive:
                proc.kill()
            else:
                proc._finish()


@dataclass
class Host:
    """One namespace of a lab: a machine with ``lo`` and ``eth0`` at ``address``."""

    lab: Lab
    index: int
    ns: str
    address: str
    iface: str = "eth0"
    procs: list[Proc] = field(default_factory=list)

    def command(self, argv: Sequence[str]) -> list[str]:
        """``argv`` as run inside this host."""
        return ["ip", "netns", "exec", self.ns, *argv]

    def spawn(
        self,
        argv: Sequence[str],
        *,
        name: str | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        lifetime: float | None = None,
    ) -> Proc:
        """Start ``argv`` inside this host (see :meth:`Procs.spawn`)."""
        label = name or f"h{self.index}-{Path(argv[0]).name}"
        proc = self.lab.procs.spawn(
            argv, name=label, env=env, cwd=cwd, lifetime=lifetime, prefix=("ip", "netns", "exec", self.ns)
        )
        self.procs.append(proc)
        return proc

    def run(self, argv: Sequence[str], *, timeout: float) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` inside this host to its end (killed after ``timeout`` s: TimeoutExpired)."""
        cmd = self.command(argv)
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


class Lab:
    """``n`` hosts on one bridged 10.x/24 network; see the module docstring."""

    def __init__(
        self,
        n: int,
        *,
        multicast_route: bool = True,
        log_dir: Path | None = None,
        lifetime: float = 300.0,
    ) -> None:
        if not 1 <= n <= 200:
            raise ValueError("a lab has 1..200 hosts")
        self.n = n
        self.multicast_route = multicast_route
        self.run_id = f"{os.getpid()}-{secrets.token_hex(3)}"
        self.hub = f"{PREFIX}-{self.run_id}-hub"
        # Private addresses, used only inside these namespaces (a random /24 out of 10/8).
        self.subnet = f"10.{secrets.randbelow(190) + 64}.{secrets.randbelow(256)}"
        self.procs = Procs(log_dir=log_dir, lifetime=lifetime)
        self.hosts: list[Host] = []
        self._namespaces: list[str] = []
        self._old_sigterm: Any = None

    def __enter__(self) -> Lab:
        require_lab()
        sweep_stale_labs()
        if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGTERM) in (
            signal.SIG_DFL,
            None,
        ):
            # A SIGTERM to the test run then unwinds through __exit__ like Ctrl-C does.
            self._old_sigterm = signal.signal(signal.SIGTERM, _raise_interrupt)
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            self.close()
        except LabError as problem:
            if exc is None:
                raise
            # Do not hide the test's own failure behind the cleanup's.
            print(f"lab cleanup after a failure: {problem}", file=sys.stderr)

    def _add_namespace(self, ns: str) -> None:
        _ip("netns", "add", ns)
        self._namespaces.append(ns)
        _ip("-n", ns, "link", "set", "lo", "up")

    def _build(self) -> None:
        self._add_namespace(self.hub)
        # No snooping: the bridge floods multicast to every port, like a home switch.
        _ip("-n", self.hub, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", self.hub, "link", "set", "br0", "up")
        hub = self.hub
        for i in range(self.n):
            ns = f"{PREFIX}-{self.run_id}-h{i}"
            self._add_namespace(ns)
            address = f"{self.subnet}.{i + 1}"
            # Both ends are made inside their namespaces: nothing appears in the machine's own.
            _ip("link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", f"p{i}", "netns", hub)
            _ip("-n", self.hub, "link", "set", f"p{i}", "master", "br0", "up")
            _ip("-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
            _ip("-n", ns, "link", "set", "eth0", "up", "multicast", "on")
            if self.multicast_route:
                _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")
            self.hosts.append(Host(self, i, ns, address))

    def close(self) -> None:
        """Kill every process of the lab and remove its namespaces (idempotent)."""
        errors = []
        try:
            self.procs.close()
        except Exception as exc:  # still take the namespaces down
            errors.append(repr(exc))
        for ns in reversed(self._namespaces):
            try:
                _kill_namespace(ns)
            except LabError as exc:
                errors.append(str(exc))
        self._namespaces.clear()
        left = [ns for ns in _lab_namespaces() if ns.startswith(f"{PREFIX}-{self.run_id}-")]
        if self._old_sigterm is not None:
            signal.signal(signal.SIGTERM, self._old_sigterm)
            self._old_sigterm = None
        if left:
            errors.append(f"namespaces left: {left}")
        if errors:
            raise LabError("; ".join(errors))

    def __iter__(self) -> Iterator[Host]:
        return iter(self.hosts)

    def __getitem__(self, index: int) -> Host:
        return self.hosts[index]
