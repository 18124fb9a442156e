"""The state of one hand: the whole truth, changed only by the engine."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NewType

from tarock.core.actions import Action
from tarock.core.announcement import Announcement as Announcement  # named here too, with the hand
from tarock.core.cards import SUIT_LETTERS, TAROCK, Card
from tarock.core.context import TableContext
from tarock.core.contracts import ContractSpec
from tarock.core.settlement import Item

_ALL_SEATS = tuple(tuple(range(n)) for n in range(9))

PhaseId = NewType("PhaseId", str)
"""The name of a phase of a hand (``bidding``, ``play`` ...); variants add their own."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an action is not allowed: a stable ``code`` and a sentence."""

    code: str
    message: str
    """One sentence for the player, in English."""

    def __str__(self) -> str:
        return f"{self.message} ({self.code})"


def first_reason(reasons: Iterable[Reason | None]) -> Reason | None:
    """The first refusal among ``reasons`` (asked in order, up to it); None: none refuses."""
    return next((reason for reason in reasons if reason is not None), None)


@dataclass(frozen=True, slots=True)
class Verdict:
    """A rule hook's decision: allowed, or denied with a reason.

    Rule-decision hooks answer a :class:`Verdict` or None for "no opinion",
    so a house rule (asked first) can allow what its base forbids.
    """

    allowed: bool
    """Whether the action is allowed."""
    reason: Reason | None = None

    @staticmethod
    def deny(code: str, message: str) -> Verdict:
        """A denial with its reason (the same value for the same words: rules
        deny often while legal actions are listed)."""
        return _denial(code, message)

    @staticmethod
    def refuse(code: str, template: str, *args: Any) -> Verdict:
        """A denial whose sentence is ``template.format(*args)``, formatted only
        the first time these words are asked for: rule hooks asked for every
        candidate of a legal list deny far more often than anyone reads why."""
        return _refusal(code, template, args)


ALLOW = Verdict(True)


@lru_cache(maxsize=1024)
def _denial(code: str, message: str) -> Verdict:
    return Verdict(False, Reason(code, message))


@lru_cache(maxsize=4096)
def _refusal(code: str, template: str, args: tuple[Any, ...]) -> Verdict:
    return _denial(code, template.format(*args))


@dataclass(frozen=True, slots=True)
class Contract:
    """What the auction decided: the contract, a trump suit named for it, and
    several declarers where others joined the game (Bei-games)."""

    spec: ContractSpec
    trump: str | None = None
    """The suit letter named as trumps in a ``suit`` game, else None."""
    declarers: tuple[int, ...] = ()
    """Several declarers playing the same game at once, each for himself
    (Bei-games); empty when there is one declarer (``HandState.declarer``)."""
    suit: int = field(init=False, repr=False, compare=False)
    """The suit that trumps (``core.cards`` suit index; ``TAROCK`` unless a
    ``suit`` game names one), kept for the hot path of trick play."""

    def __post_init__(self) -> None:
        named = self.trump is not None and self.spec.tricks.trump == "suit" and self.trump in SUIT_LETTERS
        object.__setattr__(self, "suit", SUIT_LETTERS.index(self.trump) if named else TAROCK)  # type: ignore[arg-type]

    @property
    def name(self) -> str:
        return self.spec.name


def declarer_seats(contract: Contract | None, declarer: int | None) -> tuple[int, ...]:
    """The declarers: a Bei-game's several, else the one ``declarer`` (none before the auction ends)."""
    if contract is not None and contract.declarers:
        return contract.declarers
    return (declarer,) if declarer is not None else ()


@dataclass(slots=True)
class Trick:
    """One trick: who led, the cards in play order, and the winner's seat."""

    leader: int
    """The seat that led."""
    seats: list[int] = field(default_factory=list)
    """The seats that played, in play order."""
    cards: list[Card] = field(default_factory=list)
    """The cards played, in play order (``cards[i]`` by ``seats[i]``)."""
    winner: int | None = None
    """The seat that took the trick; None while it is played."""

    def copy(self) -> Trick:
        return Trick(self.leader, list(self.seats), list(self.cards), self.winner)


