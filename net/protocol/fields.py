"""The checks every protocol message's fields share: limits, hex forms, names.

:mod:`net.protocol.messages` runs them in its messages' ``__post_init__``.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from typing import Any

MAX_INT = 2 ** 53 - 1
"""Largest integer any field may hold (so that every language can read it exactly)."""
MAX_NAME = 40
"""Longest player or table name, in characters."""

HEX_ID = re.compile(r"[0-9a-f]{32}")
HEX_64 = re.compile(r"[0-9a-f]{64}")
HEX_128 = re.compile(r"[0-9a-f]{128}")
HEX_ANY = re.compile(r"(?:[0-9a-f]{2}){0,512}")
CODE = re.compile(r"[a-z][a-z0-9-]{0,39}")


class MessageError(ValueError):
    """Plain data that is not a valid message: what and why."""


def _printable(text: str) -> bool:
    return text.isprintable()


def check_name(text: str, what: str = "name") -> str:
    """A player or table name: 1..40 printable characters; ValueError otherwise."""
    if not 1 <= len(text) <= MAX_NAME or not _printable(text) or text != text.strip():
        raise ValueError(f"{what} must be 1..{MAX_NAME} printable characters without "
                         f"surrounding blanks, not {text!r}")
    return text


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def check_fields(msg: object) -> None:
    """Shared checks: no negative or huge ints, no control characters in strings."""
    names = _FIELD_NAMES.get(type(msg))
    if names is None:
        names = _FIELD_NAMES[type(msg)] = tuple(f.name for f in dataclasses.fields(msg))  # type: ignore[arg-type]
    for name in names:
        value = getattr(msg, name)
        kind = type(value)
        if kind is str:  # the common kinds first, by their exact type
            if not value.isprintable():
                raise ValueError(f"{name} holds control characters")
            continue
        if kind is int:
            if not 0 <= value <= MAX_INT:
                raise ValueError(f"{name} must be 0..{MAX_INT}, not {value}")
            continue
        for item in value if kind is tuple else (value,):
            if isinstance(item, bool):
                continue
            if isinstance(item, int) and not 0 <= item <= MAX_INT:
                raise ValueError(f"{name} must be 0..{MAX_INT}, not {item}")
            if isinstance(item, str) and not _printable(item):
                raise ValueError(f"{name} holds control characters")


def check_node(value: str, what: str = "node", empty: bool = False) -> None:
    if empty and value == "":
        return
    if not HEX_ID.fullmatch(value):
        raise ValueError(f"{what} must be 32 lowercase hex digits, not {value!r}")


def plain_kinds(cls: type[Any]) -> tuple[tuple[str, tuple[type, ...]], ...] | None:
    """Each field's name and the exact types whose values the codec leaves as they are
    (None if a field has a hint that needs decoding: a tuple, a literal, a part)."""
    kinds = {int: (int,), str: (str,), bool: (bool,), int | None: (int, type(None)),
             str | None: (str, type(None))}
    out: list[tuple[str, tuple[type, ...]]] = []
    for name, hint in typing.get_type_hints(cls).items():
        if typing.get_origin(hint) is typing.ClassVar:
            continue
        if hint is Any:
            out.append((name, (dict, list, str, int, float, bool, type(None))))
        elif hint in kinds:
            out.append((name, kinds[hint]))
        else:
            return None
    return tuple(out)
