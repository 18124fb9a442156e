"""Transport: "a reliable, ordered stream to peer X", and TCP on the LAN behind it.

The game protocol sees only :class:`Transport` and :class:`trio.abc.Stream`, so another
transport (for instance one that crosses the internet) can be added without touching it.
"""

from __future__ import annotations

import errno
import ipaddress
import logging
import os
import re
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

import trio

from tarock.net.store import StoreError

__all__ = [
    "ConnectError",
    "ConnectTimeout",
    "PeerAddress",
    "TcpTransport",
    "Transport",
]

log = logging.getLogger("tarock.net.transport")

_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)\Z")

Handler = Callable[[trio.abc.Stream], Awaitable[None]]

EXHAUSTED = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
"""accept(2) failing for want of descriptors or memory: wait a moment and accept again."""
PAUSE = 0.1
"""How long the listener waits after such a failure."""


def _check_host(host: str) -> str:
    """Return why ``host`` is not an IP literal or a DNS name, or "" when it is one."""
    if not host:
        return "the host is empty"
    try:
        ipaddress.ip_address(host)
        return ""
    except ValueError:
        pass
    if host.count(".") == 3 and all(part.isdigit() for part in host.split(".")):
        return f"{host!r} is not a valid IPv4 address"
    name = host[:-1] if host.endswith(".") else host
    if len(name) > 253:
        return "the host name is longer than 253 characters"
    for label in name.split("."):
        if not _HOST_LABEL.match(label):
            return f"{host!r} is neither an IP address nor a host name (letters, digits and '-' between dots)"
    return ""


@dataclass(frozen=True)
class PeerAddress:
    """Where a peer listens: an IP literal (v4 or v6) or a host name, and a TCP port."""

    host: str
    port: int

    def __post_init__(self) -> None:
        problem = _check_host(self.host)
        if problem:
            raise ValueError(f"bad peer address: {problem}")
        if isinstance(self.port, bool) or not isinstance(self.port, int) or not 0 <= self.port <= 65535:
            raise ValueError(f"bad peer address: port {self.port!r} is not in 0..65535")

    @property
    def is_ipv6(self) -> bool:
        return ":" in self.host

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if self.is_ipv6 else f"{self.host}:{self.port}"

    @classmethod
    def parse(cls, text: str, *, allow_port_zero: bool = False) -> PeerAddress:
        """Parse ``HOST:PORT`` or ``[IPv6]:PORT`` as typed by a user (port 1..65535).

        ``allow_port_zero`` admits port 0 ("any free port") for an address to listen on.

        Raises ValueError with a message that says what is wrong.
        """
        raw = text.strip()
        if not raw:
            raise ValueError("empty address: expected HOST:PORT, for example 192.168.1.20:7654")
        if raw.startswith("["):
            close = raw.find("]")
            if close < 0:
                raise ValueError(f"{text!r}: '[' without ']' (IPv6 is written [ADDRESS]:PORT)")
            host, rest = raw[1:close], raw[close + 1 :]
            try:
                if not isinstance(ipaddress.ip_address(host), ipaddress.IPv6Address):
                    raise ValueError
            except ValueError:
                raise ValueError(f"{text!r}: {host!r} inside [] is not an IPv6 address") from None
            if not rest.startswith(":"):
                raise ValueError(f"{text!r}: expected ':PORT' after ']'")
            port_text = rest[1:]
        else:
            if ":" not in raw:
                raise ValueError(f"{text!r}: no port (expected HOST:PORT, for example {raw}:7654)")
            host, port_text = raw.rsplit(":", 1)
            if ":" in host:
                raise ValueError(f"{text!r}: an IPv6 address needs brackets, as in [{host}]:{port_text}")
            problem = _check_host(host)
            if problem:
                raise ValueError(f"{text!r}: {problem}")
        if not port_text:
            raise ValueError(f"{text!r}: the port is missing after ':'")
        if not port_text.isascii() or not port_text.isdigit():
            raise ValueError(f"{text!r}: the port {port_text!r} is not a number")
        port = int(port_text) if len(port_text) <= 5 else 65536
        lowest = 0 if allow_port_zero else 1
        if not lowest <= port <= 65535:
            raise ValueError(f"{text!r}: the port {port} is not in {lowest}..65535")
        return cls(host, port)


class ConnectError(OSError):
    """A connection to a peer could not be made; the message names the peer and the reason."""


class ConnectTimeout(ConnectError):
    """The peer did not accept the connection within the timeout."""


