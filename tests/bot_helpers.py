"""Helpers shared by the bot tests of every variant."""

from __future__ import annotations

from collections.abc import Iterator

from tarock.client.bots import make_bot
from tarock.core.actions import Action
from tarock.core.cards import SUIT_OF, Card
from tarock.core.engine import Hand
from tarock.core.observation import Observation

Deal = tuple[list[list[Card]], list[list[Card]]]


def hidden_swaps(hand: Hand, seat: int) -> Iterator[tuple[Card, Card]]:
    """Pairs of cards hidden from ``seat``, most telling first: two other
    hands' cards of one suit, then another hand's card and a talon card."""
    state = hand.state
    others = [s for s in state.players if s != seat]
    pairs: list[tuple[Card, Card]] = []
    for i, x in enumerate(others):
        for y in others[i + 1:]:
            pairs += [(a, b) for a in state.hands[x] for b in state.hands[y] if SUIT_OF[a] == SUIT_OF[b]]
    talon = [c for pile in state.talon for c in pile]
    pairs += [(a, b) for x in others for a in state.hands[x] for b in talon]
    pairs.sort(key=lambda p: (-max(p), p))
    yield from pairs


def swapped(original: Deal, a: Card, b: Card) -> Deal:
    """The deal with cards ``a`` and ``b`` exchanged wherever they lie."""
    def swap(cards: list[Card]) -> list[Card]:
        return [b if c == a else a if c == b else c for c in cards]
    hands, talon = original
    return [swap(h) for h in hands], [swap(p) for p in talon]


class RandomCards:
    """The heuristic's bidding, talon, announcements and Kontra, but random
    card play: pitted against the heuristic, only the card play differs."""

    def __init__(self, seed: int) -> None:
        self.name = f"random cards {seed}"
        self._bidder = make_bot("heuristic", seed)
        self._player = make_bot("random", seed)

    def decide(self, obs: Observation) -> Action:
        return (self._player if obs.phase == "play" else self._bidder).decide(obs)
