"""The soak's nemesis: faults on the lab's network and processes, chosen by a seeded RNG.

Network faults live only in the lab's namespaces (they go with them at teardown):

- ``cut``: a host's bridge port is taken off the bridge (``ip link set pN nomaster`` in
  the hub): its ``eth0`` stays up with its address and routes, every frame it sends or
  should get is lost, as behind a dead access point.
- ``split``: the hosts are split into two halves; the second half's ports move to a
  second bridge ``br1`` in the hub, so each half only reaches itself.
- ``netem``: delay and loss on one host's link. This kernel has no ``sch_netem``, so a
  relay process (``tests/soak_relay.py``) in the hub forwards that host's frames between
  its port (off the bridge) and a new veth on the bridge, 200 ms late each way, 10 % lost.

Process faults: ``kill`` (SIGKILL one node, any, then start it again with the same state
folder 0.5-3 s later), ``kill-host`` (the same for the node that hosts the table now), ``kill-seat``
(the same for a node that does not host it; not in the default set),
``restart-all`` (every node killed, all started again 2 s later).

Every fault is one ``fault`` entry in the history, its end one ``heal`` entry; then a
quiet gap. The RNG decides the kinds, victims, durations and gaps, so a seed gives the
same schedule (what the program does in between is not up to the seed).
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from netns import Lab, LabError, Proc, _ip
from soak_history import History
from tarock_procs import Bot

RELAY = str(Path(__file__).resolve().parent / "soak_relay.py")

FAULT_KINDS = ("kill", "kill-host", "cut", "split", "netem", "restart-all")
"""The default set (``kill-seat`` is there for narrowing a soak down: ``--faults kill-seat``)."""
ALL_KINDS = (*FAULT_KINDS, "kill-seat")
MILD_KINDS = ("kill-seat", "netem")


class Network:
    """The lab's links, with faults on them and a ``heal`` that undoes every one."""

    def __init__(self, lab: Lab) -> None:
        self.lab = lab
        self.hub = lab.hub
        self.relays: dict[int, Proc] = {}
        _ip("-n", self.hub, "link", "add", "br1", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", self.hub, "link", "set", "br1", "up")

    def port(self, i: int) -> str:
        return f"p{i}"

    def _master(self, i: int, bridge: str | None) -> None:
        if bridge is None:
            _ip("-n", self.hub, "link", "set", self.port(i), "nomaster")
        else:
            _ip("-n", self.hub, "link", "set", self.port(i), "master", bridge)

    def cut(self, i: int) -> None:
        self._master(i, None)

    def split(self, second: Sequence[int]) -> None:
        for i in second:
            self._master(i, "br1")

    def netem(self, i: int, *, delay: float, loss: float, seed: int) -> None:
        relay_port = f"r{i}a"
        _ip("-n", self.hub, "link", "add", relay_port, "type", "veth", "peer", "name", f"r{i}b")
        _ip("-n", self.hub, "link", "set", f"r{i}b", "master", "br0", "up")
        _ip("-n", self.hub, "link", "set", relay_port, "up")
        self._master(i, None)
        proc = self.lab.procs.spawn(
            [sys.executable, RELAY, "--a", self.port(i), "--b", relay_port, "--delay", str(delay),
             "--loss", str(loss), "--seed", str(seed)],
            name=f"relay{i}",
            prefix=("ip", "netns", "exec", self.hub),
        )
        self.relays[i] = proc
        proc.wait_for("ready", timeout=15)

    def _stop_relay(self, i: int) -> dict[str, Any]:
        proc = self.relays.pop(i)
        counts: dict[str, Any] = {}
        if proc.alive:
            proc.terminate(timeout=5)
        for line in proc.lines():
            if line.startswith("{"):
                counts = json.loads(line)
        _ip("-n", self.hub, "link", "del", f"r{i}a", check=False)
        return counts

    def heal(self) -> dict[str, Any]:
        """Every port back on br0, every relay gone; what the relays counted."""
        counts = {f"relay{i}": self._stop_relay(i) for i in sorted(self.relays)}
        for host in self.lab:
            self._master(host.index, "br0")
        self.verify()
        return counts

    def ports_on(self, bridge: str) -> set[str]:
        done = _ip("-n", self.hub, "-j", "link", "show", "master", bridge)
        return {link["ifname"] for link in json.loads(done.stdout or "[]")}

    def verify(self) -> None:
        """Raise LabError unless the network is whole again (all ports on br0, nothing else)."""
        on = self.ports_on("br0")
        wanted = {self.port(h.index) for h in self.lab}
        if on != wanted:
            raise LabError(f"the network did not heal: br0 holds {sorted(on)}, not {sorted(wanted)}")
        if self.ports_on("br1"):
            raise LabError(f"the network did not heal: br1 still holds {sorted(self.ports_on('br1'))}")


def current_host(bots: Sequence[Bot]) -> int | None:
    """The bot that hosts the table now, by the ``seated`` event of the highest epoch seen."""
    best: tuple[int, float] | None = None
    name: str | None = None
    for bot in bots:
        for e in bot.events("seated"):
            key = (int(e.get("epoch", 0)), float(e.get("time", 0.0)))
            if best is None or key > best:
                best, name = key, e.get("host_name")
    names = [b.name for b in bots]
    return names.index(name) if name in names else None


class Nemesis:
    """Runs faults for a while: fault, recovery, quiet gap; all into the history."""

    def __init__(
        self,
        rng: random.Random,
        network: Network,
        bots: list[Bot],
        history: History,
        kinds: Sequence[str],
        *,
        gap: tuple[float, float] = (5.0, 15.0),
    ) -> None:
        unknown = set(kinds) - set(ALL_KINDS)
        if unknown or not kinds:
            raise ValueError(f"unknown fault kinds {sorted(unknown)} (known: {', '.join(ALL_KINDS)})")
        self.rng = rng
        self.net = network
        self.bots = bots
        self.history = history
        self.kinds = list(kinds)
        self.gap = gap
        self.counts: dict[str, int] = {}
        self._exits_seen: set[int] = set()
        self.stopped_early: str | None = None
        self._do: dict[str, Callable[[float], None]] = {
            "kill": self._kill,
            "kill-host": self._kill_host,
            "kill-seat": self._kill_seat,
            "cut": self._cut,
            "split": self._split,
            "netem": self._netem,
            "restart-all": self._restart_all,
        }

    # -- the run ------------------------------------------------------------------------
    def run(self, seconds: float) -> None:
        """Faults for ``seconds``; the table first plays a quiet gap undisturbed."""
        deadline = time.monotonic() + seconds
        self.sleep(min(self.rng.uniform(*self.gap), seconds))
        while True:
            left = deadline - time.monotonic()
            if left < 3 or self._table_over():
                break
            kind = self.rng.choice(self.kinds)
            self._do[kind](left)
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.watch()
            gap = self.rng.uniform(*self.gap)
            self.sleep(min(gap, max(0.0, deadline - time.monotonic())))
        self.watch()

    def _table_over(self) -> bool:
        for bot in self.bots:
            if bot.events("over"):
                if self.stopped_early is None:
                    self.stopped_early = f"{bot.name} saw the table end"
                    self.history.log("note", text="the table ended during the fault period: no more faults",
                                     node=bot.name)
                return True
        return False

    def sleep(self, seconds: float) -> None:
        """Sleep, noting nodes that exit by themselves meanwhile."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            time.sleep(min(0.5, left))
            self.watch()

    def watch(self) -> None:
        for i, bot in enumerate(self.bots):
            if not bot.proc.alive and i not in self._exits_seen:
                self._exits_seen.add(i)
                self.history.log("exit", node=bot.name, status=bot.proc.popen.returncode,
                                 last=bot.proc.tail(3).splitlines()[-3:])

    def _alive(self) -> list[int]:
        return [i for i, b in enumerate(self.bots) if b.proc.alive]

    def _fault(self, kind: str, **fields: Any) -> float:
        host = current_host(self.bots)
        entry = self.history.log("fault", fault=kind, host=self.bots[host].name if host is not None else None,
                                 **fields)
        return float(entry["t"])

    def _heal(self, kind: str, **fields: Any) -> None:
        self.history.log("heal", fault=kind, **fields)

    # -- process faults ---------------------------------------------------------------------
    def _restart(self, i: int) -> None:
        self._exits_seen.discard(i)
        self.bots[i].restart()

    def _kill_node(self, kind: str, i: int | None, down: float) -> None:
        if i is None or not self.bots[i].proc.alive:
            self.history.log("skip", fault=kind, reason="no such node alive",
                             node=None if i is None else self.bots[i].name)
            return
        host = current_host(self.bots)
        self._fault(kind, node=self.bots[i].name, was_host=i == host, down=round(down, 2))
        self._exits_seen.add(i)
        self.bots[i].proc.kill()
        self.sleep(down)
        self._restart(i)
        self._heal(kind, node=self.bots[i].name)

    def _kill(self, left: float) -> None:
        i = self.rng.randrange(len(self.bots))
        down = self.rng.uniform(0.5, 3.0)
        self._kill_node("kill", i, down)

    def _kill_host(self, left: float) -> None:
        down = self.rng.uniform(0.5, 3.0)
        self._kill_node("kill-host", current_host(self.bots), down)

    def _kill_seat(self, left: float) -> None:
        draw = self.rng.randrange(len(self.bots) - 1)
        down = self.rng.uniform(0.5, 3.0)
        host = current_host(self.bots)
        seats = [i for i in range(len(self.bots)) if i != host]
        self._kill_node("kill-seat", seats[draw % len(seats)], down)

    def _restart_all(self, left: float) -> None:
        alive = self._alive()
        self._fault("restart-all", nodes=[self.bots[i].name for i in alive], down=2.0)
        for i in alive:
            self._exits_seen.add(i)
            self.bots[i].proc.kill()
        self.sleep(2.0)
        for i in alive:
            self._restart(i)
        self._heal("restart-all")

    # -- network faults ---------------------------------------------------------------------
    def _duration(self, low: float, high: float, left: float) -> float:
        return max(low, min(self.rng.uniform(low, high), left))

    def _cut(self, left: float) -> None:
        i = self.rng.randrange(len(self.bots))
        seconds = self._duration(5.0, 60.0, left)
        host = current_host(self.bots)
        self._fault("cut", node=self.bots[i].name, was_host=i == host, seconds=round(seconds, 2))
        self.net.cut(i)
        self.sleep(seconds)
        self._heal("cut", node=self.bots[i].name, relays=self.net.heal())

    def _split(self, left: float) -> None:
        order = list(range(len(self.bots)))
        self.rng.shuffle(order)
        half = len(order) // 2
        first, second = sorted(order[:half]), sorted(order[half:])
        seconds = self._duration(10.0, 60.0, left)
        self._fault("split", groups=[[self.bots[i].name for i in first], [self.bots[i].name for i in second]],
                    seconds=round(seconds, 2))
        self.net.split(second)
        self.sleep(seconds)
        self._heal("split", relays=self.net.heal())

    def _netem(self, left: float) -> None:
        i = self.rng.randrange(len(self.bots))
        seconds = self._duration(10.0, 60.0, left)
        seed = self.rng.randrange(1 << 30)
        host = current_host(self.bots)
        self._fault("netem", node=self.bots[i].name, was_host=i == host, seconds=round(seconds, 2),
                    delay_ms=200, loss=0.1)
        self.net.netem(i, delay=0.2, loss=0.1, seed=seed)
        self.sleep(seconds)
        self._heal("netem", node=self.bots[i].name, relays=self.net.heal())


# -- one chosen fault at a time (the acceptance scenarios, tests/test_faults_acceptance.py) ----------
# The same primitives and history entries as the random schedule above, with the victim and the
# duration given instead of drawn.


def cut_for(nemesis: Nemesis, i: int, seconds: float) -> None:
    """Take node ``i`` off the network for ``seconds``, then heal (``fault``/``heal`` ``cut``)."""
    host = current_host(nemesis.bots)
    nemesis._fault("cut", node=nemesis.bots[i].name, was_host=i == host, seconds=round(seconds, 2))
    nemesis.net.cut(i)
    nemesis.sleep(seconds)
    nemesis._heal("cut", node=nemesis.bots[i].name, relays=nemesis.net.heal())


def split_for(nemesis: Nemesis, first: Sequence[int], second: Sequence[int], seconds: float) -> None:
    """Split the nodes into ``first`` and ``second`` (moved to ``br1``) for ``seconds``, then heal."""
    bots = nemesis.bots
    nemesis._fault("split", groups=[[bots[i].name for i in first], [bots[i].name for i in second]],
                   seconds=round(seconds, 2))
    nemesis.net.split(second)
    nemesis.sleep(seconds)
    nemesis._heal("split", relays=nemesis.net.heal())


def kill_for_good(nemesis: Nemesis, i: int, kind: str) -> dict[str, Any]:
    """SIGKILL node ``i`` and leave it dead (no ``heal``); the ``fault`` entry, logged just before."""
    host = current_host(nemesis.bots)
    host_name = nemesis.bots[host].name if host is not None else None
    entry = nemesis.history.log("fault", fault=kind, host=host_name, node=nemesis.bots[i].name,
                                was_host=i == host, down=None)
    nemesis._exits_seen.add(i)
    nemesis.bots[i].proc.kill()
    return entry


def restart_all(nemesis: Nemesis) -> None:
    """Every node alive killed at once, all started again 2 s later (``restart-all``)."""
    nemesis._restart_all(0.0)
