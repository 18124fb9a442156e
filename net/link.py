"""One connection driven by trio: the sans-IO :class:`Connection` over a stream.

The link only moves bytes and time: a reader feeds what arrives into the
connection and hands its events on, a writer sends what the connection has
to send, and every wait has a deadline (the heartbeat, the peer's silence,
the handshake).
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Literal, TypeVar

import trio

from tarock.net.admission import FAULTS, drop
from tarock.net.local import LocalStream, Posted
from tarock.net.protocol.connection import (
    Authenticated,
    BodyReceived,
    Closed,
    Connection,
    Event,
    HelloReceived,
)
from tarock.net.protocol.limits import Timing
from tarock.net.protocol.messages import Hello

log = logging.getLogger("tarock.net")

READ_SIZE = 65536

_E = TypeVar("_E")
"""What a core returns for a body (its effects), handed to the driver that carries them out."""


class Link:
    """A stream and the protocol state of one connection."""

    def __init__(self, stream: trio.abc.Stream, side: Literal["client", "server"], timing: Timing,
                 label: str = "", peer: str = "", stop_reason: Callable[[], str] | None = None) -> None:
        self.stream = stream
        self.stop_reason = stop_reason
        """Why this node stops, when it does for its own fault (its store failed in another task,
        so this link only sees a cancellation): said in the bye instead of "this node stopped"."""
        self.timing = timing
        self.conn = Connection(side, trio.current_time(), timing)
        self.label = label
        self.peer = peer or label
        """Who is at the other end, for the log (its address, later with its node id)."""
        self._idle = trio.lowlevel.ParkingLot()
        """Where the writer waits while the connection has nothing to send."""
        self.push: Callable[[], object] = self._idle.unpark_all
        """Wakes the writer: called by whoever gave :attr:`conn` something to send (trio's own
        call, so nothing of ours runs between the send and the writer)."""
        self._closing = False
        self._scope: trio.CancelScope | None = None
        self.closed: Closed | None = None
        self.pending: list[Event] = []
        self._sending = False
        """The writer is in the middle of sending (a bye after that could cut a frame)."""
        self.on_authenticated: Callable[[Hello], None] | None = None
        """(Server) called when the client has proved its key (the node's gate moves it on)."""
        self.local = stream if isinstance(stream, LocalStream) else None
        """The in-process stream to this node itself, whose ends hand bodies over as they are."""
        self.posted: list[object] = []
        """Bodies the other end posted, not yet handed on (:meth:`run`)."""

    async def flush(self) -> None:
        """Send what is pending now (bounded by the peer-silence timeout)."""
        data = self.conn.data_to_send()
        if data:
            with trio.move_on_after(self.timing.dead_after):
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    await self.stream.send_all(data)

    async def _writer(self) -> None:
        # One cancel scope for the writer's life, its deadline set only while a send is under
        # way (a scope per send cost more than the send on a busy line).  What is pending is
        # looked at before every wait, so a wake while sending is never lost.
        with trio.CancelScope() as scope:
            while True:
                data = self.conn.data_to_send()
                if data:
                    self._sending = True
                    scope.deadline = trio.current_time() + self.timing.dead_after
                    try:
                        await self.stream.send_all(data)
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                        self._broken(Closed("eof", f"the connection broke: {exc}", True))
                        return
                    scope.deadline = math.inf
                    self._sending = False
                elif self._closing and self._scope is not None:
                    self._scope.cancel()
                    return
                else:
                    await self._idle.park()
        if scope.cancelled_caught:
            self._broken(Closed("timeout", "the peer did not take what was sent in time", False))

    def _broken(self, closed: Closed) -> None:
        """Writing failed: the connection is over (the reader stops with the scope)."""
        if self.closed is None:
            self.closed = closed
        self.conn.receive_data(b"", trio.current_time())
        if self._scope is not None:
            self._scope.cancel()

    async def _read(self, deadline: float) -> bool:
        """Read what arrives until ``deadline`` (bytes to the connection, a body posted
        in-process kept for :meth:`run`); False once the connection is closed."""
        with trio.move_on_at(deadline):
            try:
                data = await (self.stream.receive_some(READ_SIZE) if self.local is None
                              else self.local.receive_any(READ_SIZE))
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                self.conn.receive_data(b"", trio.current_time())
                log.debug("%s: read failed: %r", self.label, exc)
                return False
            if isinstance(data, Posted):
                self.posted.append(data.body)
            else:
                self.conn.receive_data(bytes(data), trio.current_time())
        self.conn.tick(trio.current_time())
        return not self.conn.closed

    async def handshake(self, timeout: float) -> Event | None:
        """(Either side) read until the first event (a hello, welcome, refusal,
        info, or the end); None if nothing came within ``timeout``."""
        deadline = trio.current_time() + timeout
        while trio.current_time() < deadline:
            alive = await self._read(min(deadline, self.conn.next_deadline()))
            await self.flush()  # an answer within the handshake (the client's auth)
            events = self.conn.events()
            if events:
                for event in events:
                    if isinstance(event, Authenticated) and self.on_authenticated is not None:
                        self.on_authenticated(event.hello)
                first, rest = events[0], events[1:]
                self.pending = rest
                await self.flush()
                return first
            if not alive:
                break
        await self.flush()
        return None

    async def run(self, on_event: Callable[[Event], Awaitable[None]] | None = None,
                  receive: Callable[[object, float], _E] | None = None,
                  apply: Callable[[_E], object] | None = None) -> Closed:
        """Read, tick and write until the connection ends; returns how it ended.

        Every body (as the connection gives it: parsed where the session was opened with a
        parser, see :meth:`Connection.accept`), and every body the other end posted
        in-process, goes to ``receive`` (the core, with the time), and what it returns to
        ``apply`` (the driver); ``on_event`` takes the other events."""
        conn = self.conn
        try:
            async with trio.open_nursery() as nursery:
                self._scope = nursery.cancel_scope
                nursery.start_soon(self._writer)
                events, self.pending = self.pending, []
                while True:
                    for event in events:
                        if isinstance(event, Closed):
                            self.closed = event
                        elif isinstance(event, BodyReceived) and receive is not None and apply is not None:
                            apply(receive(event.body, trio.current_time()))
                        elif on_event is not None:
                            await on_event(event)
                    self.push()
                    if conn.closed:
                        break
                    while self.posted and receive is not None and apply is not None and not conn.closed:
                        apply(receive(self.posted.pop(0), trio.current_time()))
                    await self._read(conn.next_deadline())  # a closed connection ends the loop above
                    events = conn.events()
                # The writer sends what is left (a bye with the reason) and then ends the run.
                self._closing = True
                self.push()
        except trio.TooSlowError:
            self.closed = Closed("timeout", "the peer did not take what was sent in time", by_peer=False)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            self.closed = Closed("eof", f"the connection broke: {exc}", by_peer=True)
        except BaseException as exc:
            # This node stops while the connection is open: its own failure (a store that
            # cannot be written) or a shutdown (cancelled, interrupted).  Say bye, so the peer
            # knows at once instead of after the silence timeout, then let it go on up.
            with trio.CancelScope(shield=True):
                await self._last_word(exc)
            raise
        await self.flush()
        with trio.move_on_after(1):
            await trio.aclose_forcefully(self.stream)
        return self.closed or Closed("closed", "closed by this node", by_peer=False)

    async def _last_word(self, exc: BaseException) -> None:
        """(Shielded) a bye ``leaving`` with why this node stops, sent within a moment, and the
        stream closed."""
        if not self.conn.closed and not self._sending:
            why = _why(exc)
            if why == _STOPPED and self.stop_reason is not None:
                why = self.stop_reason() or why
            self.close("leaving", why)
            with trio.move_on_after(min(1.0, self.timing.dead_after)):
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError,
                                         trio.BusyResourceError, OSError):
                    data = self.conn.data_to_send()
                    if data:
                        await self.stream.send_all(data)
        with trio.move_on_after(1):
            await trio.aclose_forcefully(self.stream)

    def close(self, code: str, reason: str) -> None:
        """Say bye and end :meth:`run` (its reader sees the closed state)."""
        self.conn.close(code, reason)
        if self.closed is None:
            self.closed = Closed(code, reason, by_peer=False)
        self._closing = True
        self.push()


def _why(exc: BaseException) -> str:
    """The first error behind ``exc`` that is not a cancellation, in one line."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _why(inner)
            if found != _STOPPED:
                return found
        return _STOPPED
    if isinstance(exc, trio.Cancelled | KeyboardInterrupt | SystemExit | GeneratorExit):
        return _STOPPED
    return (str(exc).splitlines() or [type(exc).__name__])[0]


_STOPPED = "this node stopped"


async def read_hello(link: Link, timeout: float) -> Hello | None:
    """(Server) the peer's hello, or None (logged) when it sends anything else or nothing."""
    event = await link.handshake(timeout)
    if isinstance(event, HelloReceived):
        return event.hello
    if isinstance(event, Closed):
        if event.code in FAULTS and not event.by_peer:
            drop(link.peer, event.code, f"{event.reason} (during the handshake)")
        else:
            log.info("%s: closed during the handshake: %s (%s)", link.label, event.reason, event.code)
    elif event is None:
        drop(link.peer, "timeout", f"no hello within {timeout:g} s")
    return None
