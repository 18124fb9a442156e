"""A sound house rule for any variant: a Valat counts double (silent and announced)."""

from collections.abc import Generator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from tarock.core.contracts import PremiumSpec
from tarock.core.hookspecs import hookimpl


class ValatDouble:
    name = "valat-double"
    version = "1.0"

    @hookimpl(wrapper=True)
    def tarock_premium_specs(self, options: Mapping[str, Any]) -> Generator[None, Any, Sequence[PremiumSpec]]:
        premiums: Sequence[PremiumSpec] = (yield) or ()
        return [replace(p, silent=2 * p.silent, announced=2 * p.announced) if p.name == "valat" else p
                for p in premiums]


PLUGIN = ValatDouble
