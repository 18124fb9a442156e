"""What a network seat shows: the terminal of ``tarock play`` for a human,
one line per event (or JSON lines) for a bot, public events for a watcher.

Each is a listener of :mod:`net.effects` events; names come from the roster,
the ruleset's words from the table's options.  What a person reads goes
through the catalogue (:mod:`client.i18n`), the host's refusals and reasons
too (as the engine's reasons, :func:`client.text.rule_words.reason_text`); the
JSON lines of a bot stay as they are.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence

from tarock.client.errors import net_text
from tarock.client.human import TableView, final_line, round_line
from tarock.client.i18n import _, n_
from tarock.client.render import contract_words, standings_lines
from tarock.client.text.actions import action_text
from tarock.client.text.cards import cards_text
from tarock.client.text.figures import signed
from tarock.client.text.rule_words import Terms, reason_text
from tarock.core.actions import Play
from tarock.core.state import Reason
from tarock.core.table import Table
from tarock.net.effects import (
    Acted,
    FirstCard,
    HandBegins,
    HandOver,
    Joined,
    Refusal,
    Shown,
    TableOver,
    TrickOver,
    Voided,
)
from tarock.net.protocol.messages import SeatInfo

Write = Callable[[str], None]


class Roster:
    """Names by seat and the table's words, as the latest roster says."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.terms = Terms()
        self.direction = "counterclockwise"
        self.table: Table | None = None
        self.seat: int | None = None
        self.table_name = ""
        self.host = ""

    def update(self, event: Joined) -> None:
        names = [_("Seat {n}").format(n=s + 1) for s in range(event.info.seats)]  # a player counts from 1
        for s in event.roster:
            names[s.seat] = s.name
        self.names = names
        self.terms = Terms.of(event.facts)
        self.direction = event.facts.direction
        self.seat = event.seat
        self.table_name = event.info.name
        self.host = next((s.name for s in event.roster if s.node == event.host), event.host[:8])

    def name_of(self, node: str, roster: Sequence[SeatInfo]) -> str:
        """The name of the node ``node`` (its id's start if it holds no seat)."""
        return next((s.name for s in roster if s.node == node), node[:8] or _("nobody"))


class HumanView:
    """The terminal of ``tarock play`` at a network seat (or watching: ``seat`` None)."""

    def __init__(self, write: Write, roster: Roster) -> None:
        self.write = write
        self.roster = roster
        self.view: TableView | None = None

    def __call__(self, event: Shown) -> None:
        r = self.roster
        if isinstance(event, Joined):
            first = not r.names
            before = (r.host, list(r.names))
            r.update(event)
            seat = event.seat if event.seat is not None else -1
            if self.view is None:
                self.view = TableView(seat, self.write)
            if first:
                info = event.info
                table = n_("Joined table {name} ({variant}, {rounds} round)",
                           "Joined table {name} ({variant}, {rounds} rounds)", info.rounds).format(
                               name=repr(info.name), variant=info.variant, rounds=info.rounds)
                if event.seat is not None:
                    self.write(_("{table} at seat {seat}; host: {host}.").format(
                        table=table, seat=event.seat + 1, host=r.host))
                else:
                    self.write(_("{table} as a watcher; host: {host}.").format(table=table, host=r.host))
            elif r.host != before[0]:
                self.write(_("The table's host is now {host} (epoch {epoch}).").format(
                    host=r.host, epoch=event.epoch))
            if r.names != before[1]:
                self.write(_("At the table: {names}").format(names=", ".join(r.names)))
                if event.fingerprint:
                    self.write(_("Roster fingerprint {fingerprint}: every player at this table sees the "
                                 "same one.").format(fingerprint=event.fingerprint))
            return
        view = self.view
        if view is None:
            return
        if isinstance(event, HandBegins):
            if view.seat < 0:
                self._watch_start(event)
            else:
                view.show_start(event.obs, r.names, event.round, event.rounds, event.deal_in_round,
                                r.direction)
            if view.seat in event.bots:
                self.write(_("A bot plays your seat in this deal; you play again from the next one."))
            away = away_names(tuple(s for s in event.bots if s != view.seat), r.names)
            if away:
                self.write(_("Away: {names}. A bot plays for them until they return.").format(names=away))
        elif isinstance(event, Acted):
            if view.seat < 0:
                seen = event.obs.history[-1]
                if not isinstance(seen, Play):
                    self.write(action_text(seen, r.names, event.obs, r.terms, event.phase_before))
            else:
                view.show_action(event.obs, r.names, r.terms)
        elif isinstance(event, TrickOver):
            view.show_trick(event.obs, r.names, event.trick)
        elif isinstance(event, HandOver):
            view.show_result(event.obs, r.names, r.terms, event.table if event.row is not None else None)
            if event.bots:
                self.write(n_("({n} action of this hand was played by a bot for an absent player)",
                              "({n} actions of this hand were played by a bot for an absent player)",
                              len(event.bots)).format(n=len(event.bots)))
        elif isinstance(event, Voided):
            self.write(_("The deal is void and is dealt again: {reason}").format(
                reason=net_text(event.reason, r.names)))
        elif isinstance(event, Refusal):
            if event.code not in ("stale", "not-now"):
                self.write(_("The host did not accept that: {reason}").format(
                    reason=reason_text(Reason(event.code, event.message))))
        elif isinstance(event, TableOver):
            view.show_final(event.table, r.names, r.terms)

    def _watch_start(self, event: HandBegins) -> None:
        obs = event.obs
        names = self.roster.names
        self.write("")
        self.write(round_line(event.round, event.rounds, event.deal_in_round, names[obs.dealer],
                              names[obs.forehand]))


