"""The table as the player sees it, and what the player does there.

Plain Python (no terminal): the layout (:mod:`client.ui.layout`) draws it,
the key bindings (:mod:`client.ui.keys`) and mouse handlers call its
methods.  A table driver (:mod:`client.ui.local`, or a network seat) feeds
it what happens (:meth:`TableModel.hand_started`, :meth:`action_taken`,
:meth:`trick_done`, :meth:`hand_over`, :meth:`table_over`) and awaits the
player's choices (:meth:`ask`, :meth:`acknowledge`).  Everything it knows
of a hand comes from the seat's observations.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from tarock.client.i18n import _
from tarock.client.ui.cards import card_text, hand_order
from tarock.client.ui.decisions import Decision, decision_of
from tarock.client.ui.hint import Hint, HintFn
from tarock.client.ui.texts import (
    action_text,
    cards_points,
    game_title,
    reason_text,
    settlement_lines,
    trick_line,
)
from tarock.core.actions import Action, Announce, Bid, Discard, Play
from tarock.core.cards import Card
from tarock.core.facts import RuleFacts
from tarock.core.observation import Observation, TrickView
from tarock.core.options import Declared
from tarock.core.players import off_loop
from tarock.core.state import Reason
from tarock.core.table import SheetRow, Standing, Table
from tarock.core.tricks import refusal

Overlay = Literal["menu", "sheet", "last", "tricks", "rules", "help", "settlement", "standings", "quit"]
WhyNot = Callable[[Action], Reason | None]
LOG_SIZE = 8


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """One round on the score sheet, with who declared and who was the partner."""

    number: int
    dealer: int
    declarer: int | None
    partners: tuple[int, ...]
    game: str
    settlement: tuple[int, ...]
    totals: tuple[int, ...]
    factor: int = 1


@dataclass
class Stage:
    """Where the player is within a dialog: choosing an option, or ticking its additions."""

    option: int = 0
    additions: bool = False
    row: int = 0
    chosen: frozenset[str] = frozenset()


@dataclass
class TableModel:
    """See the module docstring."""

    seat: int
    names: list[str]
    title: str = ""
    rounds: int = 12
    hint_fn: HintFn | None = None
    hint_strength: str = "heuristic"
    option_specs: Mapping[str, Declared] = field(default_factory=dict)
    """The table's options with their descriptions (for the rules page)."""
    on_change: Callable[[], None] = lambda: None
    round: int = 0
    deal_no: int = 1
    obs: Observation | None = None
    settled: Observation | None = None
    """The last finished hand, as the settlement shows it (a network table may deal the next meanwhile)."""
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_SIZE))
    decision: Decision | None = None
    why_not: WhyNot | None = None
    lifted: Card | None = None
    cursor: int = 0
    chosen: set[Card] = field(default_factory=set)
    stage: Stage = field(default_factory=Stage)
    message: str = ""
    overlay: Overlay | None = None
    overlay_return: Overlay | None = None
    settlement: list[str] = field(default_factory=list)
    sheet: list[RoundInfo] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)
    over: bool = False
    left_early: bool = False
    watching: bool = False
    """Following a table without a seat (public information only)."""
    hint: Hint | None = None
    menu_index: int = 0
    scroll: int = 0
    _answer: asyncio.Future[Action] | None = None
    _continue: asyncio.Future[None] | None = None
    _phase: str = ""

    # -- what the table tells ----------------------------------------------------------
    @property
    def rules(self) -> RuleFacts | None:
        return self.obs.rules if self.obs is not None else None

    def changed(self) -> None:
        self.on_change()

    def _seats(self, obs: Observation) -> None:
        """Names for every seat of ``obs`` (a network seat may see a hand before the roster)."""
        while len(self.names) < obs.seats:
            self.names.append(_("Seat {n}").format(n=len(self.names) + 1))

    def hand_started(self, obs: Observation, round_no: int, deal_no: int) -> None:
        self._seats(obs)
        self.obs = obs
        self.round, self.deal_no = round_no, deal_no
        self._phase = obs.phase
        self.log.clear()
        again = _(", deal {n}").format(n=deal_no) if deal_no > 1 else ""
        self.note(
            _("Round {round} of {rounds}{again}: dealer {dealer}, forehand {forehand}").format(
                round=round_no,
                rounds=self.rounds,
                again=again,
                dealer=self.names[obs.dealer],
                forehand=self.names[obs.forehand],
            )
        )
        self.changed()

    def action_taken(self, obs: Observation, action: Action) -> None:
        phase, self._phase = self._phase, obs.phase
        seen = obs.history[-1] if obs.history else action
        self._seats(obs)
        self.obs = obs
        if not isinstance(seen, Play):
            self.note(action_text(seen, self.names, obs, phase))
        self.changed()

    def trick_done(self, obs: Observation, trick: TrickView) -> None:
        self._seats(obs)
        self.obs = obs
        self.note(_("Trick {n}: {trick}").format(n=len(obs.tricks), trick=trick_line(trick, self.names)))
        self.changed()

    def hand_over(self, obs: Observation, table: Table | None) -> None:
        """The hand is scored: the settlement is shown until the player goes on."""
        self._seats(obs)
        self.obs = obs
        self.settled = obs
        self.decision = None
        self.settlement = settlement_lines(obs, self.names)
        result = obs.result
        if table is not None and result is not None and not result.passed_out and table.rows:
            self.add_round(obs, table.rows[-1])
        self.open(overlay="settlement")

    def add_round(self, obs: Observation, row: SheetRow) -> None:
        """A round for the sheet: ``row`` of the table, who declared and who was the partner (``obs``)."""
        result = obs.result
        declarers = result.declarers if result is not None else ()
        partners = tuple(s for s in declarers if s != obs.declarer)
        game = game_title(obs.contract.spec) if obs.contract is not None else ""
        self.sheet.append(
            RoundInfo(
                row.number, row.dealer, obs.declarer, partners, game, row.settlement, row.totals, row.factor
            )
        )

    def table_over(self, table: Table) -> None:
        self.over = True
        self.standings = table.standings()
        if self.overlay != "settlement":
            self.open(overlay="standings")
        else:
            self.overlay_return = "standings"
        self.changed()

    def stopped(self, table: Table) -> None:
        """The player left before the end: the standings as they are."""
        self.left_early = True
        self.table_over(table)

    def note(self, line: str) -> None:
        self.log.append(line)

    # -- what the player is asked -------------------------------------------------------
    def ask(self, obs: Observation, why_not: WhyNot | None = None) -> asyncio.Future[Action]:
        """Ask for one of ``obs.legal``; the future resolves when the player chose."""
        self._seats(obs)
        self.obs = obs
        self._phase = obs.phase
        self.decision = decision_of(obs, self.names)
        self.why_not = why_not
        self.lifted = None
        self.chosen = set()
        self.stage = Stage()
        self.hint = None
        self.message = ""
        self.cursor = self._first_cursor()
        self._answer = asyncio.get_running_loop().create_future()
        self.changed()
        return self._answer

    def acknowledge(self) -> asyncio.Future[None]:
        """A future that resolves when the player closed the settlement (went on)."""
        if self._continue is None or self._continue.done():
            self._continue = asyncio.get_running_loop().create_future()
        if self.overlay != "settlement" and not self._continue.done():
            self._continue.set_result(None)
        return self._continue

    def choose(self, action: Action) -> None:
        """The player's choice: it must be one of the legal actions."""
        obs = self.obs
        if self._answer is None or self._answer.done() or obs is None:
            return
        if action not in obs.legal and not (
            isinstance(action, Discard)
            and any(isinstance(a, Discard) and sorted(a.cards) == sorted(action.cards) for a in obs.legal)
        ):
            self.message = _("That is not allowed now.")
            self.changed()
            return
        self.decision = None
        self.lifted = None
        self.chosen = set()
        self.message = ""
        self.hint = None
        answer, self._answer = self._answer, None
        answer.set_result(action)
        self.changed()

    @property
    def waiting(self) -> bool:
        """Whether the player is asked something now."""
        return self._answer is not None and not self._answer.done() and self.decision is not None

    # -- the hand ------------------------------------------------------------------------
    def hand(self) -> list[Card]:
        """The seat's cards in display order (the game's trumps first)."""
        obs = self.obs
        if obs is None:
            return []
        contract = obs.contract
        tricks = contract.spec.tricks if contract is not None else None
        suit = contract.suit if contract is not None else None
        return hand_order(obs.hand, tricks, suit)

    def playable(self, card: Card) -> bool:
        d = self.decision
        return d is not None and d.kind == "play" and card in d.playable

    def _first_cursor(self) -> int:
        return 0

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

    def confirm(self) -> None:
        """Enter: play the lifted card, lay the chosen cards away, or take the dialog's row."""
        d = self.decision
        if d is None or not self.waiting:
            return
        if d.kind == "play":
            if self.lifted is None:
                self.move(1)
            else:
                self.play_lifted()
        elif d.kind == "discard":
            self.finish_discard()
        else:
            self.dialog_enter()

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

    # -- dialogs -------------------------------------------------------------------------
    def dialog_rows(self) -> int:
        d = self.decision
        if d is None:
            return 0
        if self.stage.additions:
            return len(self.stage_additions()) + 2
        return len(d.options)

    def stage_additions(self) -> list[str]:
        """The additions offered with the option chosen (in the rules' order)."""
        d = self.decision
        if d is None:
            return []
        possible = d.options[self.stage.option].additions_possible()
        return [a.name for a in d.additions if a.name in possible]

    def dialog_move(self, step: int) -> None:
        rows = self.dialog_rows()
        if rows:
            self.stage.row = (self.stage.row + step) % rows
            self.message = ""
            self.changed()

    def dialog_pick(self, row: int) -> None:
        """A row's number key or a click: take that row."""
        if 0 <= row < self.dialog_rows():
            self.stage.row = row
            self.dialog_enter()

    def dialog_enter(self) -> None:
        d, obs = self.decision, self.obs
        if d is None or obs is None or d.kind != "dialog":
            return
        st = self.stage
        if not st.additions:
            st.option = st.row
            option = d.options[st.option]
            if option.toggles and option.additions_possible():
                self.stage = Stage(option=st.option, additions=True, row=len(self.stage_additions()))
                self.changed()
                return
            action = d.resolve(st.option)
            if action is not None:
                self.choose(action)
            return
        names = self.stage_additions()
        if st.row < len(names):
            self.toggle_addition(names[st.row])
        elif st.row == len(names):
            action = d.resolve(st.option, st.chosen)
            if action is None:
                self.message = _("This combination cannot be announced.")
                self.changed()
            else:
                self.choose(action)
        else:
            self.stage = Stage(row=st.option)
            self.changed()

    def toggle_addition(self, name: str) -> None:
        d = self.decision
        if d is None:
            return
        st = self.stage
        option = d.options[st.option]
        if name in st.chosen:
            st.chosen = st.chosen - {name}
            self.message = ""
        elif option.can_add(st.chosen, name):
            st.chosen = st.chosen | {name}
            self.message = ""
        else:
            self.message = _("Not together with what is ticked.")
        self.changed()

    def dialog_back(self) -> bool:
        if self.stage.additions:
            self.stage = Stage(row=self.stage.option)
            self.changed()
            return True
        return False

    # -- overlays, the hint ----------------------------------------------------------------
    def open(self, overlay: Overlay | None) -> None:
        self.overlay = overlay
        self.scroll = 0
        self.menu_index = 0
        self.changed()

    def close_overlay(self) -> None:
        """Esc/Enter on an overlay: close it; closing the settlement lets the table go on."""
        was = self.overlay
        self.overlay = None
        if was == "settlement":
            if self._continue is not None and not self._continue.done():
                self._continue.set_result(None)
            if self.overlay_return is not None:
                self.overlay, self.overlay_return = self.overlay_return, None
        self.changed()

    async def ask_hint(self) -> None:
        """What the bot would do here, and why (computed off the event loop)."""
        obs = self.obs
        if obs is None or not self.waiting or self.hint_fn is None:
            self.message = _("No hint now: it is not your turn.")
            self.changed()
            return
        fn, strength = self.hint_fn, self.hint_strength
        self.message = _("Thinking …")
        self.changed()
        hint = await off_loop(fn, obs, strength)
        if self.obs is not obs or not self.waiting:
            return
        self.hint = hint
        self.message = hint.text(self.names, obs)
        self._show_hint(hint)
        self.changed()

    def _show_hint(self, hint: Hint) -> None:
        """Point at the suggested choice: lift the card, move to the row."""
        d, action = self.decision, hint.action
        if d is None:
            return
        if isinstance(action, Play) and d.kind == "play":
            self.lifted = action.card
            hand = self.hand()
            self.cursor = hand.index(action.card) if action.card in hand else self.cursor
        elif d.kind == "discard" and isinstance(action, Discard):
            self.chosen = set(action.cards)
        elif d.kind == "dialog":
            for i, option in enumerate(d.options):
                if action in option.actions:
                    self.stage = Stage(row=i)
                    if option.toggles and option.additions_possible():
                        chosen = (
                            frozenset(action.announce) if isinstance(action, Bid | Announce) else frozenset()
                        )
                        names = [a.name for a in d.additions if a.name in option.additions_possible()]
                        self.stage = Stage(option=i, additions=True, row=len(names), chosen=chosen)
                    break

    # -- what is counted ---------------------------------------------------------------------
    def own_tricks(self) -> list[TrickView]:
        obs = self.obs
        return [t for t in obs.tricks if t.winner == self.seat] if obs is not None else []

    def party(self) -> tuple[int, ...]:
        """The seats this seat knows to play with: the partner once known, the
        other opponents of a lone declarer; nobody where each plays for himself."""
        obs = self.obs
        if obs is None or obs.declarer is None or obs.contract is None:
            return ()
        me, spec = self.seat, obs.contract.spec
        active = obs.active or tuple(range(obs.seats))
        if spec.partnership == "each" or len(obs.contract.declarers) > 1:
            return ()
        if spec.partnership == "alone":
            return () if me == obs.declarer else tuple(s for s in active if s not in (me, obs.declarer))
        if obs.partner is None:
            return ()
        side = {obs.declarer, obs.partner}
        if me in side:
            return tuple(s for s in sorted(side) if s != me)
        return tuple(s for s in active if s not in side and s != me)

    def partner_tricks(self) -> list[TrickView]:
        obs, party = self.obs, self.party()
        if obs is None or not party:
            return []
        return [t for t in obs.tricks if t.winner in party]

    def points(self) -> Fraction:
        """Card points of this seat's tricks and the known partner's (what a player may count)."""
        cards: list[Card] = [c for t in (*self.own_tricks(), *self.partner_tricks()) for c in t.cards]
        return cards_points(cards, self.rules)

    def last_trick(self) -> TrickView | None:
        obs = self.obs
        return obs.tricks[-1] if obs is not None and obs.tricks else None

    def shown_trick(self) -> tuple[TrickView | None, bool]:
        """The trick for the middle of the table: the one being played, or
        (before the next lead) the last one, marked as done."""
        obs = self.obs
        if obs is None:
            return None, False
        if obs.trick is not None and obs.trick.cards:
            return obs.trick, False
        if obs.tricks and obs.result is None:
            return obs.tricks[-1], True
        return None, False

    def opponents(self) -> Sequence[int]:
        obs = self.obs
        seats = obs.seats if obs is not None else len(self.names)
        return [(self.seat + k) % seats for k in range(1, seats)]
