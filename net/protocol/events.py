"""What a :class:`~net.protocol.connection.Connection` reports: the events of one connection."""

from __future__ import annotations

from typing import Any

from tarock.net.protocol.messages import Hello, Info, Refuse, Welcome
from tarock.net.values import value


@value
class HelloReceived:
    """(Accepting side) the peer's hello: answer with accept or refuse."""

    hello: Hello


@value
class Authenticated:
    """(Accepting side) the client proved it holds the key of ``hello.node`` (and the PIN):
    answer with accept or refuse."""

    hello: Hello


@value
class Welcomed:
    """(Connecting side) the peer accepted; bodies may flow."""

    welcome: Welcome


@value
class HelloRefused:
    """(Connecting side) the peer refused the hello."""

    refuse: Refuse


@value
class InfoReceived:
    info: Info


@value
class BodyReceived:
    """A new body: the message the connection's ``bodies`` reader made of it (host and seat
    links), or the plain data where it was given none (agreement links)."""

    body: Any


@value
class Closed:
    """The connection is over: ``code`` (``eof``, ``protocol``, ``timeout``, a
    bye's code ...) and the reason.  ``by_peer``: the peer ended it."""

    code: str
    reason: str
    by_peer: bool


Event = HelloReceived | Authenticated | Welcomed | HelloRefused | InfoReceived | BodyReceived | Closed
