"""How a card looks: suit symbols, court cards in their colours, the order of a hand.

docs/rules.md §2.4: "Jede Hofkarte hat ihre eigene Farbe: König lila, Dame rubinrot,
Cavall grün, Bube blau."  The words are the text layer's (:mod:`client.text.cards`:
German K D C B, English K Q C J; the tarocks keep their numerals).  A hand is
sorted with the game's trumps first: the tarocks, or in a game where a
named suit trumps (Faberl) that suit, or in a colour game the suits.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarock.client.text.cards import card_text as text_card
from tarock.client.text.cards import rank_text
from tarock.client.text.figures import SYMBOLS
from tarock.core.cards import (
    MOND,
    PAGAT,
    RED,
    SKUS,
    SUIT_OF,
    SUIT_SYMBOLS,
    TAROCK,
    Card,
    Suit,
    rank_of,
    sort_key,
)
from tarock.core.contracts import TrickRules

Fragments = list[tuple[str, str]]

COURT_STYLES: tuple[str, ...] = (
    "class:court.king",
    "class:court.queen",
    "class:court.cavall",
    "class:court.jack",
)
"""The style classes of King, Queen, Cavall and Jack (colours in :mod:`client.ui.style`)."""


def card_text(card: Card) -> str:
    """The card as the full-screen client writes it: ``♥K``, ``♣10``, ``XX``, ``Sküs``."""
    return text_card(card, SYMBOLS)


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as plain text, separated by spaces."""
    return " ".join(card_text(c) for c in cards)


def card_fragments(card: Card, extra: str = "") -> Fragments:
    """The card in colour: the suit symbol red or black, the court card's
    letter in its own colour, the Trull marked; ``extra`` style classes
    (``class:card.dimmed``, ``class:card.lifted`` ...) are added to each part."""
    more = f" {extra}" if extra else ""
    if card < 22:
        style = "class:tarock.trull" if card in (PAGAT, MOND, SKUS) else "class:tarock"
        return [(style + more, card_text(card))]
    suit = SUIT_OF[card]
    symbol = "class:suit.red" if suit in RED else "class:suit.black"
    rank = rank_of(card)
    rank_style = COURT_STYLES[rank] if rank < 4 else "class:pip"
    return [(symbol + more, SUIT_SYMBOLS[suit]), (rank_style + more, rank_text(card))]


def width(card: Card) -> int:
    """The card's width on screen (every glyph here is one column wide)."""
    return len(card_text(card))


def trump_suit(tricks: TrickRules | None, suit: Suit | None) -> Suit | None:
    """The suit that trumps in a game: ``TAROCK``, a named suit, or None in a
    colour game (the tarocks win only tarock tricks) and before the game is known."""
    if tricks is None:
        return TAROCK
    if tricks.trump == "suit":
        return suit if suit is not None and suit != TAROCK else None
    if tricks.trump == "colour":
        return None
    return TAROCK


def hand_order(
    cards: Sequence[Card], tricks: TrickRules | None = None, suit: Suit | None = None
) -> list[Card]:
    """``cards`` sorted for the hand: the game's trumps first, high to low."""
    if tricks is not None and tricks.trump == "suit" and suit is not None and suit != TAROCK:

        def key(card: Card) -> tuple[int, int, int]:
            s = SUIT_OF[card]
            group = 0 if s == suit else 2 if s == TAROCK else 1
            return (group, s, -card if s == TAROCK else rank_of(card))

        return sorted(cards, key=key)
    if tricks is not None and tricks.trump == "colour":
        return sorted(cards, key=lambda c: (1 if c < 22 else 0, *sort_key(c)))
    return sorted(cards, key=sort_key)


def groups(cards: Sequence[Card]) -> list[list[Card]]:
    """Consecutive cards of one suit, in the given order (for separators)."""
    out: list[list[Card]] = []
    for card in cards:
        if out and SUIT_OF[out[-1][-1]] == SUIT_OF[card]:
            out[-1].append(card)
        else:
            out.append([card])
    return out
