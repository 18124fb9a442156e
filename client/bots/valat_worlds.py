"""The Valat check in sampled worlds: for a search bot that knows more than its hand.

The check of :mod:`core.valat` deals the unseen cards at random: all a bot
knows at the first bid.  Once other seats have bid, passed or announced,
the deals that explain those decisions are the ones that matter (a seat that
bid a Solo holds tarocks).  :func:`worlds_verdict` draws ``DEALS`` such
deals from :class:`client.bots.worlds.Sampler` (the Metropolis chain that
weighs each deal by how well a model of the others explains their
decisions) and plays the hand against them with the same play-out
(:func:`core.valat.play_deals`), judged by the same bar: the same kind of
:class:`~core.valat.ValatVerdict`.

The search levels ask it only of a Valat the hand-only check already allows
(:func:`keep_valats`): it can only take a Valat away, never allow one the
rules or the limits refuse, so the rules' check ("Valat aus eigener Kraft",
docs/rules.md §11.2) is untouched and a Valat the verdicts agree on is decided as
before.  The chain's deals are distinct but not independent, so the
interval it reports is nominal (narrower than an interval over independent
deals would be).  Where no other seat has decided anything yet, a deal of
the cards that is not full (cards played), or the chain gives fewer than
``DEALS`` deals, the hand-only verdict stands.

Measured on the development machine (2 cores; /tmp scripts, not shipped):
in 527 Valat decisions of heuristic-bid 40-card auctions that the
hand-only check allowed, the worlds refused none (the others' passes and
bids mostly make the tarocks lie more evenly: of the 27 below 200 made,
25 made all 200 in the worlds); a hand at the bar (198, its rate over
2,000 random deals 98 %) is refused after a Faberl bid (tests/test_bots_valat.py).
The worlds cost about 0.5-0.9 s per such decision (the chain's 200 deals), at
most 2.1 s; decisions without a Valat past the hand-only check cost nothing.
"""

from __future__ import annotations

import random

from tarock.client.bots.limits import says_valat, valat_game, valat_verdict_for
from tarock.client.bots.rulebook import TableEngine
from tarock.client.bots.worlds import Model, Sampler
from tarock.core.actions import Action
from tarock.core.observation import Observation
from tarock.core.valat import DEALS, MAX_FAILURES, SEATS, ValatVerdict, choose_verdict, judge, play_deals


def _first_trick_order(obs: Observation) -> list[int] | None:
    """The seats in the order of the first trick (the forehand leads), if four play."""
    players = [(obs.forehand + k) % obs.seats for k in range(obs.seats)]
    if obs.active:
        players = [s for s in players if s in obs.active]
    return players if len(players) == SEATS and obs.seat in players else None


def informed(obs: Observation) -> bool:
    """Whether another seat has decided something public (a bid, a pass, an announcement)."""
    return any(a.seat != obs.seat for a in obs.history)


def worlds_verdict(obs: Observation, action: Action, table: TableEngine, model: Model | None,
                   rng: random.Random) -> ValatVerdict | None:
    """The Valat check for ``action`` against ``DEALS`` sampled worlds (see
    the module docstring); None where it cannot be formed."""
    game = valat_game(obs, action)
    order = _first_trick_order(obs)
    if game is None or order is None or not informed(obs):
        return None
    tricks, suits, every = game
    size = len(obs.hand)
    worlds = Sampler(obs, table, model).worlds(rng, DEALS)
    if len(worlds) < DEALS:
        return None
    place = order.index(obs.seat)
    others = [s for s in order if s != obs.seat]
    deals = [[w.hands[s] for s in others] for w in worlds]
    if any(len(h) != size for deal in deals for h in deal):
        return None
    stop = MAX_FAILURES + 1
    verdicts = [judge(play_deals(obs.hand, tricks, suit, place, deals, stop_after=stop), suit, place)
                for suit in suits]
    return choose_verdict(verdicts, every)


def keep_valats(obs: Observation, legal: tuple[Action, ...], table: TableEngine, model: Model | None,
                seed: int) -> tuple[tuple[Action, ...], dict[Action, ValatVerdict]]:
    """``legal`` without the Valats the sampled worlds refuse, and the verdict
    read for each Valat kept (the worlds' where formed, else the hand's).
    Draws from its own generator (``seed``), so the other searches of the
    decision draw as they did."""
    verdicts: dict[Action, ValatVerdict] = {}
    if not any(says_valat(a) for a in legal) or not informed(obs):
        return legal, verdicts
    rng = random.Random(f"valat-worlds|{seed}")
    by_game: dict[str, ValatVerdict | None] = {}
    kept: list[Action] = []
    for action in legal:
        if not says_valat(action):
            kept.append(action)
            continue
        key = getattr(action, "contract", "")
        if key not in by_game:
            by_game[key] = worlds_verdict(obs, action, table, model, rng)
        verdict = by_game[key] or valat_verdict_for(obs, action)
        if verdict is not None and verdict.allowed:
            kept.append(action)
            verdicts[action] = verdict
    return (tuple(kept) if kept else legal), verdicts
