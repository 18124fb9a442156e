"""Phases of a hand and the generic phase handlers variants build on.

A phase handler owns one step of the hand (bidding, talon, discard, Kontra,
tricks ...).  Variants choose the sequence through ``tarock_phases`` and
provide or replace handlers through ``tarock_phase``; the handlers here are
generic mechanisms whose rule decisions are asked from hooks.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final

from tarock.core.actions import (
    GAME,
    PLAYS,
    Action,
    Call,
    Discard,
    Kontra,
    KontraTarget,
    Pass,
    Play,
    Trump,
    pass_,
)
from tarock.core.cards import SUIT_LETTERS, format_card, format_cards
from tarock.core.state import HandState, PhaseId, Reason, Trick

if TYPE_CHECKING:
    from tarock.core.contracts import ContractSpec
    from tarock.core.rules import Rules

BIDDING: Final = PhaseId("bidding")
CALL: Final = PhaseId("call")
TRUMP: Final = PhaseId("trump")
TALON: Final = PhaseId("talon")
DISCARD: Final = PhaseId("discard")
KONTRA: Final = PhaseId("kontra")
ANNOUNCE: Final = PhaseId("announce")
PLAY: Final = PhaseId("play")
DONE: Final = PhaseId("done")
"""The phase of a finished hand."""


TAKES_TALON: Final = frozenset({"pile"})
"""The talon uses :class:`TakeTalonPile` and :class:`DiscardPhase` play."""


def contract_phases(spec: ContractSpec | None, kontra: PhaseId | None = KONTRA) -> tuple[PhaseId, ...]:
    """The phases of a hand of ``spec`` (None: the auction has not decided yet) that
    follow from its data: the bidding, the call of a card after the auction
    (``CallRule.when == "after"``), the trump suit of a ``suit`` game, the talon
    pile and the discard where the declarer takes talon cards, ``kontra`` (None:
    the Kontras are said in the auction) and the tricks.  Phases with nothing
    to do are passed over by their handlers."""
    if spec is None:
        return (BIDDING,)
    seq: list[PhaseId] = [BIDDING]
    if spec.call is not None and spec.call.when == "after":
        seq.append(CALL)
    if spec.tricks.trump == "suit":
        seq.append(TRUMP)
    if spec.talon in TAKES_TALON:
        seq += [TALON, DISCARD]
    if kontra is not None:
        seq.append(kontra)
    seq.append(PLAY)
    return tuple(seq)


@lru_cache(maxsize=1024)
def kontra_action(seat: int, target: KontraTarget = GAME) -> Kontra:
    """The Kontra of ``seat`` on ``target``, one value per pair: Kontra phases list
    them in every turn, and a frozen action is built slowly."""
    return Kontra(seat, target)


class Phase:
    """Base of phase handlers.  Subclasses set ``name`` and override."""

    name: PhaseId = PhaseId("")

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

    name = TALON

    def __init__(self, pile: int | None = None) -> None:
        self.pile = pile
        """The pile taken; None: the contract's ``talon_pile``."""

    def start(self, state: HandState, rules: Rules) -> None:
        assert state.declarer is not None and state.contract is not None
        spec = state.contract.spec
        if self.pile is None and spec.talon != "pile":
            state.to_move = None  # this contract leaves the talon alone (it counts for the opponents)
            return
        pile = self.pile if self.pile is not None else spec.talon_pile
        taken = state.talon[pile]
        state.talon[pile] = []
        state.talon_taken = list(taken)
        state.hands[state.declarer].extend(taken)
        state.to_move = None


