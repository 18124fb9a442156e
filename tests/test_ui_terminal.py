"""The real ``tarock`` program at a terminal (a pseudo-terminal read by a terminal emulator).

- ``tarock play --lang en`` goes straight to a table against three bots, in English;
- closing the client loses nothing: opened again, the table goes on with the same hand;
- a terminal made too small gets a notice saying how large it must be, and the table again when it grows;
- ``tarock`` with no arguments opens the lobby, German by default.
"""

from __future__ import annotations

from pathlib import Path

from ui_harness import PtyProgram

ROOT = Path(__file__).resolve().parent.parent


def _hand_line(text: str) -> str:
    lines = text.splitlines()
    keys = next(i for i in range(len(lines) - 1, -1, -1) if lines[i].strip().startswith("1 "))
    return lines[keys - 1].strip()


def test_play_closes_and_goes_on_with_the_same_hand(tmp_path: Path) -> None:
    args = [
        "--lang",
        "en",
        "play",
        "--variant",
        "tarock40",
        "--seed",
        "4",
        "--pace",
        "0",
        "--state",
        str(tmp_path / "state"),
        "--records",
        str(tmp_path / "records"),
    ]
    first = PtyProgram(args, env={"LANG": "de_AT.UTF-8"}, cwd=str(ROOT))
    try:
        text = first.wait_for("Your bid")
        assert "40 cards (outbidding)" in text and "Round 1 of 12" in text
        hand = _hand_line(text)
        first.send("q")
        first.wait_for("Leave the table?")
        first.send("1")
        assert first.wait(30) == 0
        assert "The table is saved" in first.output()
    finally:
        first.close()
    assert len(list((tmp_path / "state" / "tables").glob("*.json"))) == 1  # client/tables.py

    again = PtyProgram(args, env={"LANG": "de_AT.UTF-8"}, cwd=str(ROOT))
    try:
        text = again.wait_for("Your bid")
        assert _hand_line(text) == hand
        again.resize(60, 18)
        small = again.wait_for("too small")
        assert "80×24" in small and "60×18" in small
        again.resize(100, 32)
        again.wait_for("Your bid")
        again.send("q")
        again.wait_for("Leave the table?")
        again.send("2")
        again.wait_for("Final standings")
        again.send("enter")
        assert again.wait(30) == 1
    finally:
        again.close()
    assert not list((tmp_path / "state" / "tables").glob("*.json"))


def test_the_lobby_is_german_by_default(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text('{"name": "Resi"}')  # not the first start
    lobby = PtyProgram(
        ["--state", str(tmp_path)],
        env={"LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "TAROCK_CONFIG": str(tmp_path / "config")},
        cwd=str(ROOT),
    )
    try:
        text = lobby.wait_for("Gegen Bots spielen")
        assert "Regeln" in text and "Beenden" in text
        lobby.send("enter")
        form = lobby.wait_for("40 Blatt (Überbieten)")
        assert "Runden" in form and "Pflichtkontra" in form
        lobby.send("esc")
        lobby.wait_for("Beenden")
        lobby.send("q")
        assert lobby.wait(30) == 0
    finally:
        lobby.close()
