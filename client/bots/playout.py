"""A quick perfect-information card player for the playouts of the search.

In a sampled world every hand is known, so a playout can play each seat by
simple rules that look at the real cards: who wins the trick so far, and
whether a seat still to play can beat a card.  What a seat wants follows
from the contract's goal (data, :class:`Aims`):

- ``points``: its party takes card points: a trick its party wins for sure
  gets points thrown on it; a trick it can win for sure it takes, with a
  suit card before a trump and the lowest trump; otherwise it gives the
  cheapest card.  It leads a sure winner (the most valuable), else a low
  card.
- ``avoid``: it takes as little as it can (each-for-himself games, and the
  declarer of a negative game while he has the tricks he needs): the
  highest card that loses the trick so far, else its highest card; it
  leads its lowest card.
- ``push``: an opponent of a negative game makes the declarer win tricks:
  it never beats the declarer's card, plays low ahead of him, and leads low.

The player is deterministic; playouts differ by the world they play in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tarock.client.bots.fastplay import cards_of
from tarock.client.bots.simulate import Sim
from tarock.core.cards import STRENGTH, SUIT_OF, TAROCK, Card
from tarock.core.state import HandState, declarer_seats
from tarock.core.tricks import strength_order

Aim = Literal["points", "avoid", "push"]


@dataclass(frozen=True, slots=True)
class Aims:
    """What each seat plays for in one world (index: seat)."""

    aim: tuple[Aim, ...]
    side: tuple[int, ...]
    """A party id per seat: seats with the same id play together."""
    need: tuple[int, ...]
    """Tricks a declarer of a negative game needs (-1: none)."""


def aims_of(state: HandState) -> Aims:
    """The aims of every seat in a world's state (its true parties)."""
    contract = state.contract
    assert contract is not None
    spec = contract.spec
    seats = state.seats
    declarers = declarer_seats(contract, state.declarer)
    if spec.goal.kind == "ranking" or spec.partnership == "each":
        avoid: list[Aim] = ["avoid"] * seats
        return Aims(tuple(avoid), tuple(range(seats)), (-1,) * seats)
    if spec.goal.kind == "tricks":
        aim: list[Aim] = ["push"] * seats
        need = [-1] * seats
        side = [seats] * seats
        for d in declarers:
            aim[d] = "avoid"
            need[d] = spec.goal.tricks
            side[d] = d
        return Aims(tuple(aim), tuple(side), tuple(need))
    party = state.declarer_party() if len(declarers) <= 1 else frozenset(declarers)
    points: list[Aim] = ["points"] * seats
    return Aims(tuple(points), tuple(1 if s in party else 0 for s in range(seats)), (-1,) * seats)


