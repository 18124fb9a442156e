"""The soak's history: every fault, recovery and observation, one JSON object per line.

Each entry has ``t`` (seconds since the soak began, on the monotonic clock that the
lab's :class:`netns.Proc` uses for its output lines, so faults and bot events can be
put on one time line), ``wall`` (Unix time) and ``kind``, plus what the entry needs
(``node``, ``seconds``, ``groups`` ...). The file is flushed after every entry, so it
holds everything up to a crash of the soak itself.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any, TextIO


class History:
    """An append-only JSON-lines log, also kept in memory for the checker."""

    def __init__(self, path: Path, *, start: float | None = None, echo: TextIO | None = None) -> None:
        self.path = path
        self.start = time.monotonic() if start is None else start
        self.entries: list[dict[str, Any]] = []
        self._echo = echo
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("a", encoding="utf-8")

    def at(self, monotonic: float) -> float:
        """A monotonic time as seconds since the soak began."""
        return round(monotonic - self.start, 3)

    def log(self, kind: str, **fields: Any) -> dict[str, Any]:
        entry = {"t": self.at(time.monotonic()), "wall": round(time.time(), 3), "kind": kind, **fields}
        line = json.dumps(entry, ensure_ascii=False, sort_keys=False)
        with self._lock:
            self.entries.append(entry)
            self._file.write(line + "\n")
            self._file.flush()
        if self._echo is not None:
            print(f"[{entry['t']:8.1f}s] {kind} " + " ".join(f"{k}={v}" for k, v in fields.items()),
                  file=self._echo, flush=True)
        return entry

    def of_kind(self, *kinds: str) -> list[dict[str, Any]]:
        return [e for e in self.entries if e["kind"] in kinds]

    def close(self) -> None:
        with self._lock:
            self._file.close()


def read_history(path: Path) -> list[dict[str, Any]]:
    """The entries of a history file (for looking at a kept run afterwards)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
