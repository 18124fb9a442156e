"""Typed values to plain data and back, derived from type hints.

Records (JSON) and network frames (msgpack) carry plain data: ``None``,
booleans, integers, floats, strings, lists and string-keyed maps.  A
:class:`Codec` turns typed values (actions, observations, results: frozen
dataclasses) into that form and back, reading each field's type hint, so a
plugin's new action or value needs no hand-written serialisation and works
with or without ``from __future__ import annotations``.

What a hint becomes:

- ``Card`` (``Annotated[int, CARD]``): the card's name (``"XV"``, ``"hK"``);
- ``int``, ``str``, ``bool``, ``float``, ``None``: themselves (a bool is no int);
- ``tuple[X, ...]``, ``list[X]``, ``frozenset[X]``, ``tuple[X, Y]``: lists;
- ``dict[str, X]`` / ``Mapping[str, X]``: maps; ``dict[int, X]``: a list of pairs;
- ``X | None`` and other unions: the first member that fits;
- ``Literal[...]``: one of the literal values; a ``NewType`` (``PhaseId``): its supertype;
- a dataclass: a map of its fields; a field whose default means "nothing"
  (None, false, an empty string or list: an absent announcement, the
  Kontra on the game) is left out at that default, numbers and cards are
  always written (card 0 is the Pagat, pile 0 the first pile); an
  :class:`~core.actions.Action` also carries ``seat`` and its ``type`` tag,
  and a field typed ``Action`` accepts any registered action type;
- a class with ``to_data()`` and a classmethod ``from_data(raw)``: what they say;
- ``Fraction``: ``[numerator, denominator]``; ``Any``: plain data, checked.

Decoding checks everything and raises :class:`RecordError` naming the place
(``actions[3].cards[1]``) and what was wrong; nothing is half-built.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Union

from tarock.core.actions import Action
from tarock.core.cards import CARD, CardError, format_card, parse_card


class RecordError(ValueError):
    """A record or message that is not well formed; says what and why."""


Encoder = Callable[[Any], Any]
Decoder = Callable[[Any, str], Any]

_MISSING = dataclasses.MISSING


def _nothing(plain: object) -> bool:
    """Whether a default's plain form means "nothing" (None, false, "", [], {}), so
    a record may leave the field out; ``0`` does not: it is a seat, a card or a pile."""
    return plain is None or plain is False or (isinstance(plain, str | list | dict) and not plain)



def _where(path: str) -> str:
    return path or "the value"


def _is_card_hint(hint: object) -> bool:
    return typing.get_origin(hint) is typing.Annotated and CARD in getattr(hint, "__metadata__", ())


def check_plain(raw: object, path: str = "", depth: int = 0) -> object:
    """``raw`` if it is plain data (JSON/msgpack kinds, string keys); RecordError otherwise."""
    if depth > 32:
        raise RecordError(f"{_where(path)} is nested too deeply")
    if raw is None or isinstance(raw, bool | int | float | str):
        return raw
    if isinstance(raw, list | tuple):
        return [check_plain(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(raw)]
    if isinstance(raw, Mapping):
        out: dict[str, object] = {}
        for key, item in raw.items():
            if not isinstance(key, str):
                raise RecordError(f"{_where(path)} has a key that is not a string: {key!r}")
            out[key] = check_plain(item, f"{path}.{key}" if path else key, depth + 1)
        return out
    raise RecordError(f"{_where(path)} is not plain data: {raw!r}")


class Codec:
    """Encodes and decodes typed values; knows the action types of a ruleset.

    ``action_types`` are the :class:`~core.actions.Action` subclasses that may
    appear where a hint says ``Action``; each has a unique ``type`` tag.
    ``trust_any``: a field typed ``Any`` is taken as it is (its plain data was
    checked where it came from, as a network frame's is), not walked again.

    A codec holds no state of one call: its encoders and decoders are made once
    per hint (decoders per hint and seat count) and kept, so one codec serves
    every caller and thread.
    """

    def __init__(self, action_types: Iterable[type[Any]] = (), trust_any: bool = False) -> None:
        self.actions: dict[str, type[Any]] = {}
        for cls in action_types:
            tag = getattr(cls, "type", "")
            if not isinstance(tag, str) or not tag:
                raise TypeError(f"action class {cls.__name__} has no type tag")
            other = self.actions.get(tag)
            if other is not None and other is not cls:
                raise TypeError(f"two action classes use the type tag {tag!r}: {_qualified(other)} "
                                f"and {_qualified(cls)}")
            self.actions[tag] = cls
        self.trust_any = trust_any
        self._enc: dict[object, Encoder] = {}
        self._dec: dict[tuple[object, int | None], Decoder] = {}

    # -- public --------------------------------------------------------------
    def encode(self, value: object, hint: object = None) -> Any:
        """The plain form of ``value`` (typed by ``hint``, default: its class)."""
        return self.encoder(type(value) if hint is None else hint)(value)

    def decode(self, raw: object, hint: object, path: str = "", seats: int | None = None) -> Any:
        """The typed value of ``raw`` as ``hint`` says; RecordError naming ``path`` if it is not.

        Actions inside it must name a seat ``0..seats-1`` (any seat from 0 when
        ``seats`` is None: an observation of a table of five holds seat 4)."""
        return self.decoder(hint, seats)(raw, path)

    def decode_action(self, raw: object, seats: int = 4, path: str = "") -> Any:
        """One action of any registered type, its seat checked against ``seats``."""
        return self.decoder(Action, seats)(raw, path)

    def encode_action(self, action: object) -> Any:
        """The record form of an action: ``{"seat": s, "type": tag, ...}``."""
        return self.encoder(type(action))(action)

    def encoder(self, hint: object) -> Encoder:
        found = self._enc.get(hint)
        if found is None:
            found = self._make_encoder(hint)
            self._enc[hint] = found
        return found

    def decoder(self, hint: object, seats: int | None = None) -> Decoder:
        """The decoder of ``hint`` whose actions name a seat ``0..seats-1`` (None: from 0)."""
        key = (hint, seats)
        found = self._dec.get(key)
        if found is None:
            found = self._make_decoder(hint, seats)
            self._dec[key] = found
        return found

    # -- encoders --------------------------------------------------------------
    def _make_encoder(self, hint: object) -> Encoder:
        if _is_card_hint(hint):
            return format_card
        if hint in (int, str, bool, float, type(None), Any, object):
            return _identity
        if hint is Fraction:
            return lambda v: [v.numerator, v.denominator]
        supertype = getattr(hint, "__supertype__", None)
        if supertype is not None:  # a NewType (PhaseId): its values are the supertype's
            return self.encoder(supertype)
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is typing.Annotated:
            return self.encoder(args[0])
        if origin is typing.Literal:
            return _identity
        if origin in (Union, types.UnionType):
            return self._union_encoder(args)
        if origin in (tuple, list, frozenset, set, Sequence, typing.Sequence):
            if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
                encs = [self.encoder(a) for a in args]
                return lambda v: [e(x) for e, x in zip(encs, v, strict=True)]
            item = self.encoder(args[0] if args else Any)
            if origin in (frozenset, set):
                return lambda v: sorted((item(x) for x in v), key=_sort_key)
            return lambda v: [item(x) for x in v]
        if origin in (dict, Mapping, typing.Mapping):
            key_hint, value_hint = args if args else (str, Any)
            value_enc = self.encoder(value_hint)
            if key_hint is str:
                return lambda v: {k: value_enc(x) for k, x in v.items()}
            key_enc = self.encoder(key_hint)
            return lambda v: [[key_enc(k), value_enc(x)] for k, x in v.items()]
        if isinstance(hint, type):
            if hint is Action:
                return lambda v: self.encoder(type(v))(v)
            if callable(getattr(hint, "to_data", None)) and callable(getattr(hint, "from_data", None)):
                return lambda v: v.to_data()
            if dataclasses.is_dataclass(hint):
                return self._dataclass_encoder(hint)
        raise TypeError(f"the codec cannot encode values typed {hint!r}")

    def _union_encoder(self, args: tuple[Any, ...]) -> Encoder:
        members = [(a, self.encoder(a)) for a in args]

        def encode(v: object) -> object:
            for hint, enc in members:
                if _fits(hint, v):
                    return enc(v)
            raise TypeError(f"{v!r} is none of {args!r}")
        return encode

    def _dataclass_encoder(self, cls: type[Any]) -> Encoder:
        hints = _hints(cls)
        plan: list[tuple[str, Encoder, object]] = []
        for f in dataclasses.fields(cls):
            if not f.init:
                continue  # derived in __post_init__, rebuilt when decoded
            default: object = f.default
            if f.default_factory is not _MISSING:
                default = f.default_factory()
            enc = self.encoder(hints[f.name])
            if default is not _MISSING and not _nothing(enc(default)):
                default = _MISSING  # a number or a card: always written
            plan.append((f.name, enc, default))
        tag = getattr(cls, "type", None) if issubclass(cls, Action) else None

        def encode(v: object) -> dict[str, object]:
            out: dict[str, object] = {}
            for name, enc, default in plan:
                x = getattr(v, name)
                if name != "seat" and default is not _MISSING and x == default:
                    continue
                out[name] = enc(x)
            if tag is not None:
                out["type"] = tag
            return out
        return encode

    # -- decoders --------------------------------------------------------------
    def _make_decoder(self, hint: object, seats: int | None) -> Decoder:
        if _is_card_hint(hint):
            return _decode_card
        if hint is bool:
            return _decode_bool
        if hint is int:
            return _decode_int
        if hint is str:
            return _decode_str
        if hint is float:
            return _decode_float
        if hint is type(None):
            return _decode_none
        if hint in (Any, object):
            return _identity_decoder if self.trust_any else check_plain
        if hint is Fraction:
            return _decode_fraction
        supertype = getattr(hint, "__supertype__", None)
        if supertype is not None:
            return self.decoder(supertype, seats)
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is typing.Annotated:
            return self.decoder(args[0], seats)
        if origin is typing.Literal:
            return _literal_decoder(args)
        if origin in (Union, types.UnionType):
            return self._union_decoder(args, seats)
        if origin in (tuple, list, frozenset, set, Sequence, typing.Sequence):
            return self._sequence_decoder(origin, args, seats)
        if origin in (dict, Mapping, typing.Mapping):
            return self._mapping_decoder(args, seats)
        if isinstance(hint, type):
            if hint is Action:
                return self._action_decoder(seats)
            from_data = getattr(hint, "from_data", None)
            if callable(getattr(hint, "to_data", None)) and callable(from_data):
                return _custom_decoder(from_data)
            if dataclasses.is_dataclass(hint):
                return self._dataclass_decoder(hint, seats)
        raise TypeError(f"the codec cannot decode values typed {hint!r}")

    def _union_decoder(self, args: tuple[Any, ...], seats: int | None) -> Decoder:
        if len(args) == 2 and type(None) in args:
            inner = self.decoder(args[0] if args[1] is type(None) else args[1], seats)
            return lambda raw, path: None if raw is None else inner(raw, path)
        members = [self.decoder(a, seats) for a in args]

        def decode(raw: object, path: str) -> object:
            errors = []
            for dec in members:
                try:
                    return dec(raw, path)
                except RecordError as exc:
                    errors.append(str(exc))
            raise RecordError(f"{_where(path)}: {raw!r} fits none of the allowed kinds ({'; '.join(errors)})")
        return decode

    def _sequence_decoder(self, origin: object, args: tuple[Any, ...], seats: int | None) -> Decoder:
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis) and args:
            decs = [self.decoder(a, seats) for a in args]

            def fixed(raw: object, path: str) -> tuple[object, ...]:
                if not isinstance(raw, list | tuple) or len(raw) != len(decs):
                    raise RecordError(f"{_where(path)} must be a list of {len(decs)} items, not {raw!r}")
                return tuple(d(x, f"{path}[{i}]") for i, (d, x) in enumerate(zip(decs, raw, strict=True)))
            return fixed
        item = self.decoder(args[0] if args else Any, seats)
        make: Callable[[list[object]], object] = {tuple: tuple, frozenset: frozenset, set: set}.get(
            origin, tuple if origin in (Sequence, typing.Sequence) else list)  # type: ignore[call-overload]

        def many(raw: object, path: str) -> object:
            if not isinstance(raw, list | tuple):
                raise RecordError(f"{_where(path)} must be a list, not {raw!r}")
            return make([item(x, f"{path}[{i}]") for i, x in enumerate(raw)])
        return many

    def _mapping_decoder(self, args: tuple[Any, ...], seats: int | None) -> Decoder:
        key_hint, value_hint = args if args else (str, Any)
        value_dec = self.decoder(value_hint, seats)
        if key_hint is str:
            def by_name(raw: object, path: str) -> dict[str, object]:
                if not isinstance(raw, Mapping):
                    raise RecordError(f"{_where(path)} must be a map, not {raw!r}")
                out: dict[str, object] = {}
                for k, x in raw.items():
                    if not isinstance(k, str):
                        raise RecordError(f"{_where(path)} has a key that is not a string: {k!r}")
                    out[k] = value_dec(x, f"{path}.{k}")
                return out
            return by_name
        key_dec = self.decoder(key_hint, seats)

        def pairs(raw: object, path: str) -> dict[object, object]:
            if not isinstance(raw, list | tuple):
                raise RecordError(f"{_where(path)} must be a list of [key, value] pairs, not {raw!r}")
            out: dict[object, object] = {}
            for i, pair in enumerate(raw):
                if not isinstance(pair, list | tuple) or len(pair) != 2:
                    raise RecordError(f"{path}[{i}] must be a [key, value] pair, not {pair!r}")
                out[key_dec(pair[0], f"{path}[{i}][0]")] = value_dec(pair[1], f"{path}[{i}][1]")
            return out
        return pairs

    def _dataclass_decoder(self, cls: type[Any], seats: int | None) -> Decoder:
        hints = _hints(cls)
        fields = [(f.name, self.decoder(hints[f.name], seats),
                   f.default is not _MISSING or f.default_factory is not _MISSING)
                  for f in dataclasses.fields(cls) if f.init]
        is_action = issubclass(cls, Action)
        names = frozenset(name for name, _, _ in fields) | ({"type"} if is_action else set())
        tag = getattr(cls, "type", None) if is_action else None
        label = f"action {tag!r}" if is_action else cls.__name__
        plan = [(name, dec, optional, f".{name}") for name, dec, optional in fields]

        def decode(raw: object, path: str) -> object:
            if not isinstance(raw, Mapping):
                raise RecordError(f"{_where(path)} must be a map ({label}), not {raw!r}")
            if not names.issuperset(raw):
                extra = sorted(str(k) for k in raw if k not in names)
                raise RecordError(f"{_where(path)}: {label} has unknown fields: {', '.join(extra)}")
            kwargs: dict[str, object] = {}
            for name, dec, optional, suffix in plan:
                if name not in raw:
                    if optional:
                        continue
                    raise RecordError(f"{_where(path)}: {label} lacks the field {name!r}")
                kwargs[name] = dec(raw[name], path + suffix if path else name)
            if is_action:
                seat = kwargs.get("seat")
                if not isinstance(seat, int) or seat < 0 or (seats is not None and seat >= seats):
                    allowed = f"0..{seats - 1}" if seats is not None else "0 or above"
                    raise RecordError(f"{_where(path)}: {label} needs a seat {allowed}, "
                                      f"not {raw.get('seat')!r}")
            try:
                return cls(**kwargs)
            except (TypeError, ValueError) as exc:
                raise RecordError(f"{_where(path)}: not a valid {label}: {exc}") from None
        return decode

    def _action_decoder(self, seats: int | None) -> Decoder:
        def decode(raw: object, path: str) -> object:
            if not isinstance(raw, Mapping):
                raise RecordError(f"{_where(path)}: an action must be a map, not {raw!r}")
            tag = raw.get("type")
            cls = self.actions.get(tag) if isinstance(tag, str) else None
            if cls is None:
                known = ", ".join(sorted(self.actions))
                raise RecordError(f"{_where(path)}: unknown action type {tag!r} (known: {known})")
            return self.decoder(cls, seats)(raw, path)
        return decode


def _hints(cls: type[Any]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls, include_extras=True)
    except Exception as exc:  # a plugin's class whose hints do not resolve
        raise TypeError(f"the type hints of {_qualified(cls)} cannot be read: {exc}") from exc


def _qualified(cls: type[Any]) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _identity(v: object) -> object:
    return v


def _identity_decoder(raw: object, path: str) -> object:
    return raw


def _sort_key(v: object) -> tuple[str, str]:
    return (type(v).__name__, repr(v))


def _fits(hint: object, v: object) -> bool:
    if hint is type(None):
        return v is None
    if _is_card_hint(hint):
        return isinstance(v, int) and not isinstance(v, bool)
    origin = typing.get_origin(hint) or hint
    if origin is typing.Annotated:
        return _fits(typing.get_args(hint)[0], v)
    if origin is typing.Literal:
        return v in typing.get_args(hint)
    if hint is int:
        return isinstance(v, int) and not isinstance(v, bool)
    if origin in (Sequence, typing.Sequence):
        return isinstance(v, Sequence) and not isinstance(v, str)
    if origin in (Mapping, typing.Mapping):
        return isinstance(v, Mapping)
    return isinstance(origin, type) and isinstance(v, origin)


def _decode_card(raw: object, path: str) -> int:
    if not isinstance(raw, str):
        raise RecordError(f"{_where(path)} must be a card name, not {raw!r}")
    try:
        return parse_card(raw)
    except CardError as exc:
        raise RecordError(f"{_where(path)}: {exc}") from None


def _decode_bool(raw: object, path: str) -> bool:
    if not isinstance(raw, bool):
        raise RecordError(f"{_where(path)} must be true or false, not {raw!r}")
    return raw


def _decode_int(raw: object, path: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise RecordError(f"{_where(path)} must be an integer, not {raw!r}")
    return raw


def _decode_str(raw: object, path: str) -> str:
    if not isinstance(raw, str):
        raise RecordError(f"{_where(path)} must be a string, not {raw!r}")
    return raw


def _decode_float(raw: object, path: str) -> float:
    if not isinstance(raw, int | float) or isinstance(raw, bool):
        raise RecordError(f"{_where(path)} must be a number, not {raw!r}")
    return float(raw)


def _decode_none(raw: object, path: str) -> None:
    if raw is not None:
        raise RecordError(f"{_where(path)} must be null, not {raw!r}")


def _decode_fraction(raw: object, path: str) -> Fraction:
    if (not isinstance(raw, list | tuple) or len(raw) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in raw) or raw[1] <= 0):
        raise RecordError(f"{_where(path)} must be [numerator, denominator > 0], not {raw!r}")
    return Fraction(raw[0], raw[1])


def _literal_decoder(args: tuple[Any, ...]) -> Decoder:
    allowed = list(args)

    def decode(raw: object, path: str) -> object:
        for value in allowed:
            if raw == value and type(raw) is type(value):
                return value
        raise RecordError(f"{_where(path)} must be one of {', '.join(map(repr, allowed))}, not {raw!r}")
    return decode


def _custom_decoder(from_data: Callable[[object], object]) -> Decoder:
    def decode(raw: object, path: str) -> object:
        try:
            return from_data(raw)
        except RecordError as exc:
            raise RecordError(f"{_where(path)}: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise RecordError(f"{_where(path)}: {exc}") from None
    return decode
