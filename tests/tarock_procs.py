"""Start real ``tarock bot`` processes in lab hosts and read what they did.

A bot prints one JSON object per event with ``--json`` ("seated", "begin", "hand",
"void", "over", "standings", "resume", ...) and writes one record file per hand into
its ``--records`` folder; its ``--state`` folder holds its crash-safe store, so the same
command started again is the same player (and resumes its seat).
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from net_procs import hand_file
from netns import Host, Lab, Proc

from tarock.core.record import load, replay

REPO = Path(__file__).resolve().parent.parent
PY = sys.executable
FAULTPROXY = str(REPO / "tests" / "faultproxy.py")


def tarock_command() -> str:
    """The ``tarock`` script of the running interpreter's environment."""
    beside = Path(PY).parent / "tarock"
    found = str(beside) if beside.exists() else shutil.which("tarock")
    if found is None:
        raise RuntimeError("the tarock command is not installed (pip install -e .)")
    return found


@dataclass
class Bot:
    """One ``tarock bot`` player: its host, its folders, and its current process."""

    host: Host
    name: str
    argv: list[str]
    records: Path
    proc: Proc
    earlier: list[Proc] = field(default_factory=list)  # the processes before a restart

    def restart(self) -> None:
        """Start the same player again (after it was killed)."""
        self.earlier.append(self.proc)
        self.proc = self.proc.restart()

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The events of this player, over all its processes."""
        lines = [e for proc in [*self.earlier, self.proc] for e in proc.json_lines()]
        return [e for e in lines if "event" in e and (kind is None or e["event"] == kind)]

    def wait_event(self, kind: str, *, timeout: float, start: int = 0, **fields: Any) -> dict[str, Any]:
        return self.proc.wait_for_json(
            lambda j: j.get("event") == kind and all(j.get(k) == v for k, v in fields.items()),
            timeout=timeout,
            start=start,
        )


def start_bots(
    lab: Lab,
    work: Path,
    *,
    rounds: int,
    extra: Sequence[str] = (),
    per_host: Sequence[Sequence[str]] | None = None,
    lifetime: float = 240.0,
) -> list[Bot]:
    """A ``tarock bot`` in every host of ``lab``, all started at once."""
    bots = []
    for i, host in enumerate(lab):
        name = f"bot{i}"
        records = work / f"records-{name}"
        argv = [
            tarock_command(),
            "bot",
            "--name",
            name,
            "--rounds",
            str(rounds),
            "--json",
            "--seed",
            str(i),
            "--records",
            str(records),
            "--state",
            str(work / f"state-{name}"),
            "--plugins",
            str(REPO / "plugins.toml"),
            "--wait",
            "60",
            "-v",
            *extra,
            *(per_host[i] if per_host is not None else ()),
        ]
        proc = host.spawn(argv, name=name, cwd=REPO, lifetime=lifetime)
        bots.append(Bot(host, name, argv, records, proc))
    return bots


def host_of(bots: Sequence[Bot], *, timeout: float) -> int:
    """The index of the bot that hosts the table at its start (epoch 1)."""
    seated = bots[0].wait_event("seated", timeout=timeout, epoch=1)
    return [b.name for b in bots].index(seated["host_name"])


def records(folder: Path) -> dict[str, bytes]:
    """The record files a bot wrote, by file name without the node's part (:func:`hand_file`)."""
    if not folder.exists():
        return {}
    return {hand_file(p.name): p.read_bytes() for p in sorted(folder.glob("*.json"))}


def settlements(folder: Path) -> list[tuple[int, ...]]:
    """Replay every record of ``folder`` and return each hand's settlement (passed-out hands: none)."""
    result = []
    for path in sorted(folder.glob("*.json")):
        played = replay(load(path))
        assert played.error_index is None, f"{path.name} does not replay: {played.reason}"
        assert played.hand is not None
        if played.hand.state.result is not None:
            result.append(tuple(played.hand.state.result.settlement))
    return result


def proxy_in_front(host: Host, port: int) -> Proc:
    """A fault proxy on the host's own address forwarding to a node bound to 127.0.0.1:port."""
    proc = host.spawn(
        [PY, FAULTPROXY, "--listen", f"{host.address}:{port}", "--target", f"127.0.0.1:{port}"],
        name=f"proxy{host.index}",
    )
    proc.wait_for("listening", timeout=15)
    return proc


def command(proxy: Proc, text: str) -> dict[str, Any]:
    """Send a command line to a fault proxy process and return its answer."""
    mark = len(proxy.lines())
    proxy.send(text + "\n")
    answer = proxy.wait_for_json(lambda j: "ok" in j or "error" in j, timeout=10, start=mark)
    assert "ok" in answer, answer
    return answer
