"""Cards, decks and the card notation.

A card is a small integer (``Card``).  Tarocks are 0..21 (I..XXI, then the
Sküs); suit cards are ``22 + 8 * suit + rank`` with suits clubs, spades,
hearts, diamonds and ranks from the highest (King) down to the lowest pip.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Final, TypeAlias

CARD: Final = "card"
"""The marker that makes an ``int`` a card for the codec (``Annotated[int, CARD]``)."""

Card: TypeAlias = Annotated[int, CARD]
"""A card id 0..53; an ``int`` to the type checker, a card name in records and frames."""
Suit: TypeAlias = int

CLUBS: Final = 0
SPADES: Final = 1
HEARTS: Final = 2
DIAMONDS: Final = 3
TAROCK: Final = 4
"""The pseudo-suit of the tarocks."""

SUIT_LETTERS: Final = "cshd"
SUIT_SYMBOLS: Final = "♣♠♥♦"
SUIT_NAMES: Final = ("clubs", "spades", "hearts", "diamonds", "tarock")
RED: Final = frozenset({HEARTS, DIAMONDS})

KING, QUEEN, CAVALL, JACK = 0, 1, 2, 3
_COURT_LETTERS: Final = "KQCJ"
_BLACK_PIPS: Final = ("10", "9", "8", "7")
_RED_PIPS: Final = ("1", "2", "3", "4")

PAGAT: Final[Card] = 0
UHU: Final[Card] = 1
KAKADU: Final[Card] = 2
MARABU: Final[Card] = 3
MOND: Final[Card] = 20
SKUS: Final[Card] = 21
TRULL: Final = frozenset({PAGAT, MOND, SKUS})

_ROMAN: Final = (
    "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI",
    "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI",
)


class CardError(ValueError):
    """A card name that the notation does not know."""


def tarock(number: int) -> Card:
    """The tarock with this number (1 = Pagat .. 21 = Mond, 22 = Sküs)."""
    if not 1 <= number <= 22:
        raise CardError(f"there is no tarock number {number}")
    return number - 1


def suit_card(suit: Suit, rank: int) -> Card:
    """The card of ``suit`` with ``rank`` (0 = King .. 7 = lowest pip)."""
    return 22 + 8 * suit + rank


def suit_of(card: Card) -> Suit:
    """The suit of a card; ``TAROCK`` for tarocks."""
    return TAROCK if card < 22 else (card - 22) >> 3


def rank_of(card: Card) -> int:
    """Rank within the suit: 0 = King .. 7 = lowest pip; tarock number - 1."""
    return card if card < 22 else (card - 22) & 7


def is_tarock(card: Card) -> bool:
    return card < 22


def is_king(card: Card) -> bool:
    return card >= 22 and (card - 22) & 7 == KING


def strength(card: Card) -> int:
    """Order within the card's own suit: higher beats lower."""
    return card if card < 22 else 7 - ((card - 22) & 7)


def value(card: Card) -> int:
    """The card's value (Augen) as the rule texts list it: 5 for Kings and
    Trull, 4 Queen, 3 Cavall, 2 Jack, 1 for every other card."""
    if card < 22:
        return 5 if card in TRULL else 1
    return (5, 4, 3, 2, 1, 1, 1, 1)[(card - 22) & 7]


SUIT_OF: Final = tuple(suit_of(c) for c in range(54))
STRENGTH: Final = tuple(strength(c) for c in range(54))
VALUE: Final = tuple(value(c) for c in range(54))

DECK54: Final[tuple[Card, ...]] = tuple(range(54))
DECK40: Final[tuple[Card, ...]] = tuple(
    c for c in range(54) if c not in (UHU, KAKADU) and (c < 22 or rank_of(c) <= 4)
)


def format_card(card: Card) -> str:
    """Canonical name: ``XV``, ``Sküs``, ``hK``, ``c10``, ``d1``."""
    if not 0 <= card < 54:
        raise CardError(f"no card has the id {card}")
    if card == SKUS:
        return "Sküs"
    if card < 22:
        return _ROMAN[card]
    suit, rank = suit_of(card), rank_of(card)
    name = _COURT_LETTERS[rank] if rank < 4 else (_RED_PIPS if suit in RED else _BLACK_PIPS)[rank - 4]
    return SUIT_LETTERS[suit] + name


def _build_names() -> dict[str, Card]:
    names: dict[str, Card] = {}
    for card in range(54):
        names[format_card(card)] = card
    names["Skus"] = SKUS
    names["IIII"] = MARABU
    for card in range(22, 54):
        text = format_card(card)
        names[SUIT_SYMBOLS[suit_of(card)] + text[1:]] = card
    return names


_NAMES: Final = _build_names()
_NAMES_FOLDED: Final = {name.casefold(): card for name, card in _NAMES.items()}


def parse_card(text: str) -> Card:
    """Parse a card name (``XX``, ``IIII``, ``Skus``, ``♥K``, ``c10``).

    Tarock numerals and suit letters are accepted in any letter case.
    """
    name = text.strip()
    card = _NAMES.get(name)
    if card is None:
        card = _NAMES_FOLDED.get(name.casefold())
    if card is None:
        raise CardError(f"{text!r} is not a card: write tarocks as I..XXI or Sküs, "
                        "suit cards as a suit letter (c s h d) and a rank (K Q C J 10..7 / 1..4)")
    return card


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [format_card(c) for c in cards]


def sort_key(card: Card) -> tuple[int, int]:
    """Display order: tarocks high to low, then clubs, spades, hearts, diamonds."""
    return (-1, -card) if card < 22 else (suit_of(card), rank_of(card))
