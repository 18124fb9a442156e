"""tests/table_rules.py: the records of one table replay under its rules built once, to what a
replay with its own rules gives; a record of other options gets other rules, and a record whose
rules hash does not match is refused as :func:`~tarock.core.record.replay` refuses it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers54 import random_game
from table_rules import TableRules

from tarock.core.codec import RecordError
from tarock.core.record import record_of, replay
from tarock.core.registry import available_variants


def record(seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    data = json.loads(record_of(random_game(seed, options)).dumps())
    assert isinstance(data, dict)
    return data


def test_a_tables_records_replay_under_one_set_of_rules_to_their_own_results() -> None:
    tables = TableRules(available_variants())
    first, second, other = record(1), record(2), record(3, {"kontra": False})
    shared = tables.rules(first)
    assert tables.rules(second) is shared and tables.rules(other) is not shared
    assert tables.rules(other).options["kontra"] is False
    for data in (first, second, other):
        got, own = tables.replay(data), replay(data)
        assert got.error_index is None and got.hand is not None and own.hand is not None
        assert got.hand.state.result == own.hand.state.result


def test_a_record_whose_rules_hash_differs_is_refused() -> None:
    tables = TableRules(available_variants())
    good, bad = record(1), record(2)
    tables.replay(good)
    bad["rules"]["hash"] = "0" * len(bad["rules"]["hash"])
    with pytest.raises(RecordError):
        replay(bad)
    with pytest.raises(RecordError):
        tables.replay(bad)
