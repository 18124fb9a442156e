"""A hand over the network through the screen: the player at one node, bots at three other nodes.

The full-screen client (in this process, keys through a pipe, its screen in
a terminal emulator) opens a table from the lobby on loopback (mDNS on
127.0.0.1, as tests/test_net_processes.py does); three real ``tarock bot``
processes find it by name and join; the hand is played through the screen
with the same checks as the local tables (tests/ui_play.py); the settlement,
the standings and the bots' end follow.
"""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

from net_procs import ROOT, bot_args, env, events
from netns import Procs
from ui_harness import Driver, run
from ui_play import Seen, play_hand, until

from client.i18n import _, set_language
from client.ui.main import lobby
from client.ui.model import TableModel
from core.plugins import load_plugins

LOOP = ["127.0.0.1"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_hand_with_bots_at_three_other_nodes(tmp_path: Path) -> None:
    set_language("de")
    args = argparse.Namespace(
        state=str(tmp_path / "me"),
        port=_free_port(),
        interface=LOOP,
        to=None,
        name="Du",
        records=str(tmp_path / "rec-me"),
        no_records=False,
        pace=0.0,
        offline=False,
    )
    ref: dict[str, object] = {}
    seen = Seen()
    table = "Tisch von Du"

    def keep(driver: object, model: TableModel) -> None:
        ref["model"] = model

    with Procs(log_dir=tmp_path / "logs", lifetime=200) as procs:

        async def script(d: Driver) -> None:
            await d.wait_for(_("Open a table on the network"))
            d.press("down", "enter")  # the second row: open a table
            await d.wait_for(_("Table name"))
            for _k in range(1, 3):
                d.press("down")  # to the rounds
            d.press(*["left"] * 5)  # 12 -> 1
            await d.wait_for("◀ 1 ▶")
            d.press("enter", "enter")  # to "open the table", and open it
            await until(lambda: "model" in ref, what="the table's model")
            await d.wait_for(_("Waiting for players: {n} of {seats} seated.").format(n=1, seats=4))
            bots = [
                procs.spawn(
                    bot_args(
                        f"b{i}",
                        tmp_path,
                        1,
                        "--interface",
                        "127.0.0.1",
                        "--table",
                        table,
                        "--wait",
                        "60",
                        "--seed",
                        str(i),
                    ),
                    name=f"b{i}",
                    env=env(tmp_path / "state"),
                    cwd=ROOT,
                )
                for i in range(3)
            ]
            ref["bots"] = bots
            while True:
                obs = await play_hand(d, ref, seen, timeout=150)
                assert obs.result is not None
                d.press("enter")
                if not obs.result.passed_out:
                    break
            standings = await d.wait_for(_("Final standings"), timeout=60)
            ref["standings"] = standings
            d.press("enter")
            await d.wait_for(_("Open a table on the network"))
            d.press("q")

        assert (
            run(lambda: lobby(args, load_plugins(None), seen=keep), script, cols=100, rows=36, timeout=240)
            == 0
        )
        bots = ref["bots"]
        for bot in bots:  # type: ignore[attr-defined]
            assert bot.wait(timeout=60) == 0, bot.tail()
    seated = [events(b, "seated")[-1] for b in bots]  # type: ignore[attr-defined]
    assert all(s["table_name"] == table and s["host_name"] == "Du" for s in seated)
    assert seen.plays >= 1 and seen.settlements
    assert "HP" in str(ref["standings"])
    assert list((tmp_path / "rec-me").glob("table-*.json"))
