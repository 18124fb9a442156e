"""A Königrufen club that does not play the Farbendreier (the club of docs/rules.md §16 without one game)."""

from __future__ import annotations

from collections.abc import Generator, Mapping
from typing import Any

from tarock.core.contracts import ContractSpec
from tarock.core.hookspecs import hookimpl


class NoFarbendreier:
    """Removes the Farbendreier from the rulebook's games."""

    name = "no-farbendreier"
    version = "1.0"
    applies_to = ("koenigrufen-club",)

    @hookimpl(wrapper=True)
    def tarock_contracts(self, options: Mapping[str, Any]) -> Generator[None, Any, list[ContractSpec]]:
        return [c for c in (yield) if c.name != "farbendreier"]


PLUGIN = NoFarbendreier
