"""Action types Königrufen adds to the record vocabulary (see docs/records.md).

The core actions are used where they fit: ``bid`` (also "Vorhand!" as the
contract ``vorhand``), ``pass`` ("Weiter!" in the auction, "Gut!" in the
announcements), ``call``, ``discard``, ``announce``, ``kontra`` and ``play``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from core.actions import Action


@dataclass(frozen=True, slots=True)
class Bei(Action):
    """Join a negative game another player bid: play it too ("Piccolo bei")."""

    contract: str = ""
    type: ClassVar[str] = "bei"

    def describe(self) -> str:
        return f"{self.contract} bei"


@dataclass(frozen=True, slots=True)
class TakeTalon(Action):
    """Take one half of the talon (pile 0 or 1)."""

    pile: int = 0
    type: ClassVar[str] = "talon"

    def describe(self) -> str:
        return f"take talon half {self.pile + 1}"


@dataclass(frozen=True, slots=True)
class GiveUp(Action):
    """Give the game up ("schleifen") when the called King lies in the talon."""

    type: ClassVar[str] = "give-up"

    def describe(self) -> str:
        return "give up"


KOENIGRUFEN_ACTIONS: tuple[type[Action], ...] = (Bei, TakeTalon, GiveUp)
