"""What ``tarock selfplay --stats`` prints: who declared what, and who won.

A session listener that notes each finished deal's contract and result:
the share of games the declarers won (of those with a winner: a draw, a
game where each plays for himself and a passed-out deal have none), and
the mix of contracts chosen with each one's count and the declarers' wins
in it.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from tarock.client.session import SessionListener

if TYPE_CHECKING:
    from tarock.client.session import HandOutcome, Session


class ContractStats(SessionListener):
    """Counts per contract: games, declarers' wins and losses."""

    def __init__(self) -> None:
        self.games: Counter[str] = Counter()
        self.won: Counter[str] = Counter()
        self.lost: Counter[str] = Counter()
        self.passed_out = 0

    def hand_over(self, session: Session, outcome: HandOutcome) -> None:
        state = outcome.hand.state
        result = outcome.result
        if result.passed_out or state.contract is None:
            self.passed_out += 1
            return
        name = state.contract.name
        self.games[name] += 1
        if result.won is True:
            self.won[name] += 1
        elif result.won is False:
            self.lost[name] += 1

    def lines(self) -> list[str]:
        played = sum(self.games.values())
        decided = sum(self.won.values()) + sum(self.lost.values())
        share = f"{100 * sum(self.won.values()) / decided:.1f}%" if decided else "-"
        out = [f"Statistics: {played} games played, {self.passed_out} deals passed out",
               f"Declarers won {sum(self.won.values())} of {decided} games with a winner ({share})",
               "Contracts chosen (games, declarers won, lost):"]
        for name, count in self.games.most_common():
            out.append(f"  {name}: {count} ({100 * count / played:.1f}%), won {self.won[name]}, "
                       f"lost {self.lost[name]}")
        return out
