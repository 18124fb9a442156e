"""The state of one hand: the whole truth, changed only by the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.actions import Action
from core.cards import Card


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an action is not allowed: a stable ``code`` and a sentence."""

    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.message} ({self.code})"


@dataclass(frozen=True, slots=True)
class Contract:
    """What the auction decided; variants fill in the fields they use.

    ``value`` is the game value per opponent; ``solo`` means the declarer
    plays alone from the start; ``trump`` names a suit letter for games with
    a chosen trump suit, ``None`` when tarocks are trumps.
    """

    name: str
    value: int = 1
    solo: bool = False
    trump: str | None = None
    announcements: tuple[str, ...] = ()
    declarers: tuple[int, ...] = ()
    """Several declarers playing the same game at once, each for himself
    (Bei-games); empty when there is one declarer (``HandState.declarer``)."""


@dataclass(slots=True)
class Trick:
    """One trick: who led, the cards in play order, and the winner's seat."""

    leader: int
    seats: list[int] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class Premium:
    """A premium scored in a hand, from the declarer party's side.

    ``value`` is signed: positive when the declarer party earns it.
    """

    name: str
    value: int
    announced: bool = False
    kontra: int = 0
    """The Kontra level on this premium alone (variants with a Kontra per
    announcement); its factor ``2 ** kontra`` is already in ``value``."""


@dataclass(frozen=True, slots=True)
class Announcement:
    """A premium or goal announced (angesagt) by ``seat``.

    ``name`` is the variant's word for it (``pagat``, ``trull``, ``valat``,
    ``absolut`` ...).  ``against`` marks an announcement made for the
    declarer's opponents ("Gegen das Spiel"); otherwise it is for the
    declarer's party.  ``kontra`` is the level of its own Kontra chain where
    a variant keeps one per announcement (0 otherwise).
    """

    name: str
    seat: int
    against: bool = False
    kontra: int = 0


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of a hand.

    ``points`` are the card points of the declarer party and of the
    opponents in the variant's unit (``unit`` units make one point: 3 for
    thirds).  ``won`` is True, False or None (a draw).  ``settlement`` holds
    one amount per seat and sums to zero.
    """

    declarers: tuple[int, ...]
    points: tuple[int, int]
    unit: int
    won: bool | None
    game: int
    premiums: tuple[Premium, ...]
    factor: int
    settlement: tuple[int, ...]
    note: str = ""
    seat_points: tuple[int, ...] = ()
    """Card points per seat where each plays for himself (Trischaken, Fahrer)."""
    next_round_factor: int = 1
    """How many times the table's next round (one deal per seat at the table)
    counts, e.g. 2 after a Fahrer; the table applies it, 1 means no effect."""


@dataclass(slots=True)
class HandState:
    """Everything about one hand.  Only :class:`core.engine.Hand` changes it."""

    variant: str
    options: dict[str, Any]
    seats: int
    dealer: int
    hands: list[list[Card]]
    talon: list[list[Card]]
    phase: str = "bidding"
    to_move: int | None = None
    contract: Contract | None = None
    declarer: int | None = None
    called: Card | None = None
    partner: int | None = None
    partner_known: bool = False
    talon_taken: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    kontra_level: int = 0
    announcements: list[Announcement] = field(default_factory=list)
    """Premiums announced in this hand, in the order they were made."""
    tricks: list[Trick] = field(default_factory=list)
    trick: Trick | None = None
    actions: list[Action] = field(default_factory=list)
    result: HandResult | None = None
    data: dict[str, Any] = field(default_factory=dict)
    """Private bookkeeping of phases and plugins, keyed by their name."""
    active: tuple[int, ...] = ()
    """The seats that take part in this hand (all seats when empty)."""

    @property
    def forehand(self) -> int:
        """Vorhand: the first seat after the dealer that takes part."""
        return self.next_seat(self.dealer)

    @property
    def players(self) -> tuple[int, ...]:
        """The seats taking part, in seat order."""
        return self.active or tuple(range(self.seats))

    def next_seat(self, seat: int) -> int:
        """The next seat that takes part in this hand (seat + 1 onwards)."""
        nxt = (seat + 1) % self.seats
        if self.active:
            while nxt not in self.active:
                nxt = (nxt + 1) % self.seats
        return nxt

    def declarer_party(self) -> frozenset[int]:
        """The declarer and the partner (if any): the true parties."""
        if self.declarer is None:
            return frozenset()
        if self.partner is None:
            return frozenset({self.declarer})
        return frozenset({self.declarer, self.partner})

    def holder(self, card: Card) -> int | None:
        """The seat holding ``card`` now, or None (talon, played, discarded)."""
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return seat
        return None
