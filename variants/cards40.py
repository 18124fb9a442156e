"""Card logic of the 40-card games (seed 000, "Variante 40 Blatt").

Shared by ``tarock40``, its house rules and the Valat check: counting card
by card, the redeal rule, the Kaiserstich, and the Faberl (a chosen trump
suit, the tarocks a plain suit).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from core.cards import (
    MOND,
    PAGAT,
    SKUS,
    STRENGTH,
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_OF,
    TRULL,
    VALUE,
    Card,
    Suit,
    format_card,
    rank_of,
)
from core.state import Reason
from variants.common import tarock_trick_winner

TOTAL: Final = 88
"""All card points of the 40-card deck (seed 000: "genau 88 Augen")."""

VALUE40: Final = tuple(0 if c >= 22 and rank_of(c) == 4 else VALUE[c] for c in range(54))
"""Card points counted card by card: the pip card of each suit ("Glatze") counts nothing."""


def count40(cards: Sequence[Card]) -> int:
    """Card points of a party's cards, card by card (88 in the whole deck)."""
    return sum(VALUE40[c] for c in cards)


def redeal_reason(hands: Sequence[Sequence[Card]]) -> str | None:
    """Seed 000: "Jedes Blatt braucht mindestens ein Tarock, ein einzelnes
    Trullstück zählt nicht dazu."  A hand whose only tarock is one Trull card,
    or that has none, is dealt again."""
    for seat, hand in enumerate(hands):
        if not hand:
            continue
        tarocks = [c for c in hand if c < 22]
        if not tarocks:
            return f"seat {seat} holds no tarock"
        if len(tarocks) == 1 and tarocks[0] in TRULL:
            return f"seat {seat} holds no tarock but a lone {format_card(tarocks[0])}"
    return None


def kaiser_winner(cards: Sequence[Card]) -> int:
    """Trick winner when tarocks trump, with the Kaiserstich (seed 000: "Liegen
    Pagat, Mond und Sküs im selben Stich, gewinnt der Pagat")."""
    if PAGAT in cards and MOND in cards and SKUS in cards:
        return list(cards).index(PAGAT)
    return tarock_trick_winner(cards)


def suit_index(letter: str) -> Suit:
    """The suit of a trump letter ``c``/``s``/``h``/``d``; ValueError otherwise."""
    if len(letter) != 1 or letter not in SUIT_LETTERS:
        raise ValueError(f"{letter!r} is not a suit letter (c, s, h, d)")
    return SUIT_LETTERS.index(letter)


_LITERAL_LOW: Final = {PAGAT: 0, MOND: 1, SKUS: 2}


def faberl_strength(xx_high: bool = False) -> tuple[int, ...]:
    """Order of every card within its suit in a Faberl (higher beats lower).

    Tarocks keep their normal order (Sküs > Mond > XX > ... > Pagat, RULES.md
    decision 4).  With ``xx_high`` the seed's literal words hold: "der XX ist
    ihre höchste, der Pagat ihre niedrigste Karte"; Mond and Sküs, which the
    sentence forgets, then rank just above the Pagat (Pagat < Mond < Sküs < IV).
    """
    if not xx_high:
        return STRENGTH
    return tuple(_LITERAL_LOW.get(c, c + 3) if c < 22 else STRENGTH[c] for c in range(54))


FABERL_STRENGTH: Final = faberl_strength(False)


def faberl_legal(hand: Sequence[Card], trick: Sequence[Card], trump: Suit,
                 strength: Sequence[int] = FABERL_STRENGTH) -> list[Card]:
    """Legal cards in a Faberl (RULES.md decisions 4 and 12).

    Follow the led suit (the tarocks are a plain suit); without it play a
    trump; without trumps anything.  Whoever plays a trump while a trump lies
    in the trick must beat it if able.
    """
    if not trick:
        return list(hand)
    led = SUIT_OF[trick[0]]
    same = [c for c in hand if SUIT_OF[c] == led]
    if same and led != trump:
        return same
    trumps = same if same else [c for c in hand if SUIT_OF[c] == trump]
    if not trumps:
        return list(hand)
    top = max((strength[c] for c in trick if SUIT_OF[c] == trump), default=-1)
    if top >= 0:
        higher = [c for c in trumps if strength[c] > top]
        if higher:
            return higher
    return trumps


def faberl_reason(hand: Sequence[Card], trick: Sequence[Card], card: Card, trump: Suit,
                  strength: Sequence[int] = FABERL_STRENGTH) -> Reason:
    """Why ``card`` breaks :func:`faberl_legal`."""
    led = SUIT_OF[trick[0]]
    if SUIT_OF[card] != led and any(SUIT_OF[c] == led for c in hand):
        return Reason("must-follow-suit", f"you must follow suit ({SUIT_NAMES[led]})")
    if SUIT_OF[card] == trump:
        top = max((c for c in trick if SUIT_OF[c] == trump), key=lambda c: strength[c])
        return Reason("must-overtrump",
                      f"a trump lies in the trick: you must beat {format_card(top)} if you can")
    return Reason("must-play-trump",
                  f"you cannot follow suit, so you must play a trump ({SUIT_NAMES[trump]})")


def faberl_winner(cards: Sequence[Card], trump: Suit,
                  strength: Sequence[int] = FABERL_STRENGTH) -> int:
    """Index of the winner in a Faberl: the highest trump, else the highest
    card of the led suit (no Kaiserstich)."""
    best = 0
    for i in range(1, len(cards)):
        card, top = cards[i], cards[best]
        if SUIT_OF[card] == SUIT_OF[top]:
            if strength[card] > strength[top]:
                best = i
        elif SUIT_OF[card] == trump:
            best = i
    return best

