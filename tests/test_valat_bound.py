"""The Valat check answers a hand it proves lost in every deal without playing
(core.valatbound): such a hand must lose every distribution the play-out
could be given, and the check's verdict must be the one the full play-out
gives, figure for figure, so refusals and replays stay as they were."""

from __future__ import annotations

import random

from test_valat_bits import RULES, random_deals, strong_hand, trump_for

from tarock.core.cards import DECK40, SUIT_OF, TAROCK, Card, Suit
from tarock.core.contracts import TrickRules
from tarock.core.valat import MAX_FAILURES, SEATS, judge, play_deals, simulate, valat_verdict
from tarock.core.valatbits import compile_play
from tarock.core.valatbound import DealBound, always_lost


def mixed_hand(rng: random.Random, trump: Suit) -> list[Card]:
    """The top trump and some more of the trumps' upper half, the rest at random:
    hands near the edge of what the bound can prove."""
    trumps = sorted((c for c in DECK40 if SUIT_OF[c] == trump), key=lambda c: -c if trump == TAROCK else c)
    upper = trumps[1:max(2, len(trumps) // 2)]
    chosen = {trumps[0], *rng.sample(upper, rng.randrange(0, len(upper) + 1))}
    rest = [c for c in DECK40 if c not in chosen]
    return sorted(chosen | set(rng.sample(rest, 10 - len(chosen))))


def hands(rng: random.Random, n: int) -> list[tuple[list[Card], TrickRules, Suit, int]]:
    out = []
    for i in range(n):
        rules = RULES[i % len(RULES)]
        trump = trump_for(rules, rng)
        kind = i % 3
        hand = (strong_hand(rng, trump) if kind == 0 else mixed_hand(rng, trump) if kind == 1
                else sorted(rng.sample(DECK40, 10)))
        out.append((hand, rules, trump, rng.randrange(SEATS)))
    return out


def proved(hand: list[Card], rules: TrickRules, trump: Suit, position: int) -> bool:
    play = compile_play(rules, trump)
    mine = play.mask(hand)
    return always_lost(play, mine, play.mask(DECK40) ^ mine, position, len(hand))


def test_a_hand_proved_lost_loses_every_deal() -> None:
    """Strong, middling and random hands, six sets of trick rules, every place
    in the first trick: a hand the bound proves lost makes none of 60 random
    deals; the bound proves many hands and leaves many to the play-out."""
    rng = random.Random(40)
    shown = left = 0
    for hand, rules, trump, position in hands(rng, 2400):
        if not proved(hand, rules, trump, position):
            left += 1
            continue
        shown += 1
        estimate = play_deals(hand, rules, trump, position, random_deals(rng, hand, 60))
        assert estimate.made == 0, (hand, rules, trump, position)
    print(shown, left)
    assert shown > 600 and left > 300, (shown, left)


def test_the_verdict_is_the_full_play_out_judged() -> None:
    """The check's verdict, proved or played, is the seeded play-out's verdict
    (deals played, made, why it stopped) for hands holding the top trump."""
    rng = random.Random(41)
    allowed = by_proof = 0
    for hand, rules, trump, position in hands(rng, 450):
        verdict = valat_verdict(hand, rules, trump, position)
        assert verdict is not None
        if verdict.deals == 0:
            continue
        expected = judge(simulate(hand, rules, trump, position, stop_after=MAX_FAILURES + 1), trump, position)
        assert verdict == expected, (hand, rules, trump, position)
        allowed += verdict.allowed
        by_proof += proved(hand, rules, trump, position)
    print(allowed, by_proof)
    assert allowed >= 3 and by_proof >= 50, (allowed, by_proof)


def test_a_deal_proved_lost_is_lost() -> None:
    """The bound for one distribution: every deal it proves lost, the play-out loses;
    it proves many, and leaves many of those the play-out makes or loses."""
    rng = random.Random(42)
    shown = left = 0
    for hand, rules, trump, position in hands(rng, 1500):
        play = compile_play(rules, trump)
        mine = play.mask(hand)
        bound = DealBound(play, mine, position, len(hand))
        for others in random_deals(rng, hand, 4):
            rest = [play.mask(o) for o in others]
            masks = [rest.pop(0) if seat != position else mine for seat in range(SEATS)]
            orders = [list(others[k - (k > position)]) if k != position else hand for k in range(SEATS)]
            if bound.lost([m for seat, m in enumerate(masks) if seat != position]):
                shown += 1
                assert not play.play_out(masks, orders, position), (hand, rules, trump, position, others)
            else:
                left += 1
    print(shown, left)
    assert shown > 1500 and left > 500, (shown, left)
