"""Frames and messages: delivery in pieces, hard limits, wrong types, unknown messages, fuzzing.

Every bad input is a FrameError or MessageError with a reason; nothing else escapes.
"""

from __future__ import annotations

import struct

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from net_ids import NODE, make_hello

from tarock.net.protocol.frames import FrameError, FrameReader, decode_body, encode_frame
from tarock.net.protocol.limits import MAX_ARRAY, MAX_DEPTH, MAX_FRAME, MAX_MAP, MAX_STR
from tarock.net.protocol.messages import (
    Ack,
    Act,
    Data,
    MessageError,
    Ping,
    Seated,
    SeatInfo,
    TableInfo,
    dump,
    parse,
)

HELLO = make_hello()


def frames_of(*messages: object) -> bytes:
    return b"".join(encode_frame(dump(m)) for m in messages)  # type: ignore[arg-type]


def test_one_byte_at_a_time() -> None:
    data = frames_of(HELLO, Ping(1), Ack(3), Data(1, 0, {"t": "x"}))
    reader = FrameReader()
    got: list[object] = []
    for i in range(len(data)):
        got += reader.feed(data[i:i + 1])
    assert [parse(raw) for raw in got] == [HELLO, Ping(1), Ack(3), Data(1, 0, {"t": "x"})]
    assert reader.buffered == 0


@given(st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=60))
def test_fragmented_anyhow(cuts: list[int]) -> None:
    data = frames_of(*(Ping(n) for n in range(20)))
    reader = FrameReader()
    got: list[object] = []
    pos = 0
    for size in cuts * (1 + len(data) // sum(cuts)):
        got += reader.feed(data[pos:pos + size])
        pos += size
    got += reader.feed(data[pos:])
    assert [parse(raw) for raw in got] == [Ping(n) for n in range(20)]


def test_an_oversized_frame_is_refused_at_its_header() -> None:
    reader = FrameReader()
    with pytest.raises(FrameError, match="announced"):
        reader.feed(struct.pack(">I", MAX_FRAME + 1))
    with pytest.raises(FrameError, match="broken"):
        reader.feed(encode_frame(dump(Ping(1))))  # a broken stream stays broken


def test_a_huge_header_inside_a_small_frame_is_refused() -> None:
    # An array header claiming a billion items in a 5-byte body.
    with pytest.raises(FrameError):
        decode_body(b"\xdd\x3b\x9a\xca\x00")
    with pytest.raises(FrameError):
        decode_body(b"\xdb\x3b\x9a\xca\x00abc")  # str of a billion bytes


@pytest.mark.parametrize("value", [
    [0] * (MAX_ARRAY + 1),
    {str(i): i for i in range(MAX_MAP + 1)},
    "x" * (MAX_STR + 1),
])
def test_msgpack_length_limits(value: object) -> None:
    with pytest.raises(FrameError):
        decode_body(msgpack.packb(value))


def test_deep_nesting_is_refused() -> None:
    deep: object = 0
    for _ in range(MAX_DEPTH):
        deep = [deep]
    assert decode_body(msgpack.packb(deep)) == deep  # the limit itself is allowed
    with pytest.raises(FrameError, match="deeper"):
        decode_body(msgpack.packb([deep]))
    # Far deeper than msgpack's own stack: refused, not a crash.
    with pytest.raises(FrameError):
        decode_body(b"\x91" * 5000 + b"\xc0")


def test_bin_ext_and_trailing_bytes_are_refused() -> None:
    with pytest.raises(FrameError):
        decode_body(msgpack.packb({"t": "ping", "n": b"\x01"}, use_bin_type=True))
    with pytest.raises(FrameError):
        decode_body(msgpack.packb(msgpack.ExtType(1, b"x")))
    with pytest.raises(FrameError, match="more than one"):
        decode_body(msgpack.packb({"t": "ping", "n": 1}) + b"\xc0")
    with pytest.raises(FrameError):
        FrameReader().feed(struct.pack(">I", 0))


def test_wrong_types_and_unknown_messages() -> None:
    good = dump(HELLO)
    for bad, why in [
        ({**good, "port": "7654"}, "integer"),
        ({**good, "node": "xyz"}, "hex"),
        ({**good, "role": "king"}, "must be one of"),
        ({**good, "proto_min": True}, "integer"),
        ({**good, "extra": 1}, "unknown fields"),
        ({k: v for k, v in good.items() if k != "name"}, "lacks the field"),
        ({**good, "name": "Resi\x1b[2J"}, "control characters"),
        ({**good, "received": -1}, "0.."),
        ({**good, "received": 2 ** 60}, "0.."),
        ({"t": "launch-missiles"}, "unknown message type"),
        ({"n": 1}, "unknown message type"),
        ([1, 2, 3], "must be a map"),
    ]:
        with pytest.raises(MessageError, match=why):
            parse(bad)


def test_bodies_and_frames_do_not_mix() -> None:
    act = dump(Act(0, {"type": "pass", "seat": 0}, None, {}))
    with pytest.raises(MessageError, match="not allowed as a frame"):
        parse(act, "frame")
    with pytest.raises(MessageError, match="inside data"):
        parse(dump(Ping(1)), "body")
    with pytest.raises(MessageError, match="inside data"):
        parse(act, "body")  # a body is a signed message; the act is inside it
    seated = Seated(TableInfo(NODE, "t", "tarock54", {}, "c" * 64, 1, 4, "mental-poker/1", False), 1, NODE, 0,
                    (SeatInfo(0, NODE, "Resi", "d" * 64, (), 1, False),))
    assert parse(dump(seated), "inner") == seated


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_bytes_never_crash_the_reader(data: bytes) -> None:
    reader = FrameReader()
    try:
        for raw in reader.feed(struct.pack(">I", len(data)) + data if data else b""):
            parse(raw)
    except (FrameError, MessageError):
        pass


plain = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2 ** 63, max_value=2 ** 64 - 1) | st.text(max_size=8)
    | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["t", *dump(HELLO)]), plain, max_size=16),
       st.sampled_from(["hello", "welcome", "data", "seated", "act", "dealing", "bye", "info", "challenge",
                        "auth", "signed", "step", "ready", "open", "fault", "log"]))
def test_random_messages_are_refused_or_valid(fields: dict[str, object], tag: str) -> None:
    raw = {**fields, "t": tag}
    body = msgpack.packb(raw)
    layer = "body" if tag == "signed" else "inner" if tag in ("seated", "act", "dealing", "step", "ready",
                                                                "open", "fault", "log") else "frame"
    try:
        msg = parse(decode_body(body), layer)
    except (FrameError, MessageError):
        return
    assert parse(dump(msg), msg.layer) == msg  # what is accepted is a valid, typed message
