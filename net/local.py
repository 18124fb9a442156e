"""An in-process stream pair: how a host's own seats reach it without the network.

A small :class:`trio.abc.Stream` over two unbounded memory channels (so that
``trio.testing``, which imports pytest, stays out of a node's start-up).  Besides
bytes (the handshake, pings, the bye), each end can :meth:`~LocalStream.post` a
body as it is: the other end takes it in order with the bytes, without encoding,
framing or parsing it (the body is a frozen message, shared by both ends).
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass

import trio

from tarock.net.transport import PeerAddress


@dataclass(frozen=True, slots=True)
class Posted:
    """A body one end handed to the other in-process."""

    body: object


class LocalStream(trio.abc.Stream):
    """One end of a :func:`local_pair`."""

    def __init__(self, send: trio.MemorySendChannel[bytes | Posted],
                 receive: trio.MemoryReceiveChannel[bytes | Posted]) -> None:
        self._send = send
        self._receive = receive
        self._pending = b""

    def post(self, body: object) -> None:
        """Hand ``body`` to the other end (dropped if it is closed, like bytes to a dead peer)."""
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            self._send.send_nowait(Posted(body))

    async def receive_any(self, max_bytes: int | None = None) -> bytes | Posted:
        """The next bytes (``b""``: the other end closed) or body the other end sent."""
        if not self._pending:
            try:
                item = await self._receive.receive()
            except (trio.EndOfChannel, trio.BrokenResourceError):
                return b""
            if isinstance(item, Posted):
                return item
            self._pending = item
        size = len(self._pending) if max_bytes is None else max_bytes
        out, self._pending = self._pending[:size], self._pending[size:]
        return out

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        if data:
            try:
                self._send.send_nowait(bytes(data))
            except (trio.ClosedResourceError, trio.BrokenResourceError) as exc:
                raise trio.BrokenResourceError("the other end is closed") from exc
        await trio.lowlevel.checkpoint()

    async def wait_send_all_might_not_block(self) -> None:
        await trio.lowlevel.checkpoint()

    async def receive_some(self, max_bytes: int | None = None) -> bytes:
        """The next bytes (a body posted to this end is for :meth:`receive_any`'s reader only)."""
        while True:
            item = await self.receive_any(max_bytes)
            if not isinstance(item, Posted):
                return item

    async def aclose(self) -> None:
        self._send.close()
        self._receive.close()
        await trio.lowlevel.checkpoint()


def local_pair() -> tuple[LocalStream, LocalStream]:
    """Two connected ends: what one sends, the other receives, in order."""
    a_send, b_receive = trio.open_memory_channel[bytes | Posted](math.inf)
    b_send, a_receive = trio.open_memory_channel[bytes | Posted](math.inf)
    return LocalStream(a_send, a_receive), LocalStream(b_send, b_receive)


LOCAL = PeerAddress("127.0.0.1", 0)
"""The node itself, reached through an in-process stream (never through the network)."""
