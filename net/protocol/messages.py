"""Every message of the protocol: frozen dataclasses, each tagged by ``t``.

On the wire a message is a msgpack map: ``{"t": tag, field: value, ...}``.
Fields are derived from the type hints by :class:`core.codec.Codec` (ints,
strings, booleans, lists for tuples, ``None`` for an absent optional value);
a field typed ``Any`` carries plain data that the layer above decodes (engine
values through the rules' codec, dealing payloads through the dealing
module).  Every field is required; unknown fields and unknown tags are
refused.  :func:`parse` raises :class:`MessageError` naming what was wrong.

There are two layers.  *Frames* (``hello`` ... ``bye``) travel on one
connection.  *Bodies* travel inside ``data`` frames, sequenced and
acknowledged per session, so they survive a dropped connection (see
:mod:`net.protocol.channel`).
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from core.codec import Codec, RecordError

MAX_INT = 2 ** 53 - 1
"""Largest integer any field may hold (so that every language can read it exactly)."""
MAX_NAME = 40
"""Longest player or table name, in characters."""

_HEX_ID = re.compile(r"[0-9a-f]{32}")
_HEX_64 = re.compile(r"[0-9a-f]{64}")
_CODE = re.compile(r"[a-z][a-z0-9-]{0,39}")


class MessageError(ValueError):
    """Plain data that is not a valid message: what and why."""


def _printable(text: str) -> bool:
    return all(ch.isprintable() for ch in text)


def check_name(text: str, what: str = "name") -> str:
    """A player or table name: 1..40 printable characters; ValueError otherwise."""
    if not 1 <= len(text) <= MAX_NAME or not _printable(text) or text != text.strip():
        raise ValueError(f"{what} must be 1..{MAX_NAME} printable characters without "
                         f"surrounding blanks, not {text!r}")
    return text


def _check_fields(msg: object) -> None:
    """Shared checks: no negative or huge ints, no control characters in strings."""
    for f in dataclasses.fields(msg):  # type: ignore[arg-type]
        value = getattr(msg, f.name)
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, bool):
                continue
            if isinstance(item, int) and not 0 <= item <= MAX_INT:
                raise ValueError(f"{f.name} must be 0..{MAX_INT}, not {item}")
            if isinstance(item, str) and not _printable(item):
                raise ValueError(f"{f.name} holds control characters")


def _node(value: str, what: str = "node", empty: bool = False) -> None:
    if empty and value == "":
        return
    if not _HEX_ID.fullmatch(value):
        raise ValueError(f"{what} must be 32 lowercase hex digits, not {value!r}")


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every message; ``tag`` is its ``t`` on the wire."""

    tag: ClassVar[str] = ""
    layer: ClassVar[Literal["frame", "body"]] = "frame"

    def __post_init__(self) -> None:
        _check_fields(self)


# -- frames: one connection ------------------------------------------------------------

Role = Literal["seat", "watch", "info", "invite"]


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """First frame of the side that connects.

    ``role``: ``seat`` (take or resume a seat), ``watch`` (public information
    only), ``info`` (ask for an :class:`Info`, then close), ``invite`` (a
    forming host asks a waiting node to join its table).  ``session`` and
    ``received`` resume a session ("" and 0 for a new one); ``epoch``,
    ``deal`` and ``done`` are what the node knows of the table (0 if nothing).
    """

    proto_min: int
    proto_max: int
    node: str
    name: str
    role: Role
    table: str
    rules: str
    session: str
    received: int
    epoch: int
    deal: int
    done: int
    port: int
    addresses: tuple[str, ...]
    tag: ClassVar[str] = "hello"

    def __post_init__(self) -> None:
        _check_fields(self)
        _node(self.node)
        check_name(self.name)
        _node(self.table, "table", empty=True)
        _node(self.session, "session", empty=True)
        if self.rules and not _HEX_64.fullmatch(self.rules):
            raise ValueError("rules must be a sha256 hex digest or empty")
        if self.proto_min > self.proto_max:
            raise ValueError("proto_min is above proto_max")
        if self.port > 65535 or len(self.addresses) > 8:
            raise ValueError("port above 65535 or more than 8 addresses")


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """The answer to a hello that is accepted: the version chosen, who answers,
    the session (new, or the one resumed) and how far it has received."""

    proto: int
    node: str
    name: str
    table: str
    rules: str
    epoch: int
    host: str
    session: str
    received: int
    resumed: bool
    seat: int | None
    done: int
    tag: ClassVar[str] = "welcome"

    def __post_init__(self) -> None:
        _check_fields(self)
        _node(self.node)
        _node(self.table, "table", empty=True)
        _node(self.host, "host", empty=True)
        _node(self.session, "session", empty=True)


