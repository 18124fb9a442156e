"""Trick play on bit sets: the search's fast path for :mod:`core.tricks`.

A hand is an ``int`` whose bit ``c`` is set when it holds card ``c``
(``core.cards`` ids: tarocks 0..21, then the four suits of eight).  A
:class:`TrickModel` answers, for one contract's
:class:`~core.contracts.TrickRules` and trump suit, which cards of a hand
may go to a trick and who wins a trick, exactly as :func:`core.tricks.legal`
and :func:`core.tricks.winner` do (tests/test_search_fastplay.py checks
them against the functions and the engine on committed positions and on
random ones).  The search uses it where a table's legal plays and trick
winners are core's data rules alone (:mod:`client.bots.rulebook`); where a
variant or house rule adds its own it asks the engine instead
(:mod:`client.bots.simulate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tarock.core.cards import MOND, PAGAT, SKUS, STRENGTH, SUIT_OF, TAROCK, Card, Suit
from tarock.core.contracts import TrickRules
from tarock.core.tricks import strength_order
from tarock.core.tricks import winner as core_winner

TAROCKS: Final = (1 << 22) - 1
SUIT_MASK: Final = (*(0xFF << (22 + 8 * s) for s in range(4)), TAROCKS)
"""Per suit (``TAROCK`` = 4 last) the bits of its cards."""
PAGAT_BIT: Final = 1 << PAGAT
TRULL_BITS: Final = (1 << PAGAT) | (1 << MOND) | (1 << SKUS)
ALL: Final = (1 << 54) - 1


def bits(cards: Sequence[Card] | frozenset[Card] | set[Card]) -> int:
    """The bit set of ``cards``."""
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def cards_of(mask: int) -> list[Card]:
    """The cards of ``mask`` in ascending id order."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: int) -> int:
    return mask.bit_count()


def _above(order: Sequence[int]) -> tuple[int, ...]:
    """Per card, the bits of the cards of its suit that beat it in ``order``."""
    out = []
    for card in range(54):
        suit = SUIT_OF[card]
        m = 0
        for other in range(54):
            if SUIT_OF[other] == suit and order[other] > order[card]:
                m |= 1 << other
        out.append(m)
    return tuple(out)


ABOVE: Final = _above(STRENGTH)
"""Per card, the cards of its suit ranked above it (normal order)."""
ABOVE_LITERAL: Final = _above(strength_order(True))
"""The same with the tarocks in the literal Faberl order of docs/rules.md §4.5 (XX high)."""


class TrickModel:
    """Legal cards and trick winners of one contract on bit sets.

    ``rules`` are the contract's trick rules, ``trump`` the suit that
    trumps (``TAROCK`` unless a ``suit`` game names one); the answers are
    those of :mod:`core.tricks` for the same arguments.
    """

    __slots__ = ("_above_trump", "colour", "kaiser", "must_win", "overtrump", "pagat_last", "rules",
                 "strength", "suit_game", "trump", "trump_mask")

    def __init__(self, rules: TrickRules, trump: Suit = TAROCK) -> None:
        self.rules = rules
        self.trump = trump
        self.colour = rules.trump == "colour"
        self.suit_game = rules.trump == "suit" and trump != TAROCK
        self.trump_mask = SUIT_MASK[trump]
        self.overtrump = rules.overtrump and not self.colour
        self.must_win = rules.must_win
        self.pagat_last = rules.pagat_last
        self.kaiser = rules.trull_trick
        self.strength: Sequence[int] = strength_order(rules.xx_high) if self.suit_game else STRENGTH
        # the cards beating a trump within the trump suit (core: STRENGTH for the tarocks,
        # strength_order(xx_high) for a named suit, where it equals STRENGTH on suit cards)
        self._above_trump: Sequence[int] = ABOVE

    def winner(self, cards: Sequence[Card]) -> int:
        """The index (in play order) of the card winning ``cards`` so far."""
        return core_winner(cards, self.rules, self.trump)

    def wins(self, trick: Sequence[Card], card: Card) -> bool:
        """Whether ``card`` added to ``trick`` (not empty) would win it so far."""
        return core_winner([*trick, card], self.rules, self.trump) == len(trick)

    def legal(self, hand: int, trick: Sequence[Card]) -> int:
        """The cards of ``hand`` that may go to ``trick`` (empty: a lead), as bits."""
        if not trick:
            cands = hand
            if self.colour:
                cands = (hand & ~TAROCKS) or hand
        else:
            led = SUIT_OF[trick[0]]
            cands = hand & SUIT_MASK[led]
            trumping = bool(cands) and led == self.trump
            if not cands:
                cands = hand & self.trump_mask
                trumping = bool(cands)
                if not cands:
                    cands = hand
            if self.overtrump and trumping:
                strength = STRENGTH if self.trump == TAROCK else self.strength
                top = -1
                top_card = -1
                for c in trick:
                    if SUIT_OF[c] == self.trump and strength[c] > top:
                        top, top_card = strength[c], c
                if top_card >= 0:
                    higher = cands & self._above_trump[top_card]
                    if higher:
                        cands = higher
            if self.must_win and cands & (cands - 1):
                winning = 0
                m = cands
                probe = [*trick, 0]
                n = len(trick)
                while m:
                    low = m & -m
                    probe[n] = low.bit_length() - 1
                    if core_winner(probe, self.rules, self.trump) == n:
                        winning |= low
                    m ^= low
                if winning:
                    cands = winning
        if self.pagat_last and cands & PAGAT_BIT and cands != PAGAT_BIT and hand & TAROCKS & ~PAGAT_BIT:
            cands &= ~PAGAT_BIT
        return cands
