"""The protocol against a real host node, over trio memory streams.

Acceptance (issues 8 and 9): one-byte and fragmented delivery, oversized and
deeply nested frames, wrong types, unknown messages, a hello that does not
prove its key, a private table without or with a wrong PIN, out-of-turn and
replayed entries, wrong commitments, version and rules mismatch; a frame that
fails closes that connection with a reason and changes nothing, a signed
entry that breaks the hand's rules voids the deal and names its author.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

import msgpack
import trio
from net_rig import Client, Rig, connect, frame, join, open_host

from tarock.net.identity import Identity, signed_bytes
from tarock.net.pake import Pake
from tarock.net.protocol.connection import Closed, Welcomed
from tarock.net.protocol.frames import encode_frame
from tarock.net.protocol.limits import PROTOCOL_MAX, Timing
from tarock.net.protocol.messages import Data, Ping, Signed, dump, parse

OTHER = Identity(b"\xd2" * 32)


def state_of(rig: Rig) -> tuple[object, ...]:
    """What a broken frame must not change: seats, phase, the hand's log, the sheet."""
    core = rig.core
    run = core.run
    log = tuple(e.sig for e in run.log) if run is not None else ()
    return (core.phase, tuple(c.info for c in core.seating.chairs), run.ctx if run else None, log,
            len(core.sheet.table.rows), core.sheet.done, frozenset(core.sheet.void))


async def test_a_hello_delivered_one_byte_at_a_time_is_welcomed(tmp_path: Path) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            client.conn.hello(client.hello(), trio.current_time(), identity=client.core.identity)
            await client.send(client.conn.data_to_send(), chunk=1)
            await client.pump(lambda c: bool(c.events))
            assert isinstance(client.events[0], Welcomed)
            assert client.events[0].welcome.seat == 3
            assert client.conn.peer_node == rig.node.me  # the host proved its key
            nursery.cancel_scope.cancel()


async def test_a_whole_table_with_fragmented_delivery(tmp_path: Path) -> None:
    """The scripted seat sends everything in 3-byte pieces and plays a table to its end."""
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            original = client.flush

            async def slow_flush() -> None:
                data = client.conn.data_to_send()
                for i in range(0, len(data), 3):
                    await client.stream.send_all(data[i:i + 3])
            client.flush = slow_flush  # type: ignore[method-assign]
            await join(client)
            await client.pump(lambda c: c.core.over, timeout=80)
            client.flush = original  # type: ignore[method-assign]
            assert client.core.sheet is not None and client.core.sheet.table.over
            mine = sorted((tmp_path / "tester-records").glob("*.json"))
            # The host's node counts a hand when the table's log commits it: after every check.
            with trio.fail_after(10):
                while len(list((tmp_path / "host-records").glob("*.json"))) < len(mine):
                    await trio.sleep(0.05)
            hosts = sorted((tmp_path / "host-records").glob("*.json"))
            assert mine and [p.read_bytes() for p in mine] == [p.read_bytes() for p in hosts]
            nursery.cancel_scope.cancel()


async def test_version_mismatch_is_refused_with_a_reason(tmp_path: Path) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            await join(client, proto_min=PROTOCOL_MAX + 1, proto_max=PROTOCOL_MAX + 2)
            refused = client.refused()
            assert refused is not None and refused.refuse.code == "version"
            assert f"protocol {PROTOCOL_MAX}..{PROTOCOL_MAX}" in refused.refuse.message
            assert all(c.info is None or c.info.node != client.core.me for c in rig.core.seating.chairs)
            nursery.cancel_scope.cancel()


async def test_rules_mismatch_is_refused_with_a_reason_the_user_can_read(tmp_path: Path) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            await join(client, rules="0" * 64)
            refused = client.refused()
            assert refused is not None and refused.refuse.code == "rules"
            assert "tarock54" in refused.refuse.message and "plugins" in refused.refuse.message
            assert rig.core.free == 1
            nursery.cancel_scope.cancel()


async def test_a_node_that_does_not_hold_its_key_is_refused(tmp_path: Path) -> None:
    """A hello naming another node's id (without its key) gets no seat: the id is not its
    key's, or the signature over the challenge fails."""
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            await join(client, node=OTHER.node)  # its own key, another's id
            refused = client.refused()
            assert refused is not None and refused.refuse.code == "identity", client.events
            client2 = await connect(rig, nursery, name="thief")
            client2.conn.hello(client2.hello(key=OTHER.key, node=OTHER.node), trio.current_time(),
                               identity=client2.core.identity)  # another's key, signed with its own
            await client2.flush()
            await client2.pump(lambda c: bool(c.events))
            refused = client2.refused()
            assert refused is not None and refused.refuse.code == "auth", client2.events
            assert rig.core.free == 1
            nursery.cancel_scope.cancel()


