"""The worked transcript of docs/protocol-transcript.md: one whole hand, generated from the real cores.

Four nodes with fixed keys (node ``i``: the Ed25519 seed of 32 bytes ``i + 1``) sit at a
``tarock54`` table with ``commit-reveal/1`` dealing; node A hosts and plays seat 0.  The
host and seat cores (:class:`net.host.HostCore`, :class:`net.seat.SeatCore`) exchange their
signed bodies through the real encoding; a fixed chooser decides for every seat; the
outcome goes through the host agreement's real Raft core.  Nothing here is random, so
the text is the same on every run; tests/test_protocol_transcript.py regenerates it and
compares it with the document, and decodes every vector with the real codec.

``python -m tarock.tools.protocol_transcript`` prints the document, ``--write`` writes it.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tarock.core.actions import Action
from tarock.core.observation import Observation
from tarock.core.plugins import load_plugins
from tarock.net.agreement import wire as raft_wire
from tarock.net.agreement.log import MemoryStorage
from tarock.net.agreement.messages import Append, Envelope, HardState
from tarock.net.agreement.outcome import Outcome
from tarock.net.agreement.raft import Raft
from tarock.net.dealing import RandomBytes
from tarock.net.effects import Decide, Effect, Propose, Send, ToHost
from tarock.net.game import Game
from tarock.net.host import Admit, HostCore
from tarock.net.identity import Identity
from tarock.net.protocol.channel import Channel
from tarock.net.protocol.frames import decode_body, encode_body, encode_frame
from tarock.net.protocol.handshake import auth_bytes, challenge_bytes
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN
from tarock.net.protocol.messages import (
    Auth,
    Challenge,
    Hello,
    Message,
    Signed,
    TableInfo,
    Welcome,
    dump,
    inner_of,
)
from tarock.net.seat import SeatCore
from tarock.net.store import Store

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol-transcript.md"
TABLE = "00112233445566778899aabbccddeeff"
VARIANT = "tarock54"
DEALING = "commit-reveal/1"
SEATS = 4
ROUNDS = 2
NAMES = "ABCD"
SESSION = "5e55" * 8
"""The session id the host gives D's connection (a host draws it at random)."""


def identity(i: int) -> Identity:
    """The fixed key of node ``i``."""
    return Identity(bytes([i + 1]) * 32)


def choose(obs: Observation) -> Action:
    """The transcript's player: call if it can, one Kontra, else pass, else the first legal action."""
    legal = list(obs.legal)
    wanted = (("call",), ("kontra",) if obs.kontra_level == 0 else (), ("pass",))
    for kinds in wanted:
        for action in legal:
            if action.type in kinds:
                return action
    return legal[0]


@dataclass(frozen=True, slots=True)
class Shot:
    """One message as it went over the wire: who sent it to whom, and its msgpack bytes."""

    sender: str
    receivers: tuple[str, ...]
    label: str
    raw: bytes
    frame: bool = False
    """``raw`` is a whole frame (length prefix and body); else a body (msgpack only)."""
    relayed: tuple[str, ...] = ()
    """The nodes the host relayed this log entry to (the same bytes)."""
    index: int | None = None
    """The action index of an ``act`` or ``step``."""


def _fixed(i: int) -> RandomBytes:
    """Node ``i``'s "random" bytes: always ``i + 1`` (its commit-reveal seed is 32 of them)."""
    def draw(n: int) -> bytes:
        return bytes([i + 1]) * n
    return draw


