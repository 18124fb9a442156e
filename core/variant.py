"""What a variant is: a name, its plugins and where it came from.

:mod:`core.registry` finds the installed variants, :mod:`core.plugins` makes
more from plugins.toml; both build on this module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock.core.rules import Rules

ENTRY_POINT_GROUP = "tarock.variants"


@dataclass(frozen=True)
class Origin:
    """Where a variant came from, as data, for a client to say in its language."""

    package: str = ""
    """The installed package (distribution) whose entry point offers it."""
    entry_point: str = ""
    """That entry point's target, ``module:attr``."""
    config: str = ""
    """The plugins.toml whose ``[[variant]]`` defines it."""
    base: str = ""
    """The variant it is built on (a ``[[variant]]``'s ``base``)."""
    plugins: tuple[tuple[str, str, str, str], ...] = ()
    """Its house rules: ``(name, version, file, entry point)``, one of the last two empty."""
    titled: bool = True
    """False when the ``[[variant]]`` gives no title: the base's title + the plugins' names."""


@dataclass(frozen=True)
class Variant:
    """A ruleset that can be played: a name and the plugins that make it."""

    name: str
    title: str
    plugins: Callable[[], Sequence[object]]
    description: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    """Option presets of this variant; a table's own options override them."""
    lineage: tuple[str, ...] = ()
    """The variants this one is built on, nearest first (house rules over a base)."""
    lobby_order: int = 100
    """Where the lobby lists this variant when no plugins.toml orders them
    (lowest first, then by name); the first is preselected."""
    origin: str = ""
    """Where it came from: an installed package's entry point, or a plugins.toml (in English)."""
    source: Origin = field(default_factory=Origin)
    """The same as data (empty for a Variant made in code)."""

    def rules(self, options: dict[str, Any] | None = None) -> Rules:
        """A fresh ruleset (own plugin manager) for one table."""
        return Rules(self.name, self.plugins(), {**self.options, **(options or {})}, self.title)
