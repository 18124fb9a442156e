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

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar, dataclass_transform

import msgpack

from tarock.core.codec import Codec, RecordError
from tarock.net.identity import envelope_hash, signed_bytes
from tarock.net.protocol.fields import (
    MAX_INT,
    MAX_NAME,
    Code,
    Hash,
    HashOrEmpty,
    MessageError,
    Node,
    NodeOrEmpty,
    Pake,
    Sig,
    check_fields,
    check_name,
    plain_kinds,
)
from tarock.net.protocol.parts import SeatInfo, TableInfo, check_options

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True)
def message(tag: str, *, slots: bool = True) -> Callable[[type[_T]], type[_T]]:
    """Declares a class a message (or a dealing scheme's payload) whose ``t`` on the wire is
    ``tag``: a frozen dataclass, with slots unless it keeps cached values (``slots=False``);
    its base checks its fields, where it has one that does."""

    def declare(cls: type[_T]) -> type[_T]:
        tagged: type[Any] = cls
        tagged.tag = tag
        return dataclass(frozen=True, slots=slots)(cls)

    return declare


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every message; ``tag`` is its ``t`` on the wire."""

    tag: ClassVar[str] = ""
    layer: ClassVar[Literal["frame", "body", "inner"]] = "frame"

    def __post_init__(self) -> None:
        check_fields(self)


# -- frames: one connection ------------------------------------------------------------

Role = Literal["seat", "watch", "info", "invite", "peer"]


@message("hello")
class Hello(Message):
    """First frame of the side that connects.

    ``role``: ``seat`` (take or resume a seat), ``watch`` (public information
    only), ``info`` (ask for an :class:`Info`, then close), ``invite`` (a
    forming host asks a waiting node to join its table), ``peer`` (a member of a table
    carrying the host agreement's messages, docs/protocol.md "Host agreement").  ``session`` and
    ``received`` resume a session ("" and 0 for a new one); ``epoch``,
    ``deal`` and ``done`` are what the node knows of the table (0 if nothing).
    ``key`` is the node's public key (its id is made of it), ``nonce`` 32
    random bytes for the server to sign, ``pake`` the client's SPAKE2 message
    for a table with a PIN ("" without).
    """

    proto_min: int
    proto_max: int
    node: Node
    name: str
    role: Role
    table: NodeOrEmpty
    rules: HashOrEmpty
    session: NodeOrEmpty
    received: int
    epoch: int
    deal: int
    done: int
    port: int
    addresses: tuple[str, ...]
    key: Hash
    nonce: Hash
    pake: Pake

    def __post_init__(self) -> None:
        check_fields(self)
        check_name(self.name)
        if self.proto_min > self.proto_max:
            raise ValueError("proto_min is above proto_max")
        if self.port > 65535 or len(self.addresses) > 8:
            raise ValueError("port above 65535 or more than 8 addresses")


@message("challenge")
class Challenge(Message):
    """Server to client, answer to a ``seat`` or ``watch`` hello: who answers (``node``,
    ``key``), its signature over the hello and its own ``nonce``, and for a table with a
    PIN its SPAKE2 message and key confirmation.  The client answers with :class:`Auth`."""

    node: Node
    key: Hash
    nonce: Hash
    sig: Sig
    pake: Pake
    confirm: HashOrEmpty


@message("auth")
class Auth(Message):
    """Client to server: its signature over the hello and the challenge, and its key
    confirmation for a table with a PIN (sealed, docs/protocol.md "Private tables")."""

    sig: Sig
    confirm: HashOrEmpty


@message("welcome")
class Welcome(Message):
    """The answer to a hello that is accepted: the version chosen, who answers,
    the session (new, or the one resumed) and how far it has received."""

    proto: int
    node: Node
    name: str
    table: NodeOrEmpty
    rules: str
    epoch: int
    host: NodeOrEmpty
    session: NodeOrEmpty
    received: int
    resumed: bool
    seat: int | None
    done: int


REFUSALS: tuple[str, ...] = ("version", "rules", "table", "full", "stale-epoch", "not-host", "busy",
                             "identity", "role", "variant", "pin", "auth")
"""The codes of :class:`Refuse` (docs/protocol.md lists what each means)."""


@message("refuse")
class Refuse(Message):
    """The answer to a hello that is refused; the connection closes after it.
    ``host`` names the node to ask instead (``not-host``, ``stale-epoch``), or ""."""

    code: str
    message: str
    host: NodeOrEmpty
    epoch: int

    def __post_init__(self) -> None:
        check_fields(self)
        if self.code not in REFUSALS:
            raise ValueError(f"unknown refusal code {self.code!r}")


@message("info")
class Info(Message):
    """What a node says about itself (answer to ``role: info``), like its mDNS advert."""

    proto_min: int
    proto_max: int
    node: Node
    name: str
    kind: Literal["table", "waiting"]
    table: NodeOrEmpty
    table_name: str
    variant: str
    options: Any
    rules: str
    rounds: int
    free: int
    epoch: int
    host: NodeOrEmpty
    port: int
    boot: str
    private: bool

    def __post_init__(self) -> None:
        check_fields(self)
        check_options(self.options)


@message("data")
class Data(Message):
    """A sequenced body: ``seq`` counts from 1 per session and direction;
    ``ack`` acknowledges every body up to that number received from the peer."""

    seq: int
    ack: int
    body: Any

    def __post_init__(self) -> None:
        check_fields(self)
        if self.seq < 1:
            raise ValueError("seq counts from 1")


@message("ack")
class Ack(Message):
    """Every body up to ``ack`` was received."""

    ack: int


@message("ping")
class Ping(Message):
    """Are you there?  Answered by a :class:`Pong` with the same ``n``."""

    n: int


@message("pong")
class Pong(Message):
    n: int


@message("bye")
class Bye(Message):
    """The sender closes the connection, saying why (``code`` as in :data:`REFUSALS`,
    or ``done``, ``protocol``, ``leaving``, ``superseded``)."""

    code: Code
    message: str


# -- bodies: the game, inside data frames ------------------------------------------------

@dataclass(frozen=True, slots=True)
class Body(Message):
    layer: ClassVar[Literal["frame", "body", "inner"]] = "body"


@message("signed", slots=False)
class Signed(Body):
    """The only body: a message (``body``, a map with ``t``) signed by ``author``.

    Bound to the table, the host's epoch and the deal (0: none), the author's
    seat (nil: the host in its own role), its sequence number and the hash of its
    previous signed message in the same hand (``seq``/``prev``; 0 and "" outside a
    hand's log), the hash of the hand's log as the author last saw it (``head``)
    and the receiver (``to``: a node id, or "" for every node).
    """

    table: NodeOrEmpty
    epoch: int
    deal: int
    author: Node
    seat: int | None
    seq: int
    prev: HashOrEmpty
    head: HashOrEmpty
    to: NodeOrEmpty
    body: Any
    sig: Sig

    def __post_init__(self) -> None:
        check_fields(self)
        if not isinstance(self.body, Mapping) or not isinstance(self.body.get("t"), str):
            raise ValueError("body must be a map with a string 't'")

    # An envelope is hashed, verified and sent several times: what those read is derived once
    # and kept with it (the class has no slots for this: a cached property needs a __dict__).
    @functools.cached_property
    def plain(self) -> dict[str, Any]:
        """Its plain data, with its tag (do not change it: :func:`dump` gives a copy)."""
        return _dump(self)

    @functools.cached_property
    def inner(self) -> Message:
        """The message it carries (MessageError if that is no message of a signed body)."""
        return parse(self.body, "inner")

    @functools.cached_property
    def packed(self) -> bytes:
        """Its plain data packed (msgpack), as every connection that sends it writes it."""
        return msgpack.packb(self.plain, use_bin_type=True)  # type: ignore[no-any-return]

    @functools.cached_property
    def signed(self) -> bytes:
        """The bytes its signature covers (:func:`net.identity.signed_bytes`)."""
        return signed_bytes(self.plain)

    @functools.cached_property
    def hash(self) -> str:
        """Its hash (:func:`net.identity.envelope_hash`)."""
        return envelope_hash(self.plain)


@dataclass(frozen=True, slots=True)
class Inner(Message):
    layer: ClassVar[Literal["frame", "body", "inner"]] = "inner"


@message("seated")
class Seated(Inner):
    """Host to seat and watcher: the table, the host and its epoch, your seat
    (``None`` for a watcher) and the roster in seat order (the order of succession)."""

    table: TableInfo
    epoch: int
    host: str
    seat: int | None
    roster: tuple[SeatInfo, ...]


@message("begin")
class Begin(Inner):
    """Host to all, the first entry of a hand's log: the round, the dealer, the seats that
    play, the dealing scheme, and the seats the host's bots play in this deal."""

    round: int
    dealer: int
    active: tuple[int, ...]
    dealing: str
    bots: tuple[int, ...]


@message("dealing")
class Dealing(Inner):
    """A message of the dealing scheme (in the log, or private between a seat and the host)."""

    payload: Any


@message("step")
class Step(Inner):
    """A contributor's shares after ``index`` actions (0: the deal), and the facts of its
    own cards it must tell (``called``)."""

    index: int
    share: Any
    facts: Any


@message("ready")
class Ready(Inner):
    """A seat has read its hand: ``redeal`` says why the rules deal it again ("" if not);
    then ``share`` shows the hand to all."""

    redeal: str
    share: Any


@message("act")
class Act(Inner):
    """The seat to move takes ``action`` (positional form) as the ``index``-th action,
    with its shares of the positions that action shows and the facts it must tell."""

    index: int
    action: Any
    share: Any
    facts: Any


@message("fault")
class Fault(Inner):
    """A node found that someone cheats: the hand stops and every secret is opened."""

    culprit: NodeOrEmpty
    reason: str


@message("open")
class Opened(Inner):
    """At the hand's end (or after a fault): what the author opens of its dealing secrets."""

    opening: Any


@message("log")
class Log(Inner):
    """Host to one node: every entry of the hand's log so far (a snapshot), in order; a long
    log comes in parts, each but the last with ``more`` (a frame has a size limit)."""

    entries: tuple[Any, ...]
    more: bool = False


@message("hand-end")
class HandEnd(Inner):
    """Host to all: a hand is over; its full record (with the opening of the dealing)."""

    record: Any


@message("checked")
class Checked(Inner):
    """Seat to host: my check of the record of ``deal``; on failure, who is at fault."""

    deal: int
    ok: bool
    culprit: NodeOrEmpty
    reason: str
    log: HashOrEmpty


@message("void")
class Void(Inner):
    """Host to all: deal ``deal`` does not count (it is dealt again); ``culprit``
    names the node at fault, "" when nobody is (the host was lost, a seat was away)."""

    deal: int
    reason: str
    culprit: NodeOrEmpty


@message("record")
class Record(Inner):
    """Seat to a new host: the record of a finished deal the host lacks."""

    deal: int
    record: Any


FRAMES: tuple[type[Message], ...] = (Hello, Challenge, Auth, Welcome, Refuse, Info, Data, Ack, Ping, Pong,
                                     Bye)
BODIES: tuple[type[Message], ...] = (Signed,)
INNER: tuple[type[Message], ...] = (Seated, Begin, Dealing, Step, Ready, Act, Fault, Opened, Log, HandEnd,
                                    Checked, Void, Record)
HAND: tuple[type[Message], ...] = (Begin, Dealing, Step, Ready, Act, Fault, Opened)
"""The messages of a hand's log."""
PARTS: tuple[type[Any], ...] = (SeatInfo, TableInfo)
"""Values that appear inside messages."""

_BY_TAG = {cls.tag: cls for cls in (*FRAMES, *BODIES, *INNER)}
_CODEC = Codec(trust_any=True)
"""Decodes what a frame brought: a field typed ``Any`` holds plain data the frame decoder
checked already (msgpack kinds, string keys, depth); the layer above decodes it."""
_CHECKING = Codec()
"""Decodes a message part from elsewhere (a saved table), checking every value."""


def parse(raw: object, layer: Literal["frame", "body", "inner"] = "frame") -> Message:
    """The message of plain data ``raw`` (a frame, or the body of a ``data`` frame)."""
    if not isinstance(raw, Mapping):
        raise MessageError(f"a message must be a map, not {type(raw).__name__}")
    tag = raw.get("t")
    cls = _BY_TAG.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise MessageError(f"unknown message type {tag!r}")
    if cls.layer != layer:
        where = {"body": "inside data", "inner": "inside a signed body", "frame": "as a frame"}[layer]
        raise MessageError(f"{tag!r} is not allowed {where}")
    fields = dict(raw)
    del fields["t"]
    kinds = _SIMPLE.get(cls)
    if kinds is not None and len(fields) == len(kinds) \
            and all(type(fields.get(name)) in allowed for name, allowed in kinds):
        try:  # every field of a kind the codec would pass unchanged: built at once
            return cls(**fields)
        except (TypeError, ValueError):
            pass  # the codec's decoding below says what is wrong, as it says it
    try:
        msg: Message = _CODEC.decode(fields, cls, cls.tag)
    except RecordError as exc:
        raise MessageError(str(exc)) from None
    return msg


_SIMPLE = {cls: plain_kinds(cls) for cls in (*FRAMES, *BODIES, *INNER)}


parse_body: Callable[[object], Message] = functools.partial(parse, layer="body")
"""The message of a ``data`` frame's body (a connection's reader of bodies)."""


def dump(msg: Message) -> dict[str, Any]:
    """The plain data of ``msg``, with its tag (a fresh map; what it holds may be shared)."""
    if type(msg) is Signed:
        return dict(msg.plain)  # every envelope is dumped several times: kept with it
    return _dump(msg)


def _dump(msg: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"t": msg.tag}
    out.update(_CODEC.encode(msg))
    return out


def inner_of(env: Signed) -> Message:
    """``parse(env.body, "inner")``, once per envelope (MessageError as parse raises it)."""
    return env.inner


def plain(value: object) -> Any:
    """The plain data of a message part (:class:`SeatInfo`, :class:`TableInfo`)."""
    return _CODEC.encode(value)


def part(raw: object, cls: type[Any]) -> Any:
    """A message part from plain data; MessageError if it does not fit."""
    try:
        return _CHECKING.decode(raw, cls, cls.__name__)
    except RecordError as exc:
        raise MessageError(str(exc)) from None


__all__ = [
    "BODIES", "FRAMES", "HAND", "INNER", "MAX_INT", "MAX_NAME", "PARTS", "REFUSALS", "Ack", "Act",
    "Auth", "Begin", "Body", "Bye", "Challenge", "Checked", "Data", "Dealing", "Fault", "HandEnd",
    "Hello", "Info", "Inner", "Log", "Message", "MessageError", "Opened", "Ping", "Pong", "Ready",
    "Record", "Refuse", "Role", "SeatInfo", "Seated", "Signed", "Step", "TableInfo", "Void", "Welcome",
    "check_name", "dump", "inner_of", "message", "parse", "parse_body", "part", "plain"
]
