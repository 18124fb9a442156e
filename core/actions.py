"""Actions: the only things that change a hand's state.

Each action is a small frozen value with the seat that takes it.  Its record
form is a JSON object ``{"seat": s, "type": ..., ...}`` (see docs/records.md),
derived from the fields' type hints by :mod:`core.codec`; fields at their
default are left out.  Variants may add their own action types through the
``tarock_action_types`` hook; the codec decodes by the ``type`` tag.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import ClassVar

from tarock.core.cards import Card, format_card, format_cards


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action."""

    seat: int
    type: ClassVar[str] = ""
    text: ClassVar[str] = ""
    """What :meth:`describe` says: a ``str.format`` template of the fields (``"trump {suit}"``);
    empty: the ``type``."""

    def describe(self) -> str:
        """Short human text, e.g. ``pass`` or ``play XV``."""
        if not self.text:
            return self.type
        return self.text.format(**{f.name: getattr(self, f.name) for f in fields(self)})


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass in bidding ("Weiter"), or decline a Kontra level."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class CardAction(Action):
    """An action on one card; it is described by its ``type`` and the card (``play XV``)."""

    card: Card = 0

    def describe(self) -> str:
        return f"{self.type} {format_card(self.card)}"


@dataclass(frozen=True, slots=True)
class Call(CardAction):
    """Become the declarer by calling a card for a partner."""

    type: ClassVar[str] = "call"


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
class KontraTarget:
    """What a Kontra raises.

    The chain on the game (and, where a variant has one chain, everything
    with it) is ``KontraTarget()``; an announcement's own chain names it
    (``KontraTarget("trull")``); in games where each declarer settles with
    each other player alone, ``declarer=N`` is a Kontra on declarer N's game
    and ``answer=N`` the declarer's Re on the Kontra of seat N.

    Its record form is a string: ``""`` (the game), the announcement's name,
    ``"game@N"`` or ``"re@N"``.
    """

    name: str = ""
    """The announcement whose own chain is raised; ``""``: the game."""
    declarer: int | None = None
    """The declarer whose game the acting seat doubles (each settles alone)."""
    answer: int | None = None
    """The seat whose Kontra on his game the declarer answers with Re."""

    def __post_init__(self) -> None:
        if (self.declarer is not None) + (self.answer is not None) + bool(self.name) > 1:
            raise ValueError("a Kontra target is the game, one announcement, one declarer's game "
                             "or one answer")

    @property
    def game(self) -> bool:
        """Whether this is the chain on the whole game."""
        return not self.name and self.declarer is None and self.answer is None

    def to_data(self) -> str:
        if self.declarer is not None:
            return f"game@{self.declarer}"
        if self.answer is not None:
            return f"re@{self.answer}"
        return self.name

    @classmethod
    def from_data(cls, raw: object) -> KontraTarget:
        if not isinstance(raw, str):
            raise ValueError(f"a Kontra target is a string, not {raw!r}")
        kind, at, seat = raw.partition("@")
        if at:
            if kind not in ("game", "re") or not seat.isdigit() or len(seat) > 2:
                raise ValueError(f"{raw!r} is no Kontra target: write game@N or re@N with a seat N")
            return cls(declarer=int(seat)) if kind == "game" else cls(answer=int(seat))
        if raw and not all(ch.isalnum() or ch in "-_" for ch in raw):
            raise ValueError(f"{raw!r} is no Kontra target: name an announcement (letters, digits, - _)")
        return cls(raw)

    def __str__(self) -> str:
        return self.to_data() or "game"


GAME = KontraTarget()


@lru_cache(maxsize=256)
def kontra_on(name: str) -> KontraTarget:
    """The target of announcement ``name``'s own chain (``GAME`` for ``""``), one
    value per name: the Kontra phases list the targets for every turn."""
    return KontraTarget(name)
"""The Kontra chain on the whole game."""


@dataclass(frozen=True, slots=True)
class Kontra(Action):
    """Raise a Kontra chain by one level (Kontra, Rekontra, ...) on ``target``."""

    target: KontraTarget = GAME
    type: ClassVar[str] = "kontra"

    def __post_init__(self) -> None:
        if isinstance(self.target, str):  # Kontra(1, "valat"): the target's text form
            object.__setattr__(self, "target", KontraTarget.from_data(self.target))

    def describe(self) -> str:
        return "kontra" if self.target.game else f"kontra {self.target}"


@dataclass(frozen=True, slots=True)
class Trump(Action):
    """Name a trump suit (letter ``c``/``s``/``h``/``d``)."""

    suit: str = ""
    type: ClassVar[str] = "trump"
    text: ClassVar[str] = "trump {suit}"


@dataclass(frozen=True, slots=True)
class Play(CardAction):
    """Play a card to the current trick."""

    type: ClassVar[str] = "play"


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


@dataclass(frozen=True, slots=True)
class Join(Action):
    """Join a game another player bid and play it too ("Piccolo bei", docs/rules.md §6.3)."""

    contract: str = ""
    type: ClassVar[str] = "bei"
    text: ClassVar[str] = "{contract} bei"


_SEATS = 8
PLAYS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(s, c) for c in range(54)) for s in range(_SEATS))
"""``PLAYS[seat][card]``: one shared :class:`Play` per seat and card."""
_PASSES: tuple[Pass, ...] = tuple(Pass(s) for s in range(_SEATS))


def play(seat: int, card: Card) -> Play:
    """The action of ``seat`` playing ``card`` (one shared value per seat and card:
    legal-move lists are built for every card of every hand)."""
    return PLAYS[seat][card] if 0 <= seat < _SEATS else Play(seat, card)


def pass_(seat: int) -> Pass:
    """The pass of ``seat`` (one shared value per seat)."""
    return _PASSES[seat] if 0 <= seat < _SEATS else Pass(seat)


CORE_ACTIONS: tuple[type[Action], ...] = (Pass, Call, Bid, Discard, Kontra, Trump, Play, Announce, Join)
