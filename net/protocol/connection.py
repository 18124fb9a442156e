"""One connection, sans-IO: frames, the handshake, the session's data and heartbeats.

Feed received bytes to :meth:`Connection.receive_data` (``b""`` for the end
of the stream), take typed events from :meth:`Connection.next_event`, and
send what :meth:`Connection.data_to_send` returns.  Time only comes in as an
argument (``now``, in seconds) to :meth:`Connection.tick`, which pings when
the line was quiet, declares the connection dead when the peer was, and
acknowledges bodies received (a data frame sent carries the acknowledgement
anyway; a separate ack goes half a heartbeat after the first body it covers
arrived, or at once after :data:`ACK_EVERY` bodies).

The side that connects sends a :class:`~net.protocol.messages.Hello`; the
other side answers with :meth:`Connection.accept` or :meth:`Connection.refuse`.
After a welcome, bodies go through the attached :class:`Channel`.  The proofs
of the handshake (keys, PIN) are :mod:`net.protocol.handshake`'s, the events
:mod:`net.protocol.events`'.

Any frame that breaks the format, is not a valid message, or comes at the
wrong time ends the connection with a :class:`Closed` event whose reason says
why; nothing else is delivered after it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from enum import Enum
from typing import Any, Literal

import msgpack

from tarock.net.identity import Identity
from tarock.net.pake import SEAL_OVERHEAD, Pake, PakeError, Sealer
from tarock.net.protocol.channel import Channel, ChannelError
from tarock.net.protocol.events import (
    Authenticated,
    BodyReceived,
    Closed,
    Event,
    HelloReceived,
    HelloRefused,
    InfoReceived,
    Welcomed,
)
from tarock.net.protocol.frames import FrameError, FrameReader, decode_body, encode_body
from tarock.net.protocol.handshake import HandshakeError, Proofs, choose_version
from tarock.net.protocol.limits import LENGTH_BYTES, MAX_FRAME, Timing
from tarock.net.protocol.messages import (
    Ack,
    Auth,
    Bye,
    Challenge,
    Data,
    Hello,
    Info,
    Message,
    MessageError,
    Ping,
    Pong,
    Refuse,
    Signed,
    Welcome,
    dump,
    parse,
)

ACK_EVERY = 32
"""Bodies received unacknowledged after which an ack goes at once (far below MAX_UNACKED)."""

Bodies = Callable[[Any], object]
"""How a session's bodies are read (``messages.parse_body``; MessageError closes the connection)."""

__all__ = ["ACK_EVERY", "Authenticated", "BodyReceived", "Closed", "Connection", "Event", "HelloReceived",
           "HelloRefused", "InfoReceived", "State", "Welcomed", "choose_version"]


class State(Enum):
    HANDSHAKE = "handshake"
    AUTH = "auth"
    """(Server) the challenge is out; the client's auth is due."""
    OPEN = "open"
    CLOSED = "closed"


