"""The replay corpus (``tests/corpus/*.jsonl.gz``, written by ``tests/corpus/make_corpus.py``)
as the tests read it: its hands one by one, and the rules of its tables, each built once
(:class:`table_rules.TableRules`)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from table_rules import TableRules

from tarock.core.plugins import load_plugins

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
VARIANTS = sorted(p.name.removesuffix(".jsonl.gz") for p in CORPUS.glob("*.jsonl.gz"))


def hands(variant: str) -> Iterator[dict[str, Any]]:
    """The corpus entries of ``variant`` (record, expected result, bots), in order."""
    with gzip.open(CORPUS / f"{variant}.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            yield json.loads(line)


def table_rules() -> TableRules:
    """The rules of the corpus's tables (plugins.toml's catalogue), each built once."""
    return TableRules(load_plugins(ROOT / "plugins.toml").variants)
