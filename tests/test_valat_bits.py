"""The Valat check plays on bit sets (core.valatbits); the play-out first
written on lists of cards (tests/valat_reference.py) is the reference it
must agree with, deal for deal and verdict for verdict: the same deals made
or lost (each choice and each tie as before), so the counts a refusal
shows and every replay stay as they were."""

from __future__ import annotations

import random
from collections.abc import Iterator

from valat_reference import SEATS, _Game, _leader_outranks_a_suit, _makes_valat, _opponents_can_win

from tarock.core.cards import DECK40, SUIT_OF, TAROCK, Card, Suit, format_cards
from tarock.core.contracts import TrickRules
from tarock.core.valat import (
    DEALS,
    MAX_FAILURES,
    SOLO,
    ValatEstimate,
    _tally,
    play_deals,
    valat_verdict,
)
from tarock.core.valatbits import compile_play

RULES = (SOLO, TrickRules("suit", overtrump=True), TrickRules("suit", overtrump=True, xx_high=True),
         TrickRules(must_win=True, pagat_last=True), TrickRules(trull_trick=True, pagat_last=True),
         TrickRules("suit", must_win=True, pagat_last=True))
"""The trick rules of the 40-card Solo and Faberl (both card orders), and
Stichzwang, Pagat last and Kaiserstich without overtrump, for the rules the
check does not meet in the variants yet."""


def trump_for(rules: TrickRules, rng: random.Random) -> Suit:
    return TAROCK if rules.trump == "tarock" else rng.randrange(TAROCK)


def strong_hand(rng: random.Random, trump: Suit) -> list[Card]:
    """Ten cards heavy in trumps and Kings: hands that play many tricks, so
    the play-out runs deep and often to the end."""
    trumps = sorted((c for c in DECK40 if SUIT_OF[c] == trump), key=lambda c: -c if trump == TAROCK else c)
    top = trumps[:rng.randrange(min(6, len(trumps) - 1), min(10, len(trumps) + 1))]
    rest = [c for c in DECK40 if c not in top]
    rng.shuffle(rest)
    kings = [c for c in rest if c >= 22 and (c - 22) % 8 == 0][:rng.randrange(0, min(4, 11 - len(top)))]
    extra = [c for c in rest if c not in kings]
    return sorted(set(top + kings + extra[:10 - len(top) - len(kings)]))


def reference_estimate(hand: list[Card], rules: TrickRules, trump: Suit, position: int,
                       deals: list[list[list[Card]]], stop_after: int | None) -> ValatEstimate:
    """``play_deals`` with the reference play-out (counted as play_deals counts, stopping where it stops)."""
    game = _Game(rules, trump)

    def outcomes() -> Iterator[bool]:
        for others in deals:
            rest = [list(o) for o in others]
            hands = [rest.pop(0) if seat != position else list(hand) for seat in range(SEATS)]
            yield _makes_valat(game, hands, position)

    return _tally(outcomes(), stop_after)


def random_deals(rng: random.Random, hand: list[Card], n: int) -> list[list[list[Card]]]:
    unseen = [c for c in DECK40 if c not in hand]
    out = []
    for _ in range(n):
        rng.shuffle(unseen)
        out.append([unseen[k * 10:(k + 1) * 10] for k in range(SEATS - 1)])
    return out


def test_every_deal_is_played_as_the_reference_plays_it() -> None:
    """Random and strong hands, every place in the first trick, six sets of
    trick rules: each deal made or lost as the reference says."""
    rng = random.Random(22)
    made = lost = 0
    for i in range(3000):
        rules = RULES[i % len(RULES)]
        trump = trump_for(rules, rng)
        hand = strong_hand(rng, trump) if i % 3 else sorted(rng.sample(DECK40, 10))
        position = rng.randrange(SEATS) if i % 2 else 0
        deals = random_deals(rng, hand, 2)
        expected = reference_estimate(hand, rules, trump, position, deals, None)
        assert play_deals(hand, rules, trump, position, deals) == expected, (hand, rules, trump, position)
        made += expected.made
        lost += expected.deals - expected.made
    print(made, lost)
    assert made > 600 and lost > 600


def test_the_verdicts_are_the_reference_verdicts() -> None:
    """Full checks (200 seeded deals, stopping at the third lost one) of
    strong hands: deals played and made and why the check stopped, as the
    reference finds them."""
    rng = random.Random(2022)
    allowed = 0
    for i in range(40):
        rules = RULES[i % 3]
        trump = trump_for(rules, rng)
        hand = strong_hand(rng, trump)
        position = rng.randrange(SEATS)
        verdict = valat_verdict(hand, rules, trump, position)
        assert verdict is not None
        if verdict.deals == 0:
            continue
        seed = random.Random(f"valat|{' '.join(format_cards(hand))}"
                             f"|{trump}|{position}|{rules.xx_high}")
        unseen = [c for c in DECK40 if c not in hand]
        deals = []
        for _ in range(DEALS):
            seed.shuffle(unseen)
            deals.append([unseen[k * 10:(k + 1) * 10] for k in range(SEATS - 1)])
        expected = reference_estimate(hand, rules, trump, position, deals, MAX_FAILURES + 1)
        assert (verdict.deals, verdict.made, verdict.stopped) == (expected.deals, expected.made,
                                                                  expected.stopped), hand
        allowed += verdict.allowed
    assert allowed >= 3


def test_the_first_trick_search_is_the_reference_search() -> None:
    """Whether the opponents can take the first trick, for random and strong
    hands: the pruned search on bit sets answers as the full search on lists,
    and the shortcut as the shortcut."""
    rng = random.Random(7)
    taken = 0
    for i in range(1500):
        rules = RULES[i % len(RULES)]
        trump = trump_for(rules, rng)
        me = rng.randrange(1, SEATS)
        mine = strong_hand(rng, trump) if i % 2 else sorted(rng.sample(DECK40, 10))
        deck = [c for c in DECK40 if c not in mine]
        rng.shuffle(deck)
        hands = [deck[k * 10:(k + 1) * 10] for k in range(SEATS - 1)]
        hands.insert(me, mine)
        game, play = _Game(rules, trump), compile_play(rules, trump)
        masks = [play.mask(h) for h in hands]
        expected = _opponents_can_win(game, hands, tuple(range(SEATS)), me, [], 0)
        assert play._opponents_can_win(masks, me, [], 0) == expected
        assert play._leader_outranks_a_suit(masks[0], masks[me]) == _leader_outranks_a_suit(game, hands, me)
        taken += expected
    assert taken > 300 and 1500 - taken > 100


def test_the_check_shuffles_as_random_does() -> None:
    """The check's own shuffle draws as ``random.Random.shuffle`` (the seeded
    deals of every recorded check depend on it)."""
    from tarock.core.valat import shuffle

    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        a = list(range(seed % 40))
        b = list(a)
        for _ in range(3):
            shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b
        assert ours.random() == theirs.random()