class Connection:
    """The protocol on one stream.  ``side``: ``client`` (connects, says hello)
    or ``server`` (accepts)."""

    def __init__(self, side: Literal["client", "server"], now: float = 0.0,
                 timing: Timing | None = None) -> None:
        self.side = side
        self.timing = timing or Timing()
        self.state = State.HANDSHAKE
        self.channel: Channel | None = None
        self.version: int | None = None
        self.peer_hello: Hello | None = None
        self._reader = FrameReader()
        self._events: deque[Event] = deque()
        self._out = bytearray()
        self._last_in = now
        self._last_out = now
        self._ping = 0
        self._ack_at: float | None = None
        """When the ack of what was received is due (None: nothing to acknowledge)."""
        self._offered: Channel | None = None
        self._bodies: Bodies | None = None
        """Reads every body received (None: handed on as plain data)."""
        self.peer_node = ""
        """The authenticated node id of the peer ("" before the handshake proves it)."""
        self.peer_key = ""
        """(Client) the server's public key, proved by its challenge."""
        self._proofs = Proofs()
        self._seal: Sealer | None = None
        self._unseal: Sealer | None = None
        self.frames_in = self.frames_out = self.bytes_in = self.bytes_out = 0

    @property
    def closed(self) -> bool:
        return self.state is State.CLOSED

    # -- sending ----------------------------------------------------------------------
    def _send(self, msg: Message, packed: bytes | None = None) -> None:
        frame = _frame_of(msg, self._seal, packed)
        self._out += frame
        self.frames_out += 1
        self.bytes_out += len(frame)

    @property
    def pending(self) -> int:
        """Bytes waiting to be sent."""
        return len(self._out)

    def data_to_send(self) -> bytes:
        """The bytes to write now (empty if none)."""
        out = bytes(self._out)
        self._out.clear()
        return out

    def hello(self, hello: Hello, now: float = 0.0, channel: Channel | None = None,
              identity: Identity | None = None, pake: Pake | None = None, expect: str | None = None,
              bodies: Bodies | None = None) -> None:
        """(Client) open the handshake, offering to resume ``channel`` (its session
        must be ``hello.session``).  A welcome that resumes it attaches it and resends
        what the peer lacks; any other welcome attaches a new channel.  ``identity``
        answers the server's challenge; ``pake`` (its message in ``hello.pake``) the
        PIN; ``expect``: the server must be this node; ``bodies`` reads the session's."""
        if self.side != "client" or self.state is not State.HANDSHAKE:
            raise RuntimeError("only a connecting side in its handshake says hello")
        self._offered, self._bodies = channel, bodies
        self._proofs = Proofs(pake, hello, identity, expect)
        self._send(hello)
        self._last_out = now

    def challenge(self, identity: Identity, pake: Pake | None, now: float = 0.0) -> None:
        """(Server) answer a ``seat``/``watch`` hello with a challenge (and, with ``pake``,
        the PIN handshake); the client's :class:`Auth` comes as :class:`Authenticated`."""
        hello = self.peer_hello
        if self.side != "server" or hello is None or self.state is not State.HANDSHAKE:
            raise RuntimeError("a challenge answers a hello received")
        self._proofs = Proofs(pake)
        try:
            challenge = self._proofs.challenge(hello, identity)
        except HandshakeError as exc:
            self._refused(exc)
            return
        self._send(challenge)
        if self._proofs.sealers is not None:
            self._seal, self._unseal = self._proofs.sealers
        self.state = State.AUTH
        self._last_out = now

    def accept(self, welcome: Welcome, channel: Channel | None, now: float = 0.0,
               bodies: Bodies | None = None) -> None:
        """(Server) accept the hello (after :class:`Authenticated` for a seat or watcher);
        ``channel`` carries the session's bodies (None for an ``invite``, which carries none),
        ``bodies`` reads them."""
        if self.side != "server" or self.peer_hello is None or self.state is not State.HANDSHAKE:
            raise RuntimeError("accept answers a hello received")
        self._send(welcome)
        self.version = welcome.proto
        self.channel, self._bodies = channel, bodies
        self.state = State.OPEN
        self._last_out = now

    def refuse(self, code: str, message: str, host: str = "", epoch: int = 0) -> None:
        """(Server) refuse the hello and close."""
        self._send(Refuse(code, message, host, epoch))
        self.state = State.CLOSED

    def info(self, info: Info) -> None:
        """(Server) answer an ``info`` hello and close."""
        self._send(info)
        self.state = State.CLOSED

    def send_body(self, body: Any, now: float = 0.0) -> None:
        """Send a body (a message, or plain data) through the session's channel: sequenced,
        encoded and framed in this one call."""
        if self.state is not State.OPEN or self.channel is None:
            raise RuntimeError("bodies flow only on an open connection with a session")
        if isinstance(body, Signed):  # its bytes are packed once, however many peers it goes to
            self._send(self.channel.wrap(body.plain), body.packed)
        else:
            self._send(self.channel.wrap(dump(body) if isinstance(body, Message) else body))
        self._ack_at = None
        self._last_out = now

    def resend(self, peer_received: int, now: float = 0.0) -> int:
        """Resend what the peer lacks after a resume; returns how many frames."""
        if self.channel is None:
            return 0
        frames = self.channel.resend(peer_received)
        for frame in frames:
            self._send(frame)
        if frames:
            self._ack_at = None
        self._last_out = now
        return len(frames)

    def flush_ack(self, now: float = 0.0) -> None:
        """Acknowledge what was received now, if the peer has not been told yet (otherwise
        :meth:`tick` does, half a heartbeat after it arrived)."""
        self._ack_at = None
        if self.state is State.OPEN and self.channel is not None and self.channel.ack_due:
            self.channel.acknowledged()
            self._send(Ack(self.channel.received))
            self._last_out = now

    def close(self, code: str, message: str) -> None:
        """Say bye and close (no further events)."""
        if self.state is not State.CLOSED:
            try:
                self._send(Bye(code, message[:200]))
            except ValueError:
                self._send(Bye("protocol", "closing"))
            self.state = State.CLOSED

    # -- time -------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """Ping a quiet line; close a connection whose peer was silent too long."""
        if self.state is State.CLOSED:
            return
        if now - self._last_in > self.timing.dead_after:
            self._fail("timeout", f"nothing received for {now - self._last_in:.1f} s", by_peer=False)
            return
        if self._ack_at is not None and now >= self._ack_at:
            self.flush_ack(now)
        if self.state is State.OPEN and now - self._last_out >= self.timing.heartbeat:
            self._ping += 1
            self._send(Ping(self._ping))
            self._last_out = now

    def next_deadline(self) -> float:
        """When :meth:`tick` must run next at the latest."""
        dead = self._last_in + self.timing.dead_after
        if self.state is not State.OPEN:
            return dead
        soonest = min(dead, self._last_out + self.timing.heartbeat)
        return soonest if self._ack_at is None else min(soonest, self._ack_at)

    # -- receiving --------------------------------------------------------------------
    def next_event(self) -> Event | None:
        return self._events.popleft() if self._events else None

    def events(self) -> list[Event]:
        out = list(self._events)
        self._events.clear()
        return out

    def _fail(self, code: str, reason: str, by_peer: bool) -> None:
        if self.state is State.CLOSED:
            return
        if code in ("protocol", "timeout"):
            self._send(Bye(code, reason[:200]))
        self.state = State.CLOSED
        self._events.append(Closed(code, reason, by_peer))

    def receive_data(self, data: bytes, now: float = 0.0) -> None:
        """Bytes from the peer (``b""``: the peer closed the stream)."""
        if self.state is State.CLOSED:
            return
        if not data:
            self.state = State.CLOSED
            self._events.append(Closed("eof", "the peer closed the connection", by_peer=True))
            return
        self._last_in = now
        self.bytes_in += len(data)
        try:
            frames = self._reader.feed_raw(data)
        except FrameError as exc:
            self._fail("protocol", f"bad frame: {exc}", by_peer=False)
            return
        for body in frames:
            self.frames_in += 1
            try:
                msg = _message_of(body, self._unseal, self.state is State.AUTH)
            except HandshakeError as exc:
                self._fail(exc.code, exc.reason, by_peer=False)
                return
            try:
                self._handle(msg, now)
            except (ChannelError, _OutOfOrder) as exc:
                self._fail("protocol", str(exc), by_peer=False)
                return
            except HandshakeError as exc:  # a server refuses the hello, a client gives up
                if self.side == "server":
                    self._refused(exc)
                else:
                    self._fail(exc.code, exc.reason, by_peer=False)
                return
            if self.closed:
                return

    def _handle(self, msg: Message, now: float) -> None:
        if isinstance(msg, Bye):
            self.state = State.CLOSED
            self._events.append(Closed(msg.code, msg.message, by_peer=True))
            return
        if self.state is State.HANDSHAKE:
            _handshake(self, msg)
            return
        if self.state is State.AUTH:
            self._auth(msg)
            return
        if isinstance(msg, Data):
            if self.channel is None:
                raise _OutOfOrder("data on a connection without a session")
            body = self.channel.receive(msg)
            if body is not None:
                if self._bodies is not None:
                    try:
                        body = self._bodies(body)
                    except MessageError as exc:
                        raise _OutOfOrder(f"bad body: {exc}") from None
                self._events.append(BodyReceived(body))
            if self.channel.received - self.channel.told >= ACK_EVERY:
                self.flush_ack(now)
            elif self._ack_at is None:
                self._ack_at = now + self.timing.heartbeat / 2
        elif isinstance(msg, Ack):
            if self.channel is None:
                raise _OutOfOrder("ack on a connection without a session")
            self.channel.on_ack(msg.ack)
        elif isinstance(msg, Ping):
            self._send(Pong(msg.n))
            self._last_out = now
        elif isinstance(msg, Pong):
            pass
        else:
            raise _OutOfOrder(f"{msg.tag!r} after the handshake")

    def _refused(self, exc: HandshakeError) -> None:
        """(Server) refuse a hello whose proofs failed, and close."""
        self.refuse(exc.code, exc.told)
        self._events.append(Closed(exc.code, exc.reason, by_peer=False))

    def _auth(self, msg: Message) -> None:
        hello = self.peer_hello
        assert hello is not None
        if not isinstance(msg, Auth):
            raise _OutOfOrder(f"expected auth, got {msg.tag!r}")
        self._proofs.check_auth(hello, msg)
        self.peer_node = hello.node
        self.state = State.HANDSHAKE  # accept or refuse next
        self._events.append(Authenticated(hello))

