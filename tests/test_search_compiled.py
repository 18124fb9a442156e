"""The compiled trick engine and the real engine agree on random positions (issue 23).

Hands of every variant the installation enables (house rules included) are
played by ``random`` bots, bids by them or by the heuristic, so that many
kinds of game come up (positive, negative, each for himself, colour and suit games,
the Trull trick).  At every card:

- the compiled engine's legal cards (:class:`core.trickbits.TrickBits`,
  compiled once per contract from its trick rules and trump) are
  :func:`core.tricks.legal`'s, and where the table's legal-play hook is
  core's data rules alone (:class:`client.bots.rulebook.TableEngine`) the
  engine's own legal plays; where a plugin answers that hook, the table is
  said not to be compiled (``Sim.compiled``), so the search asks the engine
  there (it cannot be silently wrong);
- every trick goes to the engine's winner (docs/rules.md §4.3, the Trull
  trick of §17.1 where a house rule plays it);
- the card points the solver counts per bit are the table's card values,
  and the points of each trick are those the engine's tricks hold.

Random endgames of every variant are solved twice: on the compiled engine
with the leaves' memo (:mod:`client.bots.leaves`) and the table of bounds
per trick's start, and by the engine alone with neither
(``Solver(..., engine=True)``); the values are equal and the memo's checks
found no difference.  Where a plugin answers the legal plays, the solver
whose Sim follows it only when asked counts the same nodes and finds the
same values (or runs out of a small budget alike) as one whose Sim plays
every card along.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tarock.client.bots import make_bot
from tarock.client.bots.playout import Aims, aims_of
from tarock.client.bots.rulebook import TableEngine, register
from tarock.client.bots.simulate import Sim
from tarock.client.bots.solver import Solver
from tarock.core.actions import Action, Play
from tarock.core.context import TableContext
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe
from tarock.core.plugins import load_plugins
from tarock.core.state import HandState
from tarock.core.trickbits import compile_tricks
from tarock.core.tricks import legal as core_legal
from tarock.tools.solverbench import play_to_endgame

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = load_plugins(ROOT / "plugins.toml")
VARIANTS = sorted(CATALOGUE.enabled)
HANDS = 12
"""Random hands per variant."""


class Mixed:
    """Random card play; the bids, the talon and the rest by the heuristic or at random
    (``random`` bots alone bid the highest games), so that many contracts come up."""

    def __init__(self, seed: int) -> None:
        self.name = f"mixed {seed}"
        rng = random.Random(seed)
        self._bidder = make_bot("random" if rng.random() < 0.3 else "heuristic", seed)
        self._player = make_bot("random", seed)

    def decide(self, obs: Observation) -> Action:
        return (self._player if obs.phase == "play" else self._bidder).decide(obs)


def random_hand(variant: str, seed: int) -> Hand:
    rules = CATALOGUE.variants[variant].rules()
    seats = rules.players_per_hand
    hands, talon = deal(rules, random.Random(f"compiled/{seed}"), seats)
    dealer = seed % seats
    return Hand(rules, dealer, hands, talon, seats, (), TableContext(dealer=dealer))


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_tricks_agree_with_the_engine(variant: str) -> None:
    cards = 0
    fallbacks = 0
    for seed in range(HANDS):
        hand = random_hand(variant, seed)
        bots = [Mixed(100 * seed + s) for s in range(hand.state.seats)]
        table = register(hand.rules)
        values = hand.rules.facts.facts.card_values
        while not hand.done:
            state = hand.state
            seat = state.to_move
            assert seat is not None
            action = bots[seat].decide(observe(hand, seat))
            if state.phase == "play" and isinstance(action, Play):
                contract = state.contract
                assert contract is not None
                bits = compile_tricks(contract.spec.tricks, contract.suit)
                where = f"{variant} hand {seed}, {contract.spec.name}, trick {len(state.tricks)}"
                trick = [bits.bit[c] for c in (state.trick.cards if state.trick is not None else ())]
                tmask = 0
                for b in trick:
                    tmask |= 1 << b
                compiled = sorted(bits.cards(bits.legal(bits.mask(state.hands[seat]), trick, tmask)))
                data = sorted(core_legal(state.hands[seat], state.trick.cards if state.trick else [],
                                         contract.spec.tricks, contract.suit))
                assert compiled == data, where
                engine = sorted(a.card for a in hand.legal(seat) if isinstance(a, Play))
                if Sim(table, state).compiled:
                    assert compiled == engine, where
                else:
                    fallbacks += 1
                before = len(state.tricks)
                hand.apply(action)
                cards += 1
                if len(hand.state.tricks) > before:
                    done = hand.state.tricks[-1]
                    played = [bits.bit[c] for c in done.cards]
                    mask = bits.mask(done.cards)
                    if table.fast_winner:
                        assert done.seats[bits.winner(played, mask)] == done.winner, where
                    weight = [values[c] for c in bits.card]
                    assert sum(weight[b] for b in played) == sum(values[c] for c in done.cards), where
                continue
            hand.apply(action)
    assert cards > 100, cards
    if not register(random_hand(variant, 0).rules).fast_legal:
        assert fallbacks, "a table whose legal plays a plugin answers is played by the engine"


def endgame(variant: str, seed: int, left: int) -> Hand | None:
    """A random hand of ``variant`` at the start of a trick with ``left`` tricks left."""
    hand = random_hand(variant, seed)
    players = [Mixed(7 * seed + s) for s in range(hand.state.seats)]
    return hand if play_to_endgame(hand, players, left) else None


@dataclass(frozen=True)
class Endgame:
    """A random endgame's position and what a solver of it for the seat to move needs."""

    where: str
    state: HandState
    table: TableEngine
    values: Sequence[int]
    aims: Aims
    seat: int

    def solver(self, limit: int, engine: bool = False) -> Solver:
        return Solver(Sim(self.table, self.state), self.aims, self.seat, self.values, limit, engine=engine)


