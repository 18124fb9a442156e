"""A person's question survives a dropped connection (issue 8: liveness and reconnect).

A person's answer is awaited (the screen waits for a key).  When the Wi-Fi drops while the
question is open, the seat reconnects; the answer given afterwards must reach the host and
be played for that seat, not lost, and the question must not be asked twice.
"""

from __future__ import annotations

from pathlib import Path

import trio

from tarock.client.bots import make_bot
from tarock.core.actions import Action
from tarock.core.observation import Observation
from tarock.core.players import BotSeat, Policy
from tarock.core.plugins import load_plugins
from tarock.net.dealing import DEFAULT_DEALING
from tarock.net.game import Game
from tarock.net.lobby import Seated, host_table, join_table, new_table
from tarock.net.node import Node
from tarock.net.protocol.limits import Timing
from tarock.net.transport import PeerAddress, TcpTransport

TIMING = Timing(seat_timeout=30.0, host_grace=5.0)


class SlowPerson:
    """Plays like a bot, but holds its first answer until the test lets it go."""

    name = "person"

    def __init__(self) -> None:
        self.bot = make_bot("heuristic", 5, "person")
        self.asked: list[tuple[int, int]] = []
        self.waiting = trio.Event()
        self.release = trio.Event()

    async def decide(self, obs: Observation) -> Action:
        self.asked.append((obs.seat, len(obs.history)))
        if len(self.asked) == 1:
            self.waiting.set()
            with trio.move_on_after(30):
                await self.release.wait()
            if not self.release.is_set():
                raise RuntimeError("the test never released the first answer")
        return self.bot.decide(obs)


async def test_an_answer_given_after_the_connection_dropped_is_played(tmp_path: Path) -> None:
    catalogue = load_plugins()
    game = Game.make(catalogue, "tarock54", {}, 4, 1, DEFAULT_DEALING)
    info = new_table(game, "drop test")
    host = Node("host", catalogue, TcpTransport("127.0.0.1", 0), tmp_path / "host", timing=TIMING)
    guest = Node("guest", catalogue, TcpTransport("127.0.0.1", 0), tmp_path / "guest", timing=TIMING,
                 records_dir=tmp_path / "guest-records")
    person = SlowPerson()
    shown: list[object] = []

    def bot_for(seat: int) -> Policy:
        return make_bot("heuristic", 40 + seat, f"sub{seat}")

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host.nursery = nursery
            guest.nursery = nursery
            bound: PeerAddress = await nursery.start(host.serve)
            await nursery.start(guest.serve)
            own = Seated(BotSeat(make_bot("heuristic", 9, "host")), lambda e: None)
            bots = [Seated(BotSeat(make_bot("heuristic", 10 + k, f"bot{k}")), lambda e: None)
                    for k in range(2)]
            nursery.start_soon(host_table, host, game, info, own, bots, bot_for)
            seat = await join_table(guest, PeerAddress("127.0.0.1", bound.port), info.id, info.rules,
                                    Seated(person, shown.append, shows_all=True), bot_for)
            result: list[object] = []

            async def play() -> None:
                result.append(await seat.run(PeerAddress("127.0.0.1", bound.port)))
            nursery.start_soon(play)
            await person.waiting.wait()
            link = seat.link
            assert link is not None
            await trio.aclose_forcefully(link.stream)  # the Wi-Fi drops while the question is open
            while seat.link is None or seat.link is link:
                await trio.sleep(0.05)
            await trio.sleep(0.3)  # the seat is connected again
            person.release.set()
            while not result:
                await trio.sleep(0.1)
            nursery.cancel_scope.cancel()
    assert getattr(result[0], "code", None) == "done", result
    assert len(person.asked) == len(set(person.asked)), "a question was asked twice"
    mine = sorted((tmp_path / "guest-records").glob("*.json"))
    assert len(mine) == 1
    text = mine[0].read_text()
    assert '"bots":[]' in text.replace(" ", ""), "a bot played the person's seat"
