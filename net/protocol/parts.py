"""Values that appear inside protocol messages: a seat of the table, the table itself."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tarock.net.protocol.fields import Hash, Node, check_fields


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of the table: who sits there, its public key and where to reach that
    node.  ``local``: played on the host's node (a bot of ``tarock host --bots``),
    not a node of its own, so it is no successor."""

    seat: int
    node: Node
    name: str
    key: Hash
    addresses: tuple[str, ...]
    port: int
    local: bool

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What every node must agree on to play together."""

    id: Node
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
        check_options(self.options)


def check_options(options: object) -> None:
    """ValueError unless ``options`` (a table's variant options) is a map."""
    if not isinstance(options, Mapping):
        raise ValueError("options must be a map")
