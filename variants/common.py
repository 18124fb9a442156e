"""Rule pieces that several tarock variants share."""

from __future__ import annotations

from collections.abc import Sequence

from core.cards import SUIT_NAMES, SUIT_OF, TAROCK, VALUE, Card, format_card
from core.state import Premium, Reason


def tarock_trick_winner(cards: Sequence[Card]) -> int:
    """Index of the winner when tarocks trump: highest tarock, else highest
    card of the led suit."""
    best = 0
    best_card = cards[0]
    led = SUIT_OF[best_card]
    for i in range(1, len(cards)):
        card = cards[i]
        suit = SUIT_OF[card]
        if suit == TAROCK:
            if SUIT_OF[best_card] != TAROCK or card > best_card:
                best, best_card = i, card
        elif suit == led and SUIT_OF[best_card] == led and card < best_card:
            # within a suit a lower id is the higher rank
            best, best_card = i, card
    return best


def follow_with_overtrump(hand: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
    """Farbzwang, Tarockzwang and Stichzwang whenever a tarock lies in the trick.

    Follow the led suit; without it, play a tarock; without tarocks, any
    card.  Whoever plays a tarock while a tarock lies in the trick must play
    a higher one if able.
    """
    if not trick:
        return list(hand)
    led = SUIT_OF[trick[0]]
    same = [c for c in hand if SUIT_OF[c] == led]
    if same and led != TAROCK:
        return same
    tarocks = same if same else [c for c in hand if c < 22]
    if not tarocks:
        return list(hand)
    top = max((c for c in trick if c < 22), default=-1)
    if top >= 0:
        higher = [c for c in tarocks if c > top]
        if higher:
            return higher
    return tarocks


def follow_reason(hand: Sequence[Card], trick: Sequence[Card], card: Card) -> Reason:
    """Why ``card`` breaks :func:`follow_with_overtrump`."""
    led = SUIT_OF[trick[0]]
    if led != TAROCK and SUIT_OF[card] != led and any(SUIT_OF[c] == led for c in hand):
        return Reason("must-follow-suit", f"you must follow suit ({SUIT_NAMES[led]})")
    top = max((c for c in trick if c < 22), default=-1)
    if card < 22 and top >= 0 and card < top:
        return Reason("must-overtrump",
                      f"a tarock lies in the trick: you must beat {format_card(top)} if you can")
    if led == TAROCK:
        return Reason("must-follow-suit", "tarock was led: you must play a tarock")
    return Reason("must-play-tarock", "you cannot follow suit, so you must play a tarock")


def thirds(cards: Sequence[Card]) -> int:
    """Card points counted in groups of three, in thirds of a point.

    Each card is worth ``3 * value - 2`` thirds; a party left with one card
    over a multiple of three counts one third less, with two over one third
    more, so every party's total is a whole number of points (RULES.md,
    decision 2) and the 54 cards make 70 points (210 thirds).
    """
    total = 3 * sum(VALUE[c] for c in cards) - 2 * len(cards)
    rest = len(cards) % 3
    return total - 1 if rest == 1 else total + 1 if rest == 2 else total


def settle(seats: int, players: Sequence[int], declarers: Sequence[int],
           amount: int) -> tuple[int, ...]:
    """Zero-sum settlement per opponent (RULES.md, decision 1).

    ``amount`` is the declarer party's result against one opponent.  In 2 v 2
    each member gains it and each opponent loses it; a lone declarer gains it
    from each opponent.  The amounts sum to zero.
    """
    out = [0] * seats
    opponents = [s for s in players if s not in declarers]
    per = amount * len(opponents) // len(declarers)
    for s in declarers:
        out[s] = per
    for s in opponents:
        out[s] = -amount
    return tuple(out)


def premium(name: str, made_by: bool | None, announced_by: bool | None, silent: int, loud: int,
            scale: int = 1, kontra: int = 0) -> Premium | None:
    """One premium's result, signed from the declarer party's side.

    The generic premium model: ``made_by`` is True when the declarer party
    achieved the premium, False when the opponents did, None when nobody;
    ``announced_by`` names the party that announced it the same way, None
    when it was silent.  An announced premium scores ``loud`` for its party
    if that party made it and ``loud`` for the other party otherwise; its
    silent form is then not scored.  A silent premium scores ``silent`` for
    the party that made it.  ``scale`` (e.g. 2 in single games) and the
    factor ``2 ** kontra`` of a Kontra on this premium multiply the value.
    None when nothing is scored.
    """
    if announced_by is not None:
        to_declarers = announced_by if made_by is announced_by else not announced_by
        sign = 1 if to_declarers else -1
        return Premium(name, sign * loud * scale * 2 ** kontra, True, kontra)
    if made_by is None or silent == 0:
        return None
    return Premium(name, (silent if made_by else -silent) * scale * 2 ** kontra, False, kontra)