class Player:
    """The playout player of one world (see the module docstring)."""

    __slots__ = ("aims", "sim", "strength", "trump", "values")

    def __init__(self, sim: Sim, aims: Aims, values: Sequence[int]) -> None:
        self.sim = sim
        self.aims = aims
        self.values = values
        model = sim.model
        self.trump = model.trump
        self.strength: Sequence[int] = strength_order(model.rules.xx_high) if model.suit_game else STRENGTH

    def _power(self, card: Card, led: int) -> int:
        """How strongly ``card`` bids for a trick led in ``led`` (0: not at all)."""
        suit = SUIT_OF[card]
        if suit == self.trump and not (self.sim.model.colour and led != TAROCK):
            return 100 + self.strength[card]
        if suit == led:
            return 50 + self.strength[card]
        return 0

    def _top(self, legal: int, led: int) -> int:
        """The highest power among the cards of ``legal`` (the trick engine's bits): the
        power of the highest card of the one suit that can bid (each suit's cards lie
        in its bits from the weakest to the strongest)."""
        engine = self.sim.model.engine
        mask = legal & engine.suit_mask[self.trump]
        if not mask or (self.sim.model.colour and led != TAROCK):
            mask = legal & engine.suit_mask[led]
            if not mask:
                return 0
        return self._power(engine.card[mask.bit_length() - 1], led)

    def _beaten_later(self, card: Card, led: int, foes: Sequence[int], probe: list[int], tmask: int) -> bool:
        """Whether a seat still to play of another party (``foes``: their hands in the trick
        engine's bits) can beat ``card`` added to the trick ``probe`` (its bits ``tmask``)."""
        engine = self.sim.model.engine
        mine = self._power(card, led)
        b = engine.bit[card]
        played = [*probe, b]
        tmask |= 1 << b
        return any(self._top(engine.legal(hand, played, tmask), led) > mine for hand in foes)

    def _foes(self, seat: int) -> list[int]:
        """The hands (trick engine's bits) of the seats after ``seat`` in this trick not of its party."""
        sim = self.sim
        side = self.aims.side
        mine = side[seat]
        to_engine = sim.model.to_engine
        out = []
        s = sim.next_seat[seat]
        for _ in range(sim.size - 1 - len(sim.trick_cards)):
            if side[s] != mine:
                out.append(to_engine(sim.hands[s]))
            s = sim.next_seat[s]
        return out

    def choose(self, seat: int, legal: int) -> Card:
        """The card ``seat`` plays from the bits ``legal``."""
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        cards = cards_of(legal)
        aim = self.aims.aim[seat]
        if aim == "avoid" and self.aims.need[seat] > 0:
            won = sum(1 for t in self.sim.tricks if t.winner == seat)
            if won < self.aims.need[seat]:
                aim = "points"
        if aim == "points":
            return self._points(seat, cards)
        return self._avoid(seat, cards, aim == "push")

    def _probe(self) -> tuple[list[int], int]:
        """The trick on the table in the trick engine's bits, and their set."""
        bit = self.sim.model.engine.bit
        probe = [bit[c] for c in self.sim.trick_cards]
        tmask = 0
        for b in probe:
            tmask |= 1 << b
        return probe, tmask

    def _wins(self, probe: list[int], tmask: int, card: Card) -> bool:
        """Whether ``card`` added to the trick ``probe`` (not empty) would head it."""
        engine = self.sim.model.engine
        b = engine.bit[card]
        return engine.winner([*probe, b], tmask | 1 << b) == len(probe)

    def _points(self, seat: int, cards: list[Card]) -> Card:
        sim = self.sim
        values = self.values
        side = self.aims.side
        mine = side[seat]
        trick = sim.trick_cards
        foes = self._foes(seat)
        probe, tmask = self._probe()
        if not trick:
            sure = [c for c in cards if not self._beaten_later(c, SUIT_OF[c], foes, probe, tmask)]
            if sure:
                return max(sure, key=lambda c: (values[c], -self._power(c, SUIT_OF[c])))
            plain = [c for c in cards if SUIT_OF[c] != self.trump] or cards
            return min(plain, key=lambda c: (values[c], self.strength[c]))
        led = SUIT_OF[trick[0]]
        best = sim.model.engine.winner(probe, tmask)
        if side[sim.trick_seats[best]] == mine and \
                not self._beaten_later(trick[best], led, foes, probe, tmask):
            return max(cards, key=lambda c: (10 * values[c] - (self.strength[c] if SUIT_OF[c] == self.trump
                                                                else 0), -self.strength[c]))
        winners = [c for c in cards if self._wins(probe, tmask, c)]
        sure = [c for c in winners if not self._beaten_later(c, led, foes, probe, tmask)]
        if sure:
            plain = [c for c in sure if SUIT_OF[c] != self.trump]
            if plain:
                return max(plain, key=lambda c: values[c])
            return min(sure, key=lambda c: (self.strength[c], values[c]))
        losers = [c for c in cards if c not in winners] or cards
        return min(losers, key=lambda c: (values[c], self._power(c, led)))

    def _avoid(self, seat: int, cards: list[Card], push: bool) -> Card:
        sim = self.sim
        trick = sim.trick_cards
        if not trick:
            return min(cards, key=lambda c: (self._power(c, SUIT_OF[c]), -self.values[c]))
        led = SUIT_OF[trick[0]]
        probe, tmask = self._probe()
        losers = [c for c in cards if not self._wins(probe, tmask, c)]
        if push:
            declarer_played = any(self.aims.aim[s] == "avoid" for s in sim.trick_seats)
            if losers and declarer_played:
                return max(losers, key=lambda c: (self._power(c, led), self.values[c]))
            return min(cards, key=lambda c: (self._power(c, led), self.values[c]))
        if losers:
            return max(losers, key=lambda c: (self._power(c, led), self.values[c]))
        return max(cards, key=lambda c: self._power(c, led))


def play_out(sim: Sim, player: Player) -> None:
    """Play ``sim`` to the end with ``player`` for every seat."""
    while sim.to_move >= 0:
        seat = sim.to_move
        sim.play(player.choose(seat, sim.legal(seat)))

