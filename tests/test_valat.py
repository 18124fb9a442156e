"""Valat aus eigener Kraft (core.valat): the check the 40-card rules ask of a
Solo or Faberl declarer and the bots ask of every Valat they announce.

docs/rules.md §11.2: "Beim Solo und Faberl darf ein Valat nur angesagt werden, wenn das
Blatt ihn aus eigener Kraft gewinnt ... Die App spielt dein Blatt dazu gegen
viele Verteilungen durch und lässt den Valat zu, wenn er praktisch immer
gelingt."  Our reading there: 200 deals, at least 99 %.  The answer is a
verdict with the deals played and made and the 95 % Wilson interval of the
success rate (issue 11: "its answer carries the sample count and a
confidence interval").
"""

from __future__ import annotations

import math

import pytest

from tarock.core.cards import DECK40, DECK54, HEARTS, TAROCK, Card, parse_cards
from tarock.core.contracts import TrickRules
from tarock.core.valat import (
    DEALS,
    SOLO,
    STOPPED_FAILURES,
    STOPPED_TOP_TRUMP,
    checkable,
    play_deals,
    simulate,
    valat_on_own,
    valat_on_own_any_suit,
    valat_verdict,
    valat_verdict_any_suit,
    valat_verdict_every_suit,
    wilson_interval,
)

STRONG = "Sküs XXI XX XIX XVIII XVII XVI V IV hK"
"""The source's example (docs/rules.md §11.2): "die sieben höchsten Tarocks, zwei kleine und ein König"."""
FABERL = TrickRules("suit", overtrump=True)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


def test_valat_check_figures() -> None:
    """docs/rules.md §11.2: allowed when it succeeds in practically all of
    them: 200 deals, at least 99 %; deterministic, so replays agree."""
    first = simulate(cards(STRONG), SOLO, TAROCK, 0)
    assert first.deals == DEALS == 200 and first.made >= 198
    assert simulate(cards(STRONG), SOLO, TAROCK, 0) == first
    assert simulate(cards(STRONG.replace("hK", "hQ")), SOLO, TAROCK, 0).made < 198


def test_the_leader_needs_less() -> None:
    """"wer nicht ausspielt, braucht dafür mehr als der Ausspieler\""""
    assert valat_on_own(cards(STRONG), SOLO, TAROCK, 0)
    assert not valat_on_own(cards(STRONG), SOLO, TAROCK, 2)


def test_faberl_needs_a_king_in_every_suit_and_the_top_trumps() -> None:
    """"beim Faberl einen König in jeder Farbe und die höchsten vier Trümpfe":
    with hearts trumps the hand makes it, with another suit named it does not."""
    hand = cards("hK hQ hC hJ cK sK dK Sküs XXI XX")
    assert valat_on_own(hand, FABERL, HEARTS, 0)
    assert not valat_on_own(hand, FABERL, 0, 0)
    assert valat_on_own_any_suit(hand, FABERL, 0)


def test_the_card_order_comes_from_the_trick_rules() -> None:
    """In a suit game the tarocks are a plain suit; with ``xx_high`` (the source
    read literally, docs/rules.md §4.5) the XX is their highest card, so XX
    and XIX win their tricks there, and lose to the Sküs and Mond otherwise."""
    hand = cards("hK hQ hC hJ h1 cK sK dK XX XIX")
    literal = TrickRules("suit", overtrump=True, xx_high=True)
    assert valat_on_own(hand, literal, HEARTS, 0)
    assert simulate(hand, literal, HEARTS, 0).made == DEALS
    assert not valat_on_own(hand, FABERL, HEARTS, 0)
    assert simulate(hand, FABERL, HEARTS, 0, stop_after=1).made == 0


