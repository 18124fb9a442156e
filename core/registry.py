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

from tarock.core.plugins import Catalogue, installed_variants, load_plugins
from tarock.core.rules import RuleError
from tarock.core.variant import ENTRY_POINT_GROUP, Origin, Variant

__all__ = ["ENTRY_POINT_GROUP", "Origin", "Variant", "available_variants", "find_variant"]
"""Variant and Origin live in :mod:`core.variant` (core.plugins builds on them); they are
named here too, where a variant plugin finds them."""


def available_variants(config: str | os.PathLike[str] | Catalogue | None = None) -> dict[str, Variant]:
    """All variants installed, by name (one that fails to load is left out: :func:`find_variant`
    names its error); with ``config`` (a plugins.toml path or a loaded catalogue) the variants it
    enables, in its order."""
    if config is not None:
        return _catalogue(config).offered()
    return installed_variants()[0]


def find_variant(name: str, config: str | os.PathLike[str] | Catalogue | None = None) -> Variant:
    """The variant called ``name``; a clear error listing the known ones.

    Without ``config`` only installed variants (entry points) are found; with
    it, the variants that plugins.toml enables, including those it defines.
    """
    if config is not None:
        return _catalogue(config).find(name)
    variants, broken = installed_variants()
    if name in variants:
        return variants[name]
    if name in broken:
        raise RuleError(broken[name])
    known = ", ".join(sorted(variants)) or "none"
    raise RuleError(f"unknown variant {name!r} (installed: {known})")


def _catalogue(config: str | os.PathLike[str] | Catalogue) -> Catalogue:
    return config if isinstance(config, Catalogue) else load_plugins(config)
