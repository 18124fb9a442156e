"""The solver's leaves: a finished hand's settlement, by the engine, once per outcome.

The engine's scoring (the variant's ``tarock_score``, core's settlement)
is exact but slow next to a node of the bit-set search, and the search
reaches many finished hands that score alike.  :class:`Leaves` follows the
tricks the solver plays from a world's position and keys each finished
hand by its *outcome*, compiled once per world from the contract's data:
what each party took (each seat, where each plays for himself or several
declarers play alone: its number of cards, their points, and which Kings
and cards a premium names are among them), who took the last trick and, in
a game whose talon goes into the first tricks, those tricks, and for every
card a premium names by its trick (the birds, Mond, Sküs and the called
card) the trick it went to, who played it and who took that trick.  What
the shipped scoring reads of a hand is in that key: the parties' points
(counted in any way from the cards' number and values), their tricks (a
trick is as many cards as seats), Valat, the bird in its trick and the King
Ultimo, Trull and Kings, the Mondfang, the talon cards that go to the first
tricks' or the last trick's winner.  Keying the piles by number and points
rather than by their cards lets far more finished hands share a score, and
the solver's table of bounds more positions.  The engine
scores the first hand of each outcome (on one scratch copy of the world's
state) and the others take its amount.

A house rule could read more (the seat that played a plain card in the
fifth trick); so every ``VERIFY``-th reuse is scored by the engine again,
and at the first difference the memo is dropped and every leaf of this
world is scored by the engine (``failures`` counts them;
tests/test_search_compiled.py plays random hands of every variant through
the memo and the engine).
"""

from __future__ import annotations

from typing import Final

from tarock.client.bots.simulate import Sim, finished
from tarock.core.cards import KAKADU, MARABU, MOND, PAGAT, SKUS, UHU, Card, is_king
from tarock.core.state import Trick
from tarock.core.trickbits import TrickBits

NAMED: Final = frozenset({PAGAT, UHU, KAKADU, MARABU, MOND, SKUS})
"""Cards premiums name by the trick they go to (the birds in their trick, the Mondfang,
the Trull trick); the called card is named too."""
VERIFY: Final = 32
"""Every so many reuses of an outcome's amount, the engine scores the hand again."""

Amounts = dict[tuple[object, ...], int]
"""The settlement of the bot's seat per outcome of the hand."""
_Done = tuple[list[int], list[int], int, int, int]
"""A trick the search completed: seats, bits in play order, its bit set, the winner, its card points."""


def special_cards(called: Card | None, bits: TrickBits) -> int:
    """The bit set of the cards a premium names by their trick, the called card included."""
    return bits.mask(NAMED | ({called} if called is not None else set()))


