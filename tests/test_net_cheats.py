"""Cheating nodes, as real processes through the real protocol (issue 9, "Blame").

An honest host and two honest seats (real ``tarock bot`` processes on loopback, mDNS on
127.0.0.1, mental-poker dealing) play with a fourth node that runs the same program with
one step altered (tests/cheat_node.py): a card it was not dealt, a card played twice, a
renege found only by the end-of-hand replay, a bad reveal proof, an entry in another
seat's name, a replayed entry, an opening kept back, a shuffle never sent.  Each time the
hand is void, every honest node names the cheater (its node id), the void and the culprit
are in its store, the void deal has no record, and the honest score sheets are the sum of
the hands that were played out: the cheat costs nobody anything.  The last test is the
other side of the line: a seat that is gone (killed, not restarted) is not named.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cheat_node import KINDS
from net_procs import ROOT, bot_args, env, events, records, standings
from netns import Procs
from tarock_procs import settlements

from tarock.net.identity import Identity
from tarock.net.store import Store

LOOP = ("--interface", "127.0.0.1")
CHEAT = ROOT / "tests" / "cheat_node.py"
HONEST = ("h", "b0", "b1")
ROUNDS = {"renege": 3}
"""A renege needs a hand where the cheater cannot follow freely: more rounds give it one."""


WHY = {"not-held": "does not hold the card", "twice": "plays again the card", "renege": "is not legal",
       "bad-proof": "fails its proof", "forged": "in the name of another node", "replay": "replayed",
       "refuse-open": "kept back its opening", "stall-deal": "stalled its step of the deal"}
"""What the void says of each cheat."""


def _node_of(tmp: Path, name: str) -> str:
    return Identity(Store(tmp / "state" / f"{name}.sqlite").identity_seed()).node


@pytest.mark.parametrize("kind", KINDS)
def test_a_cheat_voids_the_hand_and_names_the_cheater(tmp_path: Path, kind: str) -> None:
    table = f"Tisch {kind}"
    rounds = ROUNDS.get(kind, 1)
    common = (*LOOP, "--table", table, "--wait", "60", "--step-timeout", "3", "--seat-timeout", "30",
              "--variant", "tarock40")
    with Procs(log_dir=tmp_path / "logs", lifetime=200) as procs:
        host = procs.spawn(bot_args("h", tmp_path, rounds, *common, "--host", "--seed", "1"), name="h",
                           env=env(tmp_path / "state"), cwd=ROOT)
        host.wait_for_json(lambda e: e.get("event") == "seated", timeout=60)
        seats = [procs.spawn(bot_args(f"b{i}", tmp_path, rounds, *common, "--seed", str(i + 2)),
                             name=f"b{i}", env=env(tmp_path / "state"), cwd=ROOT) for i in range(2)]
        for seat in seats:
            seat.wait_for_json(lambda e: e.get("event") == "seated", timeout=60)
        argv = bot_args("x", tmp_path, rounds, *common, "--seed", "9")
        cheater = procs.spawn([sys.executable, str(CHEAT), kind, *argv[3:]], name="x",
                              env=env(tmp_path / "state"), cwd=ROOT)
        honest = [host, *seats]
        for proc in honest:
            assert proc.wait(timeout=170) == 0, proc.tail()
        cheater.wait(timeout=30)
    culprit = _node_of(tmp_path, "x")
    for proc, name in zip(honest, HONEST, strict=True):
        voids = events(proc, "void")
        assert voids, f"{name} saw no void:\n{proc.tail()}"
        assert voids[0]["culprit"] == culprit, f"{name}: {voids[0]}"
        assert WHY[kind] in voids[0]["reason"], f"{name}: {voids[0]}"
        table_id = events(proc, "seated")[-1]["table"]
        stored = Store(tmp_path / "state" / f"{name}.sqlite").outcomes(table_id)
        void_deals = [(deal, why) for deal, record, why, who in stored if record is None and who == culprit]
        assert void_deals, f"{name}'s store names nobody: {stored}"
        files = records(tmp_path, name)
        played = {json.loads(p.read_text())["net"]["deal"] for p in files}
        assert not played & {deal for deal, _ in void_deals}, "a void deal has a record"
    # The honest sheets: identical records, each the sum of the hands played out.
    first = [p.read_bytes() for p in records(tmp_path, "h")]
    assert first and all([p.read_bytes() for p in records(tmp_path, n)] == first for n in HONEST)
    totals = [sum(column) for column in zip(*settlements(tmp_path / "rec-h"), strict=True)]
    for proc in honest:
        assert events(proc, "over")[-1]["totals"] == totals
    assert all(standings(p) == standings(host) for p in honest)


def test_a_seat_gone_longer_than_the_timeout_is_no_cheat(tmp_path: Path) -> None:
    """A seat's node is killed mid-hand and does not come back: its cards cannot be opened
    without it, so after the seat timeout the hand is void with nobody named; from the next
    deal a bot of the host's node plays the seat, and the table ends with the same records
    and standings on every node that stayed."""
    table = "Tisch gone"
    common = (*LOOP, "--table", table, "--wait", "60", "--step-timeout", "3", "--seat-timeout", "3",
              "--variant", "tarock40")
    with Procs(log_dir=tmp_path / "logs", lifetime=200) as procs:
        host = procs.spawn(bot_args("h", tmp_path, 2, *common, "--host", "--seed", "1"), name="h",
                           env=env(tmp_path / "state"), cwd=ROOT)
        host.wait_for_json(lambda e: e.get("event") == "seated", timeout=60)
        seats = [procs.spawn(bot_args(f"b{i}", tmp_path, 2, *common, "--seed", str(i + 2)),
                             name=f"b{i}", env=env(tmp_path / "state"), cwd=ROOT) for i in range(2)]
        for seat in seats:
            seat.wait_for_json(lambda e: e.get("event") == "seated", timeout=60)
        gone = procs.spawn(bot_args("x", tmp_path, 2, *common, "--seed", "9"), name="x",
                           env=env(tmp_path / "state"), cwd=ROOT)
        gone.wait_for_json(lambda e: e.get("event") == "first-card", timeout=60)
        gone.kill()
        honest = [host, *seats]
        for proc in honest:
            assert proc.wait(timeout=170) == 0, proc.tail()
    for proc in honest:
        voids = events(proc, "void")
        assert voids and voids[0]["culprit"] == "" and "away" in voids[0]["reason"], voids
        assert any(e["bots"] for e in events(proc, "hand")), "no bot played the seat that was gone"
    first = [p.read_bytes() for p in records(tmp_path, "h")]
    assert first and all([p.read_bytes() for p in records(tmp_path, n)] == first for n in HONEST)
    assert all(standings(p) == standings(host) for p in honest)


def test_a_host_whose_entries_no_seat_accepts_hands_the_table_on(tmp_path: Path) -> None:
    """The host signs every ``begin`` badly (tests/cheat_node.py ``host-bad-begin``): every
    seat refuses the deal and tells the host so; without a bound it would void and deal again
    for ever.  After OWN_VOIDS such deals the host says it stops dealing and closes every
    connection; the seats go through the succession, the next node hosts the table at epoch 2,
    and the table is played to its end with the same records and standings on every node, the
    old host's included (it comes back as a seat)."""
    from tarock.net.host import OWN_VOIDS

    table = "Tisch ohne Gastgeber"
    common = (*LOOP, "--table", table, "--wait", "60", "--step-timeout", "3", "--seat-timeout", "30",
              "--variant", "tarock40")
    with Procs(log_dir=tmp_path / "logs", lifetime=240) as procs:
        argv = bot_args("x", tmp_path, 1, *common, "--host", "--seed", "9")
        host = procs.spawn([sys.executable, str(CHEAT), "host-bad-begin", *argv[3:]], name="x",
                           env=env(tmp_path / "state"), cwd=ROOT)
        host.wait_for_json(lambda e: e.get("event") == "seated", timeout=60)
        seats = [procs.spawn(bot_args(f"b{i}", tmp_path, 1, *common, "--seed", str(i + 2)),
                             name=f"b{i}", env=env(tmp_path / "state"), cwd=ROOT) for i in range(3)]
        everyone = [host, *seats]
        for proc in everyone:
            assert proc.wait(timeout=200) == 0, proc.tail()
    bad = _node_of(tmp_path, "x")
    names = ("x", "b0", "b1", "b2")
    for proc, name in zip(everyone, names, strict=True):
        voids = events(proc, "void")
        assert len(voids) == OWN_VOIDS, f"{name}: {voids}"
        if name != "x":  # each seat saw the bad entries itself: it names the host
            assert all(v["culprit"] == bad and "bad signature" in v["reason"] for v in voids), voids
        seated = events(proc, "seated")
        assert seated[0]["host"] == bad and seated[-1]["host"] != bad and seated[-1]["epoch"] == 2, seated
    assert any("stops hosting" in line for line in host.lines()), host.tail()
    first = [p.read_bytes() for p in records(tmp_path, "b0")]
    assert first and all([p.read_bytes() for p in records(tmp_path, n)] == first for n in names)
    played = {json.loads(p.read_text())["net"]["deal"] for p in records(tmp_path, "b0")}
    assert not played & set(range(1, OWN_VOIDS + 1)), played
    assert all(standings(p) == standings(seats[0]) for p in everyone)
