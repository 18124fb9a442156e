"""The replay corpus (``tests/corpus/*.jsonl.gz``, written by ``tests/corpus/make_corpus.py``)
as the tests read it: its hands one by one, and each hand's rules built once per table.

A table plays all its hands under one :class:`~tarock.core.rules.Rules`; so the corpus is
replayed here, rather than building the rules again for every hand (most of a replay's time).
The rules are built from the first record of each variant, options and record format, exactly
as :func:`~tarock.core.record.replay` builds them, and ``replay`` still checks every record's
rules hash against them.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tarock.core.plugins import load_plugins
from tarock.core.record import Replay, replay
from tarock.core.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
VARIANTS = sorted(p.name.removesuffix(".jsonl.gz") for p in CORPUS.glob("*.jsonl.gz"))


def hands(variant: str) -> Iterator[dict[str, Any]]:
    """The corpus entries of ``variant`` (record, expected result, bots), in order."""
    with gzip.open(CORPUS / f"{variant}.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            yield json.loads(line)


class TableRules:
    """The rules of the corpus's tables (plugins.toml's catalogue), each built once."""

    def __init__(self) -> None:
        self.catalogue = load_plugins(ROOT / "plugins.toml")
        self._rules: dict[tuple[object, ...], Rules] = {}

    def rules(self, record: dict[str, Any]) -> Rules:
        """The rules ``record`` is replayed with: those of its table (variant, options, format)."""
        key = (record.get("format"), record.get("variant"), json.dumps(record.get("options"), sort_keys=True))
        found = self._rules.get(key)
        if found is None:
            shell = replay({**record, "actions": []}, variants=self.catalogue.variants).hand
            assert shell is not None
            found = self._rules[key] = shell.rules
        return found

    def replay(self, record: dict[str, Any]) -> Replay:
        """:func:`~tarock.core.record.replay` of ``record`` under its table's rules."""
        return replay(record, rules=self.rules(record))
