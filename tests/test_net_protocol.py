"""The protocol against a real host node, over trio memory streams.

Acceptance (issue 8): one-byte and fragmented delivery, oversized and deeply
nested frames, wrong types, unknown messages, out-of-turn actions, replayed
and duplicated messages, wrong commitments, version and rules mismatch; a
frame that fails closes that connection with a reason and changes nothing.
"""

from __future__ import annotations

import copy
import struct
from collections.abc import Callable
from pathlib import Path

import msgpack
import trio
from net_rig import Client, Rig, connect, frame, join, open_host

from net.dealing import Commit, dump_payload
from net.protocol.connection import Welcomed
from net.protocol.frames import encode_frame
from net.protocol.limits import Timing
from net.protocol.messages import Act, Body, Data, Dealing, Hello, Ping, Refused, View, dump

NODE2 = "d2" * 16


def state_of(rig: Rig) -> tuple[object, ...]:
    """What a broken frame must not change: seats, phase, the hand's actions, the sheet."""
    core = rig.core
    run = core.run
    actions = tuple(run.hand.state.actions) if run is not None and run.hand is not None else ()
    return (core.phase, tuple(c.info for c in core.chairs), run.ctx if run else None, actions,
            len(core.sheet.table.rows), core.sheet.done)


async def test_a_hello_delivered_one_byte_at_a_time_is_welcomed(tmp_path: Path) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            await client.send(frame(client.hello()), chunk=1)
            await client.pump(lambda c: bool(c.events))
            assert isinstance(client.events[0], Welcomed)
            assert client.events[0].welcome.seat == 3
            nursery.cancel_scope.cancel()


