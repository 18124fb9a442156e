"""The replay viewer as plain Python: a recorded hand of a kept table, stepped through action by action.

The hands are those of the kept tables (:mod:`client.tables`, replayed by :mod:`client.history`),
the last ended table first.  At step ``k`` the hand is its deal with its first ``k`` actions applied
(the engine replays them: one truth), shown open, as a replay is after the fact: every seat's cards,
the talon, the trick on the table, the actions so far, and the result at the end.  Drawn by
:mod:`client.ui.history_pages`.
"""

from __future__ import annotations

from tarock.client.history import KeptTable
from tarock.client.i18n import _
from tarock.client.text.actions import action_text, trick_text
from tarock.client.text.cards import cards_text
from tarock.client.text.figures import SYMBOLS
from tarock.client.text.results import result_lines
from tarock.core.engine import Hand
from tarock.core.observation import TrickView, observe

LAST_ACTIONS = 8
"""How many of the last actions the viewer lists."""


class ReplayView:
    """Which hand of which kept table, and which step of it (module docstring)."""

    def __init__(self, tables: list[KeptTable]) -> None:
        self.refs = [(kept, i) for kept in tables for i in range(len(kept.hands))]
        self.at = 0
        self.step = 0

    @property
    def empty(self) -> bool:
        return not self.refs

    def _kept(self) -> tuple[KeptTable, Hand]:
        kept, i = self.refs[self.at]
        return kept, kept.hands[i]

    def steps(self) -> int:
        return len(self._kept()[1].state.actions) if self.refs else 0

    def move(self, n: int) -> None:
        """``n`` actions on (back where negative), within the hand."""
        self.step = max(0, min(self.steps(), self.step + n))

    def end(self, last: bool) -> None:
        self.step = self.steps() if last else 0

    def next_hand(self, n: int) -> None:
        """Another hand (``n`` on), at its start."""
        if self.refs:
            self.at = (self.at + n) % len(self.refs)
            self.step = 0

    def at_step(self) -> Hand:
        """The hand after the first :attr:`step` actions."""
        _kept, hand = self._kept()
        state = hand.state
        again = Hand(hand.rules, state.dealer, *hand.deal, state.seats, state.active, hand.context)
        for action in state.actions[: self.step]:
            again.apply(action)
        return again

    def title(self) -> str:
        if not self.refs:
            return _("Replay")
        kept, hand = self._kept()
        ctx = hand.context
        return _("{game} · {ended} · round {round}, deal {deal} · step {step} of {steps}").format(
            game=kept.title, ended=kept.ended or "?", round=ctx.round, deal=ctx.deal, step=self.step,
            steps=self.steps())

    def lines(self) -> list[str]:
        if not self.refs:
            return [_("No table has ended at this terminal yet: its hands are replayed here once one has.")]
        kept, hand = self._kept()
        names = kept.names
        now = self.at_step()
        state = now.state
        width = max(len(n) for n in names)
        out = []
        for seat in state.active or range(state.seats):
            marks = [_("dealer")] if seat == state.dealer else []
            if seat == state.to_move:
                marks.append(_("to move"))
            mark = f"  ({', '.join(marks)})" if marks else ""
            out.append(f"{names[seat].ljust(width)}  {cards_text(state.hands[seat], SYMBOLS)}{mark}")
        talon = [c for pile in state.talon for c in pile]
        if talon:
            out.append(f"{_('Talon').ljust(width)}  {cards_text(talon, SYMBOLS)}")
        trick = state.trick
        if trick is not None and trick.cards:
            view = TrickView(trick.leader, tuple(trick.seats), tuple(trick.cards), None)
            out += ["", _("On the table: {cards}").format(cards=trick_text(view, names, SYMBOLS))]
        out += ["", _("So far:") if self.step else _("The deal, before the first action.")]
        done = state.actions[max(0, self.step - LAST_ACTIONS): self.step]
        first = self.step - len(done) + 1
        for k, action in enumerate(done, start=first):
            text = action_text(action, names, None, kept.terms, "", hand.rules.facts, SYMBOLS)
            out.append(f"  {k:>3}. {text}")
        if now.done and state.result is not None:
            out.append("")
            seen = observe(now, state.active[0] if state.active else 0)
            out += result_lines(seen, names, kept.terms, SYMBOLS)
        return out