class Transport(Protocol):
    """A reliable, ordered byte stream to a peer, and a way to accept them."""

    async def connect(self, address: PeerAddress, *, timeout: float) -> trio.abc.Stream:
        """Open a stream to ``address`` or raise ConnectError (ConnectTimeout after ``timeout`` s)."""
        ...

    async def serve(
        self,
        handler: Handler,
        *,
        task_status: trio.TaskStatus[PeerAddress] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Accept streams until cancelled, each handed to ``handler`` in its own task.

        Calls ``task_status.started(address)`` with the address actually bound once ready.
        The stream is closed when the handler returns.
        """
        ...


def _tune(sock: trio.socket.SocketType, keepalive_idle: float | None) -> None:
    """TCP_NODELAY (moves are small and latency matters) and, if asked, TCP keepalive."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if keepalive_idle is None:
        return
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    idle = max(1, int(keepalive_idle))
    for option, value in (("TCP_KEEPIDLE", idle), ("TCP_KEEPINTVL", max(1, idle // 3)), ("TCP_KEEPCNT", 3)):
        if hasattr(socket, option):  # Linux and recent macOS; elsewhere the OS defaults apply
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)


def _store_failed(exc: BaseException) -> bool:
    """``exc`` is (or holds) a :class:`StoreError`: the node's own store failed."""
    if isinstance(exc, BaseExceptionGroup):
        return any(_store_failed(inner) for inner in exc.exceptions)
    return isinstance(exc, StoreError)


def _root_os_error(exc: OSError) -> OSError:
    """The first OSError behind trio's "all attempts to connect ... failed", or ``exc`` itself."""
    cause = exc.__cause__
    if isinstance(cause, BaseExceptionGroup):
        for inner in cause.exceptions:
            if isinstance(inner, OSError):
                return inner
    if isinstance(cause, OSError):
        return cause
    return exc


class TcpTransport:
    """TCP on the LAN.

    ``bind`` and ``port`` say where :meth:`serve` listens (port 0: the OS picks one, and
    ``started()`` reports it). ``keepalive_idle`` turns on TCP keepalive after that many
    idle seconds (None: off); it only helps the OS notice a dead peer, the game protocol's
    heartbeats remain the authority on liveness.
    """

    def __init__(self, bind: str = "0.0.0.0", port: int = 0, *, keepalive_idle: float | None = 10.0) -> None:
        PeerAddress(bind, port)  # validates both, with the same messages
        self.bind = bind
        self.port = port
        self.keepalive_idle = keepalive_idle
        self.on_exhausted: Callable[[], None] | None = None
        """Called when accepting fails for want of descriptors (the node frees some)."""
        self.exhausted = 0
        """How often accepting failed so."""
        self._said = -60.0

    async def connect(self, address: PeerAddress, *, timeout: float) -> trio.SocketStream:
        if timeout <= 0:
            raise ValueError(f"connect timeout must be positive, not {timeout!r}")
        try:
            with trio.fail_after(timeout):
                stream = await trio.open_tcp_stream(address.host, address.port)
        except trio.TooSlowError:
            raise ConnectTimeout(f"could not connect to {address}: no answer within {timeout:g} s") from None
        except OSError as exc:
            cause = _root_os_error(exc)
            reason = os.strerror(cause.errno) if cause.errno else str(cause)
            error = ConnectError(f"could not connect to {address}: {reason}")
            error.errno = cause.errno
            raise error from exc
        _tune(stream.socket, self.keepalive_idle)
        return stream

    async def serve(
        self,
        handler: Handler,
        *,
        task_status: trio.TaskStatus[PeerAddress] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        listeners = await trio.open_tcp_listeners(self.port, host=self.bind)
        sockname = listeners[0].socket.getsockname()
        bound = PeerAddress(str(sockname[0]), int(sockname[1]))

        async def run_one(stream: trio.SocketStream) -> None:
            peer = "?"
            try:
                name = stream.socket.getpeername()
                peer = str(PeerAddress(str(name[0]), int(name[1])))
                _tune(stream.socket, self.keepalive_idle)
            except OSError as exc:  # the peer went away between accept and here
                log.info("connection from %s closed before it was handled: %s", peer, exc)
                await trio.aclose_forcefully(stream)
                return
            try:
                await handler(stream)
            except Exception as exc:
                if _store_failed(exc):
                    raise  # this node cannot keep its state: it stops (not one connection's bug)
                # A handler must deal with what peers send; reaching here is a bug in it.
                # One connection's bug must not stop the node from accepting others.
                log.exception("connection handler failed for the connection from %s", peer)
            finally:
                await trio.aclose_forcefully(stream)

        log.info("listening on %s", bound)
        task_status.started(bound)
        async with trio.open_nursery() as nursery:
            for listener in listeners:
                nursery.start_soon(self._accept, listener, nursery, run_one)

    async def _accept(self, listener: trio.SocketListener, nursery: trio.Nursery,
                      run_one: Callable[[trio.SocketStream], Awaitable[None]]) -> None:
        """Accept connections until cancelled.  Out of descriptors (EMFILE, ENFILE) or memory,
        the node frees what it can, says so (once a minute) and tries again after :data:`PAUSE`
        (trio's own loop would log a traceback each time)."""
        async with listener:
            while True:
                try:
                    stream = await listener.accept()
                except OSError as exc:
                    if exc.errno not in EXHAUSTED:
                        raise
                    self.exhausted += 1
                    if self.on_exhausted is not None:
                        self.on_exhausted()
                    now = trio.current_time()
                    if now - self._said >= 60.0:
                        self._said = now
                        log.warning("cannot accept connections for a moment: %s (the node goes on and "
                                    "accepts again in %g s)", os.strerror(exc.errno or 0), PAUSE)
                    await trio.sleep(PAUSE)
                    continue
                nursery.start_soon(run_one, stream)
