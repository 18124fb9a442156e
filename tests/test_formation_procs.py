"""Waiting bots form a table although peers try to stop them, and say clearly what they wait for:
real ``tarock bot`` processes with mDNS on loopback (this test session's own network
namespace, tests/conftest.py) and the nemeses of tests/lobby_nemesis.py.

The bounds are generous (the machine is shared); ``python benchmarks/formation_flood.py``
prints the measured figures.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from net_procs import ROOT, bot_args, env, events
from netns import Procs

LOOP = ("--interface", "127.0.0.1")
NEMESIS = [sys.executable, str(ROOT / "tests" / "lobby_nemesis.py")]


def _seated_together(bots: list, timeout: float) -> set[str]:  # type: ignore[type-arg]
    for b in bots:
        b.wait_for_json(lambda e: e.get("event") == "seated", timeout=timeout)
    return {events(b, "seated")[0]["table"] for b in bots}


def _bot(procs: Procs, tmp_path: Path, i: int, wait: str = "60"):  # type: ignore[no-untyped-def]
    return procs.spawn(bot_args(f"b{i}", tmp_path, 1, *LOOP, "--seed", str(i), "--wait", wait, "-v"),
                       name=f"b{i}", env=env(tmp_path / "state"), cwd=ROOT)


def test_a_silent_leader_and_a_stale_advert_with_the_smallest_ids_do_not_stop_a_table(tmp_path: Path) -> None:
    """The smallest id belongs to a node that answers but never invites (passed over after
    5 s), the next smallest to an advert whose node is gone (its port refuses: it leaves the
    view at once).  Three bots start and see them; a fourth comes later; the four form a
    table and play it to the end."""
    with Procs(log_dir=tmp_path / "logs", lifetime=150) as procs:
        silent = procs.spawn([*NEMESIS, "silent", "--rounds", "1", *LOOP], name="silent", cwd=ROOT,
                             env=env(tmp_path / "state"))
        silent.wait_for_json(lambda e: e.get("event") == "ready", timeout=30)
        stale = procs.spawn([*NEMESIS, "flood", "--count", "1", "--rounds", "1", *LOOP], name="stale",
                            cwd=ROOT, env=env(tmp_path / "state"))
        stale.wait_for_json(lambda e: e.get("event") == "ready", timeout=30)
        bots = [_bot(procs, tmp_path, i) for i in range(3)]
        # Three bots and the silent node make four: the silent one leads, and is passed over.
        for b in bots:
            b.wait_for("passed over waiting node 0000000000000000", timeout=40)
            b.wait_for("flood0.*leaves the view.*refused", timeout=10)
        started = time.monotonic()
        bots.append(_bot(procs, tmp_path, 3))
        assert len(_seated_together(bots, 60)) == 1
        formed = time.monotonic() - started
        for b in bots:
            assert b.wait(timeout=120) == 0, b.tail()
            assert silent.alive  # it was there all along, answering, and never invited
        assert all("Traceback" not in line for b in bots for line in b.lines())
    # At most one patience (5 s) for the fourth bot, if it too expected the silent one to invite.
    assert formed < 40, f"the table formed only {formed:.1f} s after the fourth bot started"


def _dropped(bot) -> int:  # type: ignore[no-untyped-def]
    """How many flood adverts left the bot's view (they do not answer)."""
    return sum("(flood" in line and "leaves the view" in line for line in bot.lines())


