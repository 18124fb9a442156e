"""A host node in-process and a scripted client over trio memory streams, for protocol tests.

The host is the real thing (:class:`net.node.Node` with a :class:`HostCore`,
three of its seats played by bots in its process); the client is a
:class:`~net.protocol.connection.Connection` whose bytes the test writes
itself (whole, in pieces, or broken) and whose bodies a real
:class:`~net.seat.SeatCore` answers unless the test says otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
import trio.testing
from net_pump import CATALOGUE

from tarock.client.bots import make_bot
from tarock.core.players import BotSeat
from tarock.net.effects import Decide, Effect, ToHost
from tarock.net.game import Game
from tarock.net.host import HostCore
from tarock.net.identity import Identity
from tarock.net.lobby import Seated, host_table, new_table
from tarock.net.node import Node
from tarock.net.protocol.connection import BodyReceived, Closed, Connection, Event, HelloRefused, Welcomed
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN, Timing
from tarock.net.protocol.messages import Hello, Message, Signed, dump, parse
from tarock.net.seat import SeatCore
from tarock.net.store import Store
from tarock.net.transport import TcpTransport

CLIENT_IDENTITY = Identity(b"\xc1" * 32)
CLIENT = CLIENT_IDENTITY.node


def quiet(event: object) -> None:
    pass


@dataclass
class Rig:
    node: Node
    core: HostCore
    game: Game
    tmp: Path


async def open_host(nursery: trio.Nursery, tmp: Path, bots: int = 3, variant: str = "tarock54",
                    rounds: int = 1, timing: Timing | None = None, dealing: str = "mental-poker/2",
                    pin: str | None = None) -> Rig:
    """A host node whose own seat and ``bots - 1`` more are bots; ``4 - bots`` seats free."""
    game = Game.make(CATALOGUE, variant, {}, 4, rounds, dealing)
    node = Node("host", CATALOGUE, TcpTransport("127.0.0.1", 0), tmp / "state", timing=timing or Timing(),
                records_dir=tmp / "host-records", pin=pin)
    node.nursery = nursery
    info = new_table(game, "rig", private=pin is not None)
    bot_for = lambda seat: make_bot("heuristic", 500 + seat, f"sub{seat}")  # noqa: E731
    own = Seated(BotSeat(make_bot("heuristic", 1, "host")), quiet)
    others = [Seated(BotSeat(make_bot("heuristic", 2 + k, f"bot{k}")), quiet) for k in range(bots - 1)]
    nursery.start_soon(host_table, node, game, info, own, others, bot_for)
    while node.host is None:
        await trio.sleep(0.01)
    return Rig(node, node.host.core, game, tmp)


@dataclass
class Client:
    """A scripted seat: the test decides what goes on the wire."""

    stream: trio.abc.Stream
    conn: Connection
    core: SeatCore
    events: list[Event] = field(default_factory=list)
    bodies: list[Signed] = field(default_factory=list)
    auto: bool = True
    """Answer bodies with the SeatCore (dealing, checks, a bot's actions)."""
    intercept: Callable[[Signed], Signed | None] | None = None
    """Change (or drop: None) what the client would send."""
    bot: Any = None
    bodies_raw: list[Any] = field(default_factory=list)

    async def send(self, data: bytes, chunk: int | None = None) -> None:
        if chunk is None:
            await self.stream.send_all(data)
            return
        for i in range(0, len(data), chunk):
            await self.stream.send_all(data[i:i + chunk])

    async def flush(self) -> None:
        data = self.conn.data_to_send()
        if data:
            await self.stream.send_all(data)

    def hello(self, **changes: Any) -> Hello:
        fields: dict[str, Any] = dict(proto_min=PROTOCOL_MIN, proto_max=PROTOCOL_MAX, node=self.core.me,
                                      name=self.core.name, role="seat", table=self.core.table_id,
                                      rules=self.core.rules, session="", received=0, epoch=0, deal=0,
                                      done=0, port=0, addresses=(), key=self.core.identity.key,
                                      nonce="5a" * 32, pake="")
        fields.update(changes)
        return Hello(**fields)

    def send_signed(self, body: Signed) -> None:
        self.conn.send_body(dump(body), trio.current_time())

    def _apply(self, effects: list[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, ToHost):
                body = effect.body if self.intercept is None else self.intercept(effect.body)
                if body is not None:
                    self.conn.send_body(dump(body), trio.current_time())
            elif isinstance(effect, Decide) and self.bot is not None:
                action = self.bot.decide(effect.obs)
                self._apply(self.core.decided(effect.deal, effect.index, action))

    async def pump(self, until: Callable[[Client], bool], timeout: float = 10.0) -> None:
        """Read and answer until ``until(self)`` holds (or the connection closes)."""
        with trio.fail_after(timeout):
            while not until(self):
                if self.conn.closed and not self.conn.events():
                    break
                data = await self.stream.receive_some(65536)
                self.conn.receive_data(bytes(data), trio.current_time())
                for event in self.conn.events():
                    self.events.append(event)
                    if isinstance(event, Welcomed):
                        self._apply(self.core.welcomed(event.welcome, self.conn.peer_key))
                    elif isinstance(event, BodyReceived):
                        msg = parse(event.body, "body")
                        assert isinstance(msg, Signed)
                        self.bodies.append(msg)
                        if self.auto:
                            self._apply(self.core.receive(msg))
                self.conn.flush_ack(trio.current_time())
                await self.flush()
                if not data:
                    break

    def closed(self) -> Closed | None:
        return next((e for e in self.events if isinstance(e, Closed)), None)

    def refused(self) -> HelloRefused | None:
        return next((e for e in self.events if isinstance(e, HelloRefused)), None)


async def connect(rig: Rig, nursery: trio.Nursery, identity: Identity = CLIENT_IDENTITY, name: str = "tester",
                  seed: int = 9) -> Client:
    """A client connected to the rig's host (nothing sent yet)."""
    here, there = trio.testing.memory_stream_pair()
    nursery.start_soon(rig.node.handle, there, "10.9.9.9")
    node = identity.node
    core = SeatCore(node, name, CATALOGUE, Store(rig.tmp / f"{name}-{node[:4]}.sqlite"),
                    rand=random.Random(seed).randbytes, records_dir=rig.tmp / f"{name}-records",
                    identity=identity)
    core.expect_table = rig.core.info.id
    core.expect_rules = rig.core.info.rules
    return Client(here, Connection("client", trio.current_time()), core,
                  bot=make_bot("heuristic", seed, name))


async def join(client: Client, pake: Any = None, **hello: Any) -> None:
    if pake is not None:
        hello["pake"] = pake.message.hex()
    client.conn.hello(client.hello(**hello), trio.current_time(), identity=client.core.identity, pake=pake)
    await client.flush()
    await client.pump(lambda c: bool(c.events))


def frame(msg: Message) -> bytes:
    from tarock.net.protocol.frames import encode_frame

    return encode_frame(dump(msg))