def test_no_check_where_it_does_not_apply() -> None:
    """Colour games (the tarocks trump only a tarock lead) and decks with a
    talon have no check: the answer is no, and a simulation says why."""
    hand = cards(STRONG)
    assert not checkable(TrickRules("colour"), TAROCK)
    assert not checkable(SOLO, HEARTS) and not checkable(FABERL, TAROCK)
    assert not valat_on_own(hand, TrickRules("colour"), TAROCK, 0)
    assert not valat_on_own(hand, SOLO, TAROCK, 0, DECK54)
    assert not valat_on_own(hand[:9], SOLO, TAROCK, 0)
    with pytest.raises(ValueError, match="trump mode 'colour'"):
        simulate(hand, TrickRules("colour"), TAROCK)
    with pytest.raises(ValueError, match="do not deal"):
        simulate(hand, SOLO, TAROCK, deck=DECK54)
    assert len(DECK40) == 4 * len(hand)


# -- the verdict: sample count and interval --------------------------------------------------

Z = 1.959963984540054
"""The two-sided 95 % normal quantile."""


def test_wilson_interval_against_its_closed_forms_and_a_published_example() -> None:
    """At ``made == n`` the Wilson interval is [n / (n + z²), 1]; at 0 it is
    [0, z² / (n + z²)]; Newcombe (1998, Statistics in Medicine 17, Table I)
    gives 0.2553-0.3662 for 81 of 263."""
    low, high = wilson_interval(200, 200)
    assert high == 1.0 and math.isclose(low, 200 / (200 + Z * Z), rel_tol=1e-12)
    low, high = wilson_interval(0, 3)
    assert low == 0.0 and math.isclose(high, Z * Z / (3 + Z * Z), rel_tol=1e-12)
    low, high = wilson_interval(81, 263)
    assert round(low, 4) == 0.2553 and round(high, 4) == 0.3662
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="4 successes of 3"):
        wilson_interval(4, 3)


def test_a_hand_that_always_makes_it() -> None:
    """The source's Faberl example (docs/rules.md §11.2), leading ("einen König in jeder Farbe und die
    höchsten vier Trümpfe"): every one of the 200 deals is made, the interval
    reaches 1 and nothing stopped the check."""
    verdict = valat_verdict(cards("hK hQ hC hJ cK sK dK Sküs XXI XX"), FABERL, HEARTS, 0)
    assert verdict is not None
    assert (verdict.allowed, verdict.deals, verdict.made, verdict.stopped) == (True, 200, 200, "")
    assert verdict.high == 1.0 and math.isclose(verdict.low, 200 / (200 + Z * Z))
    assert verdict.summary() == ("allowed: made in 200 of 200 deals played "
                                 "(95% Wilson score interval 98.1-100.0%; needs 198 of 200)")


def test_an_early_stop_reports_what_it_played() -> None:
    """"wer nicht ausspielt, braucht dafür mehr als der Ausspieler": the
    Solo example third to play loses its first three deals; the check stops
    there and says so, with the interval of 0 of 3."""
    verdict = valat_verdict(cards(STRONG), SOLO, TAROCK, 2)
    assert verdict is not None and not verdict.allowed
    assert (verdict.deals, verdict.made, verdict.stopped) == (3, 0, STOPPED_FAILURES)
    assert verdict.interval == wilson_interval(0, 3) and verdict.low == 0.0
    assert verdict.figures() == {"made": "0", "deals": "3", "lost": "3", "low": "0.0", "high": "56.1",
                                 "needed": "198", "sample": "200"}
    assert verdict.summary().endswith("stopped after 3 lost deals")


def test_the_verdict_is_the_simulation_judged() -> None:
    """The verdict's counts are the play-out's: the seed's Solo example
    leading is allowed with what ``simulate`` finds, at the bar of 198."""
    verdict = valat_verdict(cards(STRONG), SOLO, TAROCK, 0)
    estimate = simulate(cards(STRONG), SOLO, TAROCK, 0, stop_after=3)
    assert verdict is not None and verdict.allowed
    assert (verdict.deals, verdict.made) == (estimate.deals, estimate.made) and estimate.made >= 198
    assert verdict.interval == estimate.interval


