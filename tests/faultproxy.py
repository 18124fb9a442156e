"""A TCP proxy for tests that delays, stalls and cuts connections on command (no tc netem here).

In a trio test::

    proxy = FaultProxy(PeerAddress("127.0.0.1", server_port))
    address = await nursery.start(proxy.run)   # clients connect here
    proxy.set_delay(0.2)   # every byte forwarded 0.2 s after it arrived (order kept)
    proxy.stall()          # hold everything, as a network that drops every packet
    proxy.resume()         # deliver what was held and flow again
    proxy.cut()            # reset every open connection (RST to both sides)
    proxy.refuse(True)     # reset new connections at once

As a process (for instance inside a lab host), controlled by lines on standard input
(``delay SECONDS``, ``stall``, ``resume``, ``cut``, ``refuse on|off``, ``stats``, ``quit``),
answering each with one JSON line::

    python tests/faultproxy.py --listen 10.1.2.3:7000 --target 10.1.2.4:7654
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import socket
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarock.net.transport import PeerAddress

__all__ = ["FaultProxy", "ProxyStats"]

CHUNK = 65536
QUEUE = 256  # chunks in flight per direction before the reader waits (backpressure)


@dataclass
class ProxyStats:
    accepted: int = 0
    refused: int = 0
    cut: int = 0
    upstream_failed: int = 0
    bytes_up: int = 0  # client -> target
    bytes_down: int = 0  # target -> client
    open: int = 0


def _reset_on_close(stream: trio.SocketStream) -> None:
    """Make closing send RST instead of FIN, as a dropped link or a crashed host would."""
    with contextlib.suppress(OSError):
        stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


@dataclass
class _Link:
    ident: int
    client: trio.SocketStream
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    upstream: trio.SocketStream | None = None


class FaultProxy:
    """Forwards each accepted connection to ``target``, with faults switched on at will."""

    def __init__(
        self,
        target: PeerAddress,
        *,
        listen: PeerAddress | None = None,
        connect_timeout: float = 5.0,
    ) -> None:
        self.target = target
        self.listen = listen or PeerAddress("127.0.0.1", 0)
        self.connect_timeout = connect_timeout
        self.delay = 0.0
        self.stats = ProxyStats()
        self._refusing = False
        self._flowing = trio.Event()
        self._flowing.set()
        self._links: dict[int, _Link] = {}
        self._ids = itertools.count(1)

    # -- commands (call from the trio thread) ----------------------------------------

    def set_delay(self, seconds: float) -> None:
        """Forward every byte read from now on ``seconds`` after it arrived (0: no delay)."""
        if seconds < 0:
            raise ValueError("a delay cannot be negative")
        self.delay = seconds

    def stall(self) -> None:
        """Stop delivering in both directions; what arrives is held (TCP would retransmit it)."""
        if self._flowing.is_set():
            self._flowing = trio.Event()

    def resume(self) -> None:
        """Deliver what was held, and flow again."""
        self._flowing.set()

    @property
    def stalled(self) -> bool:
        return not self._flowing.is_set()

    def cut(self) -> int:
        """Reset every open connection on both sides; returns how many were cut."""
        links = list(self._links.values())
        for link in links:
            _reset_on_close(link.client)
            if link.upstream is not None:
                _reset_on_close(link.upstream)
            link.scope.cancel()
        self.stats.cut += len(links)
        return len(links)

    def refuse(self, on: bool) -> None:
        """While on, new connections are reset as soon as they are accepted."""
        self._refusing = on

    # -- forwarding -------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[PeerAddress] = trio.TASK_STATUS_IGNORED) -> None:
        """Listen and forward until cancelled; ``started()`` gets the listening address."""
        listeners = await trio.open_tcp_listeners(self.listen.port, host=self.listen.host)
        name = listeners[0].socket.getsockname()
        task_status.started(PeerAddress(str(name[0]), int(name[1])))
        async with trio.open_nursery() as nursery:
            for listener in listeners:
                nursery.start_soon(self._accept_loop, listener, nursery)

    async def _accept_loop(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        async with listener:
            while True:
                client = await listener.accept()
                if self._refusing:
                    self.stats.refused += 1
                    _reset_on_close(client)
                    await trio.aclose_forcefully(client)
                    continue
                self.stats.accepted += 1
                link = _Link(next(self._ids), client)
                nursery.start_soon(self._serve, link)

    async def _serve(self, link: _Link) -> None:
        self._links[link.ident] = link
        self.stats.open += 1
        try:
            with link.scope:
                try:
                    with trio.fail_after(self.connect_timeout):
                        link.upstream = await trio.open_tcp_stream(self.target.host, self.target.port)
                except (OSError, trio.TooSlowError):
                    self.stats.upstream_failed += 1
                    _reset_on_close(link.client)
                    return
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._pipe, link.client, link.upstream, "bytes_up", nursery)
                    nursery.start_soon(self._pipe, link.upstream, link.client, "bytes_down", nursery)
        finally:
            self.stats.open -= 1
            del self._links[link.ident]
            await trio.aclose_forcefully(link.client)
            if link.upstream is not None:
                await trio.aclose_forcefully(link.upstream)

    async def _pipe(
        self, source: trio.SocketStream, sink: trio.SocketStream, counter: str, nursery: trio.Nursery
    ) -> None:
        send, receive = trio.open_memory_channel[tuple[float, bytes]](QUEUE)

        async def writer() -> None:
            async for due, chunk in receive:
                await trio.sleep_until(due)
                await self._flowing.wait()
                setattr(self.stats, counter, getattr(self.stats, counter) + len(chunk))
                try:
                    await sink.send_all(chunk)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    nursery.cancel_scope.cancel()
                    return
            # The source ended (FIN): pass the end on once everything before it is out.
            try:
                await sink.send_eof()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                nursery.cancel_scope.cancel()

        nursery.start_soon(writer)
        async with send:
            while True:
                try:
                    chunk = await source.receive_some(CHUNK)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    nursery.cancel_scope.cancel()  # a reset on one side resets the other
                    _reset_on_close(sink)
                    return
                if not chunk:
                    return
                await send.send((trio.current_time() + self.delay, chunk))


def _answer(value: dict[str, Any]) -> None:
    print(json.dumps(value), flush=True)


async def _control(proxy: FaultProxy, cancel: trio.CancelScope) -> None:
    """Read commands from standard input and answer each with a JSON line."""
    async with trio.lowlevel.FdStream(os.dup(sys.stdin.fileno())) as stdin:
        buffer = b""
        while True:
            while b"\n" not in buffer:
                chunk = await stdin.receive_some(4096)
                if not chunk:
                    cancel.cancel()
                    return
                buffer += chunk
            raw, buffer = buffer.split(b"\n", 1)
            if not _obey(proxy, raw.decode("utf-8", "replace")):
                cancel.cancel()
                return


def _obey(proxy: FaultProxy, line: str) -> bool:
    """Carry out one command line and answer it with a JSON line; False after "quit"."""
    words = line.split()
    if not words:
        return True
    command, args = words[0], words[1:]
    try:
        if command == "delay" and len(args) == 1:
            proxy.set_delay(float(args[0]))
        elif command == "stall" and not args:
            proxy.stall()
        elif command == "resume" and not args:
            proxy.resume()
        elif command == "cut" and not args:
            _answer({"ok": "cut", "connections": proxy.cut()})
            return True
        elif command == "refuse" and args in (["on"], ["off"]):
            proxy.refuse(args[0] == "on")
        elif command == "quit" and not args:
            _answer({"ok": "quit"})
            return False
        elif not (command == "stats" and not args):
            _answer({"error": f"unknown command {line.strip()!r}"})
            return True
    except ValueError as exc:
        _answer({"error": str(exc)})
        return True
    _answer({"ok": command, "stats": vars(proxy.stats), "delay": proxy.delay, "stalled": proxy.stalled})
    return True


async def _main(args: argparse.Namespace) -> None:
    listen = PeerAddress.parse(args.listen, allow_port_zero=True)
    proxy = FaultProxy(PeerAddress.parse(args.target), listen=listen)
    async with trio.open_nursery() as nursery:
        address = await nursery.start(proxy.run)
        _answer({"event": "listening", "address": str(address), "target": str(proxy.target)})
        nursery.start_soon(_control, proxy, nursery.cancel_scope)


def main() -> None:
    parser = argparse.ArgumentParser(description="TCP proxy with faults on command (tests only)")
    parser.add_argument("--listen", required=True, help="HOST:PORT to listen on (port 0: any)")
    parser.add_argument("--target", required=True, help="HOST:PORT to forward to")
    args = parser.parse_args()
    trio.run(_main, args)


if __name__ == "__main__":
    main()
