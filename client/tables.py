"""The tables kept at this terminal: every saved table in play, side by side, and every finished one.

In the state folder (``--state``, ``$TAROCK_STATE`` or the user's state folder):

- ``tables/<table>.json``: a table against bots in play, one file per table (the format of
  :class:`~client.ui.local.SavedTable`: its setup, the records of its finished hands and of the hand
  in play), so starting a game never touches another's table;
- ``history/<table>.json``: a table that ended (played to its end, or ended with the standings),
  moved there whole with the time it ended: its records replay to its score sheet
  (:mod:`client.history`).

``local-table.json``, where older versions kept their one saved table, is listed like the others.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarock.client.ui.local import FORMAT, SAVE_NAME, SavedTable, SaveError, TableSetup
from tarock.net.store import StoreError, write_file

TABLES = "tables"
HISTORY = "history"


class KeptTable(SavedTable):
    """A saved table that goes to the history when its table ends, instead of away."""

    def __init__(self, path: Path, history: Path) -> None:
        super().__init__(path)
        self.history = history

    def remove(self) -> None:
        """The table ended: its file moves to the history with the time it ended (a table without
        a finished hand leaves nothing to keep)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if isinstance(data, dict) and data.get("finished"):
            data["ended"] = time.strftime("%Y-%m-%d %H:%M")
            data["current"] = None
            write_file(self.history / self.path.name, json.dumps(data, ensure_ascii=False), "state folder")
        super().remove()


@dataclass(frozen=True, slots=True)
class Saved:
    """A saved table in play: its file, setup, the rounds it has played and when it was last played."""

    save: KeptTable
    setup: TableSetup
    played: int
    when: float

    @property
    def key(self) -> str:
        return self.save.path.stem


class Tables:
    """The saved and the finished tables of one state folder (module docstring)."""

    def __init__(self, state: Path) -> None:
        self.state = state
        self.folder = state / TABLES
        self.history = state / HISTORY

    def new(self, setup: TableSetup) -> KeptTable:
        """Where a new table is kept: a file of its own."""
        return KeptTable(self.folder / f"{setup.stamp}.json", self.history)

    def _files(self) -> list[Path]:
        found = sorted(self.folder.glob("*.json")) if self.folder.is_dir() else []
        legacy = self.state / SAVE_NAME
        return [*found, legacy] if legacy.is_file() else found

    def saved(self) -> list[Saved]:
        """Every saved table that can be resumed, the last played first."""
        out = []
        for path in self._files():
            save = KeptTable(path, self.history)
            summary = save.summary()
            if summary is None:
                continue
            try:
                when = path.stat().st_mtime
            except OSError:
                continue
            out.append(Saved(save, summary[0], summary[1], when))
        return sorted(out, key=lambda s: -s.when)

    def find(self, key: str) -> Saved | None:
        """The saved table of ``key`` (its file's name without ``.json``)."""
        return next((s for s in self.saved() if s.key == key), None)

    def latest(self, variant: str | None = None) -> Saved | None:
        """The saved table played last (of ``variant`` if given)."""
        return next((s for s in self.saved() if variant is None or s.setup.variant == variant), None)

    def keep(self, setup: TableSetup, finished: list[dict[str, Any]]) -> None:
        """Keep a table played elsewhere (the line client's) with the others that ended: its setup and
        the records of its finished hands (none: nothing to keep)."""
        if finished:
            data = {"format": FORMAT, "setup": setup.to_json(), "finished": finished, "current": None,
                    "ended": time.strftime("%Y-%m-%d %H:%M")}
            text = json.dumps(data, ensure_ascii=False)
            write_file(self.history / f"{setup.stamp}.json", text, "state folder")

    def finished(self) -> list[Path]:
        """The files of the finished tables, the last ended first."""
        if not self.history.is_dir():
            return []
        return sorted(self.history.glob("*.json"), key=lambda p: (-_mtime(p), p.name))


def _mtime(path: Path) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


__all__ = ["HISTORY", "TABLES", "KeptTable", "SaveError", "Saved", "StoreError", "Tables"]
