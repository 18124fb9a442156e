"""``tarock replay``: records of random legal games replay to the engine's own results;
illegal, truncated and malformed records are refused with exit status 2 and a
clear message (docs/records.md, "Replay errors")."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers54 import random_game
from net_procs import CLI

from tarock.client.cli import main
from tarock.core.actions import Action, Call, Kontra, Pass, Play
from tarock.core.cards import DECK54, format_card
from tarock.core.engine import Hand
from tarock.core.record import record_of, replay

SEEDS = range(12)


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def run_json(capsys: pytest.CaptureFixture[str], *files: Path) -> tuple[int, list[dict[str, Any]]]:
    status = main(["replay", "--json", *map(str, files)])
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines()]


def game_record(seed: int) -> tuple[Hand, dict[str, Any]]:
    """A random legal game from ``seed`` (or the next seed whose deal is not passed out)."""
    hand = random_game(seed)
    while hand.state.declarer is None:
        seed += 1
        hand = random_game(seed)
    return hand, record_of(hand).to_json()


def test_replay_json_agrees_with_the_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = []
    files = []
    for seed in SEEDS:
        hand = random_game(seed)
        data = record_of(hand).to_json()
        hands.append(hand)
        files.append(write(tmp_path / f"g{seed}.json", data))
    status, answers = run_json(capsys, *files)
    assert status == 0
    assert len(answers) == len(files)
    played = 0
    for hand, answer, path in zip(hands, answers, files, strict=True):
        result = hand.state.result
        assert result is not None
        assert answer["file"] == str(path)
        assert answer["variant"] == "tarock54"
        assert answer["settlement"] == list(result.settlement)
        assert sum(answer["settlement"]) == 0
        assert answer["declarers"] == list(result.declarers)
        assert answer["units"] == list(result.points)
        assert answer["won"] == result.won
        assert answer["kontra"] == hand.state.kontra_level
        # the settlement's line items, each with its party, outcome, Kontra and amount
        assert answer["items"] == [
            {"name": i.name, "side": list(i.side), "opposite": list(i.opposite), "base": i.base,
             "for_side": i.for_side, "made": i.made, "announced": i.announced, "kontra": i.kontra,
             "scale": i.scale, "amount": i.amount, "label": i.label} for i in result.items]
        if result.declarers:
            assert answer["items"][0]["name"] == "game"
        assert len(answer["tricks"]) == len(hand.state.tricks)
        if result.declarers:
            played += 1
            # 54 cards count 70 points in all (docs/rules.md §5.2: "Zusammen ergibt das immer genau 70 Augen")
            assert sum(answer["points"]) == 70
            assert answer["tricks"][0]["cards"] == [format_card(c) for c in hand.state.tricks[0].cards]
    assert played >= 8


def test_replay_text_shows_tricks_points_and_settlement(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    _, data = game_record(0)
    assert main(["replay", "--lang", "en", str(write(tmp_path / "g.json", data))]) == 0
    out = capsys.readouterr().out
    assert "Trick 12:" in out and "Result:" in out and "points" in out and "Settlement:" in out


def test_replay_text_breaks_the_settlement_down(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 7: "plain replay and the client print the breakdown (game, each premium, Kontra,
    per player)": a line per item, the premium by its title, and what each seat gets."""
    for seed in range(400):
        hand = random_game(seed)
        result = hand.state.result
        if result is not None and result.premium_items and hand.state.kontra_level:
            break
    else:
        raise AssertionError("no random hand with a premium under Kontra")
    assert main(["replay", "--lang", "en", str(write(tmp_path / "k.json", record_of(hand).to_json()))]) == 0
    out = capsys.readouterr().out
    breakdown = out[out.index("Breakdown"):]
    facts = hand.rules.facts
    for item in result.premium_items:
        premium = facts.premium(item.name)
        assert premium is not None and premium.title in breakdown, (premium, breakdown)
    assert facts.facts.kontra_words[hand.state.kontra_level - 1] in breakdown
    [settlement] = [line for line in breakdown.splitlines() if "Settlement:" in line]
    assert all(f"Seat {s}" in settlement for s in range(1, 5))  # a player counts seats from 1


