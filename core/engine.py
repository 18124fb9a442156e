"""The engine: one hand, changed only by checked actions."""

from __future__ import annotations

from collections.abc import Sequence

from core.actions import Action
from core.cards import Card, format_card
from core.rules import RuleError, Rules, blame
from core.state import HandState, Reason

DONE = "done"


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``reason`` says why."""

    def __init__(self, action: Action, reason: Reason) -> None:
        super().__init__(f"seat {action.seat}: {action.describe()}: {reason.message}")
        self.action = action
        self.reason = reason


class DealError(ValueError):
    """Hands and talon that are not a deal of this variant's deck."""


class Hand:
    """One hand of a variant: deal, auction, talon, Kontra, tricks, result.

    The state changes only through :meth:`apply`, which checks the action
    first and leaves the state untouched when it is illegal.
    """

    def __init__(self, rules: Rules, dealer: int, hands: Sequence[Sequence[Card]],
                 talon: Sequence[Sequence[Card]], seats: int = 4,
                 active: tuple[int, ...] = ()) -> None:
        self.rules = rules
        if not 0 <= dealer < seats:
            raise DealError(f"the dealer must be a seat 0..{seats - 1}, not {dealer}")
        self._check_deal(hands, talon, seats, active)
        self.deal = ([list(h) for h in hands], [list(p) for p in talon])
        self.state = HandState(
            variant=rules.variant, options=dict(rules.options), seats=seats, dealer=dealer,
            hands=[list(h) for h in hands], talon=[list(p) for p in talon], active=active,
        )
        self._phase_list: list[str] = []
        self._legal_cache: tuple[int, int, list[Action]] | None = None
        self._enter(0)

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
        if sorted(cards) != sorted(rules.deck):
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
    def _enter(self, index: int) -> None:
        state = self.state
        while True:
            self._phase_list = list(self.rules.phases(state))
            if index >= len(self._phase_list):
                state.phase = DONE
                state.to_move = None
                state.trick = None
                state.result = self.rules.score(state)
                return
            state.phase = self._phase_list[index]
            phase = self.rules.phase(state.phase)
            phase.start(state, self.rules)
            if not phase.done(state):
                return
            index += 1

    def _advance(self) -> None:
        state = self.state
        if not self.rules.phase(state.phase).done(state):
            return
        phases = list(self.rules.phases(state))
        index = phases.index(state.phase) + 1 if state.phase in phases else len(phases)
        self._enter(index)

    # -- queries -----------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.state.phase == DONE

    def legal(self, seat: int) -> list[Action]:
        """The actions ``seat`` may take now."""
        state = self.state
        if state.phase == DONE or seat != state.to_move:
            return []
        key = len(state.actions)
        cache = self._legal_cache
        if cache is not None and cache[0] == key and cache[1] == seat:
            return cache[2]
        actions = self.rules.phase(state.phase).legal(state, self.rules, seat)
        self._legal_cache = (key, seat, actions)
        return actions

    def why_not(self, action: Action) -> Reason | None:
        """Why ``action`` is illegal now, or None if it is legal."""
        state = self.state
        if state.phase == DONE:
            return Reason("hand-over", "the hand is over")
        if not 0 <= action.seat < state.seats:
            return Reason("no-such-seat", f"there is no seat {action.seat}")
        if action.seat != state.to_move:
            return Reason("not-your-turn", f"it is seat {state.to_move}'s turn, not seat {action.seat}'s")
        cache = self._legal_cache
        if cache is not None and cache[0] == len(state.actions) and action in cache[2]:
            return None
        return self.rules.phase(state.phase).check(state, self.rules, action)

    def apply(self, action: Action) -> None:
        """Check and carry out ``action``; raise :class:`IllegalAction` if illegal."""
        reason = self.why_not(action)
        if reason is not None:
            raise IllegalAction(action, reason)
        before = list(self.state.actions)
        try:
            self.rules.phase(self.state.phase).apply(self.state, self.rules, action)
            self.state.actions.append(action)
            self._advance()
        except Exception as exc:
            self._restore(before)
            if isinstance(exc, RuleError):
                raise
            culprit = blame(self.rules.pm, exc)
            where = f" in {culprit}" if culprit else ""
            raise RuleError(f"the rules failed on {action.describe()}{where}: {exc!r}") from exc

    def _restore(self, actions: list[Action]) -> None:
        """Rebuild the state from the deal and the actions before a failure."""
        hands, talon = self.deal
        fresh = Hand(self.rules, self.state.dealer, hands, talon, self.state.seats, self.state.active)
        for action in actions:
            fresh.apply(action)
        self.state = fresh.state
        self._phase_list = fresh._phase_list
        self._legal_cache = None
