"""The player's cards on the full-screen table: lifting and playing a card,
choosing the cards to lay away, and why a card may not go."""

from __future__ import annotations

from tarock.client.i18n import _
from tarock.client.text.rule_words import reason_text
from tarock.client.ui.cards import card_text
from tarock.client.ui.table_state import TableState
from tarock.core.actions import Discard, Play
from tarock.core.cards import Card
from tarock.core.state import Reason
from tarock.core.tricks import refusal


class HandControls(TableState):
    """The card keys and clicks of :class:`client.ui.model.TableModel`."""

    def press_card(self, index: int) -> None:
        """A card's key or a click: lift it, or play it if it is lifted;
        toggle it while laying cards away."""
        hand = self.hand()
        if not 0 <= index < len(hand):
            return
        card = hand[index]
        self.cursor = index
        d = self.decision
        if d is None or not self.waiting:
            self.lifted = card if self.lifted != card else None
            self.changed()
            return
        if d.kind == "discard":
            self.toggle_discard(card)
            return
        if d.kind != "play":
            return
        if self.lifted == card:
            self.play_lifted()
            return
        if card in d.playable:
            self.lifted = card
            self.message = ""
        else:
            self.message = _("{card} may not be played: {reason}").format(
                card=card_text(card), reason=self._play_reason(card)
            )
        self.changed()

    def move(self, step: int) -> None:
        """Left/right: lift the next playable card, or move the cursor while laying away."""
        hand = self.hand()
        if not hand:
            return
        d = self.decision
        if d is not None and d.kind == "play" and self.waiting:
            cards = [c for c in hand if c in d.playable]
            if not cards:
                return
            if self.lifted in cards:
                i = (cards.index(self.lifted) + step) % len(cards)
            else:
                i = 0 if step > 0 else len(cards) - 1
            self.lifted = cards[i]
            self.cursor = hand.index(self.lifted)
            self.message = ""
        else:
            self.cursor = (self.cursor + step) % len(hand)
        self.changed()

    def play_lifted(self) -> None:
        obs = self.obs
        if obs is None or self.lifted is None:
            return
        card = self.lifted
        if not self.playable(card):
            return
        self.choose(Play(obs.seat, card))

    def _play_reason(self, card: Card) -> str:
        obs = self.obs
        if obs is None:
            return ""
        reason: Reason | None = None
        if self.why_not is not None:
            reason = self.why_not(Play(obs.seat, card))
        elif obs.contract is not None and obs.trick is not None:
            reason = refusal(obs.hand, obs.trick.cards, card, obs.contract.spec.tricks, obs.contract.suit)
        return reason_text(reason) or _("not now")

    # -- laying away ---------------------------------------------------------------------
    def toggle_discard(self, card: Card) -> None:
        d = self.decision
        obs = self.obs
        if d is None or obs is None:
            return
        if card in self.chosen:
            self.chosen.discard(card)
            self.message = ""
        elif len(self.chosen) >= d.discard_count:
            self.message = _("{n} cards are chosen already: untick one first").format(n=d.discard_count)
        elif d.may_add(frozenset(self.chosen), card):
            self.chosen.add(card)
            self.message = ""
        else:
            self.message = _("{card} may not be laid away: {reason}").format(
                card=card_text(card), reason=self._discard_reason(card)
            )
        self.changed()

    def toggle_cursor(self) -> None:
        hand = self.hand()
        if 0 <= self.cursor < len(hand):
            self.press_card(self.cursor)

    def _discard_reason(self, card: Card) -> str:
        d, obs = self.decision, self.obs
        if d is None or obs is None:
            return ""
        want = set(self.chosen) | {card}
        reason: Reason | None = None
        if self.why_not is not None:
            fill = next((legal for legal in d.discards if self.chosen <= legal), d.discards[0])
            for other in sorted(fill - want):
                if len(want) >= d.discard_count:
                    break
                want.add(other)
            reason = self.why_not(Discard(obs.seat, tuple(sorted(want))))
        return reason_text(reason) or _("not with the cards chosen")

    def finish_discard(self) -> None:
        d, obs = self.decision, self.obs
        if d is None or obs is None:
            return
        action = d.discard_action(obs.seat, frozenset(self.chosen))
        if action is None:
            self.message = _("Choose {n} cards to lay away ({k} chosen).").format(
                n=d.discard_count, k=len(self.chosen)
            )
            self.changed()
            return
        self.choose(action)
