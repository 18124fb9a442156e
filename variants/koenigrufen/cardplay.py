"""Play rules of Königrufen as trick-rule data, and exact counting in thirds.

Trick play is core's (:mod:`core.tricks`), driven by each game's
:class:`~core.contracts.TrickRules`: tarocks trump, except in colour games
where they win only a trick led in tarock and may be led only without suit
cards; Stichzwang in negative games; the Pagat only as the last tarock where
the game says so; with the Märchenstich (docs/rules.md §4.8) the Pagat wins a trick
holding all three Trull cards (in colour games only when tarock was led).
The wrappers here take those rules as flags.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarock.core.cards import VALUE, Card
from tarock.core.contracts import TrickRules
from tarock.core.state import Reason
from tarock.core.tricks import legal, refusal, winner


def trick_rules(colour: bool, stichzwang: bool, maerchen: bool, pagat_last: bool = False) -> TrickRules:
    """The trick rules of a Königrufen game from its flags."""
    return TrickRules("colour" if colour else "tarock", must_win=stichzwang, pagat_last=pagat_last,
                      trull_trick=maerchen)


def trick_winner(cards: Sequence[Card], colour: bool, maerchen: bool) -> int:
    """Index of the winning card."""
    return winner(cards, trick_rules(colour, False, maerchen))


def legal_cards(hand: Sequence[Card], trick: Sequence[Card], *, colour: bool, stichzwang: bool,
                maerchen: bool, pagat_last: bool) -> list[Card]:
    """The cards of ``hand`` that may go to ``trick`` (announcements aside)."""
    return legal(hand, trick, trick_rules(colour, stichzwang, maerchen, pagat_last))


def play_reason(hand: Sequence[Card], trick: Sequence[Card], card: Card, *, colour: bool,
                stichzwang: bool, maerchen: bool, pagat_last: bool) -> Reason:
    """Why ``card`` is not among :func:`legal_cards` (announcements aside)."""
    return refusal(hand, trick, card, trick_rules(colour, stichzwang, maerchen, pagat_last))


THIRDS: tuple[int, ...] = tuple(3 * v - 2 for v in VALUE)
"""Each card's worth in thirds (:func:`thirds`)."""


def thirds(cards: Sequence[Card]) -> int:
    """Exact card points in thirds: each card is worth ``3 * value - 2``.

    Counting in groups of three (sum minus 2) is the same; the 54 cards make
    210 thirds (70 points), and "35/1" is 106 thirds, "35/2" 107 (docs/rules.md
    §5.3).
    """
    return sum(map(THIRDS.__getitem__, cards))
