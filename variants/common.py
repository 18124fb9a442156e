"""Rule pieces that several tarock variants share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from tarock.core import phases
from tarock.core.cards import DECK54, VALUE, Card
from tarock.core.contracts import TrickRules
from tarock.core.hookspecs import hookimpl
from tarock.core.state import HandState, PhaseId, Reason
from tarock.core.tricks import legal, refusal, winner

PLAIN: Final = TrickRules()
"""Tarocks trump; no duty beyond following suit and playing a tarock."""
OVERTRUMP: Final = TrickRules(overtrump=True)
"""docs/rules.md §4.3: whoever plays a tarock while a tarock lies in the trick must beat it if able."""


def tarock_trick_winner(cards: Sequence[Card]) -> int:
    """Index of the winner when tarocks trump: highest tarock, else highest
    card of the led suit."""
    return winner(cards, PLAIN)


def follow_with_overtrump(hand: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
    """Farbzwang, Tarockzwang and Stichzwang whenever a tarock lies in the trick."""
    return legal(hand, trick, OVERTRUMP)


def follow_reason(hand: Sequence[Card], trick: Sequence[Card], card: Card) -> Reason:
    """Why ``card`` breaks :func:`follow_with_overtrump`."""
    return refusal(hand, trick, card, OVERTRUMP)


def thirds(cards: Sequence[Card]) -> int:
    """Card points counted in groups of three, in thirds of a point.

    Each card is worth ``3 * value - 2`` thirds; a party left with one card
    over a multiple of three counts one third less, with two over one third
    more, so every party's total is a whole number of points (docs/rules.md
    §5.2) and the 54 cards make 70 points (210 thirds).
    """
    total = 3 * sum(VALUE[c] for c in cards) - 2 * len(cards)
    rest = len(cards) % 3
    return total - 1 if rest == 1 else total + 1 if rest == 2 else total


class ContractPhases:
    """Hook implementations of a variant whose hand runs the phases its contract's data call
    for (:func:`core.phases.contract_phases`), each played by the core's handler: ``bidding``
    the auction, the talon and the discard only where ``talon``."""

    def __init__(self, bidding: phases.Phase, talon: bool = False) -> None:
        self.handlers: dict[str, phases.Phase] = {
            phases.BIDDING: bidding, phases.CALL: phases.CallPhase(), phases.TRUMP: phases.TrumpChoice(),
            phases.KONTRA: phases.KontraChain(), phases.PLAY: phases.TrickPlay()}
        if talon:
            self.handlers[phases.TALON] = phases.TakeTalonPile()
            self.handlers[phases.DISCARD] = phases.DiscardPhase()

    @hookimpl
    def tarock_phases(self, state: HandState) -> Sequence[PhaseId]:
        return phases.contract_phases(state.contract.spec if state.contract is not None else None)

    @hookimpl
    def tarock_phase(self, name: PhaseId) -> phases.Phase | None:
        return self.handlers.get(name)


class Deal54:
    """Hook implementations of a variant dealt from all 54 cards: 12 a hand, the talon in two
    piles of three."""

    @hookimpl
    def tarock_deck(self, options: Mapping[str, Any]) -> Sequence[Card]:
        return DECK54

    @hookimpl
    def tarock_deal_layout(self, options: Mapping[str, Any]) -> tuple[int, tuple[int, ...]]:
        return 12, (3, 3)
