"""What a node announces about itself (:class:`Advert`), what a browser learned (:class:`Seen`),
and the TXT record that carries an advert (keys in ``docs/discovery.md``).

An :class:`Advert` is valid by construction: its fields are checked when it is made, so an
advert decoded from a peer and one built by our own node obey the same rules.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from tarock.net.protocol.fields import Form
from tarock.net.transport import PeerAddress
from tarock.net.txt import MAX_KEY, TxtError, decode_txt, encode_txt

__all__ = [
    "RESERVED_KEYS",
    "SERVICE_TYPE",
    "TXT_VERSION",
    "Advert",
    "AdvertError",
    "Kind",
    "Seen",
    "advert_from_txt",
    "advert_to_txt",
    "new_boot_nonce",
]

SERVICE_TYPE = "_tarock._tcp.local."
TXT_VERSION = 1

Kind = Literal["table", "waiting"]
KINDS: tuple[Kind, ...] = ("table", "waiting")

# txtvers comes first (RFC 6763 6.7); then the keys in the order we write them.
RESERVED_KEYS = (
    "txtvers",
    "proto",
    "node",
    "kind",
    "name",
    "table",
    "variant",
    "rules",
    "free",
    "boot",
    "rounds",
)
DEFAULT_ROUNDS = 12

_FORMS: tuple[tuple[str, str, Form], ...] = (
    ("node_id", "node id", Form(re.compile(r"[0-9a-f]{8,64}"), "8-64 lowercase hex digits")),
    ("table_id", "table id", Form(re.compile(r"[0-9A-Za-z_-]{1,64}"), "1-64 letters, digits, '_' or '-'",
                                  empty=True)),
    ("variant", "variant", Form(re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}"),
                                "1-64 letters, digits, '.', '_' or '-'")),
    ("rules_hash", "rules hash", Form(re.compile(r"[0-9a-f]{1,128}"), "1-128 lowercase hex digits")),
    ("boot", "boot nonce", Form(re.compile(r"[0-9A-Za-z]{1,32}"), "1-32 letters or digits")),
)
"""The form of each text field of an advert: the attribute, its name in an error, the form."""
MAX_NAME_CHARS = 64
MAX_FREE_SEATS = 16
MAX_ROUNDS = 10_000


class AdvertError(ValueError):
    """An advert that breaks the rules below; the message says which field and why."""


def new_boot_nonce() -> str:
    """A fresh value for :attr:`Advert.boot`: 16 random hex digits."""
    return secrets.token_hex(8)


def _check_name(name: str) -> None:
    if not name or name != name.strip():
        raise AdvertError(f"name {name!r} must be non-empty without leading or trailing spaces")
    if len(name) > MAX_NAME_CHARS:
        raise AdvertError(f"name {name[:20]!r}... is longer than {MAX_NAME_CHARS} characters")
    if any(not c.isprintable() for c in name):
        raise AdvertError(f"name {name!r} contains control characters")


@dataclass(frozen=True)
class Advert:
    """What one node says about itself on the network."""

    node_id: str  # stable per player, 8-64 lowercase hex digits; also in the instance name
    kind: Kind  # "table": an open table; "waiting": a node looking for a table
    name: str  # table name (kind "table") or player name (kind "waiting")
    table_id: str  # "" for a waiting node
    variant: str
    rules_hash: str
    free_seats: int
    protocol: tuple[int, int]  # supported protocol version range, inclusive
    boot: str  # random per process start, so a restarted node is seen as Updated
    port: int  # where the node accepts connections (the SRV record)
    rounds: int = DEFAULT_ROUNDS  # rounds of the table, or wanted by a waiting node
    extra: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        for attr, what, form in _FORMS:
            form.check(what, getattr(self, attr), AdvertError)
        if self.kind not in KINDS:
            raise AdvertError(f"kind {self.kind!r} must be one of {', '.join(KINDS)}")
        _check_name(self.name)
        if self.kind == "table" and not self.table_id:
            raise AdvertError("a table advert needs a table id")
        if not 0 <= self.free_seats <= MAX_FREE_SEATS:
            raise AdvertError(f"free seats {self.free_seats} not in 0..{MAX_FREE_SEATS}")
        low, high = self.protocol
        if not 0 <= low <= high <= 65535:
            raise AdvertError(f"protocol range {low}-{high} must satisfy 0 <= low <= high <= 65535")
        if not 1 <= self.port <= 65535:
            raise AdvertError(f"port {self.port} not in 1..65535")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise AdvertError(f"rounds {self.rounds} not in 1..{MAX_ROUNDS}")
        for key, value in self.extra.items():
            if key.lower() in RESERVED_KEYS:
                raise AdvertError(f"extra key {key!r} is one of the advert's own keys")
            if not key or len(key) > MAX_KEY or any(not 0x21 <= ord(c) <= 0x7E or c == "=" for c in key):
                raise AdvertError(
                    f"extra key {key!r} must be 1-{MAX_KEY} printable ASCII characters without '='"
                )
            if key != key.lower():
                raise AdvertError(f"extra key {key!r} must be lowercase (TXT keys ignore case)")
            if not isinstance(value, str):
                raise AdvertError(f"extra value for {key!r} must be a string")
        # Freeze a caller's dict, so that the advert stays a value.
        object.__setattr__(self, "extra", MappingProxyType(dict(self.extra)))

    def __hash__(self) -> int:
        return hash((self.node_id, self.boot, self.kind, self.table_id, self.free_seats, self.port))


@dataclass(frozen=True)
class Seen:
    """What a browser learned about a peer: its advert and where to reach it.

    ``addresses`` are IP literals (a manual entry may hold the host name the user typed);
    connect to them at ``advert.port``.
    """

    advert: Advert
    addresses: tuple[str, ...]

    @property
    def endpoints(self) -> tuple[PeerAddress, ...]:
        """``addresses`` with the advert's port, in the order to try."""
        return tuple(PeerAddress(host, self.advert.port) for host in self.addresses)


