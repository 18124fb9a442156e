"""Finding variants: the process-wide catalogue of rulesets.

A variant is a name, a description, its option defaults and a factory for
its plugins (a base and house rules, in order).  Variants are found through
the entry-point group ``tarock.variants``; each entry point names a
:class:`Variant` object.  ``plugins.toml`` adds variants made of a base and
house-rule plugins and says which variants are offered (see
:mod:`core.plugins` and docs/plugins.md); pass it as ``config`` below.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from tarock.core.rules import RuleError, Rules

if TYPE_CHECKING:
    from tarock.core.plugins import Catalogue

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


def available_variants(config: str | os.PathLike[str] | Catalogue | None = None) -> dict[str, Variant]:
    """All variants installed, by name; with ``config`` (a plugins.toml path or
    a loaded catalogue) the variants it enables, in its order."""
    if config is not None:
        return _catalogue(config).offered()
    found: dict[str, Variant] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            variant = ep.load()
        except Exception as exc:  # a broken plugin must not hide the others
            raise RuleError(f"variant plugin {ep.name!r} ({ep.value}) failed to load: {exc!r}") from exc
        if not isinstance(variant, Variant):
            raise RuleError(f"entry point {ep.name!r} ({ep.value}) is not a Variant")
        found[variant.name] = variant
    return found


def find_variant(name: str, config: str | os.PathLike[str] | Catalogue | None = None) -> Variant:
    """The variant called ``name``; a clear error listing the known ones.

    Without ``config`` only installed variants (entry points) are found; with
    it, the variants that plugins.toml enables, including those it defines.
    """
    if config is not None:
        return _catalogue(config).find(name)
    variants = available_variants()
    try:
        return variants[name]
    except KeyError:
        known = ", ".join(sorted(variants)) or "none"
        raise RuleError(f"unknown variant {name!r} (installed: {known})") from None


def _catalogue(config: str | os.PathLike[str] | Catalogue) -> Catalogue:
    from tarock.core.plugins import Catalogue, load_plugins  # core.plugins builds on this module

    return config if isinstance(config, Catalogue) else load_plugins(config)