class _Table:
    """The host core and four seat cores, pumping bodies until nothing moves."""

    def __init__(self, folder: Path) -> None:
        catalogue = load_plugins()
        game = Game.make(catalogue, VARIANT, {}, SEATS, ROUNDS, DEALING)
        self.info = TableInfo(TABLE, "Transcript", VARIANT, game.options, game.hash, ROUNDS, SEATS, DEALING,
                              False)
        self.nodes = [identity(i).node for i in range(SEATS)]
        self.host = HostCore(game, self.info, self.nodes[0], Store(folder / "host.sqlite"), now=0.0,
                             identity=identity(0))
        self.seats: dict[str, SeatCore] = {}
        for i, node in enumerate(self.nodes):
            core = SeatCore(node, f"player-{NAMES[i]}", catalogue, Store(folder / f"seat{i}.sqlite"),
                            rand=_fixed(i), identity=identity(i))
            core.expect_rules, core.expect_table, core.follows_log = game.hash, TABLE, True
            self.seats[node] = core
        self.shots: list[Shot] = []
        self.recording = False
        self.proposed: list[Outcome] = []
        self.hold = ""
        """A node whose player does not decide (the hand waits for it)."""

    def name(self, node: str) -> str:
        return NAMES[self.nodes.index(node)]

    def hello(self, i: int) -> Hello:
        seat = self.seats[self.nodes[i]]
        return Hello(PROTOCOL_MIN, PROTOCOL_MAX, seat.me, seat.name, "seat", seat.table_id, seat.rules, "", 0,
                     seat.epoch, seat.deal, seat.done, 0, (), seat.identity.key, f"{i + 1:02x}" * 32, "")

    def join(self, i: int, session: str = "") -> None:
        node = self.nodes[i]
        hello = self.hello(i)
        verdict = self.host.admit(hello)
        assert isinstance(verdict, Admit)
        welcome = Welcome(PROTOCOL_MAX, self.host.me, "player-A", TABLE, self.info.rules, self.host.epoch,
                          self.host.me, session, 0, False, verdict.seat, self.host.sheet.done)
        self.pump([(node, e) for e in self.seats[node].welcomed(welcome, self.host.identity.key)])
        self.pump([(None, e) for e in self.host.connected(node, hello, 0.0)])

    def record(self, sender: str, receiver: str, env: Signed) -> None:
        if not self.recording:
            return
        raw = encode_body(dump(env))
        for k in range(len(self.shots) - 1, -1, -1):
            old = self.shots[k]
            if old.raw != raw:
                continue
            if old.sender == sender and receiver in old.receivers:
                break  # the same message again
            if old.sender == sender:
                self.shots[k] = replace(old, receivers=(*old.receivers, receiver))
            else:  # the host relays a seat's log entry
                self.shots[k] = replace(old, relayed=(*old.relayed, receiver))
            return
        inner = inner_of(env)
        index = dump(inner)["index"] if inner.tag in ("act", "step") else None
        self.shots.append(Shot(sender, (receiver,), _label(inner, env), raw, index=index))

    def pump(self, queue: list[tuple[str | None, Effect]]) -> None:
        while queue:
            origin, effect = queue.pop(0)
            if isinstance(effect, Send):
                self.record("host", self.name(effect.to), effect.body)
                queue += [(effect.to, e) for e in self.seats[effect.to].receive(effect.body)]
            elif isinstance(effect, ToHost):
                assert origin is not None
                self.record(self.name(origin), "host", effect.body)
                queue += [(None, e) for e in self.host.receive(origin, effect.body, 0.0)]
            elif isinstance(effect, Decide):
                assert origin is not None
                if origin == self.hold:
                    continue
                action = choose(effect.obs)
                queue += [(origin, e) for e in self.seats[origin].decided(effect.deal, effect.index, action)]
            elif isinstance(effect, Propose):
                self.proposed.append(effect.outcome)


def _label(inner: Message, env: Signed) -> str:
    private = env.to and inner.tag in ("dealing", "step")
    where = "log entry" if env.seq else ("private" if private else "table")
    author = "host" if env.seat is None else f"seat {env.seat}"
    detail = ""
    if inner.tag == "dealing":
        payload = dump(inner)["payload"]
        detail = f" `{payload.get('t', '?')}`"
    elif inner.tag in ("act", "step"):
        detail = f" {dump(inner)['index']}"
    return f"`{inner.tag}`{detail} ({where}, {author})"


