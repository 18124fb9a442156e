"""The probe of ``tarock bench --net`` times live code: a whole table through the table
cores with every measure wrapped, and every measure of mental poker is hit (a function
renamed or no longer called would leave a zero, and the benchmark would print nothing
true); commit-reveal deals without a single shuffle, proof or token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from net_pump import make_table, node_id
from time_bound import bounded

from tarock.tools.bench_probe import MEASURES, Probe


@pytest.fixture(autouse=True)
def _bounded() -> Iterator[None]:
    with bounded(120):
        yield


def _table(tmp: Path, dealing: str, monkeypatch: pytest.MonkeyPatch) -> Probe:
    probe = Probe()
    with monkeypatch.context() as patch:
        probe.install(patch.setattr)
        pump = make_table(tmp, variant="tarock40", rounds=1, seed=2, dealing=dealing)
        for i in range(4):
            pump.join(node_id(i))
        assert pump.done
    return probe


@pytest.mark.parametrize("dealing", ["mental-poker/2", "mental-poker/1"])
def test_every_measure_of_mental_poker_is_live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               dealing: str) -> None:
    probe = _table(tmp_path, dealing, monkeypatch)
    assert {m for m in MEASURES if probe.calls[m] == 0} == set()
    assert probe.calls["shuffle"] == 4 and probe.calls["audit"] == 4 and probe.calls["host audit"] == 1
    assert all(probe.seconds[m] > 0 for m in MEASURES)
    assert probe.seconds["deal"] >= probe.seconds["shuffle"]  # inclusive: the deal contains the shuffles


def test_commit_reveal_has_no_shuffle_proof_or_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    probe = _table(tmp_path, "commit-reveal/1", monkeypatch)
    assert probe.calls["deal"] > 0 and probe.calls["audit"] == 4
    assert [probe.calls[m] for m in ("shuffle", "proofs made", "proofs checked", "reveal tokens")] == [0] * 4