def illegal_at(data: dict[str, Any], k: int) -> dict[str, Any]:
    """An action that is illegal after the first ``k`` actions of the record."""
    rebuilt = replay({**data, "actions": data["actions"][:k]})
    hand = rebuilt.hand
    assert hand is not None and rebuilt.error_index is None
    seat = hand.state.to_move
    assert seat is not None
    candidates: list[Action] = [Play(seat, c) for c in DECK54]
    candidates += [Pass(seat), Kontra(seat), Call(seat, 19), Play((seat + 1) % 4, 0)]
    for action in candidates:
        if hand.why_not(action) is not None:
            out: dict[str, Any] = hand.rules.codec.encode_action(action)
            return out
    raise AssertionError("no illegal action found")


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_an_illegal_action_is_named_by_its_index(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 seed: int) -> None:
    _, data = game_record(seed)
    n = len(data["actions"])
    for k in sorted({0, 1, n // 3, n // 2, n - 1}):
        bad_action = illegal_at(data, k)
        changed = {**data, "actions": [*data["actions"][:k], bad_action, *data["actions"][k + 1:]]}
        inserted = {**data, "actions": [*data["actions"][:k], bad_action, *data["actions"][k:]]}
        for label, bad in (("changed", changed), ("inserted", inserted)):
            status, answers = run_json(capsys, write(tmp_path / f"{label}{k}.json", bad))
            assert status == 2
            error = answers[0]["error"]
            assert error["index"] == k, (label, k, error)
            assert error["reason"] and error["code"]


def test_an_illegal_action_without_json_goes_to_stderr(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    _, data = game_record(2)
    k = len(data["actions"]) - 5
    data["actions"][k] = illegal_at(data, k)
    assert main(["replay", "--lang", "en", str(write(tmp_path / "bad.json", data))]) == 2
    captured = capsys.readouterr()
    assert f"action {k}" in captured.err and "bad.json" in captured.err
    assert captured.out == ""


def test_a_record_that_stops_early_is_an_error_at_its_end(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    _, data = game_record(3)
    short = {**data, "actions": data["actions"][:10]}
    status, answers = run_json(capsys, write(tmp_path / "short.json", short))
    assert status == 2
    assert answers[0]["error"]["index"] == 10
    assert "before the hand is over" in answers[0]["error"]["reason"]


def malformed(data: dict[str, Any]) -> dict[str, Any]:
    """The malformed variants of a good record, by name."""
    hands = [list(h) for h in data["hands"]]
    unknown = [["hX", *hands[0][1:]], *hands[1:]]
    twice = [list(h) for h in hands]
    twice[1][0] = twice[0][0]
    return {
        "unknown-card": {**data, "hands": unknown},
        "wrong-format": {**data, "format": "tarock-record/0"},
        "duplicated-card": {**data, "hands": twice},
        "unknown-variant": {**data, "variant": "tarock99"},
        "not-an-object": [1, 2, 3],
        "wrong-rules-hash": {**data, "rules": {**data["rules"], "hash": "0" * 64}},
        "missing-plugin": {**data, "rules": {"hash": "0" * 64,
                                             "plugins": [*data["rules"]["plugins"], ["pagat-club", "2.0"]]}},
        "changed-option": {**data, "options": {"kontra": not data["options"]["kontra"]}},
    }


EXPECTED = {
    "unknown-card": "'hX' is not a card",
    "wrong-format": "not a tarock-record/2 record",
    "duplicated-card": "dealt twice",
    "unknown-variant": "unknown variant 'tarock99'",
    "not-an-object": "must be a JSON object",
    "wrong-rules-hash": "the record was played with other rules than tarock54 here",
    "missing-plugin": "plugin 'pagat-club' 2.0 is missing here",
    "changed-option": "the options or the table context differ",
}


def test_malformed_files_are_refused_with_a_clear_message(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    _, data = game_record(5)
    files = {name: write(tmp_path / f"{name}.json", bad) for name, bad in malformed(data).items()}
    files["not-json"] = tmp_path / "not-json.json"
    files["not-json"].write_text("{this is not json", encoding="utf-8")
    files["missing"] = tmp_path / "missing.json"
    expected = {**EXPECTED, "not-json": "is not JSON", "missing": "cannot read"}
    good = write(tmp_path / "good.json", data)
    status, answers = run_json(capsys, good, *files.values())
    assert status == 2
    assert "error" not in answers[0] and answers[0]["settlement"]
    for answer, (name, path) in zip(answers[1:], files.items(), strict=True):
        assert answer["file"] == str(path)
        assert expected[name] in answer["error"]["message"], (name, answer)
    # without --json: one readable line per bad file on stderr, the good one on stdout
    assert main(["replay", "--lang", "en", str(good), *map(str, files.values())]) == 2
    captured = capsys.readouterr()
    assert "Settlement:" in captured.out
    err = captured.err.splitlines()
    assert len(err) == len(files)
    for line, (name, path) in zip(err, files.items(), strict=True):
        assert line.startswith("tarock replay: ") and expected[name] in line
        assert line.count(str(path)) == 1, line  # the file named once


def test_replay_as_a_real_process(tmp_path: Path) -> None:
    hand, data = game_record(6)
    good = write(tmp_path / "good.json", data)
    bad = tmp_path / "bad.json"
    bad.write_text("[", encoding="utf-8")
    proc = subprocess.run([*CLI, "replay", "--json", str(good), str(bad)],
                          capture_output=True, text=True, timeout=120, encoding="utf-8")
    assert proc.returncode == 2, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert hand.state.result is not None
    assert lines[0]["settlement"] == list(hand.state.result.settlement)
    assert "is not JSON" in lines[1]["error"]["message"]
    ok = subprocess.run([*CLI, "replay", "--lang", "en", str(good)],
                        capture_output=True, text=True, timeout=120, encoding="utf-8")
    assert ok.returncode == 0 and "Settlement:" in ok.stdout
