"""The Valat check's short cuts change no verdict (docs/rules.md §11.2).

The check (core.valat) skips deals a bound proves lost (core.valatbound) and
``tarock40`` asks it only of the suits whose top trump the hand holds
(variants/tarock40_valat.py).  The reference here plays the seeded sample of
the check deal by deal with the full play-out and no bound, stopping at the
third lost deal, and takes the best verdict over all four suits in a Faberl:
on random hands (hypothesis) the fast verdict must be that one, figure for
figure, and a deal the bound proves lost must be lost when played."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_valat_bits import RULES

from tarock.core.cards import DECK40, SUIT_OF, TAROCK, Card, Suit, format_card
from tarock.core.contracts import TrickRules
from tarock.core.state import ALLOW, HandState
from tarock.core.valat import (
    DEALS,
    MAX_FAILURES,
    SEATS,
    SOLO,
    ValatVerdict,
    _after_first_trick,
    checkable,
    choose_verdict,
    judge,
    play_deals,
    shuffle,
)
from tarock.core.valatbits import compile_play
from tarock.core.valatbound import DealBound
from tarock.variants.tarock40 import FABERL, contracts
from tarock.variants.tarock40 import SOLO as SOLO_GAME
from tarock.variants.tarock40_valat import own_strength, own_valat, valat_refusal

FABERL_RULES = TrickRules("suit", overtrump=True)
FABERL_XX_HIGH = TrickRules("suit", overtrump=True, xx_high=True)
SETTINGS = settings(max_examples=300, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


def sample(hand: Sequence[Card], rules: TrickRules, trump: Suit, position: int) -> Iterator[list[list[Card]]]:
    """The check's seeded distributions (core.valat.simulate), drawn as it draws them."""
    mine = sorted(hand)
    unseen = [c for c in DECK40 if c not in mine]
    names = " ".join(format_card(c) for c in mine)
    rng = random.Random(f"valat|{names}|{trump}|{position}|{rules.xx_high}")
    size = len(mine)
    for _ in range(DEALS):
        shuffle(rng, unseen)
        yield [unseen[k * size:(k + 1) * size] for k in range(SEATS - 1)]


def reference(hand: Sequence[Card], rules: TrickRules, trump: Suit, position: int) -> ValatVerdict:
    """The verdict of the plain play-out of the sample, no deal skipped; without the top
    trump no deal is played."""
    play = compile_play(rules, trump)
    top = play.card[play.trump_mask.bit_length() - 1]
    if top not in hand:
        return ValatVerdict(False, 0, 0, "top-trump", trump, position)
    estimate = play_deals(hand, rules, trump, position, sample(hand, rules, trump, position),
                          stop_after=MAX_FAILURES + 1)
    return judge(estimate, trump, position)


def reference_own(hand: Sequence[Card], rules: TrickRules, position: int) -> ValatVerdict:
    """A Solo's verdict, or the best of the four suits' in a Faberl."""
    if rules.trump != "suit":
        return reference(hand, rules, TAROCK, position)
    return choose_verdict([reference(hand, rules, suit, position) for suit in range(TAROCK)], every=False)


def strong(draw: st.DrawFn, trump: Suit) -> list[Card]:
    """Several of the highest trumps, the rest at random: hands the bounds cannot settle
    at once, whose sample is played for many deals."""
    trumps = sorted((c for c in DECK40 if SUIT_OF[c] == trump), key=lambda c: -c if trump == TAROCK else c)
    top = trumps[:draw(st.integers(2, min(8, len(trumps))))]
    rest = [c for c in DECK40 if c not in top]
    return sorted(top + draw(st.permutations(rest))[:10 - len(top)])


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[Card], TrickRules, int]:
    rules = draw(st.sampled_from((SOLO, FABERL_RULES, FABERL_XX_HIGH)))
    if draw(st.booleans()):
        hand = sorted(draw(st.permutations(DECK40))[:10])
    else:
        hand = strong(draw, TAROCK if rules.trump == "tarock" else draw(st.integers(0, TAROCK - 1)))
    return hand, rules, draw(st.integers(0, SEATS - 1))


