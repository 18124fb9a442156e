"""Decoding and encoding of actions in their record (JSON/msgpack) form."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from core.actions import Action
from core.cards import CardError, parse_card


class RecordError(ValueError):
    """A record or message that is not well formed; says what and why."""


def _decode_field(name: str, kind: str, raw: object) -> object:
    if kind == "Card":
        if not isinstance(raw, str):
            raise RecordError(f"field {name!r} must be a card name, not {raw!r}")
        try:
            return parse_card(raw)
        except CardError as exc:
            raise RecordError(f"field {name!r}: {exc}") from None
    if kind == "tuple[Card, ...]":
        if not isinstance(raw, list | tuple):
            raise RecordError(f"field {name!r} must be a list of card names, not {raw!r}")
        return tuple(_decode_field(name, "Card", item) for item in raw)
    if kind == "str":
        if not isinstance(raw, str):
            raise RecordError(f"field {name!r} must be a string, not {raw!r}")
        return raw
    if kind == "tuple[str, ...]":
        if not isinstance(raw, list | tuple) or not all(isinstance(i, str) for i in raw):
            raise RecordError(f"field {name!r} must be a list of strings, not {raw!r}")
        return tuple(raw)
    if kind == "int":
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise RecordError(f"field {name!r} must be an integer, not {raw!r}")
        return raw
    if kind == "bool":
        if not isinstance(raw, bool):
            raise RecordError(f"field {name!r} must be true or false, not {raw!r}")
        return raw
    raise RecordError(f"field {name!r} has a type the codec cannot read ({kind})")


class ActionCodec:
    """Maps ``type`` tags to action classes and decodes record objects."""

    def __init__(self, action_types: Iterable[type[Action]]) -> None:
        self.types: dict[str, type[Action]] = {}
        for cls in action_types:
            self.types[cls.type] = cls

    def decode(self, data: object, seats: int = 4) -> Action:
        """Decode one action; raise :class:`RecordError` saying what is wrong."""
        if not isinstance(data, Mapping):
            raise RecordError(f"an action must be an object, not {data!r}")
        tag = data.get("type")
        cls = self.types.get(tag) if isinstance(tag, str) else None
        if cls is None:
            known = ", ".join(sorted(self.types))
            raise RecordError(f"unknown action type {tag!r} (known: {known})")
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
            raise RecordError(f"action {tag!r} needs a seat 0..{seats - 1}, not {seat!r}")
        kwargs: dict[str, Any] = {"seat": seat}
        for f in dataclasses.fields(cls):
            if f.name == "seat":
                continue
            if f.name not in data:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise RecordError(f"action {tag!r} lacks the field {f.name!r}")
                continue
            kwargs[f.name] = _decode_field(f.name, str(f.type), data[f.name])
        extra = set(data) - {"seat", "type"} - {f.name for f in dataclasses.fields(cls)}
        if extra:
            raise RecordError(f"action {tag!r} has unknown fields: {', '.join(sorted(extra))}")
        return cls(**kwargs)

    @staticmethod
    def encode(action: Action) -> dict[str, Any]:
        return action.to_record()
