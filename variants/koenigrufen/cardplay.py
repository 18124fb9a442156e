"""Play rules of Königrufen: who wins a trick and which cards may be played.

Pure functions of cards, so they are fast and easy to test.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.cards import MOND, PAGAT, SKUS, SUIT_NAMES, SUIT_OF, TAROCK, VALUE, Card, format_card
from core.state import Reason
from variants.common import tarock_trick_winner


def trick_winner(cards: Sequence[Card], colour: bool, maerchen: bool) -> int:
    """Index of the winning card.

    Tarocks trump, except in colour games where they win only a trick led in
    tarock.  With ``maerchen`` (seed 002, Märchenstich) the Pagat wins a trick
    holding all three Trull cards (in colour games only when tarock was led).
    """
    led = SUIT_OF[cards[0]]
    if maerchen and PAGAT in cards and MOND in cards and SKUS in cards and (not colour or led == TAROCK):
        return list(cards).index(PAGAT)
    if colour and led != TAROCK:
        best = 0
        for i in range(1, len(cards)):
            if SUIT_OF[cards[i]] == led and cards[i] < cards[best]:  # lower id: higher rank
                best = i
        return best
    return tarock_trick_winner(cards)


def beats(trick: Sequence[Card], card: Card, colour: bool, maerchen: bool) -> bool:
    """Whether ``card`` added to ``trick`` would win it so far."""
    return trick_winner([*trick, card], colour, maerchen) == len(trick)


def legal_cards(hand: Sequence[Card], trick: Sequence[Card], *, colour: bool, stichzwang: bool,
                maerchen: bool, pagat_last: bool) -> list[Card]:
    """The cards of ``hand`` that may go to ``trick``.

    Follow suit, else play a tarock, else anything (Farbzwang, Tarockzwang);
    in colour games a tarock may be led only without suit cards; with
    ``stichzwang`` a card that wins the trick so far must be played if there
    is one; with ``pagat_last`` the Pagat only as the last tarock, unless it
    is the one card that must beat the trick (Märchenstich).
    """
    if not trick:
        cands = list(hand)
        if colour:
            suits = [c for c in hand if c >= 22]
            if suits:
                cands = suits
    else:
        led = SUIT_OF[trick[0]]
        cands = [c for c in hand if SUIT_OF[c] == led]
        if not cands:
            cands = [c for c in hand if c < 22] or list(hand)
        if stichzwang:
            winning = [c for c in cands if beats(trick, c, colour, maerchen)]
            if winning:
                cands = winning
    if pagat_last and PAGAT in cands and len(cands) > 1 and any(0 < c < 22 for c in hand):
        cands.remove(PAGAT)
    return cands


def play_reason(hand: Sequence[Card], trick: Sequence[Card], card: Card, *, colour: bool,
                stichzwang: bool, maerchen: bool, pagat_last: bool) -> Reason:
    """Why ``card`` is not among :func:`legal_cards` (announcements aside)."""
    if not trick:
        if colour and card < 22 and any(c >= 22 for c in hand):
            return Reason("colour-tarock-lead", "tarocks may be led only when you hold no suit card")
    else:
        led = SUIT_OF[trick[0]]
        same = [c for c in hand if SUIT_OF[c] == led]
        if same and SUIT_OF[card] != led:
            return Reason("must-follow-suit", f"you must follow suit ({SUIT_NAMES[led]})")
        if not same and card >= 22 and any(c < 22 for c in hand):
            return Reason("must-play-tarock", "you cannot follow suit, so you must play a tarock")
        followers = same or [c for c in hand if c < 22] or list(hand)
        if (stichzwang and not beats(trick, card, colour, maerchen)
                and any(beats(trick, c, colour, maerchen) for c in followers)):
            return Reason("must-beat", "Stichzwang: you must beat the trick if you can")
    if pagat_last and card == PAGAT:
        return Reason("pagat-last", "the Pagat may be played only as your last tarock")
    return Reason("not-allowed", f"{format_card(card)} may not be played to this trick")


def thirds(cards: Sequence[Card]) -> int:
    """Exact card points in thirds: each card is worth ``3 * value - 2``.

    Counting in groups of three (sum minus 2) is the same; the 54 cards make
    210 thirds (70 points), and "35/1" is 106 thirds, "35/2" 107 (RULES.md,
    decision 3).
    """
    return 3 * sum(VALUE[c] for c in cards) - 2 * len(cards)
