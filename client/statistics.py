"""The statistics page: what the finished tables at this terminal add up to.

From the kept tables (:mod:`client.tables`, replayed by :mod:`client.history`): the hands played
and passed out; the games per contract with how often their declarers won; the money (or points)
of each session, each player's; and per player the tables, hands, games declared and won, and the
sum of each unit.  Lines of text, drawn by the lobby's page (:mod:`client.ui.history_pages`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from tarock.client.history import KeptTable
from tarock.client.i18n import _, n_
from tarock.client.text.figures import signed
from tarock.client.text.rule_words import game_title


@dataclass
class _Player:
    """One player's counts (``tables``, ``hands``, ``declared``, ``won``) and totals by unit."""

    counts: Counter[str] = field(default_factory=Counter)
    money: Counter[str] = field(default_factory=Counter)


@dataclass
class Statistics:
    """Counts over the kept tables (module docstring)."""

    tables: list[KeptTable]
    hands: int = 0
    passed_out: int = 0
    games: Counter[str] = field(default_factory=Counter)
    won: Counter[str] = field(default_factory=Counter)
    lost: Counter[str] = field(default_factory=Counter)
    players: dict[str, _Player] = field(default_factory=lambda: defaultdict(_Player))

    def __post_init__(self) -> None:
        for kept in self.tables:
            self._count(kept)

    def _count(self, kept: KeptTable) -> None:
        names = kept.names
        unit = kept.terms.unit
        for name in names:
            self.players[name].counts["tables"] += 1
        for hand in kept.hands:
            self.hands += 1
            for seat in hand.state.active or range(hand.state.seats):
                self.players[names[seat]].counts["hands"] += 1
            state, result = hand.state, hand.state.result
            if result is None or result.passed_out or state.contract is None:
                self.passed_out += 1
                continue
            title = game_title(state.contract.spec)
            self.games[title] += 1
            if result.won is True:
                self.won[title] += 1
            elif result.won is False:
                self.lost[title] += 1
            for seat in result.declarers:
                self.players[names[seat]].counts.update(declared=1, won=int(result.won is True))
        totals = kept.table.rows[-1].totals if kept.table.rows else (0,) * len(names)
        for seat, total in enumerate(totals):
            self.players[names[seat]].money[unit] += total

    def lines(self) -> list[str]:
        if not self.tables:
            return [_("No table has ended at this terminal yet: the statistics count the finished ones.")]
        out = [_("{tables} finished, {hands} played ({passed} passed out)").format(
            tables=_tables(len(self.tables)), hands=_hands(self.hands), passed=self.passed_out), ""]
        out.append(_("Games (played, won by the declarers, lost):"))
        for title, count in self.games.most_common():
            out.append("  " + _("{game}: {n}, won {won}, lost {lost}").format(
                game=title, n=count, won=self.won[title], lost=self.lost[title]))
        out += ["", _("Players (tables, hands, declared, won, total):")]
        width = max(len(n) for n in self.players)
        for name, p in sorted(self.players.items(), key=lambda item: -sum(item[1].money.values())):
            money = ", ".join(f"{signed(v)} {u}".rstrip() for u, v in sorted(p.money.items()))
            line = _("{name}: {tables}, {hands}, declared {declared}, won {won}, total {money}")
            n = p.counts
            out.append("  " + line.format(name=name.ljust(width), tables=_tables(n["tables"]),
                                          hands=_hands(n["hands"]), declared=n["declared"], won=n["won"],
                                          money=money))
        out += ["", _("Sessions (ended, game, rounds, each player's total):")]
        for kept in self.tables:
            totals = kept.table.rows[-1].totals if kept.table.rows else (0,) * len(kept.names)
            unit = kept.terms.unit
            each = ", ".join(f"{n} {signed(t)}{' ' + unit if unit else ''}"
                             for n, t in zip(kept.names, totals, strict=True))
            out.append("  " + _("{ended} {game}, {n} of {rounds} rounds: {each}").format(
                ended=kept.ended or "?", game=kept.title, n=len(kept.table.rows), rounds=kept.table.rounds,
                each=each))
        return out


def _tables(n: int) -> str:
    return n_("{n} table", "{n} tables", n).format(n=n)


def _hands(n: int) -> str:
    return n_("{n} hand", "{n} hands", n).format(n=n)