REFUSALS: tuple[str, ...] = ("version", "rules", "table", "full", "stale-epoch", "not-host", "busy",
                             "identity", "role", "variant")
"""The codes of :class:`Refuse` (docs/protocol.md lists what each means)."""


@dataclass(frozen=True, slots=True)
class Refuse(Message):
    """The answer to a hello that is refused; the connection closes after it.
    ``host`` names the node to ask instead (``not-host``, ``stale-epoch``), or ""."""

    code: str
    message: str
    host: str
    epoch: int
    tag: ClassVar[str] = "refuse"

    def __post_init__(self) -> None:
        _check_fields(self)
        if self.code not in REFUSALS:
            raise ValueError(f"unknown refusal code {self.code!r}")
        _node(self.host, "host", empty=True)


@dataclass(frozen=True, slots=True)
class Info(Message):
    """What a node says about itself (answer to ``role: info``), like its mDNS advert."""

    proto_min: int
    proto_max: int
    node: str
    name: str
    kind: Literal["table", "waiting"]
    table: str
    table_name: str
    variant: str
    options: Any
    rules: str
    rounds: int
    free: int
    epoch: int
    host: str
    port: int
    boot: str
    tag: ClassVar[str] = "info"

    def __post_init__(self) -> None:
        _check_fields(self)
        _node(self.node)
        _node(self.table, "table", empty=True)
        _node(self.host, "host", empty=True)
        if not isinstance(self.options, Mapping):
            raise ValueError("options must be a map")


@dataclass(frozen=True, slots=True)
class Data(Message):
    """A sequenced body: ``seq`` counts from 1 per session and direction;
    ``ack`` acknowledges every body up to that number received from the peer."""

    seq: int
    ack: int
    body: Any
    tag: ClassVar[str] = "data"

    def __post_init__(self) -> None:
        _check_fields(self)
        if self.seq < 1:
            raise ValueError("seq counts from 1")


@dataclass(frozen=True, slots=True)
class Ack(Message):
    """Every body up to ``ack`` was received."""

    ack: int
    tag: ClassVar[str] = "ack"


