"""A premium worth more: in this club the 40-card Valat is worth 10 silent and 20 announced
(docs/rules.md §13.6 says 6 and 12).

Only the values change: core's settlement still doubles them in single games and applies
the Kontra chain to them, as it did to the old ones.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from tarock.core.contracts import PremiumSpec
from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec


class ValatWorthMore:
    """The Valat's values from two options."""

    name = "valat-worth-more"
    version = "1.0"
    applies_to = ("tarock40",)

    @hookimpl
    def tarock_options(self) -> Sequence[OptionSpec]:
        return [OptionSpec("valat", 10, "points for a silent Valat", minimum=0),
                OptionSpec("valat_announced", 20, "points for an announced Valat", minimum=0)]

    @hookimpl(wrapper=True)
    def tarock_premium_specs(self, options: Mapping[str, Any]) -> Generator[None, Any, list[PremiumSpec]]:
        return [replace(p, silent=options["valat"], announced=options["valat_announced"]) if p.name == "valat"
                else p for p in (yield)]


PLUGIN = ValatWorthMore
