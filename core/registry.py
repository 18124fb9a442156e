"""Finding variants: the process-wide catalogue of rulesets.

A variant is a name, a description, its option defaults and a factory for
its plugins (a base and house rules, in order).  Variants are found through
the entry-point group ``tarock.variants``; each entry point names a
:class:`Variant` object.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from core.rules import Rules, RuleError

ENTRY_POINT_GROUP = "tarock.variants"


@dataclass(frozen=True)
class Variant:
    """A ruleset that can be played: a name and the plugins that make it."""

    name: str
    title: str
    plugins: Callable[[], Sequence[object]]
    description: str = ""

    def rules(self, options: dict[str, Any] | None = None) -> Rules:
        """A fresh ruleset (own plugin manager) for one table."""
        return Rules(self.name, self.plugins(), options)


def available_variants() -> dict[str, Variant]:
    """All variants installed, by name."""
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


def find_variant(name: str) -> Variant:
    """The variant called ``name``; a clear error listing the known ones."""
    variants = available_variants()
    try:
        return variants[name]
    except KeyError:
        raise RuleError(f"unknown variant {name!r} (installed: {', '.join(sorted(variants)) or 'none'})") from None
