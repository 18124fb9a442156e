"""Trick play from data: legal cards, the reason a card is refused, the winner.

Everything here follows from a contract's :class:`~core.contracts.TrickRules`
and the trump suit; the functions are pure and fast (they run for every
card of every hand, and in the bots' searches).

- Follow the led suit (Farbzwang); without it play a trump (Tarockzwang: a
  tarock; in a ``suit`` game a card of the named suit); without trumps,
  anything.  In a ``colour`` game a tarock may be led only without suit
  cards, and without the led suit a tarock must still be played.
- ``overtrump``: whoever plays a trump while a trump lies in the trick must
  beat the highest one if able.
- ``must_win`` (Stichzwang): a card that wins the trick so far must be played
  if there is one.
- ``pagat_last``: the Pagat only as the last tarock, unless it is the one
  card that may be played.
- Winner: in a ``suit`` game the highest trump, else the highest card of the
  led suit (the tarocks a plain suit); otherwise, where the tarocks trump
  (always, or in a colour game when tarock was led) the highest tarock, with
  ``trull_trick`` the Pagat when the whole Trull lies in the trick; in a
  colour game's suit trick the highest card of the led suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from tarock.core.cards import (
    MOND,
    PAGAT,
    SKUS,
    STRENGTH,
    SUIT_NAMES,
    SUIT_OF,
    TAROCK,
    Card,
    Suit,
    format_card,
)
from tarock.core.contracts import TrickRules
from tarock.core.state import Reason

_LITERAL_LOW: Final = {PAGAT: 0, MOND: 1, SKUS: 2}


@lru_cache(maxsize=2)
def strength_order(xx_high: bool) -> tuple[int, ...]:
    """Order of every card within its suit (higher beats lower).

    Tarocks keep their normal order (Sküs > Mond > XX > ... > Pagat) unless
    ``xx_high`` asks for the literal Faberl reading: "der XX ist ihre
    höchste, der Pagat ihre niedrigste Karte"; Mond and Sküs, which the
    sentence forgets, then rank just above the Pagat (docs/rules.md §4.5).
    """
    if not xx_high:
        return STRENGTH
    return tuple(_LITERAL_LOW.get(c, c + 3) if c < 22 else STRENGTH[c] for c in range(54))


def trump_of(rules: TrickRules, suit: Suit | None) -> Suit:
    """The suit that trumps: ``suit`` in a ``suit`` game, else the tarocks."""
    if rules.trump == "suit" and suit is not None:
        return suit
    return TAROCK


def winner(cards: Sequence[Card], rules: TrickRules, trump: Suit = TAROCK) -> int:
    """The index (in play order) of the card that wins ``cards`` so far."""
    led = SUIT_OF[cards[0]]
    if rules.trump == "suit" and trump != TAROCK:
        strength = strength_order(rules.xx_high)
        best = 0
        for i in range(1, len(cards)):
            card, top = cards[i], cards[best]
            suit = SUIT_OF[card]
            if suit == SUIT_OF[top]:
                if strength[card] > strength[top]:
                    best = i
            elif suit == trump:
                best = i
        return best
    if rules.trump == "colour" and led != TAROCK:
        best = 0
        for i in range(1, len(cards)):
            if SUIT_OF[cards[i]] == led and cards[i] < cards[best]:  # a lower id is the higher rank
                best = i
        return best
    if rules.trull_trick and PAGAT in cards and MOND in cards and SKUS in cards:
        return list(cards).index(PAGAT)
    best = 0
    best_card = cards[0]
    for i in range(1, len(cards)):
        card = cards[i]
        suit = SUIT_OF[card]
        if suit == TAROCK:
            if SUIT_OF[best_card] != TAROCK or card > best_card:
                best, best_card = i, card
        elif suit == led and SUIT_OF[best_card] == led and card < best_card:
            best, best_card = i, card
    return best


def legal(hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules, trump: Suit = TAROCK) -> list[Card]:
    """The cards of ``hand`` that may go to ``trick`` (empty: leading)."""
    if not trick:
        cands = list(hand)
        if rules.trump == "colour":
            cands = [c for c in hand if c >= 22] or cands
    else:
        led = SUIT_OF[trick[0]]
        cands = [c for c in hand if SUIT_OF[c] == led]
        trumping = bool(cands) and led == trump
        if not cands:
            cands = [c for c in hand if SUIT_OF[c] == trump]
            trumping = bool(cands)
            if not cands:
                cands = list(hand)
        if rules.overtrump and trumping and rules.trump != "colour":
            strength = strength_order(rules.xx_high) if trump != TAROCK else STRENGTH
            top = -1
            for c in trick:
                if SUIT_OF[c] == trump and strength[c] > top:
                    top = strength[c]
            if top >= 0:
                higher = [c for c in cands if strength[c] > top]
                if higher:
                    cands = higher
        if rules.must_win and len(cands) > 1:
            n = len(trick)
            probe = [*trick, 0]
            winning = []
            for c in cands:
                probe[n] = c
                if winner(probe, rules, trump) == n:
                    winning.append(c)
            if winning:
                cands = winning
    if rules.pagat_last and PAGAT in cands and len(cands) > 1 and any(0 < c < 22 for c in hand):
        cands.remove(PAGAT)
    return cands


def refusal(hand: Sequence[Card], trick: Sequence[Card], card: Card, rules: TrickRules,
            trump: Suit = TAROCK) -> Reason:
    """Why ``card`` (held) is not among :func:`legal`: the first of the rules
    applied there, in its order, that rules the card out."""
    tarock_game = trump == TAROCK
    if not trick:
        if rules.trump == "colour" and card < 22 and any(c >= 22 for c in hand):
            return Reason("colour-tarock-lead", "tarocks may be led only when you hold no suit card")
        cands = [c for c in hand if c >= 22] if rules.trump == "colour" else list(hand)
        cands = cands or list(hand)
    else:
        led = SUIT_OF[trick[0]]
        cands = [c for c in hand if SUIT_OF[c] == led]
        if cands and SUIT_OF[card] != led:
            if led == TAROCK and tarock_game:
                return Reason("must-follow-suit", "tarock was led: you must play a tarock")
            return Reason("must-follow-suit", f"you must follow suit ({SUIT_NAMES[led]})")
        trumping = bool(cands) and led == trump
        if not cands:
            cands = [c for c in hand if SUIT_OF[c] == trump]
            trumping = bool(cands)
            if cands and SUIT_OF[card] != trump:
                if tarock_game:
                    return Reason("must-play-tarock", "you cannot follow suit, so you must play a tarock")
                return Reason("must-play-trump",
                              f"you cannot follow suit, so you must play a trump ({SUIT_NAMES[trump]})")
            cands = cands or list(hand)
        if rules.overtrump and trumping and rules.trump != "colour":
            strength = strength_order(rules.xx_high) if not tarock_game else STRENGTH
            trumps = [c for c in trick if SUIT_OF[c] == trump]
            if trumps:
                top = max(trumps, key=lambda c: strength[c])
                higher = [c for c in cands if strength[c] > strength[top]]
                if higher and card not in higher:
                    what = "a tarock" if tarock_game else "a trump"
                    return Reason("must-overtrump",
                                  f"{what} lies in the trick: you must beat {format_card(top)} if you can")
                cands = higher or cands
        if rules.must_win and len(cands) > 1:
            n = len(trick)
            winning = [c for c in cands if winner([*trick, c], rules, trump) == n]
            if winning and card not in winning:
                return Reason("must-beat", "Stichzwang: you must beat the trick if you can")
            cands = winning or cands
    if rules.pagat_last and card == PAGAT and len(cands) > 1 and any(0 < c < 22 for c in hand):
        return Reason("pagat-last", "the Pagat may be played only as your last tarock")
    return Reason("not-allowed", f"{format_card(card)} may not be played to this trick")
