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
from dataclasses import dataclass

from tarock.client.i18n import _
from tarock.client.text.actions import action_text, trick_text
from tarock.client.text.figures import SYMBOLS
from tarock.client.text.results import result_lines
from tarock.client.text.rule_words import game_title
from tarock.client.ui.decisions import decision_of
from tarock.client.ui.dialog_controls import DialogControls
from tarock.client.ui.hand_controls import HandControls
from tarock.client.ui.table_state import LOG_SIZE, Overlay, RoundInfo, Stage, WhyNot
from tarock.core.actions import Action, Play
from tarock.core.observation import Observation, TrickView
from tarock.core.players import off_loop
from tarock.core.table import SheetRow, Table

__all__ = ["LOG_SIZE", "QUESTIONS", "Overlay", "RoundInfo", "TableModel", "WhyNot"]

QUESTIONS: tuple[Overlay, ...] = ("quit", "menu")
"""Overlays that ask the player something: what the table brings meanwhile waits behind them."""


@dataclass
class TableModel(HandControls, DialogControls):
    """See the module docstring."""

    def hand_started(self, obs: Observation, round_no: int, deal_no: int) -> None:
        self._seats(obs)
        self.obs = obs
        self.round, self.deal_no = round_no, deal_no
        self._phase = obs.phase
        self.log.clear()
        self.log_back = 0
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
            self.note(action_text(seen, self.names, obs, phase=phase, style=SYMBOLS))
        if not self.waiting and self.hint is None:
            self.message = ""  # a word about the last turn ("not your turn") goes with it
        self.changed()

    def trick_done(self, obs: Observation, trick: TrickView) -> None:
        self._seats(obs)
        self.obs = obs
        trick_line = trick_text(trick, self.names, SYMBOLS)
        self.note(_("Trick {n}: {trick}").format(n=len(obs.tricks), trick=trick_line))
        self.changed()

    def hand_over(self, obs: Observation, table: Table | None) -> None:
        """The hand is scored: the settlement is shown until the player goes on."""
        self._seats(obs)
        self.obs = obs
        self.settled = obs
        self.decision = None
        self.settlement = result_lines(obs, self.names, style=SYMBOLS)
        result = obs.result
        if table is not None and result is not None and not result.passed_out and table.rows:
            self.add_round(obs, table.rows[-1])
        self._show("settlement")

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
        self._show("standings")
        self.changed()

    def stopped(self, table: Table) -> None:
        """The player left before the end: the standings as they are."""
        self.left_early = True
        self.table_over(table)

    def note(self, line: str) -> None:
        self.log.append(line)
        if self.log_back:
            self.log_back += 1  # a scrolled-back pane keeps showing the same lines

    def scroll_log(self, step: int) -> None:
        """PgUp/PgDn: the log pane ``step`` lines further back (positive) or forward."""
        self.log_back = max(0, min(len(self.log) - 1, self.log_back + step))
        self.changed()

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
        self._answer = answer = asyncio.get_running_loop().create_future()
        d = self.decision
        lone = d.options[0] if d.kind == "dialog" and len(d.options) == 1 else None
        if lone is not None and lone.kind == "pass" and not lone.toggles:
            only = d.resolve(0)
            if only is not None:  # a dialog of one "Weiter" asks nothing: it is said in the log
                self.choose(only)
                return answer
        self.changed()
        return answer

    def withdraw(self, reason: Exception) -> None:
        """The question asked is withdrawn (the player took back an action): the future
        :meth:`ask` returned raises ``reason``."""
        answer, self._answer = self._answer, None
        if answer is not None and not answer.done():
            self.decision = None
            self.lifted = None
            self.chosen = set()
            self.hint = None
            answer.set_exception(reason)
        self.changed()

    def acknowledge(self) -> asyncio.Future[None]:
        """A future that resolves when the player closed the settlement (went on)."""
        if self._continue is None or self._continue.done():
            self._continue = asyncio.get_running_loop().create_future()
        if not self._continue.done() and "settlement" not in (self.overlay, *self.overlay_after):
            self._continue.set_result(None)
        return self._continue

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

    # -- overlays, the hint ----------------------------------------------------------------
    def open(self, overlay: Overlay | None) -> None:
        self.overlay = overlay
        self.scroll = 0
        self.menu_index = 0
        self.changed()

    def _show(self, overlay: Overlay) -> None:
        """Show what the table brings (a settlement, the standings) now, or after what is shown: a
        question the player opened (leave? the menu) stays until answered, and the standings come
        after the settlement. A view (the sheet, the rules …) gives way at once."""
        shown = self.overlay
        if shown in QUESTIONS or (shown == "settlement" and overlay == "standings") or self.overlay_after:
            if overlay not in self.overlay_after:  # one settlement waits: it shows the newest lines
                self.overlay_after.append(overlay)
            self.changed()
        else:
            self.open(overlay)

    def close_overlay(self) -> None:
        """Esc/Enter on an overlay: close it and show what waited for it; closing the settlement
        lets the table go on."""
        was, waiting = self.overlay, self._continue
        self.open(self.overlay_after.pop(0) if self.overlay_after else None)
        went_on = was == "settlement" and self.overlay != "settlement"
        if went_on and waiting is not None and not waiting.done():
            waiting.set_result(None)

    async def ask_hint(self) -> None:
        """What the bot would do here, and why (computed off the event loop)."""
        obs = self.obs
        if self.watching:
            return
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
