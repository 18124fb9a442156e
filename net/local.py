"""An in-process stream pair: how a host's own seats reach it without the network.

A small :class:`trio.abc.Stream` over two unbounded memory channels (so that
``trio.testing``, which imports pytest, stays out of a node's start-up).
"""

from __future__ import annotations

import math

import trio

from tarock.net.transport import PeerAddress


class LocalStream(trio.abc.Stream):
    """One end of a :func:`local_pair`."""

    def __init__(self, send: trio.MemorySendChannel[bytes],
                 receive: trio.MemoryReceiveChannel[bytes]) -> None:
        self._send = send
        self._receive = receive
        self._pending = b""

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
        if not self._pending:
            try:
                self._pending = await self._receive.receive()
            except (trio.EndOfChannel, trio.BrokenResourceError):
                return b""
        size = len(self._pending) if max_bytes is None else max_bytes
        out, self._pending = self._pending[:size], self._pending[size:]
        return out

    async def aclose(self) -> None:
        self._send.close()
        self._receive.close()
        await trio.lowlevel.checkpoint()


def local_pair() -> tuple[LocalStream, LocalStream]:
    """Two connected ends: what one sends, the other receives, in order."""
    a_send, b_receive = trio.open_memory_channel[bytes](math.inf)
    b_send, a_receive = trio.open_memory_channel[bytes](math.inf)
    return LocalStream(a_send, a_receive), LocalStream(b_send, b_receive)


LOCAL = PeerAddress("127.0.0.1", 0)
"""The node itself, reached through an in-process stream (never through the network)."""
