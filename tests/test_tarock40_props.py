"""Invariants over thousands of random legal hands of ``tarock40`` and
``tarock40-online``.

Hands are dealt and played by uniformly random legal actions.  Every card
played is checked against oracles written from seed 000's text without the
engine's helpers (Farbzwang, Tarockzwang, Stichzwang; Faberl with its trump
suit; the Kaiserstich), and every finished hand against: 10 tricks of four
cards, 88 points counted card by card, the game won from 45 (56 absolut) on,
the per-opponent zero-sum settlement, and a record that replays to the same
result.  Online hands are never passed out and end their auction with three
passes in a row; an announced Pagat is played only when nothing else may be.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from test_tarock40_support import random_hand, replayed, rules40

from core.actions import Action, Bid, Pass, Play
from core.cards import DECK40, Card, parse_card
from core.deal import deal
from core.engine import Hand
from core.observation import observe
from core.state import HandState

HANDS = 2000
"""Random hands per variant."""

_ORDER = {
    "T": "Sküs XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI X IX VIII VII VI V IV I",
    "c": "cK cQ cC cJ c10", "s": "sK sQ sC sJ s10", "h": "hK hQ hC hJ h1", "d": "dK dQ dC dJ d1",
}
SUIT: dict[Card, str] = {}
HEIGHT: dict[Card, int] = {}
for _suit, _names in _ORDER.items():
    for _pos, _name in enumerate(reversed(_names.split())):
        SUIT[parse_card(_name)] = _suit
        HEIGHT[parse_card(_name)] = _pos
POINTS = {parse_card(n): v for n, v in [("I", 5), ("XXI", 5), ("Sküs", 5)]}
for _suit in "cshd":
    for _rank, _v in zip("KQCJ", (5, 4, 3, 2), strict=True):
        POINTS[parse_card(_suit + _rank)] = _v
TRULL = {parse_card(n) for n in ("I", "XXI", "Sküs")}
PAGAT = parse_card("I")


def points(cards: Sequence[Card]) -> int:
    """Seed 000: "Pagat, Mond, Sküs und die Könige je 5, Dame 4, Cavall 3, Bube 2,
    die übrigen Tarocks 1 Auge. Die Zahlkarte jeder Farbe zählt nichts.\""""
    return sum(POINTS.get(c, 1 if SUIT[c] == "T" else 0) for c in cards)


def oracle_legal(hand: Sequence[Card], trick: Sequence[Card], trump: str) -> set[Card]:
    """Follow suit; else a trump; a trump played while a trump lies in the trick
    must beat it if able (``trump`` is "T" for tarocks, else the Faberl suit)."""
    if not trick:
        return set(hand)
    led = SUIT[trick[0]]
    allowed = [c for c in hand if SUIT[c] == led]
    if not allowed:
        allowed = [c for c in hand if SUIT[c] == trump] or list(hand)
    if allowed and all(SUIT[c] == trump for c in allowed):
        top = [HEIGHT[c] for c in trick if SUIT[c] == trump]
        if top:
            allowed = [c for c in allowed if HEIGHT[c] > max(top)] or allowed
    return set(allowed)


def oracle_winner(cards: Sequence[Card], trump: str) -> int:
    if trump == "T" and set(cards) >= TRULL:
        return list(cards).index(PAGAT)
    pool = [i for i, c in enumerate(cards) if SUIT[c] == trump]
    pool = pool or [i for i, c in enumerate(cards) if SUIT[c] == SUIT[cards[0]]]
    return max(pool, key=lambda i: HEIGHT[cards[i]])


def trump_of(state: HandState) -> str:
    assert state.contract is not None
    return state.contract.trump or "T"


def held_pagat(state: HandState, seat: int) -> bool:
    return state.variant == "tarock40-online" and any(
        a.name == "pagat" and a.seat == seat for a in state.announcements)


def pick(legal: Sequence[Action], rng: random.Random) -> Action:
    """A random legal action: first a kind (pass, each contract, announce,
    Kontra, a card ...) uniformly, then one of that kind, so short auctions
    and passed-out deals come up as often as long ones."""
    kinds: dict[str, list[Action]] = {}
    for action in legal:
        kind = action.type + (action.contract if isinstance(action, Bid) else "")
        kinds.setdefault(kind, []).append(action)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def play_checked(hand: Hand, rng: random.Random) -> Hand:
    """Play by random legal actions, checking every card against the oracles."""
    while not hand.done:
        state = hand.state
        seat = state.to_move
        assert seat is not None
        legal = hand.legal(seat)
        assert legal and all(a.seat == seat for a in legal)
        if state.phase == "play":
            assert state.trick is not None
            want = oracle_legal(state.hands[seat], state.trick.cards, trump_of(state))
            if held_pagat(state, seat) and PAGAT in want and len(want) > 1:
                want.discard(PAGAT)
            assert {a.card for a in legal if isinstance(a, Play)} == want
        done = len(state.tricks)
        hand.apply(pick(legal, rng))
        if len(hand.state.tricks) > done:
            trick = hand.state.tricks[-1]
            assert trick.winner == trick.seats[oracle_winner(trick.cards, trump_of(hand.state))]
    return hand


def check_finished(hand: Hand) -> None:
    state = hand.state
    result = state.result
    assert result is not None and sum(result.settlement) == 0
    again = replayed(hand)
    assert again.state.result == result and again.state.actions == state.actions
    if not result.declarers:
        assert state.variant == "tarock40" and state.tricks == []
        assert [type(a) for a in state.actions] == [Pass] * 4
        return
    assert len(state.tricks) == 10 and all(len(t.cards) == 4 for t in state.tricks)
    assert Counter(c for t in state.tricks for c in t.cards) == Counter(DECK40)
    party = state.declarer_party()
    ours = [c for t in state.tricks if t.winner in party for c in t.cards]
    theirs = [c for t in state.tricks if t.winner not in party for c in t.cards]
    assert result.points == (points(ours), points(theirs)) and sum(result.points) == 88
    assert state.contract is not None
    goal = 56 if state.contract.name.endswith("absolut") else 45
    assert result.won == (result.points[0] >= goal)
    amount = (result.game + sum(p.value for p in result.premiums)) * result.factor
    declarer = state.declarer
    assert declarer is not None
    if state.partner is None:
        assert result.settlement[declarer] == 3 * amount
    else:
        assert state.contract.name == "rufspiel" and state.partner != declarer
        assert result.settlement[declarer] == result.settlement[state.partner] == amount
    for seat in range(4):
        if seat not in party:
            assert result.settlement[seat] == -amount
    if state.variant == "tarock40-online":
        bidding = [a for a in state.actions if not isinstance(a, Play)]
        if state.contract.trump is not None:
            bidding = bidding[:-1]
        assert isinstance(bidding[0], Bid) and bidding[0].seat == state.forehand
        assert [type(a) for a in bidding[-3:]] == [Pass] * 3
        assert not any(isinstance(a, Pass) for a in bidding[-4:-3])


@pytest.mark.parametrize("variant", ["tarock40", "tarock40-online"])
def test_random_hands(variant: str) -> None:
    rng = random.Random(f"props-{variant}")
    rules = rules40(variant)
    seen: Counter[str] = Counter()
    for n in range(HANDS):
        hands, talon = deal(rules, rng)
        hand = play_checked(Hand(rules, n % 4, hands, talon), rng)
        check_finished(hand)
        state = hand.state
        seen[state.contract.name if state.contract else "passed out"] += 1
        if state.result is not None:
            seen.update(p.name for p in state.result.premiums)
    games = {"rufspiel", "faberl", "solo"}
    if variant == "tarock40":
        games |= {"passed out", "faberl-absolut", "solo-absolut", "solo-pagat"}
    assert games <= set(seen), seen
    assert {"trull", "kings", "valat"} <= set(seen), seen


def test_observations_hide_the_other_hands() -> None:
    hand = random_hand("tarock40", 11)
    for seat in range(4):
        obs = observe(hand, seat)
        assert obs.hand == () and obs.result == hand.state.result
    rules = rules40()
    fresh = Hand(rules, 0, *deal(rules, random.Random(2)))
    for seat in range(4):
        assert sorted(observe(fresh, seat).hand) == sorted(fresh.state.hands[seat])
        assert observe(fresh, seat).hand_sizes == (10, 10, 10, 10)