def _handshake(table: _Table, i: int) -> list[Shot]:
    """The frames of node ``i``'s connection to the host: hello, challenge, auth, welcome."""
    host = identity(0)
    hello = table.hello(i)
    nonce = "a0" * 32
    challenge = Challenge(host.node, host.key, nonce, host.sign(challenge_bytes(hello, host.key, nonce, "")),
                          "", "")
    auth = Auth(identity(i).sign(auth_bytes(hello, challenge)), "")
    seat = table.host.admit(hello)
    assert isinstance(seat, Admit)
    welcome = Welcome(PROTOCOL_MAX, host.node, "player-A", TABLE, table.info.rules, 1, host.node, SESSION, 0,
                      False, seat.seat, 0)
    me = NAMES[i]
    return [Shot(me, ("host",), "`hello`", encode_frame(dump(hello)), frame=True),
            Shot("host", (me,), "`challenge`", encode_frame(dump(challenge)), frame=True),
            Shot(me, ("host",), "`auth`", encode_frame(dump(auth)), frame=True),
            Shot("host", (me,), "`welcome`", encode_frame(dump(welcome)), frame=True)]


def _framed(shots: list[Shot], node: str, count: int) -> list[Shot]:
    """The first ``count`` bodies between the host and ``node`` as whole ``data`` frames."""
    out: list[Shot] = []
    to_node, to_host = Channel(SESSION), Channel(SESSION)
    for shot in shots:
        if len(out) == count:
            break
        if node in shot.receivers:
            channel, other = to_node, to_host
        elif shot.sender == node:
            channel, other = to_host, to_node
        else:
            continue
        frame = channel.wrap(_plain(shot.raw))
        other.receive(frame)
        out.append(Shot(shot.sender, (node,) if shot.sender == "host" else ("host",),
                        f"`data` {frame.seq} carrying {shot.label}", encode_frame(dump(frame)), frame=True))
    return out


def _plain(raw: bytes) -> Any:
    return decode_body(raw)


def _agreement(table: _Table) -> list[Shot]:
    """The outcome of the deal through the host agreement: the leader's append and one reply."""
    stores = {n: MemoryStorage() for n in table.nodes}
    rafts = {n: Raft(n, table.nodes, hard=HardState(1, table.nodes[0], 0), storage=stores[n],
                     rand=random.Random(i), tie_breaker=table.nodes[0]) for i, n in enumerate(table.nodes)}
    rafts[table.nodes[0]].lead()
    shots: list[Shot] = []

    def deliver(keep: bool) -> None:
        moving = True
        while moving:
            moving = False
            for node, raft in rafts.items():
                ready = raft.ready()
                stores[node].save(ready)
                for env in ready.messages:
                    moving = True
                    if keep and _worth(env, shots):
                        raw = encode_body(raft_wire.encode(env.msg))
                        sender, receiver = table.name(env.frm), table.name(env.to)
                        shots.append(Shot(sender, (receiver,), f"`{env.msg.tag}`", raw))
                    rafts[env.to].step(env)

    deliver(keep=False)
    for outcome in table.proposed:
        rafts[table.nodes[0]].propose(outcome.data())
        deliver(keep=True)
        rafts[table.nodes[0]].tick()
        deliver(keep=True)
    return shots


def _worth(env: Envelope, shots: list[Shot]) -> bool:
    """Keep the first append with the outcome, the first reply to it and the first append that
    commits it (to B): the others go alike to C and D."""
    if env.to != identity(1).node and env.frm != identity(1).node:
        return False
    tags = [s.label for s in shots]
    if isinstance(env.msg, Append):
        return (bool(env.msg.entries) and "`raft-append`" not in tags) or (
            not env.msg.entries and env.msg.commit > 1 and tags.count("`raft-append`") == 1)
    return env.msg.tag == "raft-append-reply" and "`raft-append-reply`" not in tags


@dataclass(frozen=True, slots=True)
class Transcript:
    """The parts of the document, in order."""

    handshake: list[Shot]
    framed: list[Shot]
    bodies: list[Shot]
    agreement: list[Shot]
    after: list[Shot]
    back: list[Shot]
    actions: list[dict[str, Any]]
    """The record's actions (the hand as the engine saw it)."""


