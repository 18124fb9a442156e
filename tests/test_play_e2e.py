"""``tarock play`` end to end: a real process, piped answers, a table of 12 rounds.

docs/rules.md §3.6: "Ein Tisch spielt 12 Runden, danach gibt es den
Endstand." ... "Der Sieger erhält 4 Hauptpunkte (HP), der Zweite 2, der Dritte 1, der
Vierte 0. Die erzielten Punkte zählen als Subpunkte (SP)".
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from net_procs import CLI

from tarock.client.bots import make_bot
from tarock.client.human import HumanPlayer, TableView
from tarock.client.players import BotSeat, Player
from tarock.client.session import Session
from tarock.core.actions import Call, Discard, Kontra, Play
from tarock.core.cards import format_card
from tarock.core.observation import observe
from tarock.core.record import load, replay
from tarock.core.table import is_passed_out

ROOT = Path(__file__).resolve().parent.parent
BOTS = ("Franz", "Hilde", "Sepp")

pytestmark = pytest.mark.usefixtures("english")  # the English words, as with --lang en


def play(tmp_path: Path, answers: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [*CLI, "play", "--lang", "en", "--variant", "tarock54", "--records",
         str(tmp_path / "records"), *args],
        input=answers, capture_output=True, text=True, encoding="utf-8", timeout=300, cwd=ROOT, env=env)


def test_a_whole_table_from_piped_answers(tmp_path: Path) -> None:
    answers = "foo\n99\ndiscard\n" + "1\n" * 3000
    proc = play(tmp_path, answers, "--seed", "11")
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr + out[-2000:]
    # invalid lines get a clear message and the game goes on
    assert "Sorry: I do not understand 'foo'" in out
    assert "Sorry: there is no choice 99" in out
    assert out.count("Sorry:") == 3
    assert "Round 12 of 12" in out

    # the final standings: four seats, main points 4/2/1/0 shared on ties, sub points = totals
    tail = out[out.index("Final standings after 12 rounds:"):]
    rows = re.findall(r"^\s*(\d)\. (\w+)\s+MP (\S+)\s+TP (\S+)$", tail, re.M)
    assert sorted(name for _, name, _, _ in rows) == sorted(("You", *BOTS))
    sub = {name: int(sp) for _, name, _, sp in rows}
    assert sum(sub.values()) == 0

    # the records: one file per deal, each replays to the end; the played ones add up to the standings
    files = sorted((tmp_path / "records").glob("table-*-r*-h*.json"))
    assert len(files) >= 12
    assert f"Records: {len(files)} hands written to" in out
    totals = [0, 0, 0, 0]
    rounds = set()
    for path in files:
        rep = replay(load(path))
        assert rep.error_index is None and rep.hand is not None and rep.hand.done, path
        result = rep.hand.state.result
        assert result is not None and sum(result.settlement) == 0
        if not is_passed_out(result):
            rounds.add(path.name.split("-r")[1][:2])
        totals = [t + s for t, s in zip(totals, result.settlement, strict=True)]
    assert len(rounds) == 12
    names = ["You", *BOTS]
    assert {names[s]: totals[s] for s in range(4)} == sub

    # other seats' discards stay hidden while the hand is played
    for line in out.splitlines():
        if re.match(rf"^({'|'.join(BOTS)}): discard", line):
            assert line.endswith(": discards"), line


def test_end_of_input_leaves_the_table_with_status_1(tmp_path: Path) -> None:
    proc = play(tmp_path, "1\n" * 5, "--seed", "2")
    assert proc.returncode == 1, proc.stderr
    assert "End of input: leaving the table." in proc.stdout
    assert "Traceback" not in proc.stderr


def test_quit_and_help(tmp_path: Path) -> None:
    proc = play(tmp_path, "?\nhand\nsheet\nquit\n", "--seed", "2")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Type the number of a choice" in out
    assert "(no rounds played yet)" in out
    assert "You left the table." in out


async def test_the_human_seat_takes_every_kind_of_action_by_its_notation(tmp_path: Path) -> None:
    """In-process: a human who calls whenever possible, writes discards and cards out
    (``discard c7 c8 d4``, ``XV``, ``skus``) and says Kontra when offered."""
    out: list[str] = []
    said: list[str] = []
    holder: list[Session] = []

    def answer(prompt: str) -> str:
        hand = holder[0].hand
        assert hand is not None
        legal = observe(hand, 0).legal
        kinds = {type(a) for a in legal}
        if Call in kinds:
            text = next(a for a in legal if isinstance(a, Call)).describe()  # "call XIX"
        elif Discard in kinds:
            text = legal[-1].describe().upper().replace("DISCARD", "discard")
        elif Kontra in kinds:
            text = "kontra"
        elif Play in kinds:
            card = format_card(next(a for a in legal if isinstance(a, Play)).card)
            text = "skus" if card == "Sküs" else card.lower()
        else:
            text = "pass"
        said.append(text)
        return text

    human = HumanPlayer("You", read=answer, write=out.append, names=lambda: holder[0].names)
    players: list[Player] = [human, *(BotSeat(make_bot("heuristic", 40 + i, n)) for i, n in enumerate(BOTS))]
    session = Session("tarock54", players, seed=4, records_dir=tmp_path, rounds=6,
                      listener=TableView(0, out.append))
    holder.append(session)
    table = await session.run()
    assert table.over and len(table.rows) == 6
    assert not [line for line in out if line.startswith(("Sorry", "Not allowed"))]
    assert any(t.startswith("call ") for t in said) and any(t.startswith("discard ") for t in said)
    assert any(0 in row.declarers for row in table.rows)
    assert len(session.records) == table.deals
    assert any(line.startswith("Final standings after 6 rounds:") for line in out)


async def test_a_rejected_card_is_explained_by_the_rules(tmp_path: Path) -> None:
    """A card the rules forbid gets the engine's reason, then the prompt again."""
    out: list[str] = []
    tried: list[str] = []
    holder: list[Session] = []

    def answer(prompt: str) -> str:
        hand = holder[0].hand
        assert hand is not None
        obs = observe(hand, 0)
        if obs.phase == "play" and not tried:
            allowed = {a.card for a in obs.legal if isinstance(a, Play)}
            wrong = [c for c in obs.hand if c not in allowed]
            if wrong:
                tried.append(format_card(wrong[0]))
                return tried[0]
        return "1"

    human = HumanPlayer("You", read=answer, write=out.append)
    players: list[Player] = [human, *(BotSeat(make_bot("random", 60 + i)) for i in range(3))]
    session = Session("tarock54", players, seed=8, rounds=4)
    holder.append(session)
    await session.run()
    assert tried, "expected a trick where some card of the hand was not allowed"
    rejected = [line for line in out if line.startswith("Not allowed:")]
    assert len(rejected) == 1
    assert "must" in rejected[0]  # e.g. "you must follow suit (clubs)"