@dataclass(frozen=True, slots=True)
class Score:
    """A variant's scoring of a finished hand: everything but the settlement.

    ``points`` are the card points of the declarer party and of the
    opponents in the variant's unit (``unit`` units make one point: 3 for
    thirds).  ``won`` is True, False or None (a draw, or each for himself).
    ``items`` are the settlement's line items (:mod:`core.settlement`).
    """

    declarers: tuple[int, ...]
    """The declarer party's seats, ascending (empty in a passed-out deal)."""
    points: tuple[int, int]
    unit: int
    won: bool | None
    items: tuple[Item, ...] = ()
    passed_out: bool = False
    """A deal nobody played: it is dealt again and is no round of the table."""
    note: str = ""
    """A short remark for the score sheet (``passed out``, ``given up``)."""
    seat_points: tuple[int, ...] = ()
    """Card points per seat where each plays for himself (Trischaken, Fahrer)."""
    next_round_factor: int = 1
    """How many times the table's next round (one deal per seat at the table)
    counts, e.g. 2 after a Fahrer; the table applies it, 1 means no effect."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of a hand: its :class:`Score` and the settlement that
    ``core`` computed from the items, one amount per seat, summing to zero."""

    declarers: tuple[int, ...]
    points: tuple[int, int]
    unit: int
    won: bool | None
    items: tuple[Item, ...]
    settlement: tuple[int, ...]
    """Each seat's amount in the variant's money unit, by seat; sums to zero."""
    passed_out: bool = False
    note: str = ""
    seat_points: tuple[int, ...] = ()
    next_round_factor: int = 1

    @classmethod
    def of(cls, score: Score, settlement: tuple[int, ...]) -> HandResult:
        return cls(score.declarers, score.points, score.unit, score.won, score.items, settlement,
                   score.passed_out, score.note, score.seat_points, score.next_round_factor)

    @property
    def game_items(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i.name == "game")

    @property
    def premium_items(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i.name != "game")


@dataclass(slots=True)
class HandState:
    """Everything about one hand.  Only :class:`core.engine.Hand` changes it."""

    variant: str
    """The variant's name."""
    options: Mapping[str, Any]
    """The table's option values, by option name."""
    seats: int
    """Seats at the table (4, or 5 where the dealer sits out)."""
    dealer: int
    """The seat that dealt this hand."""
    hands: list[list[Card]]
    """Each seat's cards in hand, by seat (empty for a seat that sits out)."""
    talon: list[list[Card]]
    """The talon piles, in deal order; a pile taken is emptied."""
    phase: PhaseId = PhaseId("bidding")
    """The phase being played; ``done`` when the hand is over."""
    to_move: int | None = None
    """The seat whose turn it is; None when the hand is over."""
    contract: Contract | None = None
    declarer: int | None = None
    """The seat that won the auction; None before, and in a passed-out deal."""
    called: Card | None = None
    """The card called for a partner, once called."""
    partner: int | None = None
    """The holder of the called card, the declarer's partner; None when the
    declarer has none (no call, or the card lies in the talon or his own hand)."""
    partner_known: bool = False
    """Whether every seat knows the partnership (the called card was played)."""
    talon_taken: list[Card] = field(default_factory=list)
    """The talon cards the declarer took into his hand."""
    discards: list[Card] = field(default_factory=list)
    """The cards the declarer laid away; they count for him."""
    kontra_level: int = 0
    """The level of the Kontra chain on the game (0: none; see the Kontra levels)."""
    announcements: list[Announcement] = field(default_factory=list)
    """Premiums announced in this hand, in the order they were made."""
    tricks: list[Trick] = field(default_factory=list)
    trick: Trick | None = None
    actions: list[Action] = field(default_factory=list)
    """Every action carried out, in order: with the deal, the hand's record."""
    result: HandResult | None = None
    data: dict[str, Any] = field(default_factory=dict)
    """Private bookkeeping of phases and plugins, keyed by their name."""
    active: tuple[int, ...] = ()
    """The seats that take part in this hand (all seats when empty)."""
    context: TableContext = field(default_factory=TableContext)
    """What the table carried into this hand (round, memory of house rules)."""
    passed_out: bool = False
    """Set by the auction when nobody plays: the hand ends and is dealt again."""

    def copy(self) -> HandState:
        """A copy that shares nothing the engine changes (the options and context it never does)."""
        return dataclasses.replace(
            self, hands=[list(h) for h in self.hands], talon=[list(p) for p in self.talon],
            talon_taken=list(self.talon_taken), discards=list(self.discards),
            announcements=list(self.announcements), tricks=[t.copy() for t in self.tricks],
            trick=self.trick.copy() if self.trick is not None else None, actions=list(self.actions),
            data=copy.deepcopy(self.data))

    @property
    def forehand(self) -> int:
        """Vorhand: the first seat after the dealer that takes part."""
        return self.next_seat(self.dealer)

    @property
    def players(self) -> tuple[int, ...]:
        """The seats taking part, in seat order."""
        return self.active or _ALL_SEATS[self.seats]

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
