"""The line-based human client: a human seat that reads its choice from a
line, and a listener that prints what happens at the table from that seat's
point of view.

Works with plain ``input``/``print`` (also through pipes).  The text itself
is the one text layer's (:mod:`client.text`, the pages of :mod:`client.render`),
the written forms of actions are read by :mod:`client.written`, and the
words of a ruleset (cents, "Re") come from :class:`client.text.rule_words.Terms`;
every word goes through the catalogue
(:mod:`client.i18n`), in the player's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import anyio.to_thread

from tarock.client.i18n import _, n_
from tarock.client.render import seating_text, sheet_lines, standings_lines, table_lines, talon_text
from tarock.client.session import HandOutcome, Session, SessionListener, WhyNot
from tarock.client.text.actions import action_text, announcement_text, game_text, trick_text
from tarock.client.text.cards import cards_text
from tarock.client.text.figures import number_text, points_text, signed
from tarock.client.text.results import result_lines
from tarock.client.text.rule_words import Terms, is_you, phase_text, reason_text
from tarock.client.words import typed_words
from tarock.client.written import (
    HELP_WORDS,
    MAX_LISTED,
    QUIT_WORDS,
    choice_text,
    choices,
    choices_lines,
    help_lines,
    parse_choice,
    typed,
)
from tarock.core.actions import Action, Discard, Play
from tarock.core.engine import Hand
from tarock.core.observation import Observation, TrickView, observe
from tarock.core.state import Reason
from tarock.core.table import Table

__all__ = ["MAX_LISTED", "HumanPlayer", "Quit", "TableView", "action_text", "announcement_text",
           "cards_text", "choice_text", "choices", "choices_lines", "game_text", "help_lines", "number_text",
           "parse_choice", "points_text", "result_lines", "seating_text", "sheet_lines", "signed",
           "standings_lines", "trick_text"]


class Quit(Exception):
    """The human left the table (``quit``) or the input ended (``eof``)."""

    def __init__(self, eof: bool) -> None:
        super().__init__("end of input" if eof else "quit")
        self.eof = eof


def _find(legal: Sequence[Action], wanted: Action) -> Action | None:
    for action in legal:
        if action == wanted:
            return action
        if (isinstance(action, Discard) and isinstance(wanted, Discard)
                and sorted(action.cards) == sorted(wanted.cards)):
            return action
    return None


class HumanPlayer:
    """A seat played by a person at a line-based terminal.

    ``names``, ``sheet`` and ``terms`` are asked when needed (the session that
    knows them may be made after the player).
    """

    def __init__(self, name: str | None = None, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print,
                 names: Callable[[], Sequence[str]] | None = None,
                 sheet: Callable[[], list[str]] | None = None,
                 terms: Callable[[], Terms] | None = None) -> None:
        self.name = _("You") if name is None else name
        self._read = read
        self._write = write
        self._names = names
        self._sheet = sheet
        self._terms = terms
        self._why_not: WhyNot | None = None

    def explain_with(self, why_not: WhyNot) -> None:
        self._why_not = why_not

    def names(self, obs: Observation) -> list[str]:
        if self._names is not None:
            return list(self._names())
        return [self.name if s == obs.seat else _("Seat {n}").format(n=s) for s in range(obs.seats)]

    def terms(self) -> Terms:
        return self._terms() if self._terms is not None else Terms()

    def show(self, obs: Observation) -> None:
        """Hand, game, what lies open, current trick, whose turn and the numbered choices."""
        names = self.names(obs)
        terms = self.terms()
        w = self._write
        if obs.declarer is not None and obs.contract is not None:
            w(game_text(obs, names, terms))
        for line in table_lines(obs, names):
            w(line)
        w(_("Your hand: {cards}").format(cards=cards_text(obs.hand)))
        if obs.trick is not None:
            played = trick_text(obs.trick, names) if obs.trick.cards else _("(you lead)")
            w(_("Trick {n}: {cards}").format(n=len(obs.tricks) + 1, cards=played))
        if is_you(names[obs.seat]):
            w(_("Your turn ({phase}):").format(phase=phase_text(obs.phase)))
        else:
            w(_("{name}, your turn ({phase}):").format(name=names[obs.seat], phase=phase_text(obs.phase)))
        for line in choices_lines(obs, names, terms):
            w(line)

    async def decide(self, obs: Observation) -> Action:
        """Ask until the line names a legal action (each line is read in a worker thread, so the
        event loop goes on; a cancelled wait leaves the read behind)."""
        if not obs.legal:
            # the session asks only a seat that moves: this is a bug, not a player's doing
            raise ValueError(f"seat {obs.seat} has nothing to do in phase {obs.phase!r}")
        self.show(obs)
        while True:
            try:
                line = await anyio.to_thread.run_sync(self._read, "> ", abandon_on_cancel=True)
            except EOFError:
                raise Quit(eof=True) from None
            text = line.strip()
            if not text:
                self._write(_("Type a number 1..{n}, or ? for help.").format(n=len(obs.legal)))
                continue
            command = text.casefold()
            if command in HELP_WORDS | typed_words("help"):
                for row in help_lines(obs, self.names(obs), self.terms()):
                    self._write(row)
                continue
            if command in QUIT_WORDS | typed_words("quit"):
                raise Quit(eof=False)
            if command in typed_words("hand"):
                self.show(obs)
                continue
            if command in typed_words("sheet"):
                for row in self._sheet() if self._sheet else [_("(no score sheet here)")]:
                    self._write(row)
                continue
            choice = parse_choice(text, obs)
            if isinstance(choice, str):
                self._write(_("Sorry: {message}").format(message=choice))
                continue
            found = _find(obs.legal, choice)
            if found is not None:
                return found
            self._write(_("Not allowed: {reason}").format(reason=self._reason(choice, obs)))

    def _reason(self, action: Action, obs: Observation) -> str:
        reason: Reason | None = self._why_not(action) if self._why_not else None
        if reason is None:
            return _("{action} is not possible now; choose one of the numbers shown").format(
                action=typed(action, obs.phase, obs.rules))
        return reason_text(reason)


# -- what the human sees happen -----------------------------------------------
class TableView(SessionListener):
    """Prints what happens at the table as seen from ``seat``: every action of
    the others, the talon when it is turned up, hands laid open, tricks,
    results, the sheet and the standings in the ruleset's words."""

    def __init__(self, seat: int = 0, write: Callable[[str], None] = print) -> None:
        self.seat = seat
        self.write = write
        self._talon_shown = False
        self._partner_shown = False
        self._talon_public: list[int] = []
        self._open: set[int] = set()
        self._phase = ""

    def hand_started(self, session: Session, hand: Hand) -> None:
        self.show_start(observe(hand, self.seat), session.names, session.round, session.table.rounds,
                        session.deal_no, session.direction)

    def show_start(self, obs: Observation, names: Sequence[str], round_no: int, rounds: int, deal_no: int,
                   direction: str) -> None:
        """A new deal as ``obs`` (this seat's first view of it) shows it."""
        self._talon_shown = self._partner_shown = False
        self._talon_public = []
        self._open = set()
        self._phase = obs.phase
        players = tuple(s for s in range(obs.seats) if obs.hand_sizes[s] > 0)
        self.write("")
        self.write(round_line(round_no, rounds, deal_no, names[obs.dealer], names[obs.forehand]))
        self.write(seating_text(self.seat, obs.forehand, obs.seats, direction, names,
                                players if len(players) < obs.seats else ()))
        if self.seat in players:
            self.write(_("Your hand: {cards}").format(cards=cards_text(obs.hand)))
        else:
            self.write(_("You sit out this hand and watch."))

    def action_taken(self, session: Session, hand: Hand, action: Action) -> None:
        self.show_action(observe(hand, self.seat), session.names, session.terms)

    def show_action(self, obs: Observation, names: Sequence[str], terms: Terms) -> None:
        """The last action of ``obs.history`` (taken by another seat, or a card)."""
        seen = obs.history[-1]
        phase, self._phase = self._phase, obs.phase
        if not isinstance(seen, Play) and seen.seat != self.seat:
            self.write(action_text(seen, names, obs, terms, phase))
        if obs.talon_seen and not self._talon_shown and obs.result is None:
            self._talon_shown = True
            self.write(_("You take from the talon: {cards}").format(cards=cards_text(obs.talon_seen)))
        if not isinstance(seen, Play):
            self._tell_talon(obs, names)
        self._tell_partner(obs, names)

    def trick_done(self, session: Session, hand: Hand, trick: TrickView) -> None:
        self.show_trick(observe(hand, self.seat), session.names, trick)

    def show_trick(self, obs: Observation, names: Sequence[str], trick: TrickView) -> None:
        """A complete trick (``obs`` is the view just after it)."""
        self.write(_("Trick {n}: {cards}").format(n=len(obs.tricks), cards=trick_text(trick, names)))
        self._tell_talon(obs, names)
        self._tell_open(obs, names)
        self._tell_partner(obs, names)

    def _tell_talon(self, obs: Observation, names: Sequence[str]) -> None:
        """The talon as it is turned up: both halves at once, or card by card
        into the tricks (where a variant throws it in)."""
        if obs.result is not None:
            return
        new = [c for pile in obs.talon_shown for c in pile if c not in self._talon_public]
        if not new:
            return
        if not self._talon_public and len(new) > 1:
            self.write(_("The talon is turned up: {halves}").format(halves=talon_text(obs.talon_shown)))
        else:
            winner = obs.tricks[-1].winner if obs.tricks else None
            if winner == obs.seat:
                self.write(_("From the talon: {cards} goes to your trick").format(cards=cards_text(new)))
            elif winner is not None:
                self.write(_("From the talon: {cards} goes to {name}'s trick").format(
                    cards=cards_text(new), name=names[winner]))
            else:
                self.write(_("From the talon: {cards}").format(cards=cards_text(new)))
        self._talon_public.extend(new)

    def _tell_open(self, obs: Observation, names: Sequence[str]) -> None:
        for seat, cards in obs.open_hands:
            if seat not in self._open and obs.result is None:
                self._open.add(seat)
                if seat == obs.seat:
                    self.write(_("You lay your hand open: {cards}").format(cards=cards_text(cards)))
                else:
                    self.write(_("{name} lays the hand open: {cards}").format(
                        name=names[seat], cards=cards_text(cards)))

    def _tell_partner(self, obs: Observation, names: Sequence[str]) -> None:
        if self._partner_shown or obs.partner is None or obs.declarer is None or obs.result is not None:
            return
        self._partner_shown = True
        if obs.partner == self.seat:
            self.write(_("You hold the called card: you play with {name} (secretly).").format(
                name=names[obs.declarer]))
        else:
            self.write(_("Partners: {declarer} and {partner}.").format(
                declarer=names[obs.declarer], partner=names[obs.partner]))

    def hand_over(self, session: Session, outcome: HandOutcome) -> None:
        self.show_result(observe(outcome.hand, self.seat), session.names, session.terms,
                         session.table if outcome.row is not None else None)

    def show_result(self, obs: Observation, names: Sequence[str], terms: Terms, table: Table | None) -> None:
        """A finished hand; ``table``: the score sheet, when the hand counted as a round."""
        for line in result_lines(obs, names, terms):
            self.write(line)
        if table is not None:
            self.write(_("Score sheet ({unit}):").format(unit=terms.unit_name) if terms.money
                       else _("Score sheet:"))
            for line in sheet_lines(table, names, terms, obs.rules):
                self.write(line)

    def table_over(self, session: Session) -> None:
        self.show_final(session.table, session.names, session.terms)

    def show_final(self, table: Table, names: Sequence[str], terms: Terms) -> None:
        """The final standings of a table."""
        self.write("")
        self.write(final_line(table.rounds, terms))
        for line in standings_lines(table.standings(), names, terms):
            self.write(line)


def round_line(round_no: int, rounds: int, deal_no: int, dealer: str, forehand: str) -> str:
    """``=== Round 3 of 12, deal 2: dealer Sepp, forehand Resi ===``."""
    if deal_no > 1:
        text = _("Round {n} of {rounds}, deal {deal}: dealer {dealer}, forehand {forehand}")
    else:
        text = _("Round {n} of {rounds}: dealer {dealer}, forehand {forehand}")
    shown = text.format(n=round_no, rounds=rounds, deal=deal_no, dealer=dealer, forehand=forehand)
    return f"=== {shown} ==="


def final_line(rounds: int, terms: Terms) -> str:
    """``Final standings after 12 rounds (sub points in cents):``."""
    if terms.money:
        return n_("Final standings after {n} round (sub points in {unit}):",
                  "Final standings after {n} rounds (sub points in {unit}):", rounds).format(
                      n=rounds, unit=terms.unit_name)
    return n_("Final standings after {n} round:", "Final standings after {n} rounds:", rounds).format(
        n=rounds)
