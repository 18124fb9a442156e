"""The checks every protocol message's fields share: limits, hex forms, names.

:func:`check_fields` runs them in a message's ``__post_init__``: the limits on every int
and string, and the form a string field's type declares (``node: Node``, ``sig: Sig``,
``commits: tuple[Hash, ...]``: an ``Annotated[str, Form(...)]``).
"""

from __future__ import annotations

import dataclasses
import re
import typing
from dataclasses import dataclass
from typing import Annotated, Any

MAX_INT = 2 ** 53 - 1
"""Largest integer any field may hold (so that every language can read it exactly)."""
MAX_NAME = 40
"""Longest player or table name, in characters."""

HEX_ID = re.compile(r"[0-9a-f]{32}")
HEX_64 = re.compile(r"[0-9a-f]{64}")
HEX_128 = re.compile(r"[0-9a-f]{128}")
HEX_ANY = re.compile(r"(?:[0-9a-f]{2}){0,512}")
CODE = re.compile(r"[a-z][a-z0-9-]{0,39}")


@dataclass(frozen=True, slots=True)
class Form:
    """The form a string field must have: ``pattern``, said as ``says``; ``empty``: or ""."""

    pattern: re.Pattern[str]
    says: str
    empty: bool = False

    def check(self, name: str, value: str, error: type[ValueError] = ValueError) -> None:
        """``error`` naming the field ``name`` and its form if ``value`` does not have it."""
        if not (self.empty and value == "") and not self.pattern.fullmatch(value):
            raise error(f"{name} must be {self.says}{' or empty' if self.empty else ''}, "
                        f"not {value[:70]!r}")


Node = Annotated[str, Form(HEX_ID, "32 lowercase hex digits")]
"""A node, table or session id."""
NodeOrEmpty = Annotated[str, Form(HEX_ID, "32 lowercase hex digits", empty=True)]
Hash = Annotated[str, Form(HEX_64, "64 lowercase hex digits")]
"""32 bytes: a key, a nonce, a sha256 digest, a seed."""
HashOrEmpty = Annotated[str, Form(HEX_64, "64 lowercase hex digits", empty=True)]
Sig = Annotated[str, Form(HEX_128, "128 lowercase hex digits")]
"""An Ed25519 signature."""
Pake = Annotated[str, Form(re.compile(r"(?:[0-9a-f]{2}){0,128}"), "hex digits, at most 128 bytes")]
"""A SPAKE2 message ("" without a PIN)."""
Code = Annotated[str, Form(CODE, "a code of lowercase letters, digits and '-'")]


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


def _form(hint: object) -> tuple[Form, bool] | None:
    """The form a field's hint declares, and whether it is each item's (``tuple[Hash, ...]``)."""
    each = typing.get_origin(hint) is tuple
    if each:
        args = typing.get_args(hint)
        if len(args) != 2 or args[1] is not Ellipsis:
            return None
        hint = args[0]
    if typing.get_origin(hint) is not Annotated:
        return None
    form = next((m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Form)), None)
    return None if form is None else (form, each)


_FIELDS: dict[type, tuple[tuple[str, ...], tuple[tuple[str, Form, bool], ...]]] = {}


def _fields_of(cls: type) -> tuple[tuple[str, ...], tuple[tuple[str, Form, bool], ...]]:
    """A class's field names and the forms its hints declare, read once per class."""
    known = _FIELDS.get(cls)
    if known is None:
        hints = typing.get_type_hints(cls, include_extras=True)
        names = tuple(f.name for f in dataclasses.fields(cls))
        forms = tuple((name, *found) for name in names if (found := _form(hints[name])) is not None)
        known = _FIELDS[cls] = (names, forms)
    return known


def check_fields(msg: object) -> None:
    """Shared checks: no negative or huge ints, no control characters in strings, every
    string in the form its field's type declares."""
    names, forms = _fields_of(type(msg))
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
    for name, form, each in forms:
        value = getattr(msg, name)
        for item in value if each else (value,):
            form.check(name, item)


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
