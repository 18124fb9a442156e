"""An exact perfect-information solver for the end of a hand.

Given a world (every hand known) the solver finds the value of the
position when both parties play perfectly to the end: alpha-beta over the
remaining cards, the bot's party maximising and the others minimising (in
games where each plays for himself, everyone else minimises: the paranoid
reading).  The value of a finished hand is the bot's amount in the
engine's settlement (:meth:`client.bots.simulate.Sim.settlement`) plus the
search's tie-break on card points, so the solver plays for exactly what
the table pays: the game, every premium (a Pagat or bird in its trick, a
Valat, Trull and Kings, a Mondfang) and the house rules.

What keeps it fast:

- move ordering: the playout player's card first (:mod:`client.bots.playout`),
  then the others from the strongest down;
- equivalent cards: neighbours in one suit with the same value in the hand
  to move, every card between them played in an earlier trick, none named
  by a premium, are searched once;
- a zero-window test on a target (:meth:`Solver.at_least`): whether a value
  can be reached, which cuts far more than a search for the exact value;
- forced moves are played without branching, and a seat's last card
  without asking the rules (a seat with cards always has a legal one).

It counts the nodes it visits and gives up (None) past ``node_limit``;
the caller then finishes that world with the playout player.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarock.client.bots.fastplay import cards_of
from tarock.client.bots.playout import Aims, Player
from tarock.client.bots.simulate import Sim
from tarock.core.cards import KAKADU, MARABU, MOND, PAGAT, SKUS, STRENGTH, SUIT_OF, UHU, Card, is_king

SPECIAL: frozenset[Card] = frozenset({PAGAT, UHU, KAKADU, MARABU, MOND, SKUS})
TIE_BREAK = 0.001
INF = float("inf")


class _Limit(Exception):
    """The node budget is spent."""


class Solver:
    """Solve the rest of one world's hand for ``seat`` (see the module docstring)."""

    def __init__(self, sim: Sim, aims: Aims, seat: int, values: Sequence[int], node_limit: int) -> None:
        self.sim = sim
        self.aims = aims
        self.seat = seat
        self.values = values
        self.node_limit = node_limit
        self.nodes = 0
        self.player = Player(sim, aims, values)
        self.mine = aims.side[seat]
        called = sim.base.called
        self.special = SPECIAL | ({called} if called is not None else set())
        deck = sim.rules.deck
        self.deck = deck

    # -- values ------------------------------------------------------------
    def _leaf(self) -> float:
        sim = self.sim
        side, mine, values = self.aims.side, self.mine, self.values
        points = 0
        for t in sim.tricks:
            if t.winner is not None and side[t.winner] == mine:
                for c in t.cards:
                    points += values[c]
        return sim.settlement()[self.seat] + TIE_BREAK * points

    def _moves(self, seat: int) -> list[Card]:
        sim = self.sim
        hand = sim.hands[seat]
        if not hand & (hand - 1):  # the last card: no rule can refuse it, so no need to ask
            return [hand.bit_length() - 1]
        legal = sim.legal(seat)
        cards = cards_of(legal)
        if len(cards) == 1:
            return cards
        # equivalent neighbours: same suit and value, no card between them in another hand or in
        # the trick on the table (a card of the trick between them is beaten by one and not the other)
        others = 0
        for s, h in enumerate(sim.hands):
            if s != seat:
                others |= h
        for c in sim.trick_cards:
            others |= 1 << c
        cards.sort(key=lambda c: (SUIT_OF[c], STRENGTH[c]))
        kept: list[Card] = []
        values = self.values
        special = self.special
        for c in cards:
            if kept and c not in special and not is_king(c):
                prev = kept[-1]
                if SUIT_OF[prev] == SUIT_OF[c] and values[prev] == values[c] and prev not in special \
                        and not is_king(prev) and not self._between(prev, c, others):
                    continue
            kept.append(c)
        first = self.player.choose(seat, legal)
        rep = first if first in kept else next((k for k in kept if SUIT_OF[k] == SUIT_OF[first]), kept[0])
        kept.sort(key=lambda c: -STRENGTH[c])
        kept.remove(rep)
        kept.insert(0, rep)
        return kept

    def _between(self, lo: Card, hi: Card, others: int) -> bool:
        """Whether another hand holds a card of their suit ranked between ``lo`` and ``hi``."""
        a, b = STRENGTH[lo], STRENGTH[hi]
        suit = SUIT_OF[lo]
        m = others
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if SUIT_OF[c] == suit and a < STRENGTH[c] < b:
                return True
        return False

    # -- search ------------------------------------------------------------
    def _search(self, alpha: float, beta: float) -> float:
        sim = self.sim
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _Limit
        seat = sim.to_move
        if seat < 0:
            return self._leaf()
        moves = self._moves(seat)
        if len(moves) == 1:
            sim.play(moves[0])
            try:
                return self._search(alpha, beta)
            finally:
                sim.undo()
        if self.aims.side[seat] == self.mine:
            best = -INF
            for card in moves:
                sim.play(card)
                try:
                    v = self._search(alpha, beta)
                finally:
                    sim.undo()
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            return best
        best = INF
        for card in moves:
            sim.play(card)
            try:
                v = self._search(alpha, beta)
            finally:
                sim.undo()
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    def value(self) -> float | None:
        """The exact value of the position (None when the node budget ran out)."""
        depth = len(self.sim.stack)
        try:
            return self._search(-INF, INF)
        except _Limit:
            self.sim.rewind(depth)
            return None

    def at_least(self, target: float) -> bool | None:
        """Whether the position is worth at least ``target`` (a zero-window search)."""
        depth = len(self.sim.stack)
        try:
            return self._search(target - 1e-9, target) >= target
        except _Limit:
            self.sim.rewind(depth)
            return None
