"""Trick play on bit sets of card ids: the search's fast path for :mod:`core.tricks`.

A hand is an ``int`` whose bit ``c`` is set when it holds card ``c``
(``core.cards`` ids: tarocks 0..21, then the four suits of eight).  A
:class:`TrickModel` answers, for one contract's
:class:`~core.contracts.TrickRules` and trump suit, which cards of a hand
may go to a trick and who wins a trick, exactly as :func:`core.tricks.legal`
and :func:`core.tricks.winner` do, by the compiled trick engine of
:mod:`core.trickbits` (tests/test_search_fastplay.py checks
them against the functions and the engine on committed positions and on
random ones).  The search uses it where a table's legal plays and trick
winners are core's data rules alone (:mod:`client.bots.rulebook`); where a
variant or house rule adds its own it asks the engine instead
(:mod:`client.bots.simulate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, TypeAlias

from tarock.core.cards import MOND, PAGAT, SKUS, STRENGTH, TAROCK, Card, Suit
from tarock.core.contracts import TrickRules
from tarock.core.trickbits import compile_tricks
from tarock.core.tricks import strength_order

TAROCKS: Final = (1 << 22) - 1
SUIT_MASK: Final = (*(0xFF << (22 + 8 * s) for s in range(4)), TAROCKS)
"""Per suit (``TAROCK`` = 4 last) the bits of its cards."""
PAGAT_BIT: Final = 1 << PAGAT
TRULL_BITS: Final = (1 << PAGAT) | (1 << MOND) | (1 << SKUS)
ALL: Final = (1 << 54) - 1
_Tables: TypeAlias = tuple[tuple[int, ...], ...]


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


class TrickModel:
    """Legal cards and trick winners of one contract on bit sets of card ids.

    ``rules`` are the contract's trick rules, ``trump`` the suit that
    trumps (``TAROCK`` unless a ``suit`` game names one); the answers are
    those of :mod:`core.tricks` for the same arguments, computed by the
    compiled trick engine (:class:`core.trickbits.TrickBits`, reached as
    ``engine``) whose bit layout is translated eight bits at a time.
    """

    __slots__ = ("_from", "_to", "colour", "engine", "rules", "strength", "suit_game", "trump", "trump_mask")

    def __init__(self, rules: TrickRules, trump: Suit = TAROCK) -> None:
        self.rules = rules
        self.trump = trump
        self.colour = rules.trump == "colour"
        self.suit_game = rules.trump == "suit" and trump != TAROCK
        self.trump_mask = SUIT_MASK[trump]
        self.strength: Sequence[int] = strength_order(rules.xx_high) if self.suit_game else STRENGTH
        self.engine = compile_tricks(rules, trump)
        self._to, self._from = _translations(rules, trump)

    def to_engine(self, mask: int) -> int:
        """``mask`` (card ids) in the engine's bits."""
        t = self._to
        return (t[0][mask & 255] | t[1][mask >> 8 & 255] | t[2][mask >> 16 & 255] | t[3][mask >> 24 & 255]
                | t[4][mask >> 32 & 255] | t[5][mask >> 40 & 255] | t[6][mask >> 48 & 255])

    def from_engine(self, mask: int) -> int:
        """``mask`` (the engine's bits) in card ids."""
        t = self._from
        return (t[0][mask & 255] | t[1][mask >> 8 & 255] | t[2][mask >> 16 & 255] | t[3][mask >> 24 & 255]
                | t[4][mask >> 32 & 255] | t[5][mask >> 40 & 255] | t[6][mask >> 48 & 255])

    def winner(self, cards: Sequence[Card]) -> int:
        """The index (in play order) of the card winning ``cards`` so far."""
        bit = self.engine.bit
        trick = [bit[c] for c in cards]
        tmask = 0
        for b in trick:
            tmask |= 1 << b
        return self.engine.winner(trick, tmask)

    def wins(self, trick: Sequence[Card], card: Card) -> bool:
        """Whether ``card`` added to ``trick`` (not empty) would win it so far."""
        return self.winner([*trick, card]) == len(trick)

    def legal(self, hand: int, trick: Sequence[Card]) -> int:
        """The cards of ``hand`` that may go to ``trick`` (empty: a lead), as bits."""
        bit = self.engine.bit
        bits_ = [bit[c] for c in trick]
        tmask = 0
        for b in bits_:
            tmask |= 1 << b
        return self.from_engine(self.engine.legal(self.to_engine(hand), bits_, tmask))


@lru_cache(maxsize=64)
def _translations(rules: TrickRules, trump: Suit) -> tuple[_Tables, _Tables]:
    """The byte tables from card ids to the engine's bits and back."""
    engine = compile_tricks(rules, trump)
    return _tables(engine.bit), _tables(engine.card)


def _tables(target: Sequence[int]) -> _Tables:
    """Per byte of a 54-bit mask, each of its 256 values translated bit by bit through ``target``."""
    out = []
    for chunk in range(7):
        table = []
        for byte in range(256):
            m = 0
            for i in range(8):
                src = 8 * chunk + i
                if byte >> i & 1 and src < 54:
                    m |= 1 << target[src]
            table.append(m)
        out.append(tuple(table))
    return tuple(out)