@SETTINGS
@given(case=hands())
def test_the_own_strength_verdict_is_the_plain_play_out(case: tuple[list[Card], TrickRules, int]) -> None:
    """docs/rules.md §11.2: tarock40's verdict on a Solo or a Faberl hand is the plain
    play-out's, deals played and made included (they are in the refusal's text)."""
    hand, rules, position = case
    expected = reference_own(hand, rules, position)
    got = own_strength(tuple(hand), rules, position)
    assert got is not None
    assert (got.allowed, got.deals, got.made, got.stopped) == (
        expected.allowed, expected.deals, expected.made, expected.stopped), (hand, rules, position)


@settings(max_examples=60, derandomize=True, deadline=None, database=None)
@given(order=st.permutations(DECK40), dealer=st.integers(0, 3), seat=st.integers(0, 3),
       faberl=st.booleans())
def test_the_rules_answer_is_the_refusal_of_that_verdict(order: list[Card], dealer: int, seat: int,
                                                        faberl: bool) -> None:
    """docs/rules.md §11.2: the answer tarock40 gives the auction, asked twice (the second
    time remembered), is the refusal of the plain play-out's verdict, or allowed."""
    state = HandState("tarock40", {}, 4, dealer, [sorted(order[k * 10:(k + 1) * 10]) for k in range(4)], [])
    spec = next(c for c in contracts(True, False) if c.name == (FABERL if faberl else SOLO_GAME))
    position = (seat - state.forehand) % 4
    expected = reference_own(state.hands[seat], spec.tricks, position)
    answer = ALLOW if expected.allowed else valat_refusal("valat-not-own-strength", expected)
    assert own_valat(state, seat, spec) == answer
    assert own_valat(state, seat, spec) == answer


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[Card], TrickRules, Suit, int, list[list[Card]]]:
    rules = draw(st.sampled_from(RULES))
    trump = TAROCK if rules.trump == "tarock" else draw(st.integers(0, TAROCK - 1))
    hand = sorted(draw(st.permutations(DECK40))[:10]) if draw(st.booleans()) else strong(draw, trump)
    unseen = draw(st.permutations([c for c in DECK40 if c not in hand]))
    others = [unseen[k * 10:(k + 1) * 10] for k in range(3)]
    return hand, rules, trump, draw(st.integers(0, SEATS - 1)), others


@settings(max_examples=1000, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=deals())
def test_a_deal_the_bound_proves_lost_is_lost(
        case: tuple[list[Card], TrickRules, Suit, int, list[list[Card]]]) -> None:
    """Every deal DealBound proves lost, the play-out loses: the bound only skips deals."""
    hand, rules, trump, position, others = case
    assert checkable(rules, trump)
    play = compile_play(rules, trump)
    mine = play.mask(hand)
    rest = list(others)
    orders = [rest.pop(0) if seat != position else hand for seat in range(SEATS)]
    masks = [play.mask(o) for o in orders]
    bound = DealBound(play, mine, position, len(hand))
    if bound.lost([m for seat, m in enumerate(masks) if seat != position]):
        assert not play.play_out(masks, orders, position), (hand, rules, trump, position, others)


@settings(max_examples=1000, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=deals())
def test_the_play_out_after_the_first_trick_answers_as_the_play_out(
        case: tuple[list[Card], TrickRules, Suit, int, list[list[Card]]]) -> None:
    """docs/rules.md §11.2: a declarer who does not lead, the first trick found before the
    search whether the opponents can take it, and the rest left unplayed where the bound
    proves it lost: the same answer as the play-out, deal for deal."""
    hand, rules, trump, position, others = case
    position = position or 1
    play = compile_play(rules, trump)
    rest = list(others)
    orders = [rest.pop(0) if seat != position else hand for seat in range(SEATS)]
    expected = play.play_out([play.mask(o) for o in orders], orders, position)
    assert _after_first_trick(play, [play.mask(o) for o in orders], orders, position, len(hand)) == expected