def _handshake(conn: Connection, msg: Message) -> None:
    """A message of the handshake: the server's hello, or the client's answers to it (a
    challenge, then a welcome, a refusal or the info)."""
    if conn.side == "server":
        if not isinstance(msg, Hello) or conn.peer_hello is not None:
            raise _OutOfOrder(f"expected one hello, got {msg.tag!r}")
        conn.peer_hello = msg
        Proofs.check_hello(msg)
        conn._events.append(HelloReceived(msg))
        return
    if isinstance(msg, Challenge):
        auth = conn._proofs.answer(msg)  # a HandshakeError fails the connection (receive_data)
        if conn._proofs.sealers is not None:
            conn._seal, conn._unseal = conn._proofs.sealers
        conn.peer_node, conn.peer_key = msg.node, msg.key
        conn._send(auth)
        return
    if isinstance(msg, Welcome):
        conn._proofs.check_welcome(msg, proved=bool(conn.peer_node))
        conn.version = msg.proto
        conn.state = State.OPEN
        if msg.session:
            conn.channel, resent = _session_of(msg, conn._offered)
            for frame in resent:
                conn._send(frame)
        conn._events.append(Welcomed(msg))
    elif isinstance(msg, Refuse):
        conn.state = State.CLOSED
        conn._events.append(HelloRefused(msg))
    elif isinstance(msg, Info):
        conn.state = State.CLOSED
        conn._events.append(InfoReceived(msg))
    else:
        raise _OutOfOrder(f"expected welcome, refuse or info, got {msg.tag!r}")


