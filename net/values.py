"""The form of the network layer's small values: what a core hands its driver (effects), what a
connection reports (events), the agreement's log entries and messages.

Each is an immutable dataclass with slots; :func:`value` says so once, where each class would
otherwise repeat ``@dataclass(frozen=True, slots=True)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

_T = TypeVar("_T")


@dataclass_transform(frozen_default=True)
def value(cls: type[_T]) -> type[_T]:
    """``cls`` as a frozen dataclass with slots: built from its fields, compared by them, never
    changed after it is made."""
    return dataclass(frozen=True, slots=True)(cls)
