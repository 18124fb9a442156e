"""Coverage-guided fuzzing of mental-poker dealing with atheris (libFuzzer for Python).

The targets, chosen by the input's first byte:

0. the frame decoder: the bytes fed to a ``FrameReader`` in pieces, every frame
   it yields parsed as a message;
1. a :class:`~net.mental_poker.MentalDealer` handler (``entry``, ``take``,
   ``open``) of a seat or the host at any point of an honest tarock54 deal, with
   a payload that is the msgpack the rest of the input decodes to (through the
   real frame decoder, as a peer's payload arrives), or a real payload with one
   field replaced by it;
2. ``HandPlay.receive`` of seat 2 or of the host at any point of a real tarock40 hand, with an
   entry signed, chained and headed correctly (so it reaches the handlers),
   whose body is built the same way.

The properties are those of tests/test_mp_fuzz.py: nothing escapes but the
documented errors (any other exception is a crash libFuzzer reports), and a
refused message changes nothing (an AssertionError otherwise).

    python fuzz/fuzz_mental_poker.py -atheris_runs=100000      # or: bash fuzz/run 100000

atheris is a development tool (the ``fuzz`` extra), not a dependency of the game.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

with atheris.instrument_imports(include=["net"]):
    from mp_fuzz_support import (
        SEATS,
        clone_dealer,
        clone_play,
        dealer_stages,
        feed_dealer,
        feed_entry,
        forge,
        hand_stages,
        play_at,
    )

    from tarock.net.protocol.frames import FrameError, FrameReader, decode_body
    from tarock.net.protocol.messages import MessageError, parse

DEALERS = dealer_stages()
HAND = hand_stages()
POINTS = sorted({1, 2, 5, 8, 9, 10, 12, 20, 40, 80, 120, len(HAND.envs) - 6, len(HAND.envs) - 2,
                 len(HAND.envs)})
_PLAYS = {(k, host): play_at(k, host) for k in POINTS for host in (False, True)}
"""Each stage built once; every input works on a copy."""


class Input:
    """The input read front to back: choice bytes first, then the rest as one value (so a
    seed is a few choice bytes and a msgpack body)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def int_in(self, low: int, high: int) -> int:
        if self.at >= len(self.data):
            return low
        b = self.data[self.at]
        self.at += 1
        return low + b % (high - low + 1)

    def flag(self) -> bool:
        return self.int_in(0, 1) == 1

    def remaining_bytes(self) -> int:
        return len(self.data) - self.at

    def take(self, n: int) -> bytes:
        out = self.data[self.at:self.at + n]
        self.at += len(out)
        return out


def _value(src: Input) -> Any:
    """The rest of the input as a peer's plain value: through the frame decoder, or raw text."""
    raw = src.take(src.remaining_bytes())
    try:
        return decode_body(raw)
    except FrameError:
        return raw.decode("utf-8", "replace")


def _splice(src: Input, base: Any) -> Any:
    """``base`` with the value at a path picked by the input replaced by the rest of the input
    (or, when the input says so, replaced outright)."""
    if src.int_in(0, 7) == 0:
        return _value(src)
    path: list[Any] = []
    node = base
    for _ in range(src.int_in(1, 4)):
        if isinstance(node, dict) and node:
            key = sorted(node)[src.int_in(0, len(node) - 1)]
        elif isinstance(node, list | tuple) and node:
            key = src.int_in(0, len(node) - 1)
        else:
            break
        path.append(key)
        node = node[key]
    value = _value(src)
    return _put(base, path, value)


def _put(base: Any, path: list[Any], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(base, dict):
        return {**base, head: _put(base[head], rest, value)}
    items = list(base)
    items[head] = _put(items[head], rest, value)
    return items


def _frames(src: Input) -> None:
    reader = FrameReader()
    size = src.int_in(1, 256)
    data = src.take(src.remaining_bytes())
    try:
        for at in range(0, len(data), size):
            for value in reader.feed(data[at:at + size]):
                with contextlib.suppress(MessageError):
                    parse(value)
    except FrameError:
        pass


def _dealer(src: Input) -> None:
    i = src.int_in(0, len(DEALERS.messages) - 1)
    handler, author, base = DEALERS.messages[i]
    k = i if src.flag() else src.int_in(0, len(DEALERS.states) - 1)
    dealer = clone_dealer(DEALERS.states[k][src.int_in(0, SEATS)])
    if src.int_in(0, 3) == 0:
        author = src.int_in(-2, SEATS + 2)
    feed_dealer(dealer, handler, author, _splice(src, base))


def _entry(src: Input) -> None:
    k = POINTS[src.int_in(0, len(POINTS) - 1)]
    play = clone_play(_PLAYS[k, src.flag()])
    base = HAND.envs[min(k, len(HAND.envs) - 1)] if src.flag() else \
        HAND.envs[src.int_in(0, len(HAND.envs) - 1)]
    seat = base.seat if src.flag() else [None, 0, 1, 2, 3][src.int_in(0, 4)]
    body = _splice(src, base.body)
    try:
        env = forge(play, seat, body)
    except (MessageError, ValueError, TypeError):
        return  # a body that is no message, or no canonical JSON: the frame layer refuses it
    feed_entry(play, env)


TARGETS = (_frames, _dealer, _entry)


def test_one_input(data: bytes) -> None:
    src = Input(data)
    TARGETS[src.int_in(0, len(TARGETS) - 1)](src)


def write_seeds(where: Path) -> int:
    """A starting corpus of real messages, each behind the choice bytes that lead to it:
    whole dealing payloads and entry bodies at the point they were due, and their fields
    spliced into them, and whole frames of the hand's log."""
    import msgpack

    from tarock.net.protocol.frames import encode_frame
    from tarock.net.protocol.messages import dump

    where.mkdir(parents=True, exist_ok=True)
    seeds: list[bytes] = []
    for i, (_, _, payload) in enumerate(DEALERS.messages):
        for who in range(SEATS + 1):
            seeds.append(bytes([1, i, 1, who, 1, 0]) + msgpack.packb(payload))
        for key_index, key in enumerate(sorted(payload)):
            seeds.append(bytes([1, i, 1, i % (SEATS + 1), 1, 1, 1, key_index]) + msgpack.packb(payload[key]))
    for point, k in enumerate(POINTS):
        body = HAND.envs[min(k, len(HAND.envs) - 1)].body
        for host in (0, 1):
            seeds.append(bytes([2, point, host, 1, 1, 0]) + msgpack.packb(body))
            for key_index, key in enumerate(sorted(body)):
                seeds.append(bytes([2, point, host, 1, 1, 1, 1, key_index]) + msgpack.packb(body[key]))
    for env in HAND.envs[::11]:
        seeds.append(bytes([0, 40]) + encode_frame(dump(env)))
    for n, seed in enumerate(seeds):
        (where / f"seed-{n:04d}").write_bytes(seed)
    return len(seeds)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--write-seeds":
        print(f"{write_seeds(Path(sys.argv[2]))} seed inputs written to {sys.argv[2]}")
        return
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