def _frame_of(msg: Message, seal: Sealer | None, packed: bytes | None = None) -> bytes:
    """One message as a frame: its length, then its body (sealed at a table with a PIN).
    ``packed``: a data frame's body already packed (a map's pairs are written in order, so
    the frame's bytes are those of the whole map packed at once)."""
    limit = MAX_FRAME - (SEAL_OVERHEAD if seal is not None else 0)
    if packed is not None and isinstance(msg, Data):
        body = b"".join((_DATA_HEAD, _PACK(msg.seq), _ACK_KEY, _PACK(msg.ack), _BODY_KEY, packed))
        if len(body) > limit:
            raise ValueError(f"message of {len(body)} bytes is larger than a frame may be ({limit})")
    else:
        body = encode_body(dump(msg), limit)
    if seal is not None:
        body = seal.seal(body)
    return len(body).to_bytes(LENGTH_BYTES, "big") + body


_PACK = msgpack.Packer(use_bin_type=True).pack
_DATA_HEAD = b"\x84" + _PACK("t") + _PACK("data") + _PACK("seq")
"""A data frame's map of four (``t``, ``seq``, ``ack``, ``body``, the order its fields are written)."""
_ACK_KEY = _PACK("ack")
_BODY_KEY = _PACK("body")


def _message_of(body: bytes, unseal: Sealer | None, authenticating: bool) -> Message:
    """One frame's message, opened (a table with a PIN seals frames) and checked; a frame
    that fails raises :class:`HandshakeError` with the code the connection closes with."""
    try:
        if unseal is not None:
            body = unseal.open(body)
        return parse(decode_body(body), "frame")
    except PakeError as exc:
        raise HandshakeError("pin" if authenticating else "protocol", str(exc)) from None
    except FrameError as exc:
        raise HandshakeError("protocol", f"bad frame: {exc}") from None
    except MessageError as exc:
        raise HandshakeError("protocol", f"bad message: {exc}") from None


def _session_of(welcome: Welcome, offered: Channel | None) -> tuple[Channel, list[Data]]:
    """The channel a welcome with a session attaches: the one offered if it resumes it (with
    the frames the peer lacks, to send again), else a new one."""
    if offered is not None and welcome.resumed and welcome.session == offered.session:
        return offered, offered.resend(welcome.received)
    return Channel(welcome.session), []


class _OutOfOrder(ValueError):
    """A valid message at a time the protocol does not allow it."""
