"""Playing a sampled hand on to its end: the score of one candidate in one world.

Shared by the card search (:mod:`client.bots.cardsearch`) and the search
outside card play (:mod:`client.bots.plans`).
"""

from __future__ import annotations

from tarock.client.bots.playout import Player, aims_of, play_out
from tarock.client.bots.rulebook import TableEngine
from tarock.client.bots.simulate import Sim
from tarock.client.bots.worlds import Model
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.phases import PLAY


def rollout(table: TableEngine, hand: Hand, seat: int, policy: Model, cards_too: bool = False) -> float:
    """Play ``hand`` to its end (outside card play by ``policy``, cards by the
    playout player, or by ``policy`` too with ``cards_too``) and return ``seat``'s amount."""
    while not hand.done and (cards_too or hand.state.phase != PLAY):
        to_move = hand.state.to_move
        assert to_move is not None
        legal = hand.legal(to_move)
        action = legal[0] if len(legal) == 1 else policy.decide(observe(hand, to_move))
        hand.apply(action)
    if hand.done:
        result = hand.state.result
        assert result is not None
        return float(result.settlement[seat])
    state = hand.state
    sim = Sim(table, state)
    rules = table.rules
    play_out(sim, Player(sim, aims_of(state), rules.facts.facts.card_values))
    return float(sim.settlement()[seat])