@pytest.mark.parametrize("port", ["refusing", "hanging"])
def test_four_bots_form_a_table_under_a_flood_of_a_thousand_adverts(tmp_path: Path, port: str) -> None:
    """A thousand valid waiting adverts with smaller ids than any bot's (more than the view's
    256 places) are announced at a port that refuses connections or where they hang, while
    three bots wait: they drop them, and with a fourth bot they form a table and play it."""
    with Procs(log_dir=tmp_path / "logs", lifetime=240) as procs:
        bots = [_bot(procs, tmp_path, i, "150") for i in range(3)]
        for b in bots:
            b.wait_for("mDNS on", timeout=30)
        hang = ["--hang"] if port == "hanging" else []
        flood = procs.spawn([*NEMESIS, "flood", "--count", "1000", "--rounds", "1", "--lifetime", "200",
                             *hang, *LOOP], name="flood", cwd=ROOT, env=env(tmp_path / "state"))
        flood.wait_for_json(lambda e: e.get("event") == "ready", timeout=120)
        deadline = time.monotonic() + 90
        enough = 100 if port == "refusing" else 10
        while min(_dropped(b) for b in bots) < enough:  # the flood reached them and leaves their views
            assert time.monotonic() < deadline, [_dropped(b) for b in bots]
            time.sleep(0.5)
        started = time.monotonic()
        bots.append(_bot(procs, tmp_path, 3, "150"))
        assert len(_seated_together(bots, 120)) == 1
        formed = time.monotonic() - started
        for b in bots:
            assert b.wait(timeout=120) == 0, b.tail()
        assert all("Traceback" not in line for b in bots for line in b.lines())
    assert formed < 100, f"the table formed only {formed:.1f} s after the fourth bot started"


def test_a_bot_says_what_it_waits_for_and_refuses_a_table_of_another_variant(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with Procs(log_dir=tmp_path / "logs", lifetime=150) as procs:
        # Nobody opens "Nirgends": the bot says so within seconds, and at its end names it.
        lonely = procs.spawn(bot_args("l", tmp_path, 1, *LOOP, "--table", "Nirgends", "--wait", "8",
                                      "--lang", "en"), name="l", env=env(state), cwd=ROOT)
        t0 = time.monotonic()
        said = lonely.wait_for_json(lambda e: e.get("event") == "wait", timeout=30)
        assert said["reason"] == "absent" and said["table_name"] == "Nirgends"
        assert time.monotonic() - t0 < 20
        # A long table (60 deals), so that it is still full when the fifth bot looks; ended by Procs.
        host = procs.spawn(bot_args("h", tmp_path, 60, *LOOP, "--host", "--table", "Offen", "--seed", "1"),
                           name="h", env=env(state), cwd=ROOT)
        host.wait_for_json(lambda e: e.get("event") == "open", timeout=60)
        # Asked for tarock54 at a tarock40 table: one line naming both, exit status 2.
        other = procs.spawn(bot_args("o", tmp_path, 2, *LOOP, "--table", "Offen", "--variant", "tarock54",
                                     "--lang", "en"), name="o", env=env(state), cwd=ROOT)
        assert other.wait(timeout=60) == 2, other.tail()
        refusal = [line for line in other.lines() if "plays" in line]
        assert refusal == ["tarock bot: table 'Offen' plays tarock40, not tarock54 (--variant): "
                           "leave out --variant to play tarock40 there"], other.tail()
        # Three fill the table; a fifth says it is full, and at its end names it.
        seats = [procs.spawn(bot_args(f"s{i}", tmp_path, 60, *LOOP, "--table", "Offen", "--seed",
                                      str(10 + i)), name=f"s{i}", env=env(state), cwd=ROOT) for i in range(3)]
        for s in seats:
            s.wait_for_json(lambda e: e.get("event") == "seated", timeout=60)
        fifth = procs.spawn(bot_args("f", tmp_path, 2, *LOOP, "--table", "Offen", "--wait", "6", "--lang",
                                     "en"), name="f", env=env(state), cwd=ROOT)
        full = fifth.wait_for_json(lambda e: e.get("event") == "wait" and e.get("reason") == "full",
                                   timeout=30)
        assert full["table_name"] == "Offen"
        assert not [e for e in events(fifth, "wait") if e["reason"] != "full"]
        assert fifth.wait(timeout=60) == 1, fifth.tail()
        assert any("no table found or formed within 6 s (table 'Offen' was full)" in line
                   for line in fifth.lines()), fifth.tail()
        assert lonely.wait(timeout=30) == 1, lonely.tail()
        assert any("no table found or formed within 8 s (no table named 'Nirgends' seen)" in line
                   for line in lonely.lines()), lonely.tail()
        assert all(p.alive for p in (host, *seats))  # the table plays on
        every = [line for p in (lonely, other, fifth, host, *seats) for line in p.lines()]
        assert not any("Traceback" in line for line in every)
