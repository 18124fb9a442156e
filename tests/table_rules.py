"""The rules of the tables whose records a test replays, each built once.

A table plays all its hands under one :class:`~tarock.core.rules.Rules`; a test that replays
many records of a few tables (the replay corpus, the soak's checker) builds those rules once
per table, rather than again for every record (most of a replay's time).  A table's rules are
built from its first record, exactly as :func:`~tarock.core.record.replay` builds them, and
``replay`` still checks every record's rules hash against them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tarock.core.record import Replay, replay
from tarock.core.rules import Rules
from tarock.core.variant import Variant


class TableRules:
    """The rules of ``variants``' tables, by variant, options and record format."""

    def __init__(self, variants: Mapping[str, Variant]) -> None:
        self.variants = variants
        self._rules: dict[tuple[object, ...], Rules] = {}

    def rules(self, record: Mapping[str, Any]) -> Rules:
        """The rules ``record`` is replayed with: those of its table."""
        key = (record.get("format"), record.get("variant"), json.dumps(record.get("options"), sort_keys=True))
        found = self._rules.get(key)
        if found is None:
            shell = replay({**record, "actions": []}, variants=self.variants).hand
            assert shell is not None
            found = self._rules[key] = shell.rules
        return found

    def replay(self, record: Mapping[str, Any]) -> Replay:
        """:func:`~tarock.core.record.replay` of ``record`` under its table's rules."""
        return replay(record, rules=self.rules(record))
