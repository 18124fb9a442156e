"""The floor the engine is measured against: a bare Python loop playing a random hand.

:func:`play` plays one hand with uniformly random choices through the same
phases as the engine, in plain Python with no engine, no hook, no action
object and no check: shuffle and deal; an auction (pass, which is final, or a
contract of a higher rank); the call of a partner card where the contract
calls one; the talon (the pile(s) the contract takes, as many cards laid away
at random); the trump suit where the declarer names one; Kontra (one chain
on the game up to the contract's limit, or, where the variant has an
announcement round, premiums announced and Kontra/Re said per item until
three passes); the tricks (follow suit, else trump, else anything; overtrump
where the contract says so; the highest trump or the highest card of the
led suit wins); and the score (the declarer party's card points against the
goal, the game value doubled per Kontra level, zero-sum over the seats).

What it leaves out is what the rules add on top of that skeleton: holding
requirements, announcements with bids, Valat checks, duties to keep or lay
away cards, Pagat-last, Kaiserstich, premiums' outcomes, the variant's own
phases (a Besserrufer's birds), redeals.  Which of its phases run for a
variant is the set of phases the engine visits for it (:func:`plan`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tarock.core.cards import STRENGTH, SUIT_OF, TAROCK, Card, is_king
from tarock.core.contracts import ContractSpec
from tarock.core.phases import ANNOUNCE, CALL, DISCARD, KONTRA, TALON, TRUMP
from tarock.core.rules import Rules

SEATS = 4


@dataclass(frozen=True, slots=True)
class Plan:
    """What the bare loop needs of a variant: its data, read once before timing."""

    deck: tuple[Card, ...]
    hand_size: int
    talon_piles: tuple[int, ...]
    contracts: tuple[ContractSpec, ...]
    card_values: tuple[int, ...]
    announceable: frozenset[str]
    phases: frozenset[str]
    """The phases the engine visits in this variant (of call, talon, discard, trump, kontra, announce)."""


def plan(rules: Rules, phases: frozenset[str]) -> Plan:
    """The bare loop's plan for ``rules``; ``phases``: those the engine visits."""
    facts = rules.facts
    return Plan(facts.deck, facts.hand_size, facts.talon_piles, facts.contracts, facts.facts.card_values,
                frozenset(p.name for p in facts.premiums if p.announced),
                phases & {CALL, TALON, DISCARD, TRUMP, KONTRA, ANNOUNCE})


def _winner(trick: list[Card], trump: int) -> int:
    best = 0
    for i in range(1, len(trick)):
        card, top = trick[i], trick[best]
        if SUIT_OF[card] == SUIT_OF[top]:
            if STRENGTH[card] > STRENGTH[top]:
                best = i
        elif SUIT_OF[card] == trump:
            best = i
    return best


def _legal(hand: list[Card], trick: list[Card], trump: int, overtrump: bool) -> list[Card]:
    if not trick:
        return hand
    led = SUIT_OF[trick[0]]
    same = [c for c in hand if SUIT_OF[c] == led]
    if same:
        return same
    trumps = [c for c in hand if SUIT_OF[c] == trump]
    if not trumps:
        return hand
    if overtrump:
        high = max((STRENGTH[c] for c in trick if SUIT_OF[c] == trump), default=-1)
        over = [c for c in trumps if STRENGTH[c] > high]
        return over or trumps
    return trumps


def _kontra_chain(rng: random.Random, opponents: int, limit: int) -> tuple[int, int]:
    """One chain on the game: the opponents asked in turn, then the two sides
    alternating up to ``limit``; (level, actions)."""
    level = actions = 0
    for _ in range(opponents):
        actions += 1
        if rng.choice((False, True)):
            level = 1
            break
    while 0 < level < limit:
        actions += 1
        if not rng.choice((False, True)):
            break
        level += 1
    return level, actions


