"""The forehand may not choose Trischaken twice in a row (a club's rule over docs/rules.md §16).

A rule that spans hands lives in the table context: after every hand this plugin remembers,
per seat, whether that seat chose Trischaken the last time it was the forehand
(``tarock_next_context``); in the auction it refuses Trischaken to a forehand who did
(``tarock_bid_verdict``).  The memory is part of every record, so ``tarock replay`` refuses a
record that breaks the rule at the very bid that breaks it.
"""

from __future__ import annotations

from tarock.core.context import TableContext
from tarock.core.contracts import ContractSpec
from tarock.core.hookspecs import hookimpl
from tarock.core.househooks import remembering
from tarock.core.state import HandState, Verdict

NAME = "trischaken-once"


def forehand_chose(context: TableContext, state: HandState) -> dict[str, bool]:
    """The memory after ``state``'s hand: per seat, whether its last forehand game was Trischaken."""
    chose = dict(context.recalled(NAME, {}))
    chose[str(state.forehand)] = state.contract is not None and state.contract.name == "trischaken"
    return chose


class TrischakenOnce:
    """No Trischaken from a forehand whose last forehand game was Trischaken."""

    name = NAME
    version = "1.1"
    applies_to = ("koenigrufen-club",)

    @hookimpl
    def tarock_bid_verdict(self, state: HandState, seat: int, contract: ContractSpec) -> Verdict | None:
        chose = state.context.recalled(NAME, {})
        if contract.name == "trischaken" and chose.get(str(seat)):
            return Verdict.deny("trischaken-twice", "you chose Trischaken the last time you were forehand: "
                                "not twice in a row")
        return None

    tarock_next_context = remembering(NAME, forehand_chose)


PLUGIN = TrischakenOnce