async def test_a_whole_table_with_fragmented_delivery(tmp_path: Path) -> None:
    """The scripted seat sends everything in 3-byte pieces and plays a table to its end."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            await client.send(frame(client.hello()), chunk=3)
            original = client.flush

            async def slow_flush() -> None:
                data = client.conn.data_to_send()
                for i in range(0, len(data), 3):
                    await client.stream.send_all(data[i:i + 3])
            client.flush = slow_flush  # type: ignore[method-assign]
            await client.pump(lambda c: c.core.over, timeout=50)
            client.flush = original  # type: ignore[method-assign]
            assert client.core.sheet is not None and client.core.sheet.table.over
            mine = sorted((tmp_path / "tester-records").glob("*.json"))
            hosts = sorted((tmp_path / "host-records").glob("*.json"))
            assert mine and [p.read_bytes() for p in mine] == [p.read_bytes() for p in hosts]
            nursery.cancel_scope.cancel()


async def test_version_mismatch_is_refused_with_a_reason(tmp_path: Path) -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            await join(client, proto_min=2, proto_max=3)
            refused = client.refused()
            assert refused is not None and refused.refuse.code == "version"
            assert "protocol 1..1" in refused.refuse.message
            assert all(c.info is None or c.info.node != client.core.me for c in rig.core.chairs)
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
    return run is not None and run.obs is not None and run.obs.to_move == 3 and bool(run.obs.legal)


async def test_bad_frames_close_the_connection_and_change_nothing(tmp_path: Path) -> None:
    deep: object = 0
    for _ in range(40):
        deep = [deep]
    act = dump(Act(1, 1, 0, {"type": "pass", "seat": 3}))
    cases: list[tuple[Callable[[Client], bytes], str]] = [
        (lambda c: struct.pack(">I", 10_000_000), "announced"),                 # oversized
        (lambda c: encode_frame({"t": "ping", "n": deep}), "deeper"),           # deeply nested
        (lambda c: encode_frame({"t": "ping", "n": "one"}), "integer"),         # wrong type
        (lambda c: encode_frame({"t": "surprise"}), "unknown message type"),    # unknown message
        (lambda c: frame(Data(_next(c), 0, {"t": "launch"})), "bad body"),      # unknown body
        (lambda c: frame(Data(_next(c), 0, {"t": "act"})), "bad body"),         # a body lacking fields
        (lambda c: frame(Data(_next(c), 0, dump(Act(1, 1, 0, {"type": "fly", "seat": 3})))), "bad action"),
        (lambda c: struct.pack(">I", 3) + b"\xc1\xc1\xc1", "msgpack"),        # garbage
        (lambda c: frame(Data(_next(c) + 4, 0, act)), "gap"),                   # sequence gap
        (lambda c: frame(Data(_next(c), 10 ** 6, act)), "never sent"),          # ack of nothing
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


async def _playing(nursery: trio.Nursery, tmp: Path) -> tuple[Rig, Client]:
    rig = await open_host(nursery, tmp)
    client = await connect(rig, nursery)
    client.bot = None  # the test acts for the client itself
    await join(client)
    await client.pump(lambda c: c.core.run is not None and c.core.run.obs is not None)
    return rig, client


async def test_an_out_of_turn_action_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """Two scripted seats that never act by themselves: while the hand waits for one,
    the other acts: refused (not its turn); acting for another seat and a card it does
    not hold are refused too; the hand is as it was."""
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path, bots=2)
            a = await connect(rig, nursery)
            b = await connect(rig, nursery, node=NODE2, name="other")
            a.bot = b.bot = None
            await join(a)
            await join(b)
            while not (_turn_of(a) or _turn_of(b)):
                with trio.move_on_after(0.2):
                    await a.pump(lambda c: _turn_of(c) or _turn_of(b))
                with trio.move_on_after(0.2):
                    await b.pump(lambda c: _turn_of(c) or _turn_of(a))
            waiting, other = (a, b) if _turn_of(a) else (b, a)
            run = other.core.run
            assert run is not None and run.obs is not None and other.core.seat is not None
            before = state_of(rig)
            assert rig.core.run is not None and rig.core.run.hand is not None
            index = len(rig.core.run.hand.state.actions)
            seat = other.core.seat
            attempts = [
                ({"type": "pass", "seat": seat}, "not-your-turn"),
                ({"type": "pass", "seat": waiting.core.seat}, "not-your-seat"),
            ]
            for n, (action, code) in enumerate(attempts, start=1):
                other.conn.send_body(dump(Act(1, run.ctx.deal, index, action)), trio.current_time())
                await other.flush()
                await other.pump(lambda c, n=n: sum(isinstance(x, Refused) for x in c.bodies) >= n)
                refused = [x for x in other.bodies if isinstance(x, Refused)][-1]
                assert refused.code == code, refused
                assert state_of(rig) == before
            # The seat to move plays something it may not: the engine's reason, nothing changes.
            wrun = waiting.core.run
            assert wrun is not None and wrun.obs is not None
            legal = set(map(str, wrun.obs.legal))
            bad = next(x for x in ({"type": "play", "seat": waiting.core.seat, "card": c} for c in
                                   ("I", "XXI", "Sküs", "cK", "hK")) if str(x) not in legal)
            waiting.conn.send_body(dump(Act(1, wrun.ctx.deal, index, bad)), trio.current_time())
            await waiting.flush()
            await waiting.pump(lambda c: any(isinstance(x, Refused) for x in c.bodies))
            assert state_of(rig) == before
            nursery.cancel_scope.cancel()


def _turn_of(client: Client) -> bool:
    run = client.core.run
    return (run is not None and run.obs is not None and run.obs.to_move == client.core.seat
            and bool(run.obs.legal))


async def test_replayed_and_duplicated_messages_are_dropped(tmp_path: Path) -> None:
    """A data frame sent twice is delivered once; an act replayed with an old index is refused."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            sent: list[bytes] = []
            await join(client)

            def keep(body: Body) -> Body:
                return body
            client.intercept = keep
            original = client.flush

            async def doubled() -> None:
                data = client.conn.data_to_send()
                if data:
                    sent.append(data)
                    await client.stream.send_all(data + data)  # every frame twice
            client.flush = doubled  # type: ignore[method-assign]
            await client.pump(lambda c: c.core.over, timeout=50)
            client.flush = original  # type: ignore[method-assign]
            assert client.core.sheet is not None and client.core.sheet.table.over
            assert client.closed() is None or client.closed().code == "done"  # type: ignore[union-attr]
            nursery.cancel_scope.cancel()


