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

The auction follows the data of the variant's bidding phase as the engine
has it (:func:`plan` reads it once): whether the forehand may pass at once
and whether a bid nothing outranks ends it (``AuctionStyle``); where bids
carry announcements (``AuctionStyle.additions``), each bid of a contract
comes with any set of its announceable premiums, as the engine lists them;
an open auction (``OpenAuction``: games, additions and Kontras in any order
until passes in a row) is played as one, with the Kontra chains in it.

What it leaves out is what the rules add on top of that skeleton: holding
requirements, the verdicts on announcements and Kontras (Valat checks,
holding the Pagat), who knows his partner, duties to keep or lay away
cards, Pagat-last, Kaiserstich, premiums' outcomes, the variant's own
phases (a Besserrufer's birds), redeals.  Which of its phases run for a
variant is the set of phases the engine visits for it (:func:`plan`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations

from tarock.core.auction import Auction, AuctionStyle
from tarock.core.cards import STRENGTH, SUIT_OF, TAROCK, Card, is_king
from tarock.core.contracts import ContractSpec
from tarock.core.open_auction import OpenAuction
from tarock.core.phases import ANNOUNCE, BIDDING, CALL, DISCARD, KONTRA, TALON, TRUMP
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
    style: AuctionStyle
    """The auction's style (an ``OpenAuction`` has none of its own: the default)."""
    bids: tuple[tuple[ContractSpec, tuple[str, ...]], ...]
    """Every bid, by rank: a contract and the announcements made with it."""
    open_passes: int
    """Passes in a row that end an open auction; 0: the auction is no open one."""
    additions: tuple[tuple[str, tuple[str, ...]], ...]
    """Per contract (by name) the premiums that may be added to it, in the premiums' order."""


def _with_bid(spec: ContractSpec, announceable: list[str]) -> list[str]:
    """The premiums that may be announced with a bid of ``spec``."""
    return [n for n in announceable if n in spec.premiums and n not in spec.announces]


def _combos(names: list[str], least: int = 0) -> list[tuple[str, ...]]:
    return [combo for k in range(least, len(names) + 1) for combo in combinations(names, k)]


def plan(rules: Rules, phases: frozenset[str]) -> Plan:
    """The bare loop's plan for ``rules``; ``phases``: those the engine visits."""
    facts = rules.facts
    announceable = [p.name for p in facts.premiums if p.announced]
    bidding = rules.phase(BIDDING)
    style = bidding.style if isinstance(bidding, Auction) else AuctionStyle()
    open_passes = bidding.passes if isinstance(bidding, OpenAuction) else 0
    additions = style.additions or bool(open_passes)
    bids = tuple((spec, combo) for spec in facts.contracts
                 for combo in (_combos(_with_bid(spec, announceable)) if additions else [()]))
    return Plan(facts.deck, facts.hand_size, facts.talon_piles, facts.contracts, facts.facts.card_values,
                frozenset(announceable), phases & {CALL, TALON, DISCARD, TRUMP, KONTRA, ANNOUNCE},
                style, bids, open_passes,
                tuple((spec.name, tuple(_with_bid(spec, announceable))) for spec in facts.contracts))


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


def _auction(rng: random.Random, plan: Plan, order: list[int]) -> tuple[ContractSpec | None, int, int]:
    """Pass (final) or outbid, from the forehand; ends when one bidder is left, or at a
    bid nothing outranks where the style says so; (contract, declarer, actions)."""
    style = plan.style
    highest = max(c.rank for c in plan.contracts)
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
        choices: list[tuple[ContractSpec, tuple[str, ...]] | None] = (
            [None] if top is not None or style.opening_pass else [])
        choices += [b for b in plan.bids if top is None or b[0].rank > top.rank]
        pick = rng.choice(choices)
        actions += 1
        if pick is None:
            passed[seat] = True
            left -= 1
        else:
            top, declarer = pick[0], seat
            if style.ends_at_top and top.rank >= highest:
                break
    return top, declarer, actions


def _open_auction(rng: random.Random, plan: Plan,
                  order: list[int]) -> tuple[ContractSpec | None, int, int, int]:
    """Games (the forehand opens), additions and Kontras in any order until
    ``open_passes`` passes in a row; a higher game wipes what was said on the one
    before, and whoever agreed to a game bids no higher one; (contract, declarer,
    the game's Kontra level, actions)."""
    addable = dict(plan.additions)
    top: ContractSpec | None = None
    declarer = -1
    items: dict[str, tuple[int, int]] = {}  # "" (the game) or an addition -> (owner, level)
    agreed: set[int] = set()
    passes = actions = turn = 0
    while True:
        seat = order[turn % SEATS]
        turn += 1
        # (what, the game bid, the additions or the item raised)
        choices: list[tuple[str, ContractSpec | None, tuple[str, ...]]] = []
        if top is not None:
            choices.append(("pass", None, ()))
        if seat not in agreed:
            choices += [("bid", spec, combo) for spec, combo in plan.bids
                        if top is None or spec.rank > top.rank]
        if top is not None:
            names = [n for n in addable[top.name] if n not in items]
            choices += [("add", None, combo) for combo in _combos(names, 1)]
            for name, (owner, level) in items.items():
                if level < top.kontra and ((seat == declarer) == (owner == declarer)) == (level % 2 == 1):
                    choices.append(("kontra", None, (name,)))
        what, game, names_ = rng.choice(choices)
        actions += 1
        if what == "pass":
            passes += 1
            agreed.add(seat)
            if passes >= plan.open_passes:
                return top, declarer, items[""][1], actions
            continue
        passes = 0
        if game is not None:
            top, declarer, agreed = game, seat, {seat}
            items = {"": (seat, 0), **{n: (seat, 0) for n in names_}}
            continue
        agreed.add(seat)
        if what == "add":
            items.update((n, (seat, 0)) for n in names_)
        else:
            owner, level = items[names_[0]]
            items[names_[0]] = (owner, level + 1)


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
    level = 0
    if plan.open_passes:
        top, declarer, level, actions = _open_auction(rng, plan, order)
    else:
        top, declarer, actions = _auction(rng, plan, order)
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