async def test_a_private_table_needs_its_pin_and_shows_nothing_without_it(tmp_path: Path) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path, pin="4711")
            table = rig.core.info.id
            nobody = await connect(rig, nursery, name="nopin")
            await join(nobody)
            refused = nobody.refused()
            assert refused is not None and refused.refuse.code == "pin"
            wrong = await connect(rig, nursery, identity=OTHER, name="wrongpin")
            await join(wrong, pake=Pake(table, "1234", "client"))
            closed = wrong.closed()
            assert closed is not None and closed.code == "pin" and not wrong.bodies, wrong.events
            assert rig.core.free == 1
            right = await connect(rig, nursery)
            await join(right, pake=Pake(table, "4711", "client"))
            assert isinstance(right.events[0], Welcomed)
            await right.pump(lambda c: c.core.over, timeout=50)
            assert right.core.sheet is not None and right.core.sheet.table.over
            nursery.cancel_scope.cancel()


async def _closes(rig: Rig, client: Client, data: bytes, reason: str) -> None:
    before = state_of(rig)
    await client.send(data)
    await client.pump(lambda c: c.closed() is not None)
    closed = client.closed()
    assert closed is not None and closed.code == "protocol" and closed.by_peer, closed
    assert reason in closed.reason, closed.reason
    assert state_of(rig) == before


def _my_turn(client: Client) -> bool:
    run = client.core.run
    return run is not None and run.play.to_move == client.core.table.seat and run.play.ask() is not None


def _signed(client: Client, body: dict[str, object], **fields: object) -> Signed:
    core = client.core
    run = core.run
    env: dict[str, object] = {"t": "signed", "table": core.table_id, "epoch": core.epoch,
                              "deal": run.ctx.deal if run else 0, "author": core.me, "seat": core.table.seat,
                              "seq": 1, "prev": "", "head": "", "to": "", "body": body, "sig": "0" * 128}
    env.update(fields)
    env["sig"] = core.identity.sign(signed_bytes(env))
    out = parse(env, "body")
    assert isinstance(out, Signed)
    return out


async def test_bad_frames_close_the_connection_and_change_nothing(tmp_path: Path) -> None:
    deep: object = 0
    for _ in range(40):
        deep = [deep]
    cases: list[tuple[Callable[[Client], bytes], str]] = [
        (lambda c: struct.pack(">I", 10_000_000), "announced"),                 # oversized
        (lambda c: encode_frame({"t": "ping", "n": deep}), "deeper"),           # deeply nested
        (lambda c: encode_frame({"t": "ping", "n": "one"}), "integer"),         # wrong type
        (lambda c: encode_frame({"t": "surprise"}), "unknown message type"),    # unknown message
        (lambda c: frame(Data(_next(c), 0, {"t": "launch"})), "bad body"),      # unknown body
        (lambda c: frame(Data(_next(c), 0, {"t": "signed"})), "bad body"),      # a body lacking fields
        (lambda c: frame(Data(_next(c), 0, dump(_signed(c, {"t": "fly"})))), "bad message"),
        (lambda c: struct.pack(">I", 3) + b"\xc1\xc1\xc1", "msgpack"),        # garbage
        (lambda c: frame(Data(_next(c) + 4, 0, {"t": "x"})), "gap"),            # sequence gap
        (lambda c: frame(Data(_next(c), 10 ** 6, {"t": "x"})), "never sent"),   # ack of nothing
    ]
    for i, (make, reason) in enumerate(cases):
        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                rig = await open_host(nursery, tmp_path / str(i), bots=4 - 1)
                client = await connect(rig, nursery)
                client.bot = None  # the hand waits for this seat: nothing else can move it on
                await join(client)
                await client.pump(_my_turn)
                client.auto = False
                await _closes(rig, client, make(client), reason)
                nursery.cancel_scope.cancel()


def _next(client: Client) -> int:
    channel = client.conn.channel
    assert channel is not None
    return channel.sent + 1


async def _voided(rig: Rig, client: Client) -> dict[str, object]:
    await client.pump(lambda c: any(b.body.get("t") == "void" for b in c.bodies), timeout=20)
    void = next(b.body for b in client.bodies if b.body.get("t") == "void")
    assert void["deal"] in rig.core.sheet.void and void["deal"] not in rig.core.sheet.counted
    return void


