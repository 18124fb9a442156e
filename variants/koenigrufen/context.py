"""Königrufen's bookkeeping in ``HandState.data`` and small shared queries."""

from __future__ import annotations

from typing import Any

from tarock.core.cards import KING, QUEEN, Card, suit_card
from tarock.core.contracts import ContractSpec
from tarock.core.state import HandState, declarer_seats
from tarock.variants.koenigrufen.games import BIRDS

KEY = "koenigrufen"

KINGS: tuple[Card, ...] = tuple(suit_card(s, KING) for s in range(4))
QUEENS: tuple[Card, ...] = tuple(suit_card(s, QUEEN) for s in range(4))
BIRD_CARDS: tuple[Card, ...] = tuple(card for card, _ in BIRDS.values())


def kr(state: HandState) -> dict[str, Any]:
    """This variant's bookkeeping of the hand."""
    data: dict[str, Any] = state.data.setdefault(KEY, {})
    return data


def game_of(state: HandState) -> ContractSpec | None:
    """The game being played, once the auction has decided it."""
    return state.contract.spec if state.contract is not None else None


def declarers(state: HandState) -> tuple[int, ...]:
    """The declarers: several in a Bei-game, else the one declarer."""
    return declarer_seats(state.contract, state.declarer)


def called_in_talon(state: HandState) -> bool:
    """Whether the called King lay in the talon when it was called."""
    return bool(state.data.get("called_in_talon"))


def alone(state: HandState) -> bool:
    """Whether a calling game's declarer plays alone because his King lies in the talon."""
    return bool(kr(state).get("alone"))


def suit_count(hand: list[Card]) -> int:
    return sum(1 for c in hand if c >= 22)


def tarock_count(hand: list[Card]) -> int:
    return sum(1 for c in hand if c < 22)


def holds_bird(hand: list[Card]) -> bool:
    return any(c in hand for c in BIRD_CARDS)


def callable_cards(hand: list[Card], four_kings: str) -> list[Card]:
    """The cards a declarer holding ``hand`` may call.

    A King he does not hold (with three Kings: "Den vierten!"); with all four
    Kings, by ``four_kings``: a Queen he does not hold (``queen``), one of his
    own Kings, playing alone (``self``), or nothing (``none``).
    """
    kings = [k for k in KINGS if k not in hand]
    if kings:
        return kings
    if four_kings == "queen":
        return [q for q in QUEENS if q not in hand]
    if four_kings == "self":
        return list(KINGS)
    return []
