"""The soak's checker (``tests/soak_check.py``) on made-up node views: it finds each kind
of violation, and none where the nodes agree. Records are stand-ins here (their replay
is replaced); the soak itself replays the real ones."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import soak_check
from soak_check import NodeView, Outcome, check

TABLE = "0123456789abcdef"
ROUNDS = 3


def fake_replayed(data: bytes, tables: Any) -> tuple[dict[str, Any], tuple[int, ...] | None]:
    obj = json.loads(data)
    return obj, None if obj["settlement"] is None else tuple(obj["settlement"])


@pytest.fixture(autouse=True)
def _stand_in_records(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(soak_check, "_replayed", fake_replayed)


def record(deal: int, rnd: int, settlement: list[int] | None) -> tuple[str, bytes]:
    name = f"table-{TABLE[:12]}-r{rnd:02d}-d{deal:03d}.json"
    body = {"net": {"table": TABLE, "deal": deal, "round": rnd}, "settlement": settlement}
    return name, json.dumps(body, sort_keys=True).encode()


def views(edit: Callable[[list[NodeView]], None] | None = None) -> list[NodeView]:
    """Four nodes that agree: deals 1 (r1), 2 (void, the host was lost), 3 (r2), 4 (r3)."""
    played = [(1, 1, [10, -10, 0, 0]), (3, 2, [0, 5, -5, 0]), (4, 3, [1, 1, -1, -1])]
    totals = [11, -4, -6, -1]
    standings = [{"seat": s, "name": f"bot{s}", "place": 1, "main": float(t), "sub": 0}
                 for s, t in enumerate(totals)]
    result = []
    for i in range(4):
        files = dict(record(d, r, s) for d, r, s in played)
        outcomes = {d: Outcome(d, "hand", "", "") for d, _, _ in played}
        outcomes[2] = Outcome(2, "void", "the host was lost", "")
        events: list[dict[str, Any]] = [
            {"event": "seated", "table": TABLE, "epoch": 1, "host_name": "bot0"},
            {"event": "void", "reason": "the host was lost", "culprit": "", "time": 5.0},
            {"event": "over", "totals": totals},
            {"event": "standings", "standings": standings},
        ]
        result.append(NodeView(f"bot{i}", files, outcomes, None, "", events, 0, list(events)))
    if edit is not None:
        edit(result)
    return result


def problems(nodes: list[NodeView]) -> list[str]:
    return [str(v) for v in check(nodes, rounds=ROUNDS, history=[]).violations]


def test_nodes_that_agree_pass() -> None:
    report = check(views(), rounds=ROUNDS, history=[])
    assert report.violations == []
    assert report.figures["rounds_counted"] == 3 and report.figures["void_deals"] == 1
    assert report.figures["table_ended"] is True


def test_a_record_that_differs_or_is_missing() -> None:
    def edit(nodes: list[NodeView]) -> None:
        name = next(iter(nodes[1].record_files))
        nodes[1].record_files[name] += b" "
        del nodes[2].record_files[name]

    found = problems(views(edit))
    assert any("[records-identical]" in p and "differs" in p for p in found)
    assert any("[records-identical]" in p and "missing on bot2" in p for p in found)
    assert any("[outcomes] bot2" in p and "no record file" in p for p in found)


def test_a_round_counted_twice() -> None:
    def edit(nodes: list[NodeView]) -> None:
        for n in nodes:
            name, data = record(5, 3, [0, 0, 0, 0])
            n.record_files[name] = data
            n.outcomes[5] = Outcome(5, "hand", "", "")  # type: ignore[index]

    assert any("[rounds-once] round 3 counted 2 times" in p for p in problems(views(edit)))


def test_a_lost_deal_and_outcomes_that_differ() -> None:
    def edit(nodes: list[NodeView]) -> None:
        del nodes[0].outcomes[2]  # type: ignore[union-attr]
        nodes[3].outcomes[2] = Outcome(2, "hand", "", "")  # type: ignore[index]

    found = problems(views(edit))
    assert any("[outcomes] bot0: deals [2] have no outcome (lost)" in p for p in found)
    assert any("[outcomes] bot3: deals [2] are finished in its store but have no record file" in p
               for p in found)
    assert sum("hold other outcomes" in p for p in found) >= 2


def test_a_void_deal_with_a_record_on_disk() -> None:
    def edit(nodes: list[NodeView]) -> None:
        for n in nodes:
            n.outcomes[4] = Outcome(4, "void", "x", "")  # type: ignore[index]

    assert any("deals [4] are void in its store but have record files" in p for p in problems(views(edit)))


def test_somebody_named() -> None:
    def edit(nodes: list[NodeView]) -> None:
        nodes[1].events.append({"event": "void", "reason": "stalled", "culprit": "feedbeef" * 4})
        nodes[2].outcomes[2] = Outcome(2, "void", "stalled", "feedbeef" * 4)  # type: ignore[index]

    found = problems(views(edit))
    assert any(p.startswith("[nobody-named] bot1 printed a void naming feedbeeffeed") for p in found)
    assert any(p.startswith("[nobody-named] bot2's store: deal 2") for p in found)


def test_a_table_that_did_not_end() -> None:
    def edit(nodes: list[NodeView]) -> None:
        nodes[0].final_status = -9
        nodes[0].final_events = [e for e in nodes[0].final_events if e["event"] not in ("over", "standings")]
        for n in nodes:  # and its last round never came
            del n.record_files[record(4, 3, None)[0]]
            del n.outcomes[4]  # type: ignore[union-attr]

    found = problems(views(edit))
    assert any(p.startswith("[ended] bot0's last process exited -9 (killed by the soak") for p in found)
    assert "[rounds-once] rounds never counted: [3] (the table ended)" not in found


def test_standings_and_totals_that_differ() -> None:
    def edit(nodes: list[NodeView]) -> None:
        nodes[3].final_events = [dict(e) for e in nodes[3].final_events]
        for e in nodes[3].final_events:
            if e["event"] == "over":
                e["totals"] = [0, 0, 0, 0]
            if e["event"] == "standings":
                e["standings"] = list(reversed(e["standings"]))

    found = problems(views(edit))
    assert any(p.startswith("[standings] bot3's over totals") for p in found)
    assert any(p.startswith("[standings] the nodes' standings differ") for p in found)


def test_two_tables() -> None:
    def edit(nodes: list[NodeView]) -> None:
        nodes[2].events.append({"event": "seated", "table": "other", "epoch": 1, "host_name": "bot2"})

    assert any(p.startswith("[one-table]") for p in problems(views(edit)))