async def test_an_out_of_turn_action_voids_the_deal_and_names_the_seat(tmp_path: Path) -> None:
    """A seat that acts while another is to move breaks the hand's rules (only its own
    engine could have refused it): the deal is void and the seat named."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            client.bot = None
            await join(client)
            await client.pump(lambda c: c.core.run is not None and c.core.run.play.ready
                              and c.core.run.play.to_move not in (None, c.core.table.seat))
            run = client.core.run
            assert run is not None
            play = run.play
            body = {"t": "act", "index": len(play.acts),
                    "action": {"type": "pass", "seat": client.core.table.seat}, "share": None, "facts": {}}
            seq, prev = play.book.mine
            client.send_signed(_signed(client, body, seq=seq + 1, prev=prev, head=play.head))
            await client.flush()
            void = await _voided(rig, client)
            assert void["culprit"] == client.core.me and "acted" in str(void["reason"]), void
            nursery.cancel_scope.cancel()


async def test_duplicated_frames_are_delivered_once_and_a_replayed_entry_names_its_sender(
        tmp_path: Path) -> None:
    """Every frame sent twice: the session delivers each once and the table ends.  Then, at
    another table, the seat sends one of its signed entries again: a replay, named."""
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path / "a")
            client = await connect(rig, nursery)
            original = client.flush

            async def doubled() -> None:
                data = client.conn.data_to_send()
                if data:
                    await client.stream.send_all(data + data)  # every frame twice
            await join(client)
            client.flush = doubled  # type: ignore[method-assign]
            await client.pump(lambda c: c.core.over, timeout=80)
            client.flush = original  # type: ignore[method-assign]
            assert client.core.sheet is not None and client.core.sheet.table.over
            assert not client.core.sheet.void
            nursery.cancel_scope.cancel()
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path / "b")
            client = await connect(rig, nursery)
            sent: list[Signed] = []

            def keep(body: Signed) -> Signed:
                if body.body.get("t") == "step":
                    sent.append(body)
                return body
            client.intercept = keep
            await join(client)
            await client.pump(lambda c: len(sent) >= 2, timeout=50)
            client.send_signed(sent[0])  # an old entry, signed and valid once
            await client.flush()
            void = await _voided(rig, client)
            assert void["culprit"] == client.core.me and "replayed" in str(void["reason"]), void
            nursery.cancel_scope.cancel()


async def test_a_wrong_commitment_voids_the_deal_and_names_the_seat(tmp_path: Path) -> None:
    """commit-reveal: the seat reveals a seed that does not match its commitment."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path, dealing="commit-reveal/1")
            client = await connect(rig, nursery)

            def lie(body: Signed) -> Signed | None:
                inner = body.body
                if inner.get("t") == "dealing" and inner["payload"].get("t") == "reveal":
                    fields = {**dump(body), "body": {**inner, "payload": {"t": "reveal", "seed": "ee" * 32}}}
                    fields["sig"] = client.core.identity.sign(signed_bytes(fields))
                    out = parse(fields, "body")
                    assert isinstance(out, Signed)
                    return out
                return body
            client.intercept = lie
            await join(client)
            void = await _voided(rig, client)
            assert void["culprit"] == client.core.me
            assert "does not match its commitment" in str(void["reason"])
            nursery.cancel_scope.cancel()


async def test_a_silent_peer_is_dropped_after_the_heartbeat_timeout(tmp_path: Path) -> None:
    timing = Timing(heartbeat=0.2, dead_after=0.8)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path, timing=timing)
            client = await connect(rig, nursery)
            await join(client)
            client.auto = False
            start = trio.current_time()
            pings = 0
            with trio.fail_after(30):
                while client.closed() is None:
                    data = await client.stream.receive_some(65536)
                    if not data:
                        break
                    client.conn.receive_data(bytes(data), trio.current_time())
                    for event in client.conn.events():
                        client.events.append(event)
                    pings += data.count(b"ping")
            elapsed = trio.current_time() - start
            closed = client.closed()
            assert isinstance(closed, Closed) and closed.code == "timeout", closed
            assert 0.8 <= elapsed < 5.0 and pings >= 2
            with trio.fail_after(5):
                while rig.core.seating.chairs[3].connected:
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()


async def test_a_watcher_reads_only_what_every_seat_sees(tmp_path: Path) -> None:
    """The watcher follows the whole log: every card it can read at any step is one every
    seat's observation shows by then, and its observations hold no hand and no choices."""
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path, bots=4)
            client = await connect(rig, nursery, identity=OTHER, name="watcher")
            client.core.table.watch = True
            seen: list[tuple[int, set[int]]] = []
            original = client.core.hand.after

            def spy() -> list:  # type: ignore[type-arg]
                run = client.core.run
                if run is not None and run.play.virtual is not None and not run.play.over:
                    v = run.play.virtual
                    public = set.intersection(*(v.visible(s) for s in range(4)))
                    seen.append((len(run.play.acts), set(v.known) - public))
                    obs = run.play.observation()
                    assert obs is not None and not obs.hand and not obs.legal
                return original()
            client.core.hand.after = spy  # type: ignore[method-assign]
            await join(client, role="watch")
            await client.pump(lambda c: c.core.over, timeout=80)
            assert seen and all(not extra for _, extra in seen), [s for s in seen if s[1]][:3]
            nursery.cancel_scope.cancel()


def test_ping_frames_are_small() -> None:
    from net_ids import make_hello

    assert len(frame(Ping(1))) < 16
    assert msgpack.unpackb(frame(make_hello(role="info"))[4:])["t"] == "hello"