def advert_to_txt(advert: Advert) -> bytes:
    """The TXT record data of ``advert``: ``txtvers=1`` first, then the keys of RESERVED_KEYS."""
    low, high = advert.protocol
    items: list[tuple[str, str | None]] = [
        ("txtvers", str(TXT_VERSION)),
        ("proto", f"{low}-{high}"),
        ("node", advert.node_id),
        ("kind", advert.kind),
        ("name", advert.name),
        ("table", advert.table_id),
        ("variant", advert.variant),
        ("rules", advert.rules_hash),
        ("free", str(advert.free_seats)),
        ("boot", advert.boot),
        ("rounds", str(advert.rounds)),
        *sorted(advert.extra.items()),
    ]
    try:
        return encode_txt(items)
    except TxtError as exc:
        raise AdvertError(f"advert does not fit a TXT record: {exc}") from None


def _text(fields: Mapping[str, bytes | None], key: str) -> str:
    if key not in fields:
        raise AdvertError(f"TXT key {key!r} is missing")
    value = fields[key]
    if value is None:
        raise AdvertError(f"TXT key {key!r} has no value")
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise AdvertError(f"TXT key {key!r} is not UTF-8") from None


_NUMBER = re.compile(r"(0|[1-9][0-9]{0,5})\Z")
"""A TXT number: plain decimal, at most six digits."""


def _number(fields: Mapping[str, bytes | None], key: str) -> int:
    text = _text(fields, key)
    if not _NUMBER.match(text):
        raise AdvertError(f"TXT key {key!r}={text[:20]!r} is not a plain decimal number")
    return int(text)


def _protocol(text: str) -> tuple[int, int]:
    low_text, dash, high_text = text.partition("-")
    high_text = high_text if dash else low_text
    if not (_NUMBER.match(low_text) and _NUMBER.match(high_text)):
        raise AdvertError(f"TXT key 'proto'={text[:20]!r} is not LOW-HIGH")
    return int(low_text), int(high_text)


def advert_from_txt(data: bytes, *, port: int) -> Advert:
    """Decode an advert from TXT record data and the SRV record's ``port``.

    Raises AdvertError (a ValueError) saying why, for anything but a valid version-1 advert.
    Unknown keys with UTF-8 values are kept in ``extra``; others are dropped.
    """
    try:
        fields = decode_txt(data)
    except TxtError as exc:
        raise AdvertError(f"malformed TXT record: {exc}") from None
    version = _text(fields, "txtvers")
    if version != str(TXT_VERSION):
        raise AdvertError(f"unsupported txtvers {version[:20]!r} (this node reads {TXT_VERSION})")
    kind = _text(fields, "kind")
    if kind not in KINDS:
        raise AdvertError(f"TXT key 'kind'={kind[:20]!r} is not one of {', '.join(KINDS)}")
    extra: dict[str, str] = {}
    for key, raw in fields.items():
        if key in RESERVED_KEYS or raw is None or len(key) > MAX_KEY or " " in key:
            continue
        try:
            extra[key] = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
    rounds = _number(fields, "rounds") if "rounds" in fields else DEFAULT_ROUNDS
    return Advert(
        node_id=_text(fields, "node"),
        kind=kind,
        name=_text(fields, "name"),
        table_id=_text(fields, "table"),
        variant=_text(fields, "variant"),
        rules_hash=_text(fields, "rules"),
        free_seats=_number(fields, "free"),
        protocol=_protocol(_text(fields, "proto")),
        boot=_text(fields, "boot"),
        port=port,
        rounds=rounds,
        extra=extra,
    )