@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Are you there?  Answered by a :class:`Pong` with the same ``n``."""

    n: int
    tag: ClassVar[str] = "ping"


@dataclass(frozen=True, slots=True)
class Pong(Message):
    n: int
    tag: ClassVar[str] = "pong"


@dataclass(frozen=True, slots=True)
class Bye(Message):
    """The sender closes the connection, saying why (``code`` as in :data:`REFUSALS`,
    or ``done``, ``protocol``, ``leaving``, ``superseded``)."""

    code: str
    message: str
    tag: ClassVar[str] = "bye"

    def __post_init__(self) -> None:
        _check_fields(self)
        if not _CODE.fullmatch(self.code):
            raise ValueError(f"bad bye code {self.code!r}")


# -- bodies: the game, inside data frames ------------------------------------------------

@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of the table: who sits there and where to reach that node.
    ``local``: played on the host's node (a bot of ``tarock host --bots``),
    not a node of its own, so it is no successor."""

    seat: int
    node: str
    name: str
    addresses: tuple[str, ...]
    port: int
    local: bool

    def __post_init__(self) -> None:
        _check_fields(self)
        _node(self.node)


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What every node must agree on to play together."""

    id: str
    name: str
    variant: str
    options: Any
    rules: str
    rounds: int
    seats: int
    dealing: str

    def __post_init__(self) -> None:
        _check_fields(self)
        _node(self.id, "table id")
        if not isinstance(self.options, Mapping):
            raise ValueError("options must be a map")


@dataclass(frozen=True, slots=True)
class Body(Message):
    layer: ClassVar[Literal["frame", "body"]] = "body"


@dataclass(frozen=True, slots=True)
class Seated(Body):
    """Host to seat and watcher: the table, the host and its epoch, your seat
    (``None`` for a watcher) and the roster in seat order (the order of succession)."""

    table: TableInfo
    epoch: int
    host: str
    seat: int | None
    roster: tuple[SeatInfo, ...]
    tag: ClassVar[str] = "seated"


@dataclass(frozen=True, slots=True)
class Begin(Body):
    """Host to all: deal number ``deal`` starts (round, dealer, the seats that play)."""

    epoch: int
    deal: int
    round: int
    dealer: int
    active: tuple[int, ...]
    dealing: str
    tag: ClassVar[str] = "begin"


@dataclass(frozen=True, slots=True)
class Dealing(Body):
    """A message of the dealing protocol named in :class:`TableInfo` (both directions)."""

    epoch: int
    deal: int
    payload: Any
    tag: ClassVar[str] = "dealing"


@dataclass(frozen=True, slots=True)
class View(Body):
    """Host to one seat: its observation (a watcher: the public one), after every change."""

    epoch: int
    deal: int
    obs: Any
    tag: ClassVar[str] = "view"


@dataclass(frozen=True, slots=True)
class Act(Body):
    """Seat to host: take ``action`` as the ``index``-th action of the hand."""

    epoch: int
    deal: int
    index: int
    action: Any
    tag: ClassVar[str] = "act"


@dataclass(frozen=True, slots=True)
class Refused(Body):
    """Host to seat: your act was not applied, and why (the hand is unchanged)."""

    deal: int
    index: int
    code: str
    message: str
    tag: ClassVar[str] = "refused"


@dataclass(frozen=True, slots=True)
class HandEnd(Body):
    """Host to all: a hand is over; its full record (with the opening of the dealing)."""

    epoch: int
    deal: int
    record: Any
    tag: ClassVar[str] = "hand-end"


@dataclass(frozen=True, slots=True)
class Checked(Body):
    """Seat to host: my check of the record of ``deal``; on failure, who is at fault."""

    deal: int
    ok: bool
    culprit: str
    reason: str
    tag: ClassVar[str] = "checked"

    def __post_init__(self) -> None:
        _check_fields(self)
        _node(self.culprit, "culprit", empty=True)


@dataclass(frozen=True, slots=True)
class Void(Body):
    """Host to all: deal ``deal`` does not count (it is dealt again); ``culprit``
    names the node at fault, "" when nobody is (the host was lost)."""

    epoch: int
    deal: int
    reason: str
    culprit: str
    tag: ClassVar[str] = "void"

    def __post_init__(self) -> None:
        _check_fields(self)
        _node(self.culprit, "culprit", empty=True)


@dataclass(frozen=True, slots=True)
class Record(Body):
    """Seat to a new host: the record of a finished deal the host lacks."""

    deal: int
    record: Any
    tag: ClassVar[str] = "record"


FRAMES: tuple[type[Message], ...] = (Hello, Welcome, Refuse, Info, Data, Ack, Ping, Pong, Bye)
BODIES: tuple[type[Message], ...] = (Seated, Begin, Dealing, View, Act, Refused, HandEnd, Checked, Void,
                                     Record)
PARTS: tuple[type[Any], ...] = (SeatInfo, TableInfo)
"""Values that appear inside messages."""

_BY_TAG = {cls.tag: cls for cls in (*FRAMES, *BODIES)}
_CODEC = Codec()
_OPAQUE: dict[type[Message], tuple[str, ...]] = {
    cls: tuple(name for name, hint in typing.get_type_hints(cls).items() if hint is Any)
    for cls in (*FRAMES, *BODIES)}


def parse(raw: object, layer: Literal["frame", "body"] = "frame") -> Message:
    """The message of plain data ``raw`` (a frame, or the body of a ``data`` frame)."""
    if not isinstance(raw, Mapping):
        raise MessageError(f"a message must be a map, not {type(raw).__name__}")
    tag = raw.get("t")
    cls = _BY_TAG.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise MessageError(f"unknown message type {tag!r}")
    if cls.layer != layer:
        raise MessageError(f"{tag!r} is not allowed {'inside data' if layer == 'body' else 'as a frame'}")
    # Fields typed Any carry plain data that the frame decoder already checked
    # (msgpack kinds, string keys, depth); the layer above decodes them.
    opaque = _OPAQUE[cls]
    fields = {k: ({} if k in opaque else v) for k, v in raw.items() if k != "t"}
    try:
        msg: Message = _CODEC.decode(fields, cls, cls.tag)
    except RecordError as exc:
        raise MessageError(str(exc)) from None
    if opaque:
        for name in opaque:
            if name in raw:
                object.__setattr__(msg, name, raw[name])
        msg.__post_init__()
    return msg


def dump(msg: Message) -> dict[str, Any]:
    """The plain data of ``msg``, with its tag."""
    out: dict[str, Any] = {"t": msg.tag}
    out.update(_CODEC.encode(msg))
    return out


def plain(value: object) -> Any:
    """The plain data of a message part (:class:`SeatInfo`, :class:`TableInfo`)."""
    return _CODEC.encode(value)


def part(raw: object, cls: type[Any]) -> Any:
    """A message part from plain data; MessageError if it does not fit."""
    try:
        return _CODEC.decode(raw, cls, cls.__name__)
    except RecordError as exc:
        raise MessageError(str(exc)) from None
