"""What a network seat shows: the terminal of ``tarock play`` for a human,
one line per event (or JSON lines) for a bot, public events for a watcher.

Each is a listener of :mod:`net.effects` events; names come from the roster,
the ruleset's words from the table's options.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence

from client.human import TableView
from client.render import action_text, cards_text, standings_lines
from client.words import Terms
from core.actions import Play
from core.table import Table
from net.effects import (
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
from net.protocol.messages import SeatInfo

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
        names = [f"Seat {s}" for s in range(event.info.seats)]
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
        return next((s.name for s in roster if s.node == node), node[:8] or "nobody")


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
                where = f"seat {event.seat}" if event.seat is not None else "as a watcher"
                self.write(f"Joined table {event.info.name!r} ({event.info.variant}, {event.info.rounds} "
                           f"rounds) {where}; host: {r.host}.")
            elif r.host != before[0]:
                self.write(f"The table's host is now {r.host} (epoch {event.epoch}).")
            if r.names != before[1]:
                self.write(f"At the table: {', '.join(r.names)}")
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
                self.write(f"({len(event.bots)} action(s) of this hand were played by a bot "
                           "for an absent player)")
        elif isinstance(event, Voided):
            self.write(f"The deal is void and is dealt again: {event.reason}")
        elif isinstance(event, Refusal):
            if event.code not in ("stale", "not-now"):
                self.write(f"The host did not accept that: {event.message}")
        elif isinstance(event, TableOver):
            view.show_final(event.table, r.names, r.terms)

    def _watch_start(self, event: HandBegins) -> None:
        obs = event.obs
        names = self.roster.names
        again = f", deal {event.deal_in_round}" if event.deal_in_round > 1 else ""
        self.write("")
        self.write(f"=== Round {event.round} of {event.rounds}{again}: {names[obs.dealer]} deals, "
                   f"{names[obs.forehand]} is forehand ===")


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
            self._emit("seated", f"at table {event.info.name!r} as seat {event.seat}, host {r.host} "
                                 f"(epoch {event.epoch})", table=event.info.id, table_name=event.info.name,
                       seat=event.seat, host=event.host, host_name=r.host, epoch=event.epoch,
                       roster=[s.name for s in event.roster])
        elif isinstance(event, HandBegins):
            self._emit("begin", f"round {event.round}, deal {event.deal_in_round}: hand "
                                f"{cards_text(event.obs.hand)}", round=event.round, deal=event.deal_in_round)
        elif isinstance(event, FirstCard):
            if self.first_card is None:
                self.first_card = time.time()
                self._emit("first-card", "the first card is played", deal=event.deal, index=event.index)
        elif isinstance(event, HandOver):
            result = event.obs.result
            settlement = list(result.settlement) if result is not None else []
            row = event.row
            by_bot = f" (bot played {len(event.bots)} actions)" if event.bots else ""
            what = f"round {row.number}: {row.contract}" if row else "passed out"
            self._emit("hand", f"{what} {settlement}{by_bot}",
                       round=row.number if row else None, settlement=settlement, bots=list(event.bots),
                       totals=list(row.totals) if row else None)
        elif isinstance(event, Voided):
            self._emit("void", f"deal void: {event.reason}", reason=event.reason, culprit=event.culprit)
        elif isinstance(event, Refusal):
            if event.code not in ("stale", "not-now"):
                self._emit("refused", f"refused: {event.message}", code=event.code)
        elif isinstance(event, TableOver):
            self._emit("over", "the table is over", totals=list(event.table.totals))

    def final(self, table: Table | None, stats: dict[str, object]) -> None:
        names = self.roster.names
        if table is None:
            return
        if self.json:
            self._emit("standings", "", standings=[{"seat": s.seat, "name": names[s.seat], "place": s.place,
                                                    "main": float(s.main), "sub": s.sub}
                                                   for s in table.standings()], stats=stats)
            return
        self.write(f"Final standings after {table.rounds} rounds:")
        for line in standings_lines(table.standings(), names, self.roster.terms):
            self.write(line)


def quiet(event: Shown) -> None:
    """The listener of a bot that shows nothing (``tarock host --bots``)."""
