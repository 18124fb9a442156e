"""Invariants over thousands of random legal hands of ``tarock54``.

Hands are dealt and played by random choices among the legal actions: by
Hypothesis (which can shrink a failure to a short example) and by a plain
seeded loop.  Every hand is checked step by step and at the end against
independent oracles written from the source text of docs/rules.md §12: the legal cards (Farbzwang,
Tarockzwang, Stichzwang), the trick winner, the card to call, the discard
restrictions, the Kontra chain, counting in groups of three, the premiums and
the per-opponent zero-sum settlement; and its record must replay to the
identical state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest
from helpers54 import points_by_groups, replayed, rules54, won_cards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from line_items import Line, lines

from tarock.core.actions import Action, Call, Discard, Kontra, Pass, Play
from tarock.core.cards import DECK54, Card, parse_card
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.rules import Rules
from tarock.core.state import HandState

Choose = Callable[[list[Action]], Action]

# -- oracles, written from the rule text without the engine's helpers ------------------

_ORDER = {
    "T": "Sküs XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI X IX VIII VII VI V IV III II I",
    "c": "cK cQ cC cJ c10 c9 c8 c7",
    "s": "sK sQ sC sJ s10 s9 s8 s7",
    "h": "hK hQ hC hJ h1 h2 h3 h4",
    "d": "dK dQ dC dJ d1 d2 d3 d4",
}
SUIT: dict[Card, str] = {}
HEIGHT: dict[Card, int] = {}
"""Height within the card's suit: larger beats smaller."""
for _suit, _names in _ORDER.items():
    for _pos, _name in enumerate(reversed(_names.split())):
        SUIT[parse_card(_name)] = _suit
        HEIGHT[parse_card(_name)] = _pos
KINGS = {parse_card(n) for n in ("cK", "sK", "hK", "dK")}
TRULL = {parse_card(n) for n in ("I", "XXI", "Sküs")}
PAGAT = parse_card("I")
CALL_ORDER = [parse_card(n) for n in _ORDER["T"].split()[2:]]  # XX down to I


def oracle_legal(hand: Sequence[Card], trick: Sequence[Card]) -> set[Card]:
    """Farbzwang, then Tarockzwang, then Stichzwang when a tarock lies in the trick."""
    if not trick:
        return set(hand)
    led = SUIT[trick[0]]
    allowed = [c for c in hand if SUIT[c] == led]
    if not allowed:
        allowed = [c for c in hand if SUIT[c] == "T"] or list(hand)
    in_trick = [HEIGHT[c] for c in trick if SUIT[c] == "T"]
    if in_trick and all(SUIT[c] == "T" for c in allowed):
        higher = [c for c in allowed if HEIGHT[c] > max(in_trick)]
        allowed = higher or allowed
    return set(allowed)


def oracle_winner(cards: Sequence[Card]) -> int:
    """The highest tarock, else the highest card of the led suit."""
    tarocks = [i for i, c in enumerate(cards) if SUIT[c] == "T"]
    pool = tarocks or [i for i, c in enumerate(cards) if SUIT[c] == SUIT[cards[0]]]
    return max(pool, key=lambda i: HEIGHT[cards[i]])


def oracle_call(hand: Sequence[Card]) -> Card:
    return next(c for c in CALL_ORDER if c not in hand)


# -- checks ----------------------------------------------------------------------------

def everywhere(state: HandState) -> list[Card]:
    """Every card where it lies now: hands, talon, current trick, tricks, discards."""
    out = [c for h in state.hands for c in h] + [c for p in state.talon for c in p]
    out += [c for t in state.tricks for c in t.cards] + list(state.discards)
    if state.trick is not None:
        out += state.trick.cards
    return out


def check_step(hand: Hand, legal: list[Action]) -> None:
    """Invariants before each action."""
    state = hand.state
    assert Counter(everywhere(state)) == Counter(DECK54), "a card was lost or doubled"
    seat = state.to_move
    assert seat is not None and legal
    assert all(a.seat == seat for a in legal)
    assert hand.legal((seat + 1) % 4) == []
    if state.phase == "bidding":
        assert set(legal) == {Pass(seat), Call(seat, oracle_call(state.hands[seat]))}
    elif state.phase == "play":
        assert state.trick is not None
        plays = {a.card for a in legal if isinstance(a, Play)}
        assert len(plays) == len(legal)
        assert plays == oracle_legal(state.hands[seat], state.trick.cards)
    elif state.phase == "kontra":
        assert Pass(seat) in legal
        if state.kontra_level == 0 and seat == state.partner:
            assert legal == [Pass(seat)]


