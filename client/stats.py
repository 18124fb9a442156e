"""What ``tarock selfplay --stats`` prints: who declared what, and who won.

A session listener that notes each finished deal's contract and result:
the share of games the declarers won (of those with a winner: a draw, a
game where each plays for himself and a passed-out deal have none), and
the mix of contracts chosen with each one's count and the declarers' wins
in it; every word from the catalogue, the games by their titles.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from tarock.client.i18n import _, n_, number
from tarock.client.session import SessionListener
from tarock.client.text.rule_words import game_title

if TYPE_CHECKING:
    from tarock.client.session import HandOutcome, Session


class ContractStats(SessionListener):
    """Counts per contract: games, declarers' wins and losses."""

    def __init__(self) -> None:
        self.games: Counter[str] = Counter()
        self.won: Counter[str] = Counter()
        self.lost: Counter[str] = Counter()
        self.passed_out = 0
        self.titles: dict[str, str] = {}

    def hand_over(self, session: Session, outcome: HandOutcome) -> None:
        state = outcome.hand.state
        result = outcome.result
        if result.passed_out or state.contract is None:
            self.passed_out += 1
            return
        name = state.contract.name
        self.titles.setdefault(name, game_title(state.contract.spec))
        self.games[name] += 1
        if result.won is True:
            self.won[name] += 1
        elif result.won is False:
            self.lost[name] += 1

    def lines(self) -> list[str]:
        played = sum(self.games.values())
        won = sum(self.won.values())
        decided = won + sum(self.lost.values())
        share = _percent(won, decided) if decided else "-"
        out = [n_("Statistics: {n} game played, {passed} deals passed out",
                  "Statistics: {n} games played, {passed} deals passed out", played).format(
                      n=played, passed=self.passed_out),
               _("Declarers won {won} of {n} games with a winner ({share})").format(
                   won=won, n=decided, share=share),
               _("Contracts chosen (games, declarers won, lost):")]
        for name, count in self.games.most_common():
            out.append("  " + _("{game}: {n} ({share}), won {won}, lost {lost}").format(
                game=self.titles.get(name, name), n=count, share=_percent(count, played),
                won=self.won[name], lost=self.lost[name]))
        return out


def _percent(part: int, whole: int) -> str:
    """``56.1%`` (``56,1%`` in German)."""
    return number(f"{100 * part / whole:.1f}") + "%"