class Leaves:
    """The settlement of ``seat`` in the finished hands of one world (see the module docstring)."""

    __slots__ = ("base_tricks", "bits", "failures", "first", "group", "hits", "keep", "memo", "prefix",
                 "scored", "scratch", "seat", "sim", "special", "specials", "stack", "sums", "weight", "wins",
                 "won")

    def __init__(self, sim: Sim, seat: int, bits: TrickBits, memo: bool | Amounts = True) -> None:
        self.sim = sim
        self.seat = seat
        self.bits = bits
        self.special = special_cards(sim.base.called, bits)
        self.keep = self.special | bits.mask(c for c in bits.card if is_king(c))
        """The cards the key names by the pile they went to (the others count by number and points)."""
        values = sim.rules.facts.facts.card_values
        self.weight = tuple(values[c] for c in bits.card)
        """Per bit, its card's points."""
        self.memo: Amounts | None = memo if isinstance(memo, dict) else {} if memo else None
        """The amounts per outcome (a dict given: shared with other searches of the same world and seat)."""
        base = sim.base
        contract = base.contract
        assert contract is not None
        spec = contract.spec
        party = base.declarer_party()
        by_party = spec.partnership != "each" and spec.goal.kind != "ranking" and len(contract.declarers) <= 1
        self.group: tuple[int, ...] = tuple(int(s in party) if by_party else s for s in range(len(sim.hands)))
        """Per seat, whose pile its tricks go to in the key."""
        self.first = len(base.tricks)
        """The tricks before the world's position (constant in the key)."""
        talon_tricks = sum(len(p) for p in base.talon) if spec.talon == "trick" else 0
        self.base_tricks = talon_tricks
        """Tricks from the hand's start whose winners the key names (a talon card goes into each)."""
        self.scratch = finished(base, base.tricks)
        self.hits = 0
        self.scored = 0
        """Finished hands the engine scored."""
        self.failures = 0
        self.prefix: list[Trick] = []
        """Tricks complete between the world's state and the search's start."""
        self.stack: list[_Done] = []
        self.won: list[int] = []
        self.sums: list[int] = []
        """Per pile, the points of its cards."""
        self.wins: list[int] = []
        self.specials: list[tuple[tuple[int, int, int, int], ...]] = []
        """Per trick holding a named card: (bit, trick, seat, winner) of each named card in it."""

    def load(self) -> None:
        """Start from the Sim's current position (the memo stays: same world)."""
        sim, bits = self.sim, self.bits
        self.prefix = sim.tricks[len(sim.base.tricks):]
        self.stack = []
        self.won = [0] * (max(self.group) + 1)
        self.sums = [0] * len(self.won)
        self.wins = []
        self.specials = []
        for t in self.prefix:
            assert t.winner is not None
            trick = [bits.bit[c] for c in t.cards]
            weight = self.weight
            self._add(list(t.seats), trick, bits.mask(t.cards), t.winner, sum(weight[b] for b in trick))

    def _add(self, seats: list[int], trick: list[int], tmask: int, winner: int, points: int) -> None:
        pile = self.group[winner]
        self.won[pile] |= tmask
        self.sums[pile] += points
        self.wins.append(winner)
        named = tmask & self.special
        if named:
            index = len(self.wins)
            self.specials.append(tuple((b, index, seats[i], winner) for i, b in enumerate(trick)
                                       if named >> b & 1))

    def push(self, seats: list[int], trick: list[int], tmask: int, winner: int, points: int) -> None:
        """The search completed a trick (``points``: its cards' points)."""
        self.stack.append((seats, trick, tmask, winner, points))
        self._add(seats, trick, tmask, winner, points)

    def pop(self) -> _Done:
        """The search takes its last complete trick back."""
        done = self.stack.pop()
        tmask, winner = done[2], done[3]
        pile = self.group[winner]
        self.won[pile] ^= tmask
        self.sums[pile] -= done[4]
        self.wins.pop()
        if tmask & self.special:
            self.specials.pop()
        return done

    def history(self) -> tuple[object, ...]:
        """What the tricks so far add to the key of every hand finished from here."""
        early = self.base_tricks - self.first
        return self.piles(), tuple(self.wins[:early]) if early > 0 else (), tuple(self.specials)

    def piles(self) -> tuple[tuple[int, int, int], ...]:
        """Per pile: its number of cards, their points and the named cards and Kings in it."""
        keep = self.keep
        return tuple((w.bit_count(), p, w & keep) for w, p in zip(self.won, self.sums, strict=True))

    def engine(self) -> int:
        """``seat``'s amount in the engine's settlement of the finished hand."""
        sim = self.sim
        card = self.bits.card
        self.scored += 1
        tricks = [*sim.base.tricks, *self.prefix]
        for seats, trick, _, winner, _ in self.stack:
            tricks.append(Trick(seats[0], list(seats), [card[b] for b in trick], winner))
        scratch = self.scratch
        scratch.tricks = tricks
        return sim.rules.score(scratch).settlement[self.seat]

    def last(self, seats: list[int], trick: list[int], tmask: int, winner: int, points: int) -> int:
        """:meth:`value` of the hand this trick finishes: where the memo knows its
        outcome (and no check is due), read without pushing the trick."""
        memo = self.memo
        if memo is not None:
            pile = self.group[winner]
            won, sums, keep = self.won, self.sums, self.keep
            before = won[pile]
            won[pile] = before | tmask
            sums[pile] += points
            piles = tuple([(w.bit_count(), p, w & keep) for w, p in zip(won, sums, strict=True)])
            won[pile] = before
            sums[pile] -= points
            wins = self.wins
            early = self.base_tricks - self.first
            named = tmask & self.special
            specials = self.specials
            if named:
                index = len(wins) + 1
                specials = [*specials, tuple((b, index, seats[i], winner) for i, b in enumerate(trick)
                                             if named >> b & 1)]
            key = (piles, pile, tuple([*wins, winner][:early]) if early > 0 else (), tuple(specials))
            known = memo.get(key)
            if known is not None and (self.hits + 1) % VERIFY:
                self.hits += 1
                return known
        self.push(seats, trick, tmask, winner, points)
        amount = self.value()
        self.pop()
        return amount

    def value(self) -> int:
        """``seat``'s amount in the finished hand (the memo's, or the engine's)."""
        memo = self.memo
        if memo is None:
            return self.engine()
        wins, group = self.wins, self.group
        early = self.base_tricks - self.first
        key = (self.piles(), group[wins[-1]] if wins else -1, tuple(wins[:early]) if early > 0 else (),
               tuple(self.specials))
        known = memo.get(key)
        if known is None:
            amount = memo[key] = self.engine()
            return amount
        self.hits += 1
        if self.hits % VERIFY == 0:
            amount = self.engine()
            if amount != known:
                memo.clear()  # shared: no other search of this world reads it again either
                self.memo = None
                self.failures += 1
                return amount
        return known
