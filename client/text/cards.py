"""Cards and suits in words: a card as the player types it (``hK``, German
``kD``) or with its suit symbol (``♥K``, German ``♥D``), the suits' names,
and a count of cards."""

from __future__ import annotations

from collections.abc import Sequence

from tarock.client.i18n import NP_, Catalogue, _, n_, p_
from tarock.client.text.figures import PLAIN, Style
from tarock.core.cards import (
    SKUS,
    SUIT_LETTERS,
    SUIT_OF,
    SUIT_SYMBOLS,
    TAROCK,
    Card,
    format_card,
    rank_of,
    sort_key,
)

SUIT_WORDS = {"c": NP_("suit", "clubs"), "s": NP_("suit", "spades"), "h": NP_("suit", "hearts"),
              "d": NP_("suit", "diamonds")}
"""The suits' names by letter (translated with :func:`suit_name`)."""
SUIT_MARKS = {"c": NP_("suit-letter", "c"), "s": NP_("suit-letter", "s"), "h": NP_("suit-letter", "h"),
              "d": NP_("suit-letter", "d")}
"""The letter of each suit in a card's typed name (German ``t p h k``: Treff, Pik, Herz, Karo)."""
RANKS = (NP_("card", "K"), NP_("card", "Q"), NP_("card", "C"), NP_("card", "J"))
"""King, Queen, Cavall, Jack in a card's name (German K D C B)."""


def rank_text(card: Card, catalogue: Catalogue | None = None) -> str:
    """A suit card's rank as written: ``K``/``D``/``C``/``B`` (German) for court cards, the pip's number."""
    rank = rank_of(card)
    if rank < 4:
        return catalogue.get(RANKS[rank], "card") if catalogue is not None else p_("card", RANKS[rank])
    return format_card(card)[1:]


def card_text(card: Card, style: Style = PLAIN, catalogue: Catalogue | None = None) -> str:
    """A card: ``XV``, ``Sküs``, and a suit card as typed (``hK``, ``c10``; German
    ``kD``, ``tB``) or with its symbol (``♥K``); in ``catalogue``'s language if given."""
    if card == SKUS:
        return catalogue.get("Sküs", "card") if catalogue is not None else p_("card", "Sküs")
    if card < 22:
        return format_card(card)
    suit = SUIT_OF[card]
    if style.symbols:
        mark = SUIT_SYMBOLS[suit]
    else:
        letter = SUIT_MARKS[SUIT_LETTERS[suit]]
        mark = catalogue.get(letter, "suit-letter") if catalogue is not None else p_("suit-letter", letter)
    return mark + rank_text(card, catalogue)


def cards_line(cards: Sequence[Card], style: Style = PLAIN) -> str:
    """Cards in display order, separated by spaces."""
    return " ".join(card_text(c, style) for c in sorted(cards, key=sort_key))


def cards_text(cards: Sequence[Card], style: Style = PLAIN) -> str:
    """Cards in display order, grouped by suit: ``Sküs XX VII | cK c10 | hQ``."""
    grouped: dict[int, list[str]] = {}
    for card in sorted(cards, key=sort_key):
        grouped.setdefault(SUIT_OF[card], []).append(card_text(card, style))
    order = [TAROCK, *range(len(SUIT_LETTERS))]
    return " | ".join(" ".join(grouped[s]) for s in order if s in grouped) or _("(none)")


def suit_name(letter: str) -> str:
    """``hearts`` (``Herz``) for ``h``."""
    return p_("suit", SUIT_WORDS[letter]) if letter in SUIT_WORDS else letter


def suit_text(letter: str, style: Style = PLAIN) -> str:
    """A suit by its name, with its symbol in the symbol style: ``♥ Herz``."""
    if letter not in SUIT_LETTERS or not style.symbols:
        return suit_name(letter)
    return f"{SUIT_SYMBOLS[SUIT_LETTERS.index(letter)]} {suit_name(letter)}"


def count_line(n: int) -> str:
    """``5 cards``."""
    return n_("{n} card", "{n} cards", n).format(n=n)
