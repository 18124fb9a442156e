"""The card play of one sampled deal, by the table's own rules, fast.

A :class:`Sim` starts from an engine state in the play phase (a sampled
world replayed through the engine, :mod:`client.bots.worlds`) and plays
cards forward and back on bit sets.  Legal plays and trick winners come
from the contract's trick rules on bit sets (:mod:`client.bots.fastplay`)
where only core's data rules answer those hooks; otherwise from the
engine's hooks themselves, asked on a scratch copy of the state that holds
the playing seat's hand, the trick and the tricks so far (a variant's duty
to play an announced bird in its trick, for instance).  The finished hand
is scored by the engine: :meth:`Sim.settlement` hands the tricks to the
variant's scoring and core's settlement, so every premium and house rule
counts as at the table.  tests/test_search_fastplay.py checks that a hand
played through a :class:`Sim` scores exactly as the same hand played
through the engine.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace

from tarock.client.bots.fastplay import TrickModel, bits, cards_of
from tarock.client.bots.rulebook import TableEngine
from tarock.core.cards import Card
from tarock.core.state import HandState, Trick


def finished(state: HandState, tricks: Sequence[Trick]) -> HandState:
    """A copy of ``state`` with ``tricks`` as its complete tricks and no cards
    left in hand: what scoring reads of a hand played to its end."""
    return replace(state, tricks=list(tricks), trick=None, to_move=None, hands=[[] for _ in state.hands])


class Sim:
    """Card play forward and back from ``state`` (play phase) on bit sets."""

    __slots__ = ("_engine_legal", "_engine_winner", "_scratch", "base", "compiled", "compiled_winner",
                 "hands", "leader", "model", "next_seat", "rules", "size", "stack", "to_move", "trick_cards",
                 "trick_seats", "tricks")

    def __init__(self, table: TableEngine, state: HandState) -> None:
        contract = state.contract
        assert contract is not None, "card play needs a contract"
        self.rules = table.rules
        self.base = state
        self.model = TrickModel(contract.spec.tricks, contract.suit)
        self.size = len(state.players)
        self.next_seat = [state.next_seat(s) for s in range(state.seats)]
        self.hands = [bits(h) for h in state.hands]
        trick = state.trick
        self.trick_seats: list[int] = list(trick.seats) if trick is not None else []
        self.trick_cards: list[Card] = list(trick.cards) if trick is not None else []
        self.leader = trick.leader if trick is not None else -1
        self.tricks: list[Trick] = list(state.tricks)
        self.to_move = state.to_move if state.to_move is not None else -1
        self.stack: list[tuple[int, int, int]] = []
        """Per card played: (seat, card, leader of its trick)."""
        self._engine_legal = not table.fast_legal
        self._engine_winner = not table.fast_winner
        self.compiled = table.fast_legal and table.fast_winner
        """Legal plays and winners are the compiled trick engine's (:mod:`core.trickbits`)."""
        self.compiled_winner = table.fast_winner
        """Trick winners are the compiled trick engine's."""
        self._scratch: HandState | None = None
        if self._engine_legal or self._engine_winner:
            scratch = copy.copy(state)
            scratch.hands = [list(h) for h in state.hands]
            scratch.tricks = self.tricks
            self._scratch = scratch

    # -- queries -----------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.to_move < 0

    @property
    def tricks_left(self) -> int:
        """Tricks not yet complete (the current one included)."""
        return max(h.bit_count() for h in self.hands)

    def legal(self, seat: int) -> int:
        """The cards ``seat`` may play now, as bits."""
        if not self._engine_legal:
            return self.model.legal(self.hands[seat], self.trick_cards)
        scratch = self._scratch
        assert scratch is not None
        scratch.hands[seat] = cards_of(self.hands[seat])
        scratch.trick = Trick(self.leader if self.trick_cards else seat, list(self.trick_seats),
                              list(self.trick_cards))
        return bits(self.rules.legal_plays(scratch, seat))

    def _winner(self) -> int:
        if not self._engine_winner:
            return self.trick_seats[self.model.winner(self.trick_cards)]
        scratch = self._scratch
        assert scratch is not None
        trick = Trick(self.leader, list(self.trick_seats), list(self.trick_cards))
        return self.trick_seats[self.rules.trick_winner(scratch, trick)]

    # -- moves -------------------------------------------------------------
    def play(self, card: Card) -> None:
        """The seat to move plays ``card`` (legal: the caller chose it from :meth:`legal`)."""
        seat = self.to_move
        if not self.trick_cards:
            self.leader = seat
        self.stack.append((seat, card, self.leader))
        self.hands[seat] &= ~(1 << card)
        self.trick_seats.append(seat)
        self.trick_cards.append(card)
        if len(self.trick_cards) < self.size:
            self.to_move = self.next_seat[seat]
            return
        win = self._winner()
        self.tricks.append(Trick(self.leader, self.trick_seats, self.trick_cards, win))
        self.trick_seats, self.trick_cards = [], []
        self.to_move = win if self.hands[win] else -1

    def undo(self) -> None:
        """Take the last card back."""
        seat, card, leader = self.stack.pop()
        if not self.trick_cards:
            last = self.tricks.pop()
            self.trick_seats, self.trick_cards = last.seats, last.cards
        self.trick_seats.pop()
        self.trick_cards.pop()
        self.hands[seat] |= 1 << card
        self.leader = leader
        self.to_move = seat

    def rewind(self, depth: int) -> None:
        """Take cards back until ``depth`` cards of the stack remain."""
        while len(self.stack) > depth:
            self.undo()

    # -- the end -----------------------------------------------------------
    def settlement(self) -> tuple[int, ...]:
        """The engine's settlement of the finished hand (one amount per seat)."""
        return self.rules.score(finished(self.base, self.tricks)).settlement

    def party_of(self, seat: int) -> frozenset[int]:
        """The seats playing with ``seat`` in this world (the true parties)."""
        party = self.base.declarer_party()
        if self.base.contract is not None and self.base.contract.spec.partnership == "each":
            return frozenset({seat})
        if seat in party:
            return party
        return frozenset(s for s in self.base.players if s not in party)
