"""Action types Königrufen adds to the record vocabulary (see docs/records.md).

The core actions are used where they fit: ``bid`` (also "Vorhand!" as the
contract ``vorhand``), ``bei`` (core's :class:`~core.actions.Join`), ``pass``
("Weiter!" in the auction, "Gut!" in the announcements), ``call``,
``discard``, ``announce``, ``kontra`` and ``play``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tarock.core.actions import Action, Join

Bei = Join
"""Join a negative game another player bid ("Piccolo bei"): core's ``bei`` action."""


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
    text: ClassVar[str] = "give up"


KOENIGRUFEN_ACTIONS: tuple[type[Action], ...] = (TakeTalon, GiveUp)
