"""Trick play compiled to bit sets: one contract's trick rules as masks and shifts.

:func:`compile_tricks` turns a contract's :class:`~core.contracts.TrickRules`
and trump suit into a :class:`TrickBits` once (cached per pair).  Every card
gets a bit: the plain suits first, the trump suit last, each suit's cards
from its lowest to its highest in the order of :mod:`core.tricks` (the
literal Faberl order with ``xx_high`` in a ``suit`` game).  A hand is then an
``int``, a suit a mask, a suit's highest card its highest bit and "higher
than" a shift.  :meth:`TrickBits.legal` and :meth:`TrickBits.winner` answer
exactly as :func:`core.tricks.legal` and :func:`core.tricks.winner` do for
the same rules and trump (Farbzwang, Tarockzwang, the colour game's lead and
trick, overtrump, Stichzwang, Pagat last, the Trull trick);
tests/test_search_compiled.py checks them against those functions and
against the engine on random hands of every variant, and
tests/test_search_fastplay.py on random positions of every contract.

The Valat check (:mod:`core.valatbits`) and the bots' search
(``client.bots``: the solver and the playouts) play on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

from tarock.core.cards import MOND, PAGAT, SKUS, STRENGTH, SUIT_OF, TAROCK, Card, Suit
from tarock.core.contracts import TrickRules
from tarock.core.tricks import strength_order

SUITS: Final = 5


class TrickBits:
    """One contract's trick rules with one trump suit, compiled to bit sets."""

    __slots__ = ("bit", "card", "colour", "kaiser", "must_win", "other_tarocks", "overtrump", "pagat",
                 "pagat_last", "pagat_mask", "plain_mask", "plain_suits", "rules", "suit_mask", "suit_of",
                 "tarock_mask", "trull", "trump", "trump_mask", "value", "win_trump")

    def __init__(self, rules: TrickRules, trump: Suit) -> None:
        self.rules = rules
        self.trump = trump
        suit_game = rules.trump == "suit" and trump != TAROCK
        strength: Sequence[int] = strength_order(rules.xx_high) if suit_game else STRENGTH
        suits = [s for s in range(SUITS) if s != trump] + [trump]
        layout = [c for s in suits for c in sorted((c for c in range(54) if SUIT_OF[c] == s),
                                                   key=lambda c: strength[c])]
        self.card: tuple[Card, ...] = tuple(layout)
        """The card of each bit."""
        index = {c: i for i, c in enumerate(layout)}
        self.bit: tuple[int, ...] = tuple(index[c] for c in range(54))
        """The bit of each card."""
        self.value: tuple[int, ...] = tuple(1 << b for b in self.bit)
        """Per card, its bit as a one-card set."""
        masks = [sum(1 << index[c] for c in range(54) if SUIT_OF[c] == s) for s in range(SUITS)]
        self.suit_of: tuple[int, ...] = tuple(SUIT_OF[c] for c in layout)
        """The suit of each bit."""
        self.suit_mask: tuple[int, ...] = tuple(masks)
        """Per suit (``TAROCK`` = 4 last), the bits of its cards."""
        self.trump_mask = masks[trump]
        """The cards that must be played without the led suit (Tarockzwang, or the named suit)."""
        self.tarock_mask = masks[TAROCK]
        self.plain_mask = sum(masks) ^ self.trump_mask
        self.plain_suits = tuple(masks[s] for s in suits[:-1])
        """The masks of the plain suits, in the layout's order."""
        self.colour = rules.trump == "colour"
        self.win_trump = 0 if self.colour else self.trump_mask
        """The cards that beat any card of another suit (none in a colour game, where a
        tarock wins only a trick led in tarock: it is then the led suit)."""
        self.overtrump = rules.overtrump and not self.colour
        self.must_win = rules.must_win
        self.pagat_last = rules.pagat_last
        self.kaiser = rules.trull_trick and not suit_game
        self.pagat = index[PAGAT]
        self.pagat_mask = 1 << index[PAGAT]
        self.trull = (1 << index[PAGAT]) | (1 << index[MOND]) | (1 << index[SKUS])
        self.other_tarocks = masks[TAROCK] ^ self.pagat_mask
        """The tarocks but the Pagat (Pagat last: he may not go while one of them is held)."""

    # -- conversions ----------------------------------------------------------
    def mask(self, cards: Iterable[Card]) -> int:
        """The bit set of ``cards``."""
        value = self.value
        m = 0
        for c in cards:
            m |= value[c]
        return m

    def cards(self, mask: int) -> list[Card]:
        """The cards of the bit set ``mask``, by bit."""
        card = self.card
        out: list[Card] = []
        while mask:
            low = mask & -mask
            out.append(card[low.bit_length() - 1])
            mask ^= low
        return out

    # -- trick play -----------------------------------------------------------
    def winner(self, trick: Sequence[int], tmask: int) -> int:
        """The index in play order of the card (bit) heading ``trick`` (its bits ``tmask``)."""
        if self.kaiser and tmask & self.trull == self.trull and not (
                self.colour and not (1 << trick[0]) & self.tarock_mask):
            return list(trick).index(self.pagat)
        heads = tmask & self.win_trump or tmask & self.suit_mask[self.suit_of[trick[0]]]
        return list(trick).index(heads.bit_length() - 1)

    def legal(self, hand: int, trick: Sequence[int], tmask: int) -> int:
        """The cards of ``hand`` that may go to ``trick`` (bits; ``tmask`` its bits)."""
        if not trick:
            cands = hand
            if self.colour:
                cands = hand & self.plain_mask or hand
        else:
            led = self.suit_mask[self.suit_of[trick[0]]]
            cands = hand & led
            trumping = bool(cands) and led == self.trump_mask
            if not cands:
                cands = hand & self.trump_mask
                trumping = bool(cands)
                if not cands:
                    cands = hand
            if self.overtrump and trumping:
                top = (tmask & self.trump_mask).bit_length()
                if top:
                    higher = cands >> top << top
                    if higher:
                        cands = higher
            if self.must_win and cands & (cands - 1):
                n = len(trick)
                probe = [*trick, 0]
                winning = 0
                rest = cands
                while rest:
                    low = rest & -rest
                    rest ^= low
                    probe[n] = low.bit_length() - 1
                    if self.winner(probe, tmask | low) == n:
                        winning |= low
                if winning:
                    cands = winning
        if (self.pagat_last and cands & self.pagat_mask and cands != self.pagat_mask
                and hand & self.other_tarocks):
            cands ^= self.pagat_mask
        return cands

    def beaten_by(self, trick: Sequence[int], tmask: int) -> int:
        """The cards that would head ``trick`` (not empty) if played now, the Trull aside."""
        head = trick[self.winner(trick, tmask)]
        above = head + 1
        beats = self.suit_mask[self.suit_of[head]] >> above << above
        if not (1 << head) & self.win_trump:
            beats |= self.win_trump
        return beats


@lru_cache(maxsize=64)
def compile_tricks(rules: TrickRules, trump: Suit) -> TrickBits:
    """The :class:`TrickBits` of ``rules`` with ``trump`` trumping (built once per pair)."""
    return TrickBits(rules, trump)
