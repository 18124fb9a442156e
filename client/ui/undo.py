"""Taking back the player's last action at a table against bots.

An action may be taken back while the player is asked again and nothing the
player could not see before that action has come to light since: the cards
the seat knows of (its hand, what lies open, the tricks, the talon it saw,
the discards it may see) and its partner are the same as before it.  The
hand is then played again from its deal up to that action (one truth: the
state is what its actions make it).
"""

from __future__ import annotations

from tarock.client.ui.hint_reasons import seen_cards
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe


class Undone(Exception):
    """The player took back the last own action: the question is asked again."""


def known(obs: Observation) -> tuple[frozenset[int], int | None]:
    """What ``obs`` lets its seat see: every card it knows where it lies, and its partner."""
    return seen_cards(obs), obs.partner


def replayed(hand: Hand, count: int) -> Hand:
    """``hand`` from its deal with its first ``count`` actions."""
    s = hand.state
    hands, talon = hand.deal
    dealt = [list(h) for h in hands], [list(p) for p in talon]
    out = Hand(hand.rules, s.dealer, *dealt, s.seats, s.active, hand.context)
    for action in s.actions[:count]:
        out.apply(action)
    return out


def undo_point(hand: Hand, seat: int) -> int | None:
    """How many actions stay when ``seat`` takes back its last one (None: it may not now)."""
    s = hand.state
    if hand.done or s.to_move != seat:
        return None
    mine = [i for i, a in enumerate(s.actions) if a.seat == seat]
    if not mine:
        return None
    point = mine[-1]
    if known(observe(replayed(hand, point), seat)) != known(observe(hand, seat)):
        return None
    return point
