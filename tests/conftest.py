"""Shared test setup: make ``tests/`` importable, so tests can say ``from helpers54 import ...``
under any pytest import mode."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
