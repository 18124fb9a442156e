"""Card facts of the 40-card games (docs/rules.md §13, "Variante 40 Blatt").

Shared by ``tarock40``, its house rules and the Valat check: counting card
by card and the redeal rule.  Trick play (the Kaiserstich, the Faberl's
chosen trump suit) is data: :class:`core.contracts.TrickRules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tarock.core.cards import TRULL, VALUE, Card, format_card, rank_of

TOTAL: Final = 88
"""All card points of the 40-card deck (docs/rules.md §5.4: "genau 88 Augen")."""

VALUE40: Final = tuple(0 if c >= 22 and rank_of(c) == 4 else VALUE[c] for c in range(54))
"""Card points counted card by card: the pip card of each suit ("Glatze") counts nothing."""


def count40(cards: Sequence[Card]) -> int:
    """Card points of a party's cards, card by card (88 in the whole deck)."""
    return sum(map(VALUE40.__getitem__, cards))


def redeal_reason(hands: Sequence[Sequence[Card]]) -> str | None:
    """docs/rules.md §3.3: "Jedes Blatt braucht mindestens ein Tarock, ein einzelnes
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