def _announcing(rng: random.Random, plan: Plan, spec: ContractSpec, party: set[int],
                declarer: int) -> tuple[int, int]:
    """Announcements and Kontra/Re per item until three passes; (game level, actions)."""
    can = [n for n in sorted(spec.premiums) if n in plan.announceable]
    items: dict[str, tuple[int, int]] = {"": (declarer, 0)}  # item -> (owner, level)
    limit = min(spec.kontra, 2)
    seat, streak, spoken, acted, actions = declarer, 0, set(), False, 0
    while True:
        choices: list[tuple[str, str]] = [("pass", "")]
        choices += [("announce", n) for n in can if n not in items]
        for name, (owner, level) in items.items():
            same = (seat in party) == (owner in party)
            if level < limit and (level == 0) != same:
                choices.append(("kontra", name))
        what, name = rng.choice(choices)
        actions += 1
        if what == "announce":
            items[name] = (seat, 0)
            acted = True
        elif what == "kontra":
            owner, level = items[name]
            items[name] = (owner, level + 1)
            acted = True
        else:
            spoken.add(seat)
            streak = 0 if acted else streak + 1
            acted = False
            if streak >= 3 and len(spoken) == SEATS:
                return items[""][1], actions
            seat = (seat + 1) % SEATS
            continue


def play(plan: Plan, rng: random.Random, dealer: int) -> tuple[list[int], int]:
    """One random hand: (each seat's amount, actions taken)."""
    deck = list(plan.deck)
    rng.shuffle(deck)
    size = plan.hand_size
    hands = [deck[k * size:(k + 1) * size] for k in range(SEATS)]
    pos, talon = SEATS * size, []
    for pile in plan.talon_piles:
        talon.append(deck[pos:pos + pile])
        pos += pile
    forehand = (dealer + 1) % SEATS
    order = [(forehand + k) % SEATS for k in range(SEATS)]
    # auction: pass (final) or outbid; ends when one bidder is left
    actions = 0
    top: ContractSpec | None = None
    declarer = -1
    passed = [False] * SEATS
    left, turn = SEATS, 0
    while left > 1 or (top is None and left):
        seat = order[turn % SEATS]
        turn += 1
        if passed[seat] or seat == declarer:
            continue
        choices: list[ContractSpec | None] = [None]
        choices += [c for c in plan.contracts if top is None or c.rank > top.rank]
        pick = rng.choice(choices)
        actions += 1
        if pick is None:
            passed[seat] = True
            left -= 1
        else:
            top, declarer = pick, seat
    if top is None:
        return [0] * SEATS, actions
    spec = top
    party = {declarer}
    if CALL in plan.phases and spec.call is not None:
        callable_ = [c for c in spec.call.cards if c not in hands[declarer]]
        if callable_:
            card = callable_[0] if spec.call.highest else rng.choice(callable_)
            actions += 1
            party |= {s for s in range(SEATS) if card in hands[s]}
    if TALON in plan.phases and talon and spec.talon in ("pile", "half", "all"):
        if spec.talon == "all":
            taken = [c for p in talon for c in p]
        else:
            pile = spec.talon_pile if spec.talon == "pile" else rng.randrange(len(talon))
            actions += spec.talon == "half"
            taken = talon[pile]
        hands[declarer].extend(taken)
        if DISCARD in plan.phases:
            away = rng.sample([c for c in hands[declarer] if not is_king(c)], len(taken))
            actions += 1
            for card in away:
                hands[declarer].remove(card)
    trump = TAROCK
    if TRUMP in plan.phases and spec.tricks.trump == "suit":
        trump = rng.randrange(4)
        actions += 1
    level = 0
    if ANNOUNCE in plan.phases:
        level, n = _announcing(rng, plan, spec, party, declarer)
        actions += n
    elif KONTRA in plan.phases and spec.kontra:
        level, n = _kontra_chain(rng, SEATS - 1, spec.kontra)
        actions += n
    # tricks
    leader = declarer if spec.leader == "declarer" else forehand
    won: list[Card] = []
    tricks_won = 0
    while hands[leader]:
        trick: list[Card] = []
        seats: list[int] = []
        for k in range(SEATS):
            seat = (leader + k) % SEATS
            card = rng.choice(_legal(hands[seat], trick, trump, spec.tricks.overtrump))
            hands[seat].remove(card)
            trick.append(card)
            seats.append(seat)
            actions += 1
        leader = seats[_winner(trick, trump)]
        if leader in party:
            won += trick
            tricks_won += 1
    # score
    values = plan.card_values
    if spec.goal.kind == "tricks":
        made = tricks_won == spec.goal.tricks
    else:
        made = sum(values[c] for c in won) >= spec.goal.points
    amount = (spec.value if made else -spec.lost_value()) << level
    out = [0] * SEATS
    opponents = [s for s in range(SEATS) if s not in party]
    for seat in opponents:
        out[seat] -= amount
    share = amount * len(opponents)
    for seat in party:
        out[seat] += share // len(party)
    return out, actions
