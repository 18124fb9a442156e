"""Values that appear inside protocol messages: a seat of the table, the table itself."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tarock.net.protocol.fields import HEX_64, check_fields, check_node


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of the table: who sits there, its public key and where to reach that
    node.  ``local``: played on the host's node (a bot of ``tarock host --bots``),
    not a node of its own, so it is no successor."""

    seat: int
    node: str
    name: str
    key: str
    addresses: tuple[str, ...]
    port: int
    local: bool

    def __post_init__(self) -> None:
        check_fields(self)
        check_node(self.node)
        if not HEX_64.fullmatch(self.key):
            raise ValueError("key must be 64 lowercase hex digits")


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What every node must agree on to play together."""

    id: str
    name: str
    variant: str
    options: Any
    rules: str
    rounds: int
    seats: int
    dealing: str
    private: bool

    def __post_init__(self) -> None:
        check_fields(self)
        check_node(self.id, "table id")
        if not isinstance(self.options, Mapping):
            raise ValueError("options must be a map")
