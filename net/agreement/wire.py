"""The agreement's messages on the wire: Raft messages as plain msgpack maps, checked field by field.

A ``peer`` connection (docs/protocol.md, "Host agreement") carries these maps as its
bodies: ``{"t": "raft-append", "term": 3, ...}``.  Entries travel as ``[term, index,
data]``.  Every field is required, no other field is allowed, integers are
``0..2^53-1`` and an append's entries must follow ``prev_index`` one by one; anything
else is a :class:`~net.protocol.messages.MessageError` (the connection closes), so the
core only ever sees well-typed messages.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from tarock.net.agreement.messages import MESSAGES, Entry, RaftMessage
from tarock.net.protocol.messages import MessageError

MAX_INT: Final = 2**53 - 1

_FIELDS: Final = {kind: tuple(f.name for f in dataclasses.fields(kind)) for kind in MESSAGES.values()}


def encode(msg: RaftMessage) -> dict[str, Any]:
    """The plain map of ``msg``."""
    out: dict[str, Any] = {"t": msg.tag}
    for name in _FIELDS[type(msg)]:
        value = getattr(msg, name)
        if name == "entries":
            value = [[e.term, e.index, e.data] for e in value]
        out[name] = value
    return out


def decode(raw: object) -> RaftMessage:
    """The message of the plain map ``raw``; MessageError says what is wrong with it."""
    if not isinstance(raw, dict):
        raise MessageError(f"an agreement message must be a map, not {type(raw).__name__}")
    kind = MESSAGES.get(raw.get("t"))  # type: ignore[arg-type]
    if kind is None:
        raise MessageError(f"unknown agreement message {raw.get('t')!r}")
    names = _FIELDS[kind]
    given = set(raw) - {"t"}
    if given != set(names):
        missing = sorted(set(names) - given)
        extra = sorted(str(k) for k in given - set(names))
        raise MessageError(f"{kind.tag}: missing {missing}, unknown {extra}")
    values: dict[str, Any] = {}
    for name in names:
        value = raw[name]
        if name == "entries":
            values[name] = _entries(value, raw.get("prev_index"))
        elif name in ("granted", "success"):
            if not isinstance(value, bool):
                raise MessageError(f"{kind.tag}.{name} must be true or false")
            values[name] = value
        else:
            values[name] = _int(value, f"{kind.tag}.{name}")
    return kind(**values)


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_INT:
        raise MessageError(f"{what} must be an integer 0..2^53-1, not {value!r}")
    return value


def _entries(value: object, prev: object) -> tuple[Entry, ...]:
    if not isinstance(value, list):
        raise MessageError("raft-append.entries must be an array")
    start = _int(prev, "raft-append.prev_index")
    out: list[Entry] = []
    for i, item in enumerate(value):
        if not isinstance(item, list) or len(item) != 3:
            raise MessageError("an entry must be [term, index, data]")
        term = _int(item[0], "entry term")
        index = _int(item[1], "entry index")
        if index != start + 1 + i:
            raise MessageError(f"entry {index} does not follow {start + i}")
        out.append(Entry(term, index, item[2]))
    return tuple(out)
