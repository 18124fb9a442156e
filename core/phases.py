"""Phases of a hand and the generic phase handlers variants build on.

A phase handler owns one step of the hand (bidding, talon, discard, Kontra,
tricks ...).  Variants choose the sequence through ``tarock_phases`` and
provide or replace handlers through ``tarock_phase``; the handlers here are
generic mechanisms whose rule decisions are asked from hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.actions import Action, Discard, Kontra, Pass, Play
from core.cards import format_card, format_cards
from core.state import HandState, Reason, Trick

if TYPE_CHECKING:
    from core.rules import Rules


class Phase:
    """Base of phase handlers.  Subclasses set ``name`` and override."""

    name = ""

    def start(self, state: HandState, rules: Rules) -> None:
        """Enter the phase: set ``state.to_move``; may do automatic work."""

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        """The actions ``seat`` may take now (empty when not its turn)."""
        return []

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        """Why ``action`` is illegal, or None.  Default: not among ``legal``."""
        if action in self.legal(state, rules, action.seat):
            return None
        return Reason("not-allowed", f"{action.describe()} is not allowed in the {self.name} phase")

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        """Carry out a checked action."""
        raise TypeError(f"the {self.name} phase takes no actions")

    def done(self, state: HandState) -> bool:
        """Whether the phase is over."""
        return state.to_move is None


class TakeTalonPile(Phase):
    """The declarer takes one talon pile into the hand, without an action."""

    name = "talon"

    def __init__(self, pile: int = 0) -> None:
        self.pile = pile

    def start(self, state: HandState, rules: Rules) -> None:
        assert state.declarer is not None
        taken = state.talon[self.pile]
        state.talon[self.pile] = []
        state.talon_taken = list(taken)
        state.hands[state.declarer].extend(taken)
        state.to_move = None


class DiscardPhase(Phase):
    """The declarer lays away as many cards as were taken from the talon.

    Which cards may go is asked from ``tarock_legal_discards``.  The cards
    laid away are kept in ``state.discards`` and count for the declarer.
    """

    name = "discard"

    def start(self, state: HandState, rules: Rules) -> None:
        state.to_move = state.declarer if state.talon_taken else None

    def _count(self, state: HandState) -> int:
        return len(state.talon_taken)

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        return [Discard(seat, tuple(cards))
                for cards in rules.legal_discards(state, seat, self._count(state))]

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if not isinstance(action, Discard):
            return Reason("wrong-phase", f"the declarer must discard now, not {action.describe()}")
        n = self._count(state)
        if len(action.cards) != n or len(set(action.cards)) != n:
            return Reason("discard-count", f"discard exactly {n} different cards")
        missing = [c for c in action.cards if c not in state.hands[action.seat]]
        if missing:
            return Reason("not-in-hand", f"{' '.join(format_cards(missing))} not in your hand")
        cards = tuple(sorted(action.cards))
        if cards in rules.legal_discards(state, action.seat, n):
            return None
        return rules.discard_reason(state, action.seat, cards) or Reason(
            "discard-not-allowed", f"{' '.join(format_cards(cards))} may not be laid away")

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        assert isinstance(action, Discard)
        hand = state.hands[action.seat]
        for card in action.cards:
            hand.remove(card)
        state.discards.extend(action.cards)
        state.to_move = None


class KontraChain(Phase):
    """Kontra, Rekontra, Subkontra, Re-Sub: one chain on the whole game.

    The declarer's opponents are asked in turn from the forehand; the first
    Kontra doubles, then only the declarer (odd levels answered) and that
    Kontra-giver alternate.  Passing (skipping a level) ends the chain, as
    does reaching ``tarock_kontra_max_level``.  Who may not raise is asked
    from ``tarock_kontra_reason`` (e.g. the secret partner).
    """

    name = "kontra"

    def start(self, state: HandState, rules: Rules) -> None:
        assert state.declarer is not None
        order: list[int] = []
        seat = state.forehand
        for _ in range(len(state.players)):
            if seat != state.declarer:
                order.append(seat)
            seat = state.next_seat(seat)
        state.data["kontra"] = {"order": order, "asked": 0, "giver": None}
        state.to_move = order[0]

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        out: list[Action] = [Pass(seat)]
        if (state.kontra_level < rules.kontra_max_level(state)
                and rules.kontra_reason(state, seat) is None):
            out.append(Kontra(seat))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if isinstance(action, Pass):
            return None
        if not isinstance(action, Kontra):
            return Reason("wrong-phase", f"say kontra or pass now, not {action.describe()}")
        if action.target:
            return Reason("kontra-target", "this Kontra chain is on the whole game: a Kontra "
                          f"names no target, not {action.target!r}")
        if state.kontra_level >= rules.kontra_max_level(state):
            return Reason("kontra-max", "the Kontra chain is at its highest level")
        return rules.kontra_reason(state, action.seat)

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = state.data["kontra"]
        assert state.declarer is not None
        if isinstance(action, Kontra):
            state.kontra_level += 1
            if state.kontra_level == 1:
                info["giver"] = action.seat
            if state.kontra_level >= rules.kontra_max_level(state):
                state.to_move = None
            else:
                state.to_move = state.declarer if state.kontra_level % 2 else info["giver"]
            return
        if state.kontra_level > 0:
            state.to_move = None
            return
        info["asked"] += 1
        order = info["order"]
        state.to_move = order[info["asked"]] if info["asked"] < len(order) else None


class TrickPlay(Phase):
    """Tricks until the hands are empty.

    The first leader, the legal cards and the winner of each trick are asked
    from hooks; the winner leads the next trick.
    """

    name = "play"

    def start(self, state: HandState, rules: Rules) -> None:
        leader = rules.first_leader(state)
        state.trick = Trick(leader)
        state.to_move = leader

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        return [Play(seat, card) for card in rules.legal_plays(state, seat)]

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if not isinstance(action, Play):
            return Reason("wrong-phase", f"play a card now, not {action.describe()}")
        if action.card not in state.hands[action.seat]:
            return Reason("not-in-hand", f"{format_card(action.card)} is not in your hand")
        if action.card in rules.legal_plays(state, action.seat):
            return None
        return rules.play_reason(state, action.seat, action.card) or Reason(
            "not-allowed", f"{format_card(action.card)} may not be played to this trick")

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        assert isinstance(action, Play) and state.trick is not None
        state.hands[action.seat].remove(action.card)
        trick = state.trick
        trick.seats.append(action.seat)
        trick.cards.append(action.card)
        if not state.partner_known and rules.partner_revealed(state, action.seat, action.card):
            state.partner_known = True
        if len(trick.cards) < len(state.players):
            state.to_move = state.next_seat(action.seat)
            return
        winner = trick.seats[rules.trick_winner(state, trick)]
        trick.winner = winner
        state.tricks.append(trick)
        if state.hands[winner]:
            state.trick = Trick(winner)
            state.to_move = winner
        else:
            state.trick = None
            state.to_move = None
