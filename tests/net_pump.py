"""Wiring the sans-IO table cores directly, for tests: bodies go through the
wire encoding (dump, msgpack frame, parse) but no socket and no clock."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tarock.client.bots import make_bot
from tarock.core.players import Policy
from tarock.core.plugins import Catalogue, load_plugins
from tarock.net.agreement.outcome import Outcome
from tarock.net.effects import Decide, Drop, Effect, Leave, Note, Propose, Send, Show, TableDone, ToHost
from tarock.net.game import Game
from tarock.net.host import Admit, HostCore
from tarock.net.identity import Identity
from tarock.net.protocol.frames import FrameReader, encode_frame
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN, Timing
from tarock.net.protocol.messages import Hello, Signed, TableInfo, Welcome, dump, parse
from tarock.net.seat import SeatCore
from tarock.net.store import Store

CATALOGUE: Catalogue = load_plugins()


def identity(i: int) -> Identity:
    """The fixed identity of test node ``i``."""
    return Identity(bytes([i + 1]) * 32)


def node_id(i: int) -> str:
    return identity(i).node


def wire(body: Signed) -> Signed:
    """The body as the peer decodes it after a trip through a frame."""
    reader = FrameReader()
    (raw,) = reader.feed(encode_frame(dump(body)))
    msg = parse(raw, "body")
    assert isinstance(msg, Signed)
    return msg


def hello_of(seat: SeatCore, role: str = "seat") -> Hello:
    return Hello(PROTOCOL_MIN, PROTOCOL_MAX, seat.me, seat.name, role, seat.table_id,  # type: ignore[arg-type]
                 seat.rules, "", 0, seat.epoch, seat.deal, seat.done, 0, (), seat.identity.key, "00" * 32, "")


@dataclass
class Pump:
    """One host and its seats, exchanging bodies until nothing moves."""

    host: HostCore
    seats: dict[str, SeatCore]
    players: dict[str, Policy | None]
    """None: a seat that never acts (the hand waits for it)."""
    now: float = 0.0
    log: list[str] = field(default_factory=list)
    shown: dict[str, list[object]] = field(default_factory=dict)
    left: dict[str, Leave] = field(default_factory=dict)
    dropped: list[Drop] = field(default_factory=list)
    done: bool = False
    connected: set[str] = field(default_factory=set)
    tamper: Callable[[str, Signed], Signed | None] | None = None
    """Called on every body the host sends: return a changed body, or None to drop it."""
    sent: int = 0
    committed: list[Outcome] = field(default_factory=list)
    """Every outcome the host proposed, in order (the table's log)."""

    def join(self, node: str) -> None:
        seat = self.seats[node]
        hello = hello_of(seat, "watch" if seat.watch else "seat")
        verdict = self.host.admit(hello)
        assert isinstance(verdict, Admit), verdict
        self.connected.add(node)
        host = self.host
        welcome = Welcome(PROTOCOL_MAX, host.me, "host", host.info.id, host.info.rules, host.epoch, host.me,
                          "", 0, False, verdict.seat, host.sheet.done)
        self.run_from(node, seat.welcomed(welcome, host.identity.key))
        self.run(self.host.connected(node, hello, self.now))

    def leave(self, node: str) -> None:
        self.connected.discard(node)
        self.run(self.host.disconnected(node, self.now))

    def tick(self, dt: float) -> None:
        self.now += dt
        self.run(self.host.tick(self.now))

    def run_from(self, node: str, effects: list[Effect]) -> None:
        """Effects of the seat ``node`` (its answer to a welcome)."""
        self._run([(node, e) for e in effects])

    def run(self, effects: list[Effect]) -> None:
        self._run([(None, e) for e in effects])

    def _run(self, queue: list[tuple[str | None, Effect]]) -> None:
        while queue:
            origin, effect = queue.pop(0)
            if isinstance(effect, Send):
                if effect.to not in self.connected:
                    continue
                body = effect.body
                if self.tamper is not None:
                    changed = self.tamper(effect.to, body)
                    if changed is None:
                        continue
                    body = changed
                self.sent += 1
                queue += [(effect.to, e) for e in self.seats[effect.to].receive(wire(body))]
            elif isinstance(effect, ToHost):
                assert origin is not None
                if origin in self.connected:
                    queue += [(None, e) for e in self.host.receive(origin, wire(effect.body), self.now)]
            elif isinstance(effect, Decide) and origin is None:  # a bot of the host plays an away seat
                action = self.host.seating.bot(effect.obs.seat).decide(effect.obs)
                answers = self.host.stand_in_decided(effect.deal, effect.index, action, self.now)
                queue += [(None, e) for e in answers]
            elif isinstance(effect, Decide):
                player = self.players[origin]
                if player is None:
                    continue
                action = player.decide(effect.obs)
                queue += [(origin, e) for e in self.seats[origin].decided(effect.deal, effect.index, action)]
            elif isinstance(effect, Show):
                self.shown.setdefault(origin or "host", []).append(effect.event)
            elif isinstance(effect, Leave):
                assert origin is not None
                self.left[origin] = effect
            elif isinstance(effect, Drop):
                self.dropped.append(effect)
                if effect.to in self.connected and origin is None:
                    self.leave(effect.to)
            elif isinstance(effect, Note):
                self.log.append(effect.text)
            elif isinstance(effect, TableDone):
                self.done = True
            elif isinstance(effect, Propose):
                # A log of one member: what the host proposes is committed at once, everywhere.
                self.committed.append(effect.outcome)
                queue += [(None, e) for e in self.host.committed(effect.outcome, self.now)]
                for node, seat in self.seats.items():
                    if seat.follows_log:
                        queue += [(node, e) for e in seat.committed(effect.outcome)]


def make_table(tmp: Path, variant: str = "tarock54", rounds: int = 2, seats: int = 4, seed: int = 0,
               timing: Timing | None = None, watchers: int = 0, dealing: str = "mental-poker/2") -> Pump:
    rng = random.Random(seed)
    game = Game.make(CATALOGUE, variant, {}, seats, rounds, dealing)
    info = TableInfo(f"{seed + 0xabc:032x}", "test table", variant, game.options, game.hash, rounds, seats,
                     dealing, False)
    host_store = Store(tmp / "host.sqlite")
    host = HostCore(game, info, node_id(0), host_store, now=0.0, timing=timing, identity=identity(0),
                    rand=rng.randbytes, bot_for=lambda s: make_bot("heuristic", 1000 + s, f"sub{s}"))
    cores: dict[str, SeatCore] = {}
    players: dict[str, Policy | None] = {}
    for i in range(seats + watchers):
        node = node_id(i)
        core = SeatCore(node, f"p{i}", CATALOGUE, Store(tmp / f"seat{i}.sqlite"), rand=rng.randbytes,
                        watch=i >= seats, records_dir=tmp / f"records{i}", identity=identity(i))
        core.expect_rules = info.rules
        core.expect_table = info.id
        core.follows_log = i < seats
        cores[node] = core
        players[node] = make_bot("heuristic", seed * 10 + i, f"p{i}")
    return Pump(host, cores, players)
