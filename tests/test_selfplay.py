"""``tarock selfplay``: bots only, deterministic for a seed, records written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tarock.client.cli import main
from tarock.core.record import load, replay
from tarock.core.table import is_passed_out


def selfplay(capsys: pytest.CaptureFixture[str], records: Path, *extra: str) -> tuple[int, list[str]]:
    status = main(["selfplay", "--lang", "en", "--variant", "tarock54", "--hands", "24", "--seed", "1",
                   "--records", str(records), *extra])
    return status, capsys.readouterr().out.splitlines()


def test_selfplay_is_deterministic_and_writes_records(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    status, first = selfplay(capsys, tmp_path / "a", "--sheet")
    assert status == 0
    status, second = selfplay(capsys, tmp_path / "b", "--sheet")
    assert status == 0
    # identical but for the records line naming the folder
    assert first[:-1] == second[:-1]
    assert first[0].startswith("Selfplay tarock54: 24 rounds")
    assert first[-1].startswith("Records: ") and str(tmp_path / "a") in first[-1]

    standings = [line for line in first if re.match(r"^\s*\d\. ", line)]
    assert len(standings) == 4
    sub = {m[1]: int(m[2]) for m in (re.match(r"^\s*\d\. (\S+)\s+MP \S+\s+TP (\S+)$", s) for s in standings)
           if m}
    assert sum(sub.values()) == 0
    sheet = [line for line in first if re.match(r"^\s*\d+\s", line)]
    assert len(sheet) == 24

    files = sorted((tmp_path / "a").glob("table-*.json"))
    assert len(files) >= 24
    totals = [0, 0, 0, 0]
    played = 0
    for path in files:
        rep = replay(load(path))
        assert rep.hand is not None and rep.hand.done and rep.error_index is None
        result = rep.hand.state.result
        assert result is not None
        played += not is_passed_out(result)
        totals = [t + s for t, s in zip(totals, result.settlement, strict=True)]
    assert played == 24
    assert {f"heuristic-{s}": totals[s] for s in range(4)} == sub
    # the same seed deals the same cards
    assert [p.read_text() for p in files] == [p.read_text() for p in sorted((tmp_path / "b").glob("*.json"))]


def test_a_different_seed_gives_a_different_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--lang", "en", "--hands", "4", "--seed", "1", "--no-records"]) == 0
    one = capsys.readouterr().out
    assert main(["selfplay", "--lang", "en", "--hands", "4", "--seed", "2", "--no-records"]) == 0
    two = capsys.readouterr().out
    assert one != two
    assert "Records: not written" in one


def test_mixed_bots_and_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "--lang", "en", "--hands", "3", "--bots", "heuristic,random,heuristic,random",
                 "--no-records", "--no-kontra"]) == 0
    out = capsys.readouterr().out
    assert "heuristic-0" in out and "random-1" in out
    assert main(["selfplay", "--lang", "en", "--bots", "random,random"]) == 2
    assert "four kinds" in capsys.readouterr().err
    assert main(["selfplay", "--lang", "en", "--bots", "random,random,random,genius", "--no-records"]) == 2
    assert "unknown bot kind(s) genius" in capsys.readouterr().err
    assert main(["selfplay", "--lang", "en", "--variant", "tarock99", "--no-records"]) == 2
    assert "unknown variant 'tarock99'" in capsys.readouterr().err
    assert main(["selfplay", "--lang", "en", "--option", "nonsense=1", "--no-records"]) == 2
    # without --variant the first variant plugins.toml offers: the 40-card game (docs/rules.md §3.6)
    assert "unknown option(s) for tarock40: nonsense" in capsys.readouterr().err


def test_bench_reports_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--hands", "20", "--seed", "3", "--variant", "tarock54"]) == 0
    out = capsys.readouterr().out
    for label in ("complete random hands:", "legal-move query (uncached):", "baseline shuffle+deal:",
                  "ratio: one random hand costs", "bare Python loop, same phases:",
                  "ratio to the bare loop (CPU time per hand):"):
        assert label in out
    hands = re.search(r"variant tarock54: 20 random hands, (\d+) actions", out)
    assert hands and int(hands[1]) >= 20 * 4
    # without --variant, like play and selfplay: the first variant plugins.toml offers (docs/rules.md §3.6)
    assert main(["bench", "--hands", "5", "--seed", "3"]) == 0
    assert re.search(r"^variant tarock40: 5 random hands, \d+ actions", capsys.readouterr().out, re.M)