def endgames(variant: str, most: int) -> list[Endgame]:
    """Up to ``most`` random endgames of ``variant`` (three or four tricks left)."""
    found: list[Endgame] = []
    for seed in range(40):
        hand = endgame(variant, seed, 3 + seed % 2)
        if hand is None:
            continue
        state = hand.state
        seat = state.to_move
        assert seat is not None
        found.append(Endgame(f"{variant} hand {seed}", state, register(hand.rules),
                             hand.rules.facts.facts.card_values, aims_of(state), seat))
        if len(found) == most:
            break
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_compiled_solver_finds_the_engines_values(variant: str) -> None:
    found = endgames(variant, 8)
    for e in found:
        fast = e.solver(10**7)
        slow = e.solver(10**7, engine=True)
        assert fast.value() == pytest.approx(slow.value()), e.where
        assert fast.leaves.failures == 0, e.where
    assert len(found) >= 4, len(found)


ENGINE_LEGAL = [v for v in VARIANTS if not register(random_hand(v, 0).rules).fast_legal]
"""Variants whose legal plays a plugin answers: the solver's Sim follows it only when asked."""


@pytest.mark.parametrize("variant", ENGINE_LEGAL)
def test_the_sim_brought_along_only_when_asked_changes_no_node(variant: str) -> None:
    """Where the engine answers the legal plays, the solver brings its Sim to the
    position only to ask it (``Solver.lazy``); with the Sim playing every card
    along instead, the values, the node counts and a budget's end are the same,
    and the Sim is back at the position afterwards."""
    found = endgames(variant, 6)
    for e in found:
        for limit in (10**7, 300):
            lazy, along = e.solver(limit), e.solver(limit)
            sim = lazy.sim
            hands = list(sim.hands)
            assert lazy.lazy is not None, e.where
            along.lazy = None
            assert lazy.value() == along.value(), e.where
            assert lazy.nodes == along.nodes, e.where
            assert sim.hands == hands and not sim.stack, e.where
    assert len(found) >= 4, len(found)