async def test_an_act_replayed_later_is_refused_as_stale(tmp_path: Path) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            acts: list[Act] = []

            def keep(body: Body) -> Body:
                if isinstance(body, Act):
                    acts.append(body)
                return body
            client.intercept = keep
            await join(client)
            await client.pump(lambda c: len(acts) >= 2, timeout=50)
            before = state_of(rig)
            client.conn.send_body(dump(acts[0]), trio.current_time())  # the first act, again
            await client.flush()
            await client.pump(lambda c: any(isinstance(b, Refused) and b.code == "stale" for b in c.bodies))
            after = state_of(rig)
            assert after[3][:len(before[3])] == before[3]  # nothing taken back or applied twice
            nursery.cancel_scope.cancel()


async def test_a_wrong_commitment_voids_the_deal_and_names_the_seat(tmp_path: Path) -> None:
    """The seat reveals a seed that does not match its commitment: void, culprit that seat."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)

            def lie(body: Body) -> Body | None:
                if isinstance(body, Dealing) and body.payload.get("t") == "reveal":
                    return Dealing(body.epoch, body.deal, {"t": "reveal", "seed": "ee" * 32})
                return body
            client.intercept = lie
            await join(client)
            await client.pump(lambda c: any(b.tag == "void" for b in c.bodies))
            void = next(b for b in client.bodies if b.tag == "void")
            assert void.culprit == client.core.me  # type: ignore[attr-defined]
            assert "does not match its commitment" in void.reason  # type: ignore[attr-defined]
            assert rig.core.sheet.void == {1} and not rig.core.sheet.finished
            nursery.cancel_scope.cancel()


async def test_a_second_different_commitment_is_a_fault(tmp_path: Path) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            commits: list[Dealing] = []

            def twice(body: Body) -> Body | None:
                if isinstance(body, Dealing) and body.payload.get("t") == "commit" and not commits:
                    commits.append(body)
                    other = dump_payload(Commit("ab" * 32))
                    client.conn.send_body(dump(Dealing(body.epoch, body.deal, other)), trio.current_time())
                return body
            client.intercept = twice
            await join(client)
            await client.pump(lambda c: any(b.tag == "void" for b in c.bodies))
            void = next(b for b in client.bodies if b.tag == "void")
            assert void.culprit == client.core.me  # type: ignore[attr-defined]
            nursery.cancel_scope.cancel()


async def test_a_host_that_changes_a_commitment_is_caught_by_the_seat(tmp_path: Path) -> None:
    """What the seat receives is tampered with: the host's list holds another commitment for it."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path)
            client = await connect(rig, nursery)
            original = client.core.receive

            def tampered(body: Body) -> list:  # type: ignore[type-arg]
                if isinstance(body, Dealing) and body.payload.get("t") == "commits":
                    payload = copy.deepcopy(body.payload)
                    payload["commits"][3] = "cd" * 32
                    body = Dealing(body.epoch, body.deal, payload)
                return original(body)
            client.core.receive = tampered  # type: ignore[method-assign]
            await join(client)
            await client.pump(lambda c: any(b.tag == "void" for b in c.bodies))
            void = next(b for b in client.bodies if b.tag == "void")
            assert void.culprit == rig.core.me  # type: ignore[attr-defined]
            assert "changed this seat's commitment" in void.reason  # type: ignore[attr-defined]
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
            assert closed is not None and closed.code == "timeout", closed
            assert 0.8 <= elapsed < 5.0 and pings >= 2
            with trio.fail_after(5):
                while rig.core.chairs[3].connected:
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()


async def test_a_watcher_sees_no_hand(tmp_path: Path) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path, bots=4)
            client = await connect(rig, nursery, node=NODE2, name="watcher")
            client.core.watch = True
            await join(client, role="watch")
            await client.pump(lambda c: c.core.over, timeout=50)
            views = [b for b in client.bodies if isinstance(b, View)]
            assert views
            before_end = [v for v in views if v.obs.get("result") is None]
            assert before_end and all(not v.obs.get("hand") and not v.obs.get("legal") for v in before_end)
            assert all(v.obs.get("seat") == -1 for v in views)
            nursery.cancel_scope.cancel()


def test_ping_frames_are_small() -> None:
    assert len(frame(Ping(1))) < 16
    hello = Hello(1, 1, "ab" * 16, "x", "info", "", "", "", 0, 0, 0, 0, 0, ())
    assert msgpack.unpackb(frame(hello)[4:])["t"] == "hello"
