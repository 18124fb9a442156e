"""An exact perfect-information solver for the end of a hand.

Given a world (every hand known) the solver finds the value of the
position when both parties play perfectly to the end: alpha-beta over the
remaining cards, the bot's party maximising and the others minimising (in
games where each plays for himself, everyone else minimises: the paranoid
reading).  The value of a finished hand is the bot's amount in the
engine's settlement (:meth:`client.bots.simulate.Sim.settlement`) plus the
search's tie-break on card points, so the solver plays for exactly what
the table pays: the game, every premium (a Pagat or bird in its trick, a
Valat, Trull and Kings, a Mondfang) and the house rules.

It plays on the compiled trick engine (:mod:`core.trickbits`: hands as bit
sets, legal cards by masks, the winner by the highest bit) where the
table's legal plays and trick winners are core's data rules alone
(:class:`client.bots.rulebook.TableEngine`); where a variant or house rule
answers those hooks itself, it asks the engine's hooks on the world's
:class:`Sim` (the same answers, slower): the Sim plays along with the
search, or, where only the legal plays are the engine's, is brought to the
position only when a legal play is not yet remembered.  ``engine=True`` asks
the engine for everything, the leaves' settlement included (the reference
:mod:`tools.solverbench` measures the compiled search against).

The leaves are scored by the engine (:mod:`client.bots.leaves`), once per
outcome of the hand (what each party took, who took the last trick, where
the cards a premium names went).

What keeps it fast besides:

- move ordering on bits: a lead from the top; behind a trick its party
  holds, the most valuable card; else the cheapest card that heads the
  trick, then the cheapest that does not;
- equivalent cards: neighbours in one suit with the same value in the hand
  to move, every card between them played in an earlier trick, none named
  by a premium, are searched once;
- a table of the bounds found at each trick's start, for the same cards
  left, leader and outcome so far reached in another order (where the
  leaves' key of outcomes is used: not with ``engine=True``, nor once the
  memo found a difference; where a plugin answers the legal plays, it
  takes them to follow from the cards each seat holds and has played, the
  trick on the table and the hand's announcements, not from the order of
  the earlier tricks, as every shipped rule does, and so its answers are
  remembered per seat, hand, trick on the table and tricks done);
- a zero-window test on a target (:meth:`Solver.at_least`): whether a value
  can be reached, which cuts far more than a search for the exact value;
- forced moves are played without branching, the last trick without
  asking the rules (each seat's one card).

It counts the nodes it visits and gives up (None) past ``node_limit``;
the caller then finishes that world with the playout player.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarock.client.bots.leaves import Amounts, Leaves, special_cards
from tarock.client.bots.playout import Aims
from tarock.client.bots.simulate import Sim
from tarock.core.cards import is_king
from tarock.core.trickbits import TrickBits

TIE_BREAK = 0.001
INF = float("inf")


class _Limit(Exception):
    """The node budget is spent."""


class WorldMemo:
    """What the searches of one world for one seat share: the leaves' amounts per
    outcome and the table of bounds (both keyed from the world's own start, so
    valid for every position of it: the card search solves each candidate's
    playout in the same world)."""

    __slots__ = ("amounts", "bounds")

    def __init__(self) -> None:
        self.amounts: Amounts = {}
        self.bounds: dict[tuple[object, ...], tuple[float, float]] = {}


class _Line:
    """The cards a search played since its start, for a Sim that follows it only
    when asked (:meth:`sync`): it has played the first ``synced`` of them (and maybe
    more cards, since taken back by the search)."""

    __slots__ = ("line", "sim", "start", "synced")

    def __init__(self, sim: Sim) -> None:
        self.sim = sim
        self.line: list[int] = []
        self.synced = 0
        self.start = 0
        """The Sim's depth (cards on its stack) at the search's start."""

    def load(self) -> None:
        self.line, self.synced, self.start = [], 0, len(self.sim.stack)

    def undo(self) -> None:
        line = self.line
        line.pop()
        if self.synced > len(line):
            self.synced = len(line)

    def sync(self, card: Sequence[int]) -> None:
        """Bring the Sim to the search's position (``card``: the card of each bit)."""
        sim, line, synced = self.sim, self.line, self.synced
        sim.rewind(self.start + synced)
        for b in line[synced:]:
            sim.play(card[b])
        self.synced = len(line)


