"""The user's settings: the player's name, asked once at the first start and changeable in the lobby.

Kept in ``settings.json`` in the user's configuration folder (``$TAROCK_CONFIG`` if set, else
``~/.config/tarock/``), written whole (:func:`net.store.write_file`).  A file that cannot be read
or holds nonsense counts as no settings: the name is asked again, nothing fails.
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from tarock.client import argtypes
from tarock.net.store import write_file

FILE = "settings.json"


def config_dir() -> Path:
    """The user's configuration folder for tarock."""
    return Path(os.environ.get("TAROCK_CONFIG") or platformdirs.user_config_dir("tarock"))


def settings_path() -> Path:
    return config_dir() / FILE


@dataclass
class Settings:
    """What the user chose once (so far: the name the others see at the table)."""

    name: str = ""


def checked_name(text: str) -> str | None:
    """``text`` as a player's name (blanks around it removed), None if it cannot be one (empty, too
    long, a control character: :func:`client.argtypes.name`)."""
    try:
        return argtypes.name(text)
    except argparse.ArgumentTypeError:  # it says why; a settings file then just has no name
        return None


def load(path: Path | None = None) -> Settings:
    """The settings kept in ``path`` (default :func:`settings_path`); defaults where there are none."""
    path = path or settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(raw, dict):
        return Settings()
    name = checked_name(str(raw.get("name", "")))
    return Settings(name=name or "")


def save(settings: Settings, path: Path | None = None) -> None:
    """Keep ``settings`` (a :class:`~net.store.StoreError` naming the folder if it cannot)."""
    path = path or settings_path()
    write_file(path, json.dumps({"name": settings.name}, ensure_ascii=False) + "\n", "settings folder")


def player_name(given: str | None, fallback: str) -> str:
    """The name to play under: ``--name`` if given, else the one kept in the settings, else ``fallback``."""
    return (given or "").strip() or load().name or fallback
