"""A Solo for tarock54: alone against the three others, without the talon, worth 4."""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import replace
from typing import Any

from tarock.core.contracts import ContractSpec
from tarock.core.hookspecs import hookimpl


class Solo54:
    """Adds the Solo above the Rufspiel; everything else stays tarock54's."""

    name = "solo54"
    version = "1.0"
    applies_to = ("tarock54",)

    @hookimpl(wrapper=True)
    def tarock_contracts(self, options: Mapping[str, Any]) -> Generator[None, Any, list[ContractSpec]]:
        contracts = list((yield))
        top = contracts[-1]
        solo = replace(top, name="solo", title="Solo", rank=top.rank + 1, value=4, partnership="alone",
                       call=None, talon="none", description="alone against the three others, no talon")
        return [*contracts, solo]


PLUGIN = Solo54
