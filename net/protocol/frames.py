"""Frames: a 4-byte big-endian length, then one msgpack object of that many bytes.

:class:`FrameReader` is fed bytes in pieces of any size and hands back the
plain objects decoded, each checked against the hard limits of
:mod:`net.protocol.limits`.  The first bad frame raises :class:`FrameError`;
after that the reader refuses everything (the connection must be closed).
"""

from __future__ import annotations

import math
import struct
from typing import Any

import msgpack

from tarock.net.protocol.limits import (
    LENGTH_BYTES,
    MAX_ARRAY,
    MAX_BIN,
    MAX_DEPTH,
    MAX_FRAME,
    MAX_MAP,
    MAX_STR,
)

_LENGTH = struct.Struct(">I")


class FrameError(ValueError):
    """A frame that breaks the wire format; the connection is closed with this reason."""


def _no_ext(code: int, data: bytes) -> object:
    raise FrameError(f"msgpack extension types are not allowed (got type {code})")


def depth_of(value: object, limit: int = MAX_DEPTH) -> int:
    """The nesting depth of plain data (a scalar is 0); stops counting past ``limit``.
    A ``bytes`` value anywhere counts as ``limit + 1`` (the protocol sends none)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    deepest = 0
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        elif isinstance(item, bytes):
            return limit + 1
        else:
            continue
        if level > deepest:
            deepest = level
            if deepest > limit:
                return deepest
        for child in children:
            if isinstance(child, dict | list | bytes):
                stack.append((child, level + 1))
    return deepest


def decode_body(body: bytes) -> object:
    """One frame body to plain data; FrameError if it breaks a limit or is not msgpack."""
    if len(body) > MAX_FRAME:
        raise FrameError(f"frame of {len(body)} bytes is larger than {MAX_FRAME}")
    try:
        value = msgpack.unpackb(
            body, raw=False, strict_map_key=True, use_list=True, ext_hook=_no_ext,
            max_str_len=MAX_STR, max_bin_len=MAX_BIN, max_array_len=MAX_ARRAY,
            max_map_len=MAX_MAP, max_ext_len=0)
    except FrameError:
        raise
    except msgpack.ExtraData:
        raise FrameError("a frame holds more than one msgpack object") from None
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as exc:
        raise FrameError(f"not a valid msgpack frame: {type(exc).__name__}: {exc}") from None
    if depth_of(value) > MAX_DEPTH:
        raise FrameError(f"frame nested deeper than {MAX_DEPTH} levels, or holding msgpack bin values")
    # msgpack writes a float as 0xca or 0xcb then its bytes: a body without either byte holds none.
    if (b"\xca" in body or b"\xcb" in body) and not _finite(value):
        raise FrameError("a frame may hold only finite numbers (no NaN or infinity: canonical JSON, "
                         "which every signature and hash is made of, has none)")
    return value


def _finite(value: object) -> bool:
    """Whether no float anywhere in ``value`` is NaN or infinite (``value`` is at most
    MAX_DEPTH deep: depth_of has checked)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float):
            if not math.isfinite(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def encode_body(value: object, limit: int = MAX_FRAME) -> bytes:
    """The msgpack body of one plain value; ValueError if it is larger than ``limit``."""
    body: bytes = msgpack.packb(value, use_bin_type=True)
    if len(body) > limit:
        raise ValueError(f"message of {len(body)} bytes is larger than a frame may be ({limit})")
    return body


def encode_frame(value: object) -> bytes:
    """The frame of one plain value; ValueError if it would break a limit."""
    body = encode_body(value)
    return _LENGTH.pack(len(body)) + body


class FrameReader:
    """Reassembles frames from bytes delivered in pieces of any size."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._broken: str | None = None

    @property
    def buffered(self) -> int:
        """Bytes received that are not yet a whole frame."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[object]:
        """Add received bytes; return the frames they complete, in order, decoded.

        Raises FrameError on the first bad frame, and on every call after it.
        """
        bodies = self.feed_raw(data)
        out: list[object] = []
        try:
            for body in bodies:
                out.append(decode_body(body))
        except FrameError as exc:
            self._broken = str(exc)
            self._buffer.clear()
            raise
        return out

    def feed_raw(self, data: bytes) -> list[bytes]:
        """Add received bytes; return the frame bodies they complete (not decoded: a sealed
        connection opens them first)."""
        if self._broken is not None:
            raise FrameError(f"the stream is broken ({self._broken})")
        self._buffer += data
        out: list[bytes] = []
        try:
            while len(self._buffer) >= LENGTH_BYTES:
                (size,) = _LENGTH.unpack_from(self._buffer)
                if size == 0:
                    raise FrameError("empty frame")
                if size > MAX_FRAME:
                    raise FrameError(f"frame of {size} bytes announced, the limit is {MAX_FRAME}")
                if len(self._buffer) < LENGTH_BYTES + size:
                    break
                body = bytes(self._buffer[LENGTH_BYTES:LENGTH_BYTES + size])
                del self._buffer[:LENGTH_BYTES + size]
                out.append(body)
        except FrameError as exc:
            self._broken = str(exc)
            self._buffer.clear()
            raise
        return out