def away_names(seats: tuple[int, ...], names: list[str]) -> str:
    """The names of the players whose seats a bot plays (``""``: nobody is away)."""
    return ", ".join(names[s] if 0 <= s < len(names) else str(s) for s in seats)


class BotView:
    """A bot's output: a line per hand, or a JSON object per event (``json_lines``)."""

    def __init__(self, write: Write, name: str, json_lines: bool = False) -> None:
        self.write = write
        self.name = name
        self.json = json_lines
        self.roster = Roster()
        self.first_card: float | None = None

    def _emit(self, event: str, text: str, **data: object) -> None:
        if self.json:
            self.write(json.dumps({"event": event, "node": self.name, "time": time.time(), **data},
                                  ensure_ascii=False))
        else:
            self.write(f"{self.name}: {text}")

    def __call__(self, event: Shown) -> None:
        r = self.roster
        if isinstance(event, Joined):
            r.update(event)
            text = _("at table {name} as seat {seat}, host {host} (epoch {epoch}), "
                     "roster {fingerprint}").format(
                name=repr(event.info.name), seat=event.seat + 1 if event.seat is not None else "-",
                host=r.host, epoch=event.epoch, fingerprint=event.fingerprint)
            self._emit("seated", text, table=event.info.id, table_name=event.info.name,
                       seat=event.seat, host=event.host, host_name=r.host, epoch=event.epoch,
                       roster=[s.name for s in event.roster], fingerprint=event.fingerprint,
                       dealing=event.info.dealing)
        elif isinstance(event, HandBegins):
            text = _("round {n}, deal {deal}: hand {cards}").format(
                n=event.round, deal=event.deal_in_round, cards=cards_text(event.obs.hand))
            away = away_names(event.bots, r.names)
            if away:
                text += " " + _("Away: {names}. A bot plays for them until they return.").format(names=away)
            self._emit("begin", text, round=event.round, deal=event.deal_in_round, bots=list(event.bots))
        elif isinstance(event, FirstCard):
            if self.first_card is None:
                self.first_card = time.time()
                self._emit("first-card", _("the first card is played"), deal=event.deal, index=event.index)
        elif isinstance(event, HandOver):
            result = event.obs.result
            settlement = list(result.settlement) if result is not None else []
            row = event.row
            if row is not None:
                game = contract_words(row.contract, event.obs.rules)
                what = _("round {n}: {game}").format(n=row.number, game=game)
            else:
                what = _("passed out")
            amounts = ", ".join(signed(a) for a in settlement)
            text = f"{what} [{amounts}]"
            if event.bots:
                text += " " + n_("(a bot played {n} action)", "(a bot played {n} actions)",
                                 len(event.bots)).format(n=len(event.bots))
            self._emit("hand", text,
                       round=row.number if row else None, settlement=settlement, bots=list(event.bots),
                       totals=list(row.totals) if row else None)
        elif isinstance(event, Voided):
            why = net_text(event.reason, self.roster.names)
            self._emit("void", _("deal void: {reason}").format(reason=why), reason=event.reason,
                       culprit=event.culprit)
        elif isinstance(event, Refusal):
            if event.code not in ("stale", "not-now"):
                self._emit("refused", _("refused: {reason}").format(
                    reason=reason_text(Reason(event.code, event.message))), code=event.code)
        elif isinstance(event, TableOver):
            self._emit("over", _("the table is over"), totals=list(event.table.totals))

    def final(self, table: Table | None, stats: dict[str, object]) -> None:
        names = self.roster.names
        if table is None:
            return
        if self.json:
            self._emit("standings", "", standings=[{"seat": s.seat, "name": names[s.seat], "place": s.place,
                                                    "main": float(s.main), "sub": s.sub}
                                                   for s in table.standings()], stats=stats)
            return
        self.write(final_line(table.rounds, self.roster.terms))
        for line in standings_lines(table.standings(), names, self.roster.terms):
            self.write(line)


def quiet(event: Shown) -> None:
    """The listener of a bot that shows nothing (``tarock host --bots``)."""