class DiscardPhase(Phase):
    """The declarer lays away as many cards as were taken from the talon.

    Which cards may go is asked from ``tarock_legal_discards``.  The cards
    laid away are kept in ``state.discards`` and count for the declarer.
    """

    name = DISCARD

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
    does reaching the contract's Kontra limit (``ContractSpec.kontra``).  Who
    may not raise is asked from ``tarock_kontra_verdict`` (e.g. the secret
    partner), who must from ``tarock_kontra_duty`` (Pflichtkontra: that seat
    cannot pass).  A Kontra here names no target.
    """

    name = KONTRA

    def start(self, state: HandState, rules: Rules) -> None:
        assert state.declarer is not None and state.contract is not None
        order: list[int] = []
        seat = state.forehand
        for _ in range(len(state.players)):
            if seat != state.declarer:
                order.append(seat)
            seat = state.next_seat(seat)
        state.data["kontra"] = {"order": order, "asked": 0, "giver": None}
        state.to_move = order[0] if order and state.contract.spec.kontra > 0 else None

    @staticmethod
    def _limit(state: HandState) -> int:
        assert state.contract is not None
        return state.contract.spec.kontra

    def _refusal(self, state: HandState, rules: Rules, seat: int) -> Reason | None:
        if state.kontra_level >= self._limit(state):
            return Reason("kontra-max", "the Kontra chain is at its highest level")
        verdict = rules.kontra_verdict(state, seat, GAME)
        if verdict is not None and not verdict.allowed:
            return verdict.reason or Reason("kontra-not-allowed", "you may not say Kontra now")
        return None

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        may = self._refusal(state, rules, seat) is None
        if may and rules.kontra_duty(state, seat):
            return [kontra_action(seat)]
        return [pass_(seat), kontra_action(seat)] if may else [pass_(seat)]

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if isinstance(action, Pass):
            if rules.kontra_duty(state, action.seat) and self._refusal(state, rules, action.seat) is None:
                return Reason("pflichtkontra", "the rules oblige you to say Kontra here")
            return None
        if not isinstance(action, Kontra):
            return Reason("wrong-phase", f"say kontra or pass now, not {action.describe()}")
        if not action.target.game:
            return Reason("kontra-target", "a Kontra here doubles the game with all its premiums: "
                          f"say kontra without a target, not on {str(action.target)!r}")
        return self._refusal(state, rules, action.seat)

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = state.data["kontra"]
        assert state.declarer is not None
        if isinstance(action, Kontra):
            state.kontra_level += 1
            if state.kontra_level == 1:
                info["giver"] = action.seat
            if state.kontra_level >= self._limit(state):
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


class TrumpChoice(Phase):
    """The declarer of a ``suit`` game names the trump suit once the auction is
    won (docs/rules.md §4.5, Faberl: "wählst eine Trumpffarbe")."""

    name = TRUMP

    def start(self, state: HandState, rules: Rules) -> None:
        assert state.contract is not None
        needed = state.contract.spec.tricks.trump == "suit" and state.contract.trump is None
        state.to_move = state.declarer if needed else None

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        return [Trump(seat, letter) for letter in SUIT_LETTERS]

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if not isinstance(action, Trump):
            return Reason("wrong-phase", f"name the trump suit now, not {action.describe()}")
        if action.suit not in SUIT_LETTERS or len(action.suit) != 1:
            return Reason("no-such-suit", f"{action.suit!r} is not a suit: name c, s, h or d")
        return None

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        import dataclasses

        assert isinstance(action, Trump) and state.contract is not None
        state.contract = dataclasses.replace(state.contract, trump=action.suit)
        state.to_move = None


class CallPhase(Phase):
    """The declarer of a calling game calls a card after the auction (``CallRule.when
    == "after"``); its holder is his secret partner.  Which cards may be called is
    asked from ``tarock_callable``.  Whether the card lies in the talon is noted in
    ``state.data["called_in_talon"]``."""

    name = CALL

    def start(self, state: HandState, rules: Rules) -> None:
        spec = state.contract.spec if state.contract is not None else None
        needed = spec is not None and spec.call is not None and state.called is None
        state.to_move = state.declarer if needed else None

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move or state.contract is None:
            return []
        return [Call(seat, c) for c in rules.callable(state, seat, state.contract.spec)]

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if action in self.legal(state, rules, action.seat):
            return None
        if not isinstance(action, Call):
            return Reason("wrong-phase", f"call a card now, not {action.describe()}")
        if action.card in state.hands[action.seat]:
            return Reason("self-call", "you may not call a card you hold")
        allowed = " ".join(format_cards(self._cards(state, rules, action.seat))) or "none"
        return Reason("not-callable",
                      f"{format_card(action.card)} may not be called (you may call: {allowed})")

    @staticmethod
    def _cards(state: HandState, rules: Rules, seat: int) -> list[int]:
        assert state.contract is not None
        return list(rules.callable(state, seat, state.contract.spec))

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        assert isinstance(action, Call)
        state.called = action.card
        holder = state.holder(action.card)
        state.partner = holder if holder is not None and holder != action.seat else None
        state.data["called_in_talon"] = any(action.card in pile for pile in state.talon)
        state.to_move = None


class TrickPlay(Phase):
    """Tricks until the hands are empty.

    The first leader, the legal cards and the winner of each trick are asked
    from hooks; the winner leads the next trick.
    """

    name = PLAY

    def start(self, state: HandState, rules: Rules) -> None:
        leader = rules.first_leader(state)
        state.trick = Trick(leader)
        state.to_move = leader

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        plays = PLAYS[seat]
        cards = rules.legal_plays_direct(state, seat)
        if cards is None:
            cards = rules.legal_plays(state, seat)  # raises: nobody answers the hook
        return [plays[card] for card in cards]

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
        seat, card = action.seat, action.card
        state.hands[seat].remove(card)
        trick = state.trick
        trick.seats.append(seat)
        trick.cards.append(card)
        # a lone declarer who plays the card he called (taken from the talon) makes the
        # partnership public too: there is none
        if not state.partner_known and (state.called is not None or state.partner is not None) and \
                rules.partner_revealed(state, seat, card):
            state.partner_known = True
        if len(trick.cards) < (len(state.active) or state.seats):
            # next_seat(), asked for every card: at a table where all take part, inline
            state.to_move = state.next_seat(seat) if state.active else (seat + 1) % state.seats
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
