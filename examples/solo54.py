"""A Solo for tarock54: alone against the three others, without the talon, worth 4."""

from __future__ import annotations

from dataclasses import replace

from tarock.core.contracts import ContractSpec
from tarock.core.househooks import adding_contracts


def solo(top: ContractSpec) -> list[ContractSpec]:
    """The variant's highest contract, ``top``, changed where a Solo differs, and ranked above it."""
    return [replace(top, name="solo", title="Solo", rank=top.rank + 1, value=4, partnership="alone",
                    call=None, talon="none", description="alone against the three others, no talon")]


class Solo54:
    """Adds the Solo above the Rufspiel; everything else stays tarock54's."""

    name = "solo54"
    version = "1.1"
    applies_to = ("tarock54",)

    tarock_contracts = adding_contracts(solo)


PLUGIN = Solo54
