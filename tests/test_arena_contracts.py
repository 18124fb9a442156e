"""``tarock arena`` counts the games each bot kind declared and how many it won (issue 23)."""

from __future__ import annotations

from pathlib import Path

from tarock.core.plugins import load_plugins
from tarock.tools.arena import Contracts, run_pairing

ROOT = Path(__file__).resolve().parent.parent


def test_every_game_is_counted_for_the_kind_that_declared_it() -> None:
    variant = load_plugins(ROOT / "plugins.toml").find("tarock54-bettel")
    result = run_pairing(variant, ("heuristic", "random"), 4, 7)
    tally = result.contracts
    hands = 2 * len(result.boards)  # a deal all pass is dealt again: every hand has a declarer
    assert sum(tally.declared.values()) == hands
    assert {kind for kind, _ in tally.declared} <= {"heuristic", "random"}
    names = {spec.name for spec in variant.rules().facts.contracts}
    assert {name for _, name in tally.declared} <= names
    for key, n in tally.declared.items():
        assert tally.won[key] + tally.lost[key] <= n
    rows = result.to_json()["contracts"]
    assert sum(row["declared"] for row in rows) == hands
    assert any("declared" in line for line in result.lines())


def test_the_tally_reads_won_lost_and_drawn_games() -> None:
    tally = Contracts()
    tally.add("hard", "dreier", True)
    tally.add("hard", "dreier", False)
    tally.add("hard", "dreier", None)
    assert tally.lines() == ["  hard declared dreier: 3, won 1, lost 1 (50%)"]