def transcript() -> Transcript:
    """D's handshake, its first data frames, every body of the deal, the agreement's part,
    what the host sends once the outcome is committed, and a seat that comes back."""
    with tempfile.TemporaryDirectory() as folder:
        table = _Table(Path(folder))
        for i in range(SEATS - 1):
            table.join(i)
        handshake = _handshake(table, SEATS - 1)
        table.recording = True
        table.join(SEATS - 1, SESSION)
        bodies = table.shots
        framed = _framed(bodies, NAMES[SEATS - 1], 3)
        agreement = _agreement(table)
        (outcome,) = table.proposed
        assert outcome.record is not None
        table.shots = []
        table.pump([(None, e) for e in table.host.committed(outcome, 0.0)])
        for node, seat in table.seats.items():
            table.pump([(node, e) for e in seat.committed(outcome)])
        actions = list(outcome.record["actions"])
    return Transcript(handshake, framed, bodies, agreement, table.shots[:1], comeback(), actions)


def comeback() -> list[Shot]:
    """The same deal at a new table: D's connection drops while the hand waits for D's first
    action, and D connects again (a new session); what the host sends it then."""
    with tempfile.TemporaryDirectory() as folder:
        table = _Table(Path(folder))
        table.hold = table.nodes[SEATS - 1]
        for i in range(SEATS):
            table.join(i)
        table.pump([(None, e) for e in table.host.disconnected(table.hold, 0.0)])
        table.recording = True
        table.join(SEATS - 1, SESSION)
        return table.shots


def _block(number: int, shot: Shot, full: bool) -> Iterator[str]:
    raw = shot.raw[4:] if shot.frame else shot.raw
    plain = _plain(raw)
    relayed = f", relayed by the host to {', '.join(shot.relayed)}" if shot.relayed else ""
    yield f"{number}. {shot.sender} → {', '.join(shot.receivers)}{relayed}: {shot.label}"
    yield ""
    yield "```"
    if shot.frame:
        yield f"frame {shot.raw[:4].hex()} {raw.hex()}"
    elif full:
        yield f"hex {raw.hex()}"
    yield "json " + json.dumps(plain, ensure_ascii=False, separators=(",", ":"))
    yield "```"
    yield ""


def _middle(actions: list[dict[str, Any]]) -> range:
    """The action indexes of tricks 2 to the last but one: their bodies are shown as JSON only."""
    plays = [i for i, a in enumerate(actions) if a.get("type") == "play"]
    if len(plays) < 3 * SEATS:
        return range(0)
    return range(plays[SEATS], plays[-SEATS] + 1)


def _but_address(shot: Shot) -> Any:
    """A signed message without its receiver and signature (what a host signs for each receiver)."""
    plain = _plain(shot.raw[4:] if shot.frame else shot.raw)
    if isinstance(plain, dict) and plain.get("t") == "signed":
        return {k: v for k, v in plain.items() if k not in ("to", "sig")}
    return shot.raw


def render() -> str:
    """The generated part of docs/protocol-transcript.md."""
    parts = transcript()
    middle = _middle(parts.actions)
    lines: list[str] = []
    number = 0
    seen: list[Any] = []
    for title, shots in (("D connects", parts.handshake),
                         ("The first data frames of D's session", parts.framed),
                         ("The hand, body by body", parts.bodies),
                         ("The outcome in the host agreement", parts.agreement),
                         ("What follows: the next deal", parts.after),
                         ("A seat that comes back", parts.back)):
        lines += [f"### {title}", ""]
        for shot in shots:
            number += 1
            same = _but_address(shot)
            full = same not in seen and (shot.index is None or shot.index not in middle)
            lines += list(_block(number, shot, full))
            seen.append(same)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = render()
    if args == ["--write"]:
        doc = DOC.read_text(encoding="utf-8")
        head, _, rest = doc.partition(BEGIN)
        _, _, tail = rest.partition(END)
        DOC.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}", encoding="utf-8")
        return 0
    print(text)
    return 0


BEGIN = ("<!-- transcript: generated by `python -m tarock.tools.protocol_transcript --write`; "
         "do not edit by hand -->")
END = "<!-- end transcript -->"


if __name__ == "__main__":
    raise SystemExit(main())
