"""Actions: the only things that change a hand's state.

Each action is a small frozen value with the seat that takes it.  Its record
form is a JSON object ``{"seat": s, "type": ..., ...}`` (see docs/records.md),
derived from the fields' type hints by :mod:`core.codec`; fields at their
default are left out.  Variants may add their own action types through the
``tarock_action_types`` hook; the codec decodes by the ``type`` tag.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from core.cards import Card, format_card, format_cards

if TYPE_CHECKING:
    from core.codec import Codec

_CODEC: Codec | None = None


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action."""

    seat: int
    type: ClassVar[str] = ""

    def to_record(self) -> dict[str, Any]:
        """The record form of this action, derived from its fields' type hints."""
        global _CODEC
        if _CODEC is None:
            from core.codec import Codec

            _CODEC = Codec()
        out: dict[str, Any] = _CODEC.encode_action(self)
        return out

    def describe(self) -> str:
        """Short human text, e.g. ``pass`` or ``play XV``."""
        return self.type


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass in bidding ("Weiter"), or decline a Kontra level."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Call(Action):
    """Become the declarer by calling a card for a partner."""

    card: Card = 0
    type: ClassVar[str] = "call"

    def describe(self) -> str:
        return f"call {format_card(self.card)}"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Bid a named contract, optionally with announcements."""

    contract: str = ""
    announce: tuple[str, ...] = field(default=())
    type: ClassVar[str] = "bid"

    def describe(self) -> str:
        extra = f" + {', '.join(self.announce)}" if self.announce else ""
        return f"bid {self.contract}{extra}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Lay cards away (drücken) after taking talon cards."""

    cards: tuple[Card, ...] = ()
    type: ClassVar[str] = "discard"

    def describe(self) -> str:
        return "discard " + " ".join(format_cards(self.cards))


@dataclass(frozen=True, slots=True)
class Kontra(Action):
    """Raise a Kontra chain by one level (Kontra, Rekontra, ...).

    ``target`` is empty for the chain on the game (and, where a variant says
    so, everything with it); otherwise the name of an announcement
    (``Announcement.name``) whose own chain is raised.
    """

    target: str = ""
    type: ClassVar[str] = "kontra"

    def describe(self) -> str:
        return f"kontra {self.target}" if self.target else "kontra"


@dataclass(frozen=True, slots=True)
class Trump(Action):
    """Name a trump suit (letter ``c``/``s``/``h``/``d``)."""

    suit: str = ""
    type: ClassVar[str] = "trump"

    def describe(self) -> str:
        return f"trump {self.suit}"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the current trick."""

    card: Card = 0
    type: ClassVar[str] = "play"

    def describe(self) -> str:
        return f"play {format_card(self.card)}"


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """Announce premiums (Ansagen, Zusätze) without bidding a game.

    ``against`` marks announcements made for the declarer's opponents
    ("Gegen das Spiel"), so every announcement says which party it is for.
    """

    announce: tuple[str, ...] = field(default=())
    against: bool = False
    type: ClassVar[str] = "announce"

    def describe(self) -> str:
        side = " (gegen das Spiel)" if self.against else ""
        return f"announce {', '.join(self.announce)}{side}"


CORE_ACTIONS: tuple[type[Action], ...] = (Pass, Call, Bid, Discard, Kontra, Trump, Play, Announce)
