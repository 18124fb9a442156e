"""Typed table options: each declared once, with its type, allowed values and default.

A plugin declares the options its rules read through ``tarock_options``
(a list of :class:`OptionSpec`); a house rule may change the default of an
option its base declares through ``tarock_option_defaults``.  Values are
checked wherever they enter: when a table is made, when a record is read,
when ``-o KEY=VALUE`` is parsed.  A wrong type or value is an
:class:`OptionError` naming the option, the value and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

OptionValue: TypeAlias = bool | int | float | str | tuple[str, ...]
"""What an option may hold: a flag, a number, a word, or a list of words."""

_KINDS: dict[type, str] = {bool: "true or false", int: "an integer", float: "a number",
                           str: "a string", tuple: "a list of strings"}


class OptionError(ValueError):
    """An option value or declaration that cannot be used; says what and why.  One a player may meet
    (a value given, an unknown name) carries a ``code`` and its ``params`` as well: the option, the
    value and what is allowed as data (kind, choices, bounds), for a client to write in the player's
    language (:class:`~core.rule_errors.RuleError` keeps them)."""

    def __init__(self, *args: object, code: str = "", params: Mapping[str, object] | None = None) -> None:
        super().__init__(*args)
        self.code = code
        self.params: dict[str, object] = dict(params or {})


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: its name, default, a one-line description and what is allowed.

    The option's type is the type of its default (``bool``, ``int``,
    ``float``, ``str`` or a tuple of strings).  ``choices`` limits it to a
    set of values; ``minimum`` and ``maximum`` bound a number.
    """

    name: str
    default: OptionValue
    description: str
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def __post_init__(self) -> None:
        kind = type(self.default)
        if kind not in _KINDS:
            raise OptionError(f"option {self.name!r}: a default must be a bool, int, float, str or "
                              f"tuple of str, not {self.default!r}")
        if kind is tuple and not all(isinstance(x, str) for x in self.default):  # type: ignore[union-attr]
            raise OptionError(f"option {self.name!r}: a list default must hold strings only")
        if not self.description.strip():
            raise OptionError(f"option {self.name!r} needs a one-line description")
        self.check(self.default, what="its default")

    @property
    def kind(self) -> type:
        """The Python type of the option's values."""
        return type(self.default)

    def allowed(self) -> str:
        """What the option accepts, in words: ``true or false``, ``one of "a", "b"``."""
        if self.choices:
            return "one of " + ", ".join(_show(c) for c in self.choices)
        text = _KINDS[self.kind]
        if self.minimum is not None and self.maximum is not None:
            return f"{text} from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"{text} of at least {self.minimum}"
        if self.maximum is not None:
            return f"{text} of at most {self.maximum}"
        return text

    def check(self, value: object, what: str = "") -> OptionValue:
        """``value`` as this option's type (a list becomes a tuple, an int a float
        where a number is asked); :class:`OptionError` saying what is allowed."""
        kind = self.kind
        out: object = value
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            out = float(value)
        elif kind is tuple and isinstance(value, list | tuple):
            out = tuple(value)
        ok = type(out) is kind and (not isinstance(out, tuple) or all(isinstance(x, str) for x in out))
        if ok and self.choices and out not in self.choices:
            ok = False
        if ok and isinstance(out, int | float) and not isinstance(out, bool) and (
                (self.minimum is not None and out < self.minimum)
                or (self.maximum is not None and out > self.maximum)):
            ok = False
        if not ok:
            label = f" ({what})" if what else ""
            raise OptionError(f"option {self.name!r}{label} must be {self.allowed()}, not {_show(value)}",
                              code="option-value", params={
                                  "name": repr(self.name), "what": what, "value": _show(value),
                                  "kind": self.kind.__name__, "choices": [_show(c) for c in self.choices],
                                  "minimum": self.minimum, "maximum": self.maximum})
        return out  # type: ignore[return-value]


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return repr(value)


def show_value(value: object) -> str:
    """An option value written as in plugins.toml and ``-o`` (JSON-like)."""
    return _show(value)


@dataclass(frozen=True, slots=True)
class Declared:
    """An option together with the plugin that declared it."""

    spec: OptionSpec
    plugin: str


def collect(declared: Sequence[tuple[str, Sequence[OptionSpec]]],
            defaults: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, Declared]:
    """The options of a ruleset from each plugin's declarations, in registration order.

    ``declared`` pairs a plugin's name with the options it declares; two
    plugins declaring the same name is an error naming both.  ``defaults``
    pairs a plugin's name with new defaults for options declared by others
    (later plugins win); each is checked against its declaration.
    """
    out: dict[str, Declared] = {}
    for plugin, specs in declared:
        for spec in specs:
            if not isinstance(spec, OptionSpec):
                raise OptionError(f"plugin {plugin!r} declares an option that is not an OptionSpec: {spec!r}")
            other = out.get(spec.name)
            if other is not None:
                raise OptionError(f"option {spec.name!r} is declared twice: by plugin {other.plugin!r} "
                                  f"and by plugin {plugin!r} (a house rule changes a default through "
                                  "tarock_option_defaults instead)")
            out[spec.name] = Declared(spec, plugin)
    for plugin, changes in defaults:
        for name, value in changes.items():
            found = out.get(name)
            if found is None:
                raise OptionError(f"plugin {plugin!r} sets a default for option {name!r}, which no plugin "
                                  f"declares (declared: {', '.join(sorted(out)) or 'none'})")
            try:
                new = found.spec.check(value, what=f"default set by plugin {plugin!r}")
            except OptionError as exc:
                raise OptionError(str(exc)) from None
            from dataclasses import replace

            out[name] = Declared(replace(found.spec, default=new), found.plugin)
    return out


def resolve(options: Mapping[str, Declared], given: Mapping[str, object],
            variant: str) -> dict[str, OptionValue]:
    """Every option's value: the defaults with ``given`` checked on top.

    An unknown name or a wrong value is an :class:`OptionError`.
    """
    unknown = sorted(set(given) - set(options))
    if unknown:
        known = ", ".join(sorted(options)) or "none"
        raise OptionError(f"unknown option(s) for {variant}: {', '.join(unknown)} (known: {known})",
                          code="unknown-option", params={"variant": variant, "names": ", ".join(unknown),
                                                         "known": "" if known == "none" else known})
    values: dict[str, OptionValue] = {name: d.spec.default for name, d in options.items()}
    for name, value in given.items():
        values[name] = options[name].spec.check(value)
    return values