def play_checked(hand: Hand, choose: Choose) -> Hand:
    """Play to the end with ``choose``, checking the invariants at every step."""
    while not hand.done:
        legal = hand.legal(hand.state.to_move if hand.state.to_move is not None else -1)
        check_step(hand, legal)
        action = choose(legal)
        assert hand.why_not(action) is None
        hand.apply(action)
        if hand.state.phase == "play" and not hand.state.tricks and hand.state.trick is not None \
                and not hand.state.trick.cards:
            check_secret_partner(hand)
    check_finished(hand)
    return hand


def check_secret_partner(hand: Hand) -> None:
    """Before the first trick nobody but the partner sees the partnership."""
    state = hand.state
    for seat in range(4):
        seen = observe(hand, seat).partner
        assert seen == (state.partner if seat == state.partner else None)


def check_kontra(state: HandState, actions: Sequence[Action]) -> None:
    """The Kontra round: opponents from the forehand, then Rufer and Kontra-giver alternate;
    the partner only passes; a pass after a Kontra, or Re-Sub, ends it."""
    assert state.declarer is not None
    order = [(state.forehand + i) % 4 for i in range(4)]
    order = [s for s in order if s != state.declarer]
    level, asked, giver = 0, 0, -1
    expected: int | None = order[0]
    for action in actions:
        assert action.seat == expected
        if isinstance(action, Kontra):
            assert not (level == 0 and action.seat == state.partner)
            level += 1
            giver = action.seat if level == 1 else giver
            expected = None if level == 4 else state.declarer if level % 2 else giver
        else:
            assert isinstance(action, Pass)
            if level:
                expected = None
            else:
                asked += 1
                expected = order[asked] if asked < len(order) else None
    assert expected is None
    assert state.kontra_level == level


def check_finished(hand: Hand) -> None:
    """The whole hand against the oracles, and its replay."""
    state = hand.state
    result = state.result
    assert result is not None
    assert sum(result.settlement) == 0
    dealt, talon = hand.deal
    if state.declarer is None:
        assert len(state.actions) == 4 and all(isinstance(a, Pass) for a in state.actions)
        assert result.settlement == (0, 0, 0, 0) and result.declarers == () and result.items == ()
        assert state.passed_out and result.passed_out
        assert [a.seat for a in state.actions] == [(state.dealer + 1 + i) % 4 for i in range(4)]
        return
    declarer = state.declarer
    call = next(a for a in state.actions if isinstance(a, Call))
    passes = state.actions[:state.actions.index(call)]
    assert [a.seat for a in [*passes, call]] == [(state.dealer + 1 + i) % 4 for i in range(len(passes) + 1)]
    assert call.card == oracle_call(dealt[declarer])
    holder = next((s for s in range(4) if call.card in dealt[s]), None)
    assert state.partner == holder
    assert result.declarers == tuple(sorted({declarer} | ({holder} if holder is not None else set())))

    # Talon and discard.
    assert state.talon == [[], talon[1]]
    discard = next(a for a in state.actions if isinstance(a, Discard))
    assert Counter(state.discards) == Counter(discard.cards) and len(state.discards) == 3
    taken = dealt[declarer] + talon[0]
    assert not (set(discard.cards) & (KINGS | TRULL))
    plain = [c for c in taken if SUIT[c] != "T" and c not in KINGS]
    if any(SUIT[c] == "T" for c in discard.cards):
        assert len(plain) < 3 and set(plain) <= set(discard.cards)

    # Kontra.
    after = state.actions[state.actions.index(discard) + 1:]
    chain = [a for a in after if not isinstance(a, Play)]
    assert after[len(chain):] == [a for a in after if isinstance(a, Play)]
    if state.options["kontra"]:
        check_kontra(state, chain)
    else:
        assert chain == [] and state.kontra_level == 0

    # Tricks.
    assert len(state.tricks) == 12
    leader = state.forehand
    for trick in state.tricks:
        assert trick.leader == leader
        assert trick.seats == [(leader + i) % 4 for i in range(4)]
        assert trick.winner == trick.seats[oracle_winner(trick.cards)]
        leader = trick.winner
    assert all(h == [] for h in state.hands)
    assert state.partner_known == (call.card not in talon[1])  # it was played
    for seat in range(4):
        assert observe(hand, seat).partner == state.partner

    # Counting and settlement.
    ours, theirs = won_cards(state)
    assert len(ours) + len(theirs) == 54
    mine, other = points_by_groups(ours), points_by_groups(theirs)
    assert mine + other == 70
    assert result.points == (3 * mine, 3 * other)
    game = 1 if mine >= 36 else 0 if mine == 35 else -1
    assert not result.passed_out
    assert result.won == {1: True, 0: None, -1: False}[game]
    party = state.declarer_party()
    premiums: list[tuple[str, int]] = []
    last = state.tricks[-1]
    if PAGAT in last.cards and last.winner == last.seats[last.cards.index(PAGAT)]:
        premiums.append(("pagat-ultimo", 1 if last.winner in party else -1))
    sides = {t.winner in party for t in state.tricks}
    if len(sides) == 1:
        premiums.append(("valat", 12 if True in sides else -12))
    # "Wer Kontra sagt, verdoppelt den Spielwert samt allen Prämien": one level on every item
    level = sum(isinstance(a, Kontra) for a in state.actions)
    factor = 2 ** level
    items = lines(result)
    assert items[0] == Line("game", "declarers", result.won, game * factor, kontra=level)
    assert sorted(items[1:]) == sorted(
        Line(name, "declarers" if value > 0 else "opponents", True, value * factor, kontra=level)
        for name, value in premiums)
    amount = (game + sum(v for _, v in premiums)) * factor
    expected = [-amount] * 4
    for seat in party:
        expected[seat] = amount if holder is not None else 3 * amount
    assert result.settlement == tuple(expected)

    # Replay through a JSON record gives the identical hand.
    again = replayed(hand, same_rules=len(state.actions) % 8 != 0)
    assert again.state == state
    assert again.state.result == result


