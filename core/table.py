"""A table: a series of rounds, the running score sheet and the final standings.

docs/rules.md §3.6: "Ein Tisch spielt 12 Runden, danach gibt es den Endstand."  The
dealer moves on one seat each round.  A deal that everybody passes is void:
the same dealer deals again and it is not a round (docs/rules.md §3.4).
The final standings give main points by place (4, 2, 1, 0) and the total as
sub points; players with equal totals share their places' main points (seed
000: "Bei Punktgleichheit teilen sich die Plätze ihre Hauptpunkte").

A hand may make the following round count more (docs/rules.md §17.7, Fahrer: "Die
nächste Spielrunde (4 bzw. 5 Spiele) zählt doppelt"): its result's
``next_round_factor`` multiplies the settlements of the next ``seats``
rounds on the sheet.  Our reading: the whole amount of each of those hands is
multiplied, and a second such hand within that round starts the count anew
without multiplying the factor again.

The table knows no variant: it is fed :class:`~core.state.HandResult` values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tarock.core.cards import format_card
from tarock.core.context import TableContext, following
from tarock.core.state import HandResult, HandState

MAIN_POINTS: tuple[int, ...] = (4, 2, 1, 0)
"""Main points (Hauptpunkte) for the first, second, third and fourth place."""


class TableOver(RuntimeError):
    """A hand was added to a table whose rounds are all played."""


def is_passed_out(result: HandResult) -> bool:
    """Whether ``result`` is a void deal: nobody declared, so it is dealt again."""
    return result.passed_out


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One round on the score sheet; ``number`` counts from 1."""

    number: int
    """The round's number, counting from 1."""
    dealer: int
    """The seat that dealt the round's last deal."""
    contract: str
    """The game in words, as :meth:`Table.add` was given it (usually :func:`contract_text`)."""
    declarers: tuple[int, ...]
    """The seats that declared it (empty in a game without a declarer)."""
    settlement: tuple[int, ...]
    """What each seat won this round (negative: paid), the round's factor included."""
    totals: tuple[int, ...]
    """Each seat's running total after this round."""
    deals: int = 1
    """How many deals this round took (passed-out deals included)."""
    factor: int = 1
    """The round's multiplier (a doubled round after a Fahrer); ``settlement``
    already includes it."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A seat's place in the final standings (``place`` counts from 1;
    tied seats share the best of their places)."""

    seat: int
    place: int
    main: Fraction
    sub: int


def standings(totals: Sequence[int], main_points: Sequence[int] = MAIN_POINTS) -> list[Standing]:
    """Places by total, best first; ties share the main points of their places.

    Two players tied for first get (4 + 2) / 2 = 3 each; the next is third.
    Places beyond ``main_points`` earn nothing.
    """
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    out: list[Standing] = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and totals[order[j + 1]] == totals[order[i]]:
            j += 1
        shared = sum((main_points[k] if k < len(main_points) else 0) for k in range(i, j + 1))
        main = Fraction(shared, j - i + 1)
        out.extend(Standing(seat, i + 1, main, totals[seat]) for seat in order[i:j + 1])
        i = j + 1
    return out


@dataclass
class Table:
    """The state of a table between hands: the score sheet and the table context.

    Feed each finished hand's result to :meth:`add`, with the context of the
    next deal as the rules compute it (``Rules.next_context``); ``context``
    is what the next hand is played under, ``dealer`` who deals it, ``over``
    tells when all ``rounds`` are played.
    """

    seats: int = 4
    rounds: int = 12
    dealer: int = 0
    main_points: tuple[int, ...] = MAIN_POINTS
    rows: list[SheetRow] = field(default_factory=list)
    deals: int = 0
    """All deals so far, passed-out ones included."""
    context: TableContext = field(default_factory=TableContext)

    def __post_init__(self) -> None:
        if self.seats < 1 or self.rounds < 1:
            raise ValueError("a table needs at least one seat and one round")
        if not 0 <= self.dealer < self.seats:
            raise ValueError(f"the dealer must be a seat 0..{self.seats - 1}")
        if self.context.dealer != self.dealer:
            self.context = TableContext(round=len(self.rows) + 1, dealer=self.dealer)

    @property
    def round(self) -> int:
        """The number of the round being played (or the last one when over)."""
        return min(len(self.rows) + 1, self.rounds)

    @property
    def over(self) -> bool:
        return len(self.rows) >= self.rounds

    @property
    def passed_out(self) -> int:
        """Passed-out deals in the round being played."""
        return self.context.deal - 1

    @property
    def totals(self) -> tuple[int, ...]:
        return self.rows[-1].totals if self.rows else (0,) * self.seats

    def add(self, result: HandResult, contract: str = "",
            context: TableContext | None = None) -> SheetRow | None:
        """Enter a hand's result; ``context`` is the next deal's (by default
        :func:`core.context.following`, without house rules' memory).

        A passed-out deal returns None and leaves dealer and round as they
        are; any other result becomes the next row of the sheet, counted
        with the round's multiplier, and passes the deal on.
        """
        if self.over:
            raise TableOver(f"the table has played all its {self.rounds} rounds")
        if len(result.settlement) != self.seats:
            raise ValueError(f"a settlement for {len(result.settlement)} seats at a table of {self.seats}")
        if sum(result.settlement) != 0:
            raise ValueError(f"the settlement {result.settlement} does not sum to zero")
        nxt = context or following(self.context, self.seats, result.passed_out, result.next_round_factor)
        now = self.context
        self.deals += 1
        self.context = nxt
        self.dealer = nxt.dealer
        if result.passed_out:
            return None
        factor = now.multiplier
        settlement = tuple(s * factor for s in result.settlement)
        totals = tuple(t + s for t, s in zip(self.totals, settlement, strict=True))
        row = SheetRow(len(self.rows) + 1, now.dealer, contract, result.declarers,
                       settlement, totals, now.deal, factor)
        self.rows.append(row)
        return row

    def standings(self) -> list[Standing]:
        """The standings by the current totals (final once :attr:`over`)."""
        return standings(self.totals, self.main_points)


def contract_text(state: HandState) -> str:
    """A short description of the contract: name, called card, trump, what was
    announced (``gegen`` marks an announcement against the game, ``x2`` its own
    Kontra factor) and the game's Kontra factor."""
    if state.contract is None:
        return ""
    parts = [state.contract.name]
    if state.called is not None:
        parts.append(format_card(state.called))
    if state.contract.trump:
        parts.append(f"trump {state.contract.trump}")
    implied = set(state.contract.spec.announces)  # solo-absolut announces the Absolut itself
    for ann in state.announcements:
        if ann.name in implied and not ann.against and not ann.kontra:
            continue
        text = ann.name + (" gegen" if ann.against else "")
        parts.append(text + (f" x{2 ** ann.kontra}" if ann.kontra else ""))
    if state.kontra_level:
        parts.append(f"x{2 ** state.kontra_level}")
    return " ".join(parts)
