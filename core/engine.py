"""The engine: one hand, changed only by checked actions."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from tarock.core.actions import Action
from tarock.core.cards import Card, format_card
from tarock.core.context import TableContext
from tarock.core.phases import DONE, Phase
from tarock.core.rules import PluginFailure, RuleError, Rules, blame
from tarock.core.state import HandState, PhaseId, Reason

__all__ = ["DONE", "DealError", "Hand", "IllegalAction"]


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``reason`` says why."""

    def __init__(self, action: Action, reason: Reason) -> None:
        super().__init__(f"seat {action.seat}: {action.describe()}: {reason.message}")
        self.action = action
        self.reason = reason


class DealError(ValueError):
    """Hands and talon that are not a deal of this variant's deck."""


_PLAIN_DONE: Final = Phase.done
"""The phases' own end: nobody to move (:meth:`Hand._carry_out` asks it without a call)."""


@lru_cache(maxsize=16)
def _sorted(deck: tuple[Card, ...]) -> list[Card]:
    """A deck's cards in order, sorted once (every hand's deal is checked against it)."""
    return sorted(deck)


class Hand:
    """One hand of a variant: deal, auction, talon, Kontra, tricks, result.

    The state changes only through :meth:`apply`, which checks the action
    first and leaves the state untouched when it is illegal, or when a
    plugin fails on it (:class:`~core.rules.PluginFailure`).  ``context`` is
    what the table carried into this hand (dealer, round, house rules'
    memory); its dealer must be ``dealer``.
    """

    def __init__(self, rules: Rules, dealer: int, hands: Sequence[Sequence[Card]],
                 talon: Sequence[Sequence[Card]], seats: int = 4,
                 active: tuple[int, ...] = (), context: TableContext | None = None) -> None:
        self.rules = rules
        if not 0 <= dealer < seats:
            raise DealError(f"the dealer must be a seat 0..{seats - 1}, not {dealer}")
        if context is None:
            context = TableContext(dealer=dealer)
        elif context.dealer != dealer:
            raise DealError(f"the table context names seat {context.dealer} as dealer, "
                            f"the hand seat {dealer}")
        self._check_deal(hands, talon, seats, active)
        self.deal = ([list(h) for h in hands], [list(p) for p in talon])
        self.context = context
        self.state = HandState(
            variant=rules.variant, options=rules.options, seats=seats, dealer=dealer,
            hands=[list(h) for h in hands], talon=[list(p) for p in talon], active=active,
            context=context,
        )
        self._handler: Phase | None = None
        self._legal_cache: tuple[int, int, list[Action]] | None = None
        self._enter(0)

    def copy(self, rules: Rules | None = None) -> Hand:
        """A copy to try actions on: the deal and the state copied, the rules (with their
        plugin manager) shared; ``rules`` to go on with others (``Rules.with_calls``)."""
        hands, talon = self.deal
        out = Hand(rules or self.rules, self.state.dealer, hands, talon, self.state.seats, self.state.active,
                   self.context)
        out.state = self.state.copy()
        out._handler = self._handler
        return out

    def _check_deal(self, hands: Sequence[Sequence[Card]], talon: Sequence[Sequence[Card]],
                    seats: int, active: tuple[int, ...]) -> None:
        rules = self.rules
        if len(hands) != seats:
            raise DealError(f"expected {seats} hands, got {len(hands)}")
        playing = active or tuple(range(seats))
        for seat, hand in enumerate(hands):
            want = rules.hand_size if seat in playing else 0
            if len(hand) != want:
                raise DealError(f"seat {seat} holds {len(hand)} cards, the deal gives {want}")
        sizes = tuple(len(p) for p in talon)
        if sizes != rules.talon_piles:
            raise DealError(f"talon piles of sizes {list(sizes)}, the deal gives {list(rules.talon_piles)}")
        cards = [c for h in hands for c in h] + [c for p in talon for c in p]
        if sorted(cards) != _sorted(rules.deck):
            extra = sorted(set(cards) - set(rules.deck))
            twice = sorted({c for c in cards if cards.count(c) > 1})
            missing = sorted(set(rules.deck) - set(cards))
            parts = []
            for label, group in (("not in this deck", extra), ("dealt twice", twice),
                                 ("missing", missing)):
                if group:
                    names = (format_card(c) if c in range(54) else f"#{c}" for c in group)
                    parts.append(f"{label}: {' '.join(names)}")
            raise DealError("the deal is not the deck: " + "; ".join(parts))

    # -- phases ------------------------------------------------------------
    def _enter(self, index: int, phases: Sequence[PhaseId] | None = None) -> None:
        """Start the phase at ``index`` of ``phases`` (asked of the rules when None,
        and again after each phase that starts done), or score the hand past the last."""
        state = self.state
        rules = self.rules
        while True:
            if phases is None:
                phases = rules.phases(state)
            if state.passed_out or index >= len(phases):
                state.phase = DONE
                state.to_move = None
                state.trick = None
                self._handler = None
                state.result = rules.score(state)
                return
            state.phase = phases[index]
            handler = rules.phase(state.phase)
            self._handler = handler
            handler.start(state, rules)
            if not handler.done(state):
                return
            index += 1
            phases = None

    def _advance(self) -> None:
        state = self.state
        handler = self._handler
        if handler is None or not handler.done(state):
            return
        phases = self.rules.phases(state)
        index = list(phases).index(state.phase) + 1 if state.phase in phases else len(phases)
        self._enter(index, phases)  # the state is as the rules were just asked about it

    # -- queries -----------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.state.phase == DONE

    def legal(self, seat: int) -> list[Action]:
        """The actions ``seat`` may take now."""
        state = self.state
        handler = self._handler
        if handler is None or seat != state.to_move:
            return []
        key = len(state.actions)
        cache = self._legal_cache
        if cache is not None and cache[0] == key and cache[1] == seat:
            return cache[2]
        actions = handler.legal(state, self.rules, seat)
        self._legal_cache = (key, seat, actions)
        return actions

    def why_not(self, action: Action) -> Reason | None:
        """Why ``action`` is illegal now, or None if it is legal."""
        state = self.state
        handler = self._handler
        if handler is None:
            return Reason("hand-over", "the hand is over")
        if not 0 <= action.seat < state.seats:
            return Reason("no-such-seat", f"there is no seat {action.seat}")
        if action.seat != state.to_move:
            return Reason("not-your-turn", f"it is seat {state.to_move}'s turn, not seat {action.seat}'s")
        cache = self._legal_cache
        if cache is not None and cache[0] == len(state.actions) and action in cache[2]:
            return None
        return handler.check(state, self.rules, action)

    def apply(self, action: Action) -> None:
        """Check and carry out ``action``; raise :class:`IllegalAction` if illegal."""
        state = self.state
        taken = len(state.actions)
        cache = self._legal_cache
        if cache is not None and cache[0] == taken:
            for listed in cache[2]:  # mostly an object the legal list holds: found by identity
                if listed is action:
                    self._carry_out(action, taken)  # legal just now
                    return
        reason = self.why_not(action)
        if reason is not None:
            raise IllegalAction(action, reason)
        self._carry_out(action, taken)

    def apply_unchecked(self, action: Action) -> None:
        """Carry out ``action`` without asking whether it is legal.

        For a node that follows another seat's hand without knowing it (network
        play without a trusted dealer): that seat's action is checked later,
        against the real hand.  Only the turn and the hand's end are checked
        here; a plugin that fails raises as in :meth:`apply`.
        """
        state = self.state
        if self._handler is None:
            raise IllegalAction(action, Reason("hand-over", "the hand is over"))
        if action.seat != state.to_move:
            raise IllegalAction(action, Reason("not-your-turn", f"it is seat {state.to_move}'s turn, "
                                                                f"not seat {action.seat}'s"))
        self._carry_out(action, len(state.actions))

    def _carry_out(self, action: Action, taken: int) -> None:
        state = self.state
        handler = self._handler
        assert handler is not None
        try:
            handler.apply(state, self.rules, action)
            state.actions.append(action)
            self._legal_cache = None
            # Phase.done (no phase overrides it) inline: asked after every action
            if state.to_move is None if type(handler).done is _PLAIN_DONE else handler.done(state):
                self._advance()
        except Exception as exc:
            self._restore(state.actions[:taken])
            if isinstance(exc, PluginFailure):
                exc.action = f"seat {action.seat}: {action.describe()}"
            if isinstance(exc, RuleError):
                raise
            culprit = blame(self.rules.pm, exc)
            where = f" in {culprit}" if culprit else ""
            raise RuleError(f"the rules failed on {action.describe()}{where}: {exc!r}") from exc

    def _restore(self, actions: list[Action]) -> None:
        """Rebuild the state from the deal and the actions before a failure."""
        hands, talon = self.deal
        fresh = Hand(self.rules, self.state.dealer, hands, talon, self.state.seats, self.state.active,
                     self.context)
        for action in actions:
            fresh.apply_unchecked(action)  # each was carried out before
        self.state = fresh.state
        self._handler = fresh._handler
        self._legal_cache = None