def test_without_the_top_trump_no_deal_is_played() -> None:
    """"aber nicht mit irgendeiner Farbkarte": a hand without the Sküs is
    refused at once; the verdict says no deal was played and why."""
    verdict = valat_verdict(cards("XXI XX XIX XVIII XVII XVI XV V IV hK"), SOLO, TAROCK, 0)
    assert verdict is not None and not verdict.allowed
    assert (verdict.deals, verdict.made, verdict.stopped) == (0, 0, STOPPED_TOP_TRUMP)
    assert verdict.interval == (0.0, 1.0)


def test_any_suit_takes_the_best_and_every_suit_the_worst() -> None:
    """The Faberl's declarer names the suit after the bid (the best counts);
    a hand that must make it whatever suit another names needs every suit."""
    hand = cards("hK hQ hC hJ cK sK dK Sküs XXI XX")
    best = valat_verdict_any_suit(hand, FABERL, 0)
    worst = valat_verdict_every_suit(hand, FABERL, 0)
    assert best is not None and best.allowed and best.trump == HEARTS
    assert worst is not None and not worst.allowed and worst.trump != HEARTS
    assert valat_verdict(hand, TrickRules("colour"), TAROCK, 0) is None
    assert valat_verdict_any_suit(hand, SOLO, 0) is None


OPEN_SOLO = [
    ["XV XIV XIII XII cK cQ cC cJ c10 sK", "XI X IX VIII sQ sC sJ s10 hQ hC",
     "VII VI I hJ h1 dK dQ dC dJ d1"],
    ["XV XIV XIII XII XI X IX VIII cK cQ", "VII VI I cC cJ c10 sK sQ sC sJ",
     "s10 hQ hC hJ h1 dK dQ dC dJ d1"],
]
"""Two distributions against the Solo example: the tarocks split 4-4-3
(drawn in four rounds, then the King and the small tarocks are safe), and
eight with one opponent, who has no hearts (he keeps a tarock after the
seven high ones and beats the V, IV or ruffs the King)."""


def test_given_distributions_are_played_as_given() -> None:
    """``play_deals`` plays the distributions a caller draws (a bot that
    knows more than its hand): the first deal is made, the second lost."""
    hand = cards(STRONG)
    deals = [[cards(h) for h in deal] for deal in OPEN_SOLO]
    estimate = play_deals(hand, SOLO, TAROCK, 0, deals)
    assert (estimate.deals, estimate.made, estimate.stopped) == (2, 1, "")
    stopped = play_deals(hand, SOLO, TAROCK, 0, list(reversed(deals)), stop_after=1)
    assert (stopped.deals, stopped.made, stopped.stopped) == (1, 0, STOPPED_FAILURES)
    with pytest.raises(ValueError, match="3 hands of 10 cards"):
        play_deals(hand, SOLO, TAROCK, 0, [deals[0][:2]])


def test_the_first_trick_shortcut_agrees_with_the_search() -> None:
    """Where the cheap test says the opponents take the first trick, the full
    search finds it too (the shortcut changes no verdict, only its cost)."""
    import random

    from valat_reference import SEATS, _Game, _leader_outranks_a_suit, _opponents_can_win

    from tarock.core.cards import DECK40, TAROCK
    from tarock.core.contracts import TrickRules

    rng = random.Random(11)
    hits = 0
    for i in range(600):
        rules = (TrickRules(overtrump=True, trull_trick=True), TrickRules("suit", overtrump=True),
                 TrickRules("suit", overtrump=True, xx_high=True),
                 TrickRules(must_win=True, pagat_last=True))[i % 4]
        game = _Game(rules, TAROCK if rules.trump == "tarock" else rng.randrange(TAROCK))
        deck = list(DECK40)
        rng.shuffle(deck)
        hands = [deck[k * 10:(k + 1) * 10] for k in range(SEATS)]
        me = rng.randrange(1, SEATS)
        if _leader_outranks_a_suit(game, hands, me):
            hits += 1
            assert _opponents_can_win(game, hands, tuple(range(SEATS)), me, [], 0)
    assert hits > 100
