"""Helpers for tests that run real ``tarock`` node processes (loopback or lab hosts)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from netns import Proc

ROOT = Path(__file__).resolve().parent.parent
_NODE_PART = re.compile(r"-[0-9a-f]{8}(?=\.json$)")


def hand_file(name: str) -> str:
    """A record file's name without the part that names the node that wrote it
    (``table-<id>-rNN-dNNN.json``): the same on every node of the table."""
    return _NODE_PART.sub("", name)


CLI = [sys.executable, "-m", "tarock.client.cli"]
"""The command line of `tarock`, run by this Python from the installed package."""


def tarock(*args: str) -> list[str]:
    return [*CLI, *args]


def env(state: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8", "TAROCK_STATE": str(state),
            "PYTHONPATH": str(ROOT)}


def bot_args(name: str, tmp: Path, rounds: int, *extra: str) -> list[str]:
    return tarock("bot", "--name", name, "--rounds", str(rounds), "--json",
                  "--records", str(tmp / f"rec-{name}"), "--state", str(tmp / "state"),
                  "--seat-timeout", "4", "--heartbeat", "0.25", *extra)


def events(proc: Proc, kind: str | None = None) -> list[dict[str, Any]]:
    return [e for e in proc.json_lines() if kind is None or e.get("event") == kind]


def records(tmp: Path, name: str) -> list[Path]:
    return sorted((tmp / f"rec-{name}").glob("table-*.json"))


def digest(paths: Sequence[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(hand_file(p.name).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def standings(proc: Proc) -> list[dict[str, Any]]:
    found = events(proc, "standings")
    assert found, proc.tail()
    result: list[dict[str, Any]] = found[-1]["standings"]
    return result


def rounds_of(paths: Sequence[Path]) -> set[int]:
    out = set()
    for p in paths:
        data = json.loads(p.read_text())
        out.add(int(data["net"]["round"]))
    return out
