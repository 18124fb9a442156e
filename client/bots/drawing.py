"""Drawing the unseen cards into deals that fit what one seat knows.

The bounds come from a :class:`~client.bots.whereabouts.Whereabouts`:
:func:`assign` deals the unseen cards at random to the places they may lie
(the most constrained cards first), :func:`deal_of` rebuilds the whole
deal from that (a talon pile taken face down is chosen among the taker's
cards), :func:`repair` chooses a hidden discard again where the sampled
cards made it illegal, and :func:`neighbour` is the small change the
sampler's chain (:mod:`client.bots.worlds`) proposes.
"""

from __future__ import annotations

import random

from tarock.client.bots.whereabouts import Whereabouts
from tarock.core.actions import Action, Discard
from tarock.core.cards import Card
from tarock.core.engine import Hand

REPAIRS = 12
"""Random choices tried to make a hidden discard legal (:func:`repair`)."""


def assign(where: Whereabouts, rng: random.Random) -> list[list[Card]] | None:
    """The unseen cards dealt at random to the places they may lie, or None."""
    pools = where.pools
    room = [p.size for p in pools]
    out: list[list[Card]] = [[] for _ in pools]
    allowed = where.allowed
    if where.via_pile:
        allowed = dict(allowed)
        for c, (inside, outside, pile) in where.via_pile.items():
            elsewhere = sum(pools[i].size for i in outside)
            allowed[c] = inside if rng.randrange(pile + elsewhere) < pile else outside
    cards = list(where.unseen)
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(allowed[c]))
    for c in cards:
        options = [i for i in allowed[c] if room[i] > 0]
        if not options:
            return None
        total = sum(room[i] for i in options)
        pick = rng.randrange(total)
        for i in options:
            pick -= room[i]
            if pick < 0:
                break
        out[i].append(c)
        room[i] -= 1
    return out


def deal_of(where: Whereabouts, placed: list[list[Card]],
            rng: random.Random) -> tuple[list[list[Card]], list[list[Card]], dict[int, list[Card]]] | None:
    """The deal (hands, talon) and the hidden discards per seat, or None."""
    obs = where.obs
    piles = where.facts.talon_piles
    now: dict[int, list[Card]] = {s: [] for s in range(obs.seats)}
    hidden: dict[int, list[Card]] = {}
    talon: list[list[Card]] = [list(where.shown[p]) for p in range(len(piles))]
    for pool, cards in zip(where.pools, placed, strict=True):
        if pool.kind == "hand":
            now[pool.seat].extend(cards)
        elif pool.kind == "discard":
            hidden.setdefault(pool.seat, []).extend(cards)
        else:
            rest = list(cards)
            rng.shuffle(rest)
            talon[pool.seat].extend(rest)
    now[where.me] = list(obs.hand)
    for s, open_cards in where.open_hands.items():
        now[s] = list(open_cards)
    hands: list[list[Card]] = []
    for s in range(obs.seats):
        if s not in where.players:
            hands.append([])
            continue
        total = now[s] + where.played[s] + where.shown_discards.get(s, []) + hidden.get(s, [])
        if s == where.me and where.declarer == where.me:
            total = now[s] + where.played[s] + list(obs.discards)
        if s == where.declarer:
            for p in where.taken:
                pile = where.known_pile[p]
                if pile is None:
                    pile = _face_down_pile(where, s, total, piles[p], rng)
                    if pile is None:
                        return None
                for c in pile:
                    if c not in total:
                        return None
                    total.remove(c)
                talon[p] = list(pile)
        hands.append(total)
    for s in where.players:
        if len(hands[s]) != where.facts.hand_size:
            return None
        held = set(hands[s])
        if where.must_init.get(s, set()) - held or where.not_init.get(s, set()) & held:
            return None
        for spec in where.requires.get(s, []):
            if not all(h.met(held) for h in spec.requires):
                return None
    return hands, talon, hidden


def _face_down_pile(where: Whereabouts, seat: int, total: list[Card], size: int,
                    rng: random.Random) -> list[Card] | None:
    """A talon pile taken face down: ``size`` of the taker's cards that he
    need not have held before (the called card first, if it is his)."""
    keep = where.must_init.get(seat, set())
    forced = [c for c in total if c in where.not_init.get(seat, set())]
    free = [c for c in total if c not in keep and c not in forced]
    need = size - len(forced)
    if need < 0 or len(free) < need:
        return None
    return forced + rng.sample(free, need)


def with_hidden(where: Whereabouts, hidden: dict[int, list[Card]]) -> list[Action]:
    """The observation's history with the sampled cards of the hidden discards."""
    out: list[Action] = []
    for action in where.obs.history:
        if isinstance(action, Discard) and action.seat != where.me and action.seat in hidden:
            out.append(Discard(action.seat, tuple(sorted((*action.cards, *hidden[action.seat])))))
        else:
            out.append(action)
    return out


def repair(where: Whereabouts, hand: Hand, action: Discard, rng: random.Random) -> Discard | None:
    """A legal discard for a hidden one the sampled cards made illegal: the
    declarer's cards stay his, only which of them were laid away changes,
    keeping the shown ones, the cards he played since and a hand that
    agrees with his plays."""
    seat = action.seat
    shown = set(where.shown_discards.get(seat, []))
    later = set(where.played[seat])
    index = next((i for i, p in enumerate(where.pools) if p.kind == "hand" and p.seat == seat), None)
    allowed = where.allowed

    held = hand.state.hands[seat]
    count = len(action.cards)
    # cards that cannot stay in the hand (its plays rule them out) must go
    forced = shown | {c for c in held if c not in later and c in allowed and index is not None
                      and index not in allowed[c]}
    free = [c for c in held if c not in forced and c not in later]
    need = count - len(forced)
    if need < 0 or len(free) < need or not forced <= set(held):
        return None
    # the rules' legal discards, enumerated once (the engine's check enumerates them per candidate)
    options = set(hand.rules.legal_discards(hand.state, seat, count))
    for _ in range(REPAIRS):
        cards = tuple(sorted((*forced, *rng.sample(free, need))))
        candidate = Discard(seat, cards)
        if cards in options and hand.why_not(candidate) is None:
            return candidate
    return None


def neighbour(where: Whereabouts, placed: list[list[Card]], rng: random.Random) -> list[list[Card]] | None:
    """A neighbour of an assignment: two cards of two places swapped, or the
    cards of two places dealt between them again."""
    sizes = [len(p) for p in placed]
    filled = [i for i, n in enumerate(sizes) if n]
    if len(filled) < 2:
        return None
    i, j = rng.sample(filled, 2)
    allowed = where.allowed
    out = [list(p) for p in placed]
    if rng.random() < 0.5:
        for _ in range(6):
            a = rng.choice(out[i])
            b = rng.choice(out[j])
            if j in allowed[a] and i in allowed[b]:
                out[i][out[i].index(a)] = b
                out[j][out[j].index(b)] = a
                return out
        return None
    cards = out[i] + out[j]
    for _ in range(6):
        rng.shuffle(cards)
        room = {i: sizes[i], j: sizes[j]}
        new: dict[int, list[Card]] = {i: [], j: []}
        for c in sorted(cards, key=lambda c: len(allowed[c])):
            options = [k for k in (i, j) if room[k] > 0 and k in allowed[c]]
            if not options:
                break
            k = options[0] if len(options) == 1 else \
                (i if rng.randrange(room[i] + room[j]) < room[i] else j)
            new[k].append(c)
            room[k] -= 1
        else:
            out[i], out[j] = new[i], new[j]
            return out
    return None