# -- the tests -------------------------------------------------------------------------

_RULES: dict[bool, Rules] = {}


def rules_for(kontra: bool) -> Rules:
    if kontra not in _RULES:
        _RULES[kontra] = rules54({"kontra": kontra})
    return _RULES[kontra]


def deal_from(order: Sequence[Card]) -> tuple[list[list[Card]], list[list[Card]]]:
    return [list(order[i * 12:(i + 1) * 12]) for i in range(4)], [list(order[48:51]), list(order[51:])]


@settings(max_examples=800, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(order=st.permutations(DECK54), dealer=st.integers(0, 3), kontra=st.booleans(), data=st.data())
def test_random_hands_hypothesis(order: list[Card], dealer: int, kontra: bool, data: st.DataObject) -> None:
    hands, talon = deal_from(order)
    hand = Hand(rules_for(kontra), dealer, hands, talon)

    def choose(legal: list[Action]) -> Action:
        return legal[data.draw(st.integers(0, len(legal) - 1))]

    play_checked(hand, choose)


def _seeded_hand(seed: int) -> Hand:
    rng = random.Random(seed)
    order = list(DECK54)
    rng.shuffle(order)
    hands, talon = deal_from(order)
    hand = Hand(rules_for(seed % 5 != 0), seed % 4, hands, talon)

    def choose(legal: list[Action]) -> Action:
        calls = [a for a in legal if isinstance(a, Call)]
        if calls and rng.random() < 0.3:  # call more often: most hands are played out
            return calls[0]
        return rng.choice(legal)

    return play_checked(hand, choose)


@pytest.mark.parametrize("block", range(10))
def test_random_hands_seeded(block: int) -> None:
    """2000 hands in ten blocks of seeded random play."""
    results: Counter[str] = Counter()
    for seed in range(block * 200, (block + 1) * 200):
        try:
            hand = _seeded_hand(seed)
        except AssertionError as exc:
            raise AssertionError(f"seed {seed}: {exc}") from exc
        result = hand.state.result
        assert result is not None
        results["played" if result.declarers else "passed"] += 1
    assert results["played"] > 150


def test_the_random_hands_cover_the_rules() -> None:
    """The seeded hands reach every outcome the invariants speak about."""
    seen: Counter[str] = Counter()
    for seed in range(2000):
        rng = random.Random(seed)
        order = list(DECK54)
        rng.shuffle(order)
        hands, talon = deal_from(order)
        hand = Hand(rules_for(True), seed % 4, hands, talon)
        while not hand.done:
            hand.apply(rng.choice(hand.legal(hand.state.to_move or 0)))
        result = hand.state.result
        assert result is not None
        if result.passed_out:
            seen["passed out"] += 1
            continue
        seen["alone" if len(result.declarers) == 1 else "two"] += 1
        seen[{True: "won", False: "lost", None: "draw"}[result.won]] += 1
        seen[f"factor {2 ** result.game_items[0].kontra}"] += 1
        for premium in result.premium_items:
            seen[f"{premium.name} {'+' if premium.amount > 0 else '-'}"] += 1
        if any(c < 22 for c in hand.state.discards):
            seen["tarock discarded"] += 1
    for key in ("passed out", "alone", "two", "won", "lost", "draw", "factor 1", "factor 2",
                "factor 4", "factor 8", "factor 16", "pagat-ultimo +", "pagat-ultimo -"):
        assert seen[key] > 0, f"no random hand with {key}: {dict(seen)}"