class Solver:
    """Solve the rest of one world's hand for ``seat`` (see the module docstring)."""

    def __init__(self, sim: Sim, aims: Aims, seat: int, values: Sequence[int], node_limit: int,
                 engine: bool = False, memo: WorldMemo | None = None) -> None:
        self.sim = sim
        self.aims = aims
        self.seat = seat
        self.node_limit = node_limit
        self.nodes = 0
        self.side = aims.side
        self.mine = aims.side[seat]
        model = sim.model
        self.bits: TrickBits = model.engine
        bits = self.bits
        self.weight = tuple(values[c] for c in bits.card)
        """Per bit, its card's points."""
        self.mirror = engine or not sim.compiled
        """Legal plays or winners from the engine's hooks, asked of the Sim."""
        self.engine_winner = engine or not sim.compiled_winner
        """Trick winners from the engine's hook."""
        self.lazy = _Line(sim) if self.mirror and not engine and not self.engine_winner else None
        """Only the legal plays are the engine's, and remembered: the Sim is brought to
        the search's position only to ask it (:class:`_Line`), else it plays along."""
        self.asked: dict[tuple[int, int, tuple[int, ...], int], int] | None = None if engine else {}
        """The engine's legal plays (mirror mode) per seat, its hand, the trick and the
        tricks done (see the module docstring: what a plugin's answer follows from;
        not with ``engine=True``)."""
        shared = memo.amounts if memo is not None else True
        self.leaves = Leaves(sim, seat, bits, memo=shared if not engine else False)
        self.plain = ~(special_cards(sim.base.called, bits) | bits.mask(c for c in range(54) if is_king(c)))
        """The cards that may be merged with an equal neighbour (no card a premium names)."""
        # the position, set by _load
        self.table: dict[tuple[object, ...], tuple[float, float]] = memo.bounds if memo is not None else {}
        """Per trick's start (see :meth:`_remembered`), the bounds on its value found so far."""
        self.hands: list[int] = []
        self.held = 0
        """The cards in all hands."""
        self.trick: list[int] = []
        self.tseats: list[int] = []
        self.tmask = 0
        self.to_move = -1
        self.points = 0
        self.done = 0
        """The Sim's tricks at the search's start."""

    # -- the position ---------------------------------------------------------
    def _load(self) -> None:
        """Read the world's current position from the Sim."""
        sim, bits = self.sim, self.bits
        to_engine = sim.model.to_engine
        self.hands = [to_engine(h) for h in sim.hands]
        held = 0
        for h in self.hands:
            held |= h
        self.held = held
        self.trick = [bits.bit[c] for c in sim.trick_cards]
        self.tseats = list(sim.trick_seats)
        self.tmask = bits.mask(sim.trick_cards)
        self.to_move = sim.to_move
        side, mine, weight = self.side, self.mine, self.weight
        points = 0
        for t in sim.tricks:
            if t.winner is not None and side[t.winner] == mine:
                for c in t.cards:
                    points += weight[bits.bit[c]]
        self.points = points
        self.leaves.load()
        self.done = len(sim.tricks)
        if self.lazy is not None:
            self.lazy.load()

    def _moves(self, seat: int) -> list[int]:
        """The bits ``seat`` may play, equivalent ones merged, in search order."""
        hands = self.hands
        hand = hands[seat]
        if not hand & (hand - 1):  # the last card: no rule can refuse it
            return [hand.bit_length() - 1]
        bits = self.bits
        trick = self.trick
        if self.mirror:
            asked = self.asked
            key = (seat, hand, tuple(trick), self.done + len(self.leaves.stack))
            found = asked.get(key) if asked is not None else None
            if found is None:
                if self.lazy is not None:
                    self.lazy.sync(self.bits.card)
                found = self.sim.model.to_engine(self.sim.legal(seat))
                if asked is not None:
                    asked[key] = found
            legal = found
        else:
            legal = bits.legal(hand, trick, self.tmask)
        if not legal & (legal - 1):
            return [legal.bit_length() - 1]
        others = (self.held ^ hand) | self.tmask
        suit_of, weight, plain = bits.suit_of, self.weight, self.plain
        kept: list[int] = []
        prev = -1
        m = legal
        while m:
            low = m & -m
            m ^= low
            b = low.bit_length() - 1
            if (prev >= 0 and low & plain and (1 << prev) & plain and suit_of[b] == suit_of[prev]
                    and weight[b] == weight[prev] and not others & ((1 << b) - (2 << prev))):
                continue  # nothing of another hand lies between them: the same card
            kept.append(b)
            prev = b
        if len(kept) == 1:
            return kept
        if not trick:
            kept.reverse()
            return kept
        tmask = self.tmask
        head = bits.winner(trick, tmask)
        if self.side[self.tseats[head]] == self.side[seat]:
            kept.sort(key=lambda b: -weight[b])
            return kept
        beats = bits.beaten_by(trick, tmask)
        if len(trick) == self.sim.size - 1:  # the last to play: the cheapest card that takes it
            kept.sort(key=lambda b: (not (1 << b) & beats, weight[b], b))
        else:  # a card behind: the highest that takes it, else the cheapest
            kept.sort(key=lambda b: (not (1 << b) & beats, -b if (1 << b) & beats else weight[b]))
        return kept

    # -- search -----------------------------------------------------------------
    def _search(self, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise _Limit
        seat = self.to_move
        if seat < 0:
            return self.leaves.value() + TIE_BREAK * self.points
        hand = self.hands[seat]
        if not self.trick:
            if not hand & (hand - 1):
                return self._last_trick()
            if self.leaves.memo is not None:  # the outcome's key holds (the engine-only search has none)
                return self._remembered(alpha, beta)
        return self._branch(seat, alpha, beta)

    def _remembered(self, alpha: float, beta: float) -> float:
        """A trick's start: the bounds found for the same position and outcome so far,
        narrowed by this search (the cards left, who leads, what the tricks made so far
        count for the leaves and the points)."""
        key = (tuple(self.hands), self.to_move, self.points, *self.leaves.history())
        lo, hi = self.table.get(key, (-INF, INF))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        v = self._branch(self.to_move, alpha, beta)
        if v <= alpha:
            hi = v
        elif v >= beta:
            lo = v
        else:
            lo = hi = v
        self.table[key] = (lo, hi)
        return v

    def _branch(self, seat: int, alpha: float, beta: float) -> float:
        """Try every move of ``seat`` (alpha-beta, fail-soft)."""
        moves = self._moves(seat)
        maximise = self.side[seat] == self.mine
        best = -INF if maximise else INF
        for b in moves:
            self._play(seat, b)
            v = self._search(alpha, beta)
            self._undo()
            if maximise:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best

    def _last_trick(self) -> float:
        """The last trick, every card forced: its positions counted, scored without branching."""
        sim = self.sim
        size = sim.size
        self.nodes += size
        if self.nodes > self.node_limit:
            raise _Limit
        hands, following = self.hands, sim.next_seat
        seat = self.to_move
        seats: list[int] = []
        trick: list[int] = []
        tmask = 0
        for _ in range(size):
            h = hands[seat]
            seats.append(seat)
            trick.append(h.bit_length() - 1)
            tmask |= h
            seat = following[seat]
        if self.engine_winner:
            card = self.bits.card
            for b in trick:
                sim.play(card[b])
            winner = sim.tricks[-1].winner
            assert winner is not None
            for _ in trick:
                sim.undo()
        else:
            winner = seats[self.bits.winner(trick, tmask)]
        weight = self.weight
        made = 0
        for b in trick:
            made += weight[b]
        points = self.points + made if self.side[winner] == self.mine else self.points
        return self.leaves.last(seats, trick, tmask, winner, made) + TIE_BREAK * points

    def _play(self, seat: int, b: int) -> None:
        low = 1 << b
        self.hands[seat] ^= low
        self.held ^= low
        trick = self.trick
        trick.append(b)
        self.tseats.append(seat)
        self.tmask |= low
        sim = self.sim
        if self.lazy is not None:
            self.lazy.line.append(b)
        elif self.mirror:
            sim.play(self.bits.card[b])
        if len(trick) < sim.size:
            self.to_move = sim.next_seat[seat]
            return
        tmask = self.tmask
        if self.engine_winner:
            winner = sim.tricks[-1].winner
            assert winner is not None
        else:
            winner = self.tseats[self.bits.winner(trick, tmask)]
        weight = self.weight
        made = 0
        for c in trick:
            made += weight[c]
        if self.side[winner] == self.mine:
            self.points += made
        self.leaves.push(self.tseats, trick, tmask, winner, made)
        self.trick, self.tseats, self.tmask = [], [], 0
        self.to_move = winner if self.hands[winner] else -1

    def _undo(self) -> None:
        if not self.trick:
            seats, trick, tmask, winner, made = self.leaves.pop()
            if self.side[winner] == self.mine:
                self.points -= made
            self.trick, self.tseats, self.tmask = trick, seats, tmask
        b = self.trick.pop()
        seat = self.tseats.pop()
        low = 1 << b
        self.tmask ^= low
        self.hands[seat] |= low
        self.held |= low
        self.to_move = seat
        if self.lazy is not None:
            self.lazy.undo()
        elif self.mirror:
            self.sim.undo()

    def _run(self, alpha: float, beta: float) -> float | None:
        depth = len(self.sim.stack)
        self._load()
        try:
            return self._search(alpha, beta)
        except _Limit:
            self.sim.rewind(depth)
            return None
        finally:
            if self.lazy is not None:
                self.sim.rewind(depth)
            if self.leaves.failures:  # the bounds found with the memo's amounts go with them
                self.table.clear()

    def value(self) -> float | None:
        """The exact value of the position (None when the node budget ran out)."""
        return self._run(-INF, INF)

    def at_least(self, target: float) -> bool | None:
        """Whether the position is worth at least ``target`` (a zero-window search)."""
        found = self._run(target - 1e-9, target)
        return None if found is None else found >= target
