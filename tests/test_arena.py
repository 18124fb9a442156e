"""``tarock arena``: duplicate matches between bot kinds (issue 11)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tarock.core.registry import find_variant
from tarock.tools.arena import bootstrap_ci, run_pairing


@pytest.mark.parametrize("kind", ["heuristic", "medium"])
def test_a_kind_against_itself_scores_zero_on_every_board(kind: str) -> None:
    """Each kind sits in every seat with every hand once, and the search bots
    decide from the observation and the seed alone: the luck of the cards cancels."""
    boards = 3 if kind == "heuristic" else 1
    result = run_pairing(find_variant("tarock54"), (kind, kind), boards, 5)
    assert len(result.boards) == boards
    assert all(b.score == 0 and b.totals[0] == b.totals[1] for b in result.boards)
    assert result.ci95 == (0.0, 0.0)


def test_the_bootstrap_interval() -> None:
    assert bootstrap_ci([2.0] * 10, 1) == (2.0, 2.0)
    scores = [float(x % 7 - 2) for x in range(60)]
    lo, hi = bootstrap_ci(scores, 1)
    mean = sum(scores) / len(scores)
    assert lo < mean < hi
    assert bootstrap_ci(scores, 1) == (lo, hi), "seeded: the same interval again"


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tarock.client.cli", "arena", *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "LANGUAGE": "en"})  # the English words are checked


def test_the_command_prints_one_json_object_per_pairing() -> None:
    done = arena("--variant", "tarock40", "--bots", "heuristic,random,random", "--boards", "4", "--seed", "3",
                 "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [p["bots"] for p in lines] == [["heuristic", "random"], ["random", "random"]]
    for p in lines:
        assert p["variant"] == "tarock40" and p["boards"] == 4 and p["seed"] == 3
        lo, hi = p["ci95"]
        assert lo <= p["mean"] <= hi
        assert len(p["scores"]) == 4 and sum(p["scores"]) / 4 == pytest.approx(p["mean"], abs=1e-3)
        for kind in p["bots"]:
            assert set(p["time"][kind]) == {"decisions", "median_ms", "p95_ms", "max_ms"}
    assert lines[1]["mean"] == 0 and lines[1]["ci95"] == [0, 0]


def test_the_command_prints_the_figures() -> None:
    done = arena("--variant", "tarock54", "--bots", "heuristic,random", "--boards", "2")
    assert done.returncode == 0, done.stderr
    assert "mean difference per board (heuristic - random" in done.stdout and "95% CI [" in done.stdout
    assert "median" in done.stdout and "p95" in done.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--variant", "tarock54", "--bots", "hard,genius", "--boards", "1"], "unknown bot kind(s) genius"),
    (["--variant", "tarock54", "--bots", "hard", "--boards", "1"], "at least two kinds"),
    (["--variant", "tarock54", "--bots", "hard,medium", "--boards", "0"], "at least 1"),
    (["--variant", "no-such-game", "--bots", "hard,medium", "--boards", "1"], "unknown variant"),
])
def test_a_bad_command_line_is_refused_clearly(args: list[str], message: str) -> None:
    done = arena(*args)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    assert not done.stdout


def test_a_match_played_in_parts_merges_to_the_match_played_at_once(tmp_path: Path) -> None:
    """``--first`` numbers the boards of a part; ``tools/arena_merge.py`` combines the
    parts' JSON lines into the figures one process prints (same scores, same interval),
    and refuses parts that share a board."""
    match = ("--variant", "tarock54", "--bots", "random,heuristic", "--seed", "3", "--json")
    whole = arena(*match, "--boards", "4")
    assert whole.returncode == 0, whole.stderr
    once = json.loads(whole.stdout)
    paths = []
    for first in (0, 2):
        part = arena(*match, "--boards", "2", "--first", str(first))
        assert part.returncode == 0, part.stderr
        assert json.loads(part.stdout)["first"] == first
        paths.append(tmp_path / f"part{first}.json")
        paths[-1].write_text(part.stdout, encoding="utf-8")
    assert [s for p in paths for s in json.loads(p.read_text())["scores"]] == once["scores"]
    merged = subprocess.run([sys.executable, "-m", "tarock.tools.arena_merge", *map(str, paths)],
                            capture_output=True, text=True, timeout=60)
    assert merged.returncode == 0, merged.stderr
    lo, hi = once["ci95"]
    assert "4 boards (0-1, 2-3; seed 3" in merged.stdout
    assert f"{once['mean']:+.3f}, 95% CI [{lo:+.3f}, {hi:+.3f}]" in merged.stdout
    overlap = subprocess.run([sys.executable, "-m", "tarock.tools.arena_merge", str(paths[0]), str(paths[0])],
                             capture_output=True, text=True, timeout=60)
    assert overlap.returncode == 2 and "both hold board 0" in overlap.stderr
    assert "Traceback" not in overlap.stderr
