"""Where the client keeps its files."""

from __future__ import annotations

from pathlib import Path

import platformdirs

APP_NAME = "tarock"


def default_records_dir() -> Path:
    """The default folder for hand records: ``<user data dir>/tarock/records``."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "records"
