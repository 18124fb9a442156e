"""Valat aus eigener Kraft (core.valat): the check the 40-card rules ask of a
Solo or Faberl declarer and the bots ask of every Valat they announce.

Seed 000: "Beim Solo und Faberl darf ein Valat nur angesagt werden, wenn das
Blatt ihn aus eigener Kraft gewinnt ... Die App spielt dein Blatt dazu gegen
viele Verteilungen durch und lässt den Valat zu, wenn er praktisch immer
gelingt."  RULES.md decision 8: 200 deals, at least 99 %.
"""

from __future__ import annotations

import pytest

from core.cards import DECK40, DECK54, HEARTS, TAROCK, Card, parse_cards
from core.contracts import TrickRules
from core.valat import DEALS, SOLO, checkable, simulate, valat_on_own, valat_on_own_any_suit

STRONG = "Sküs XXI XX XIX XVIII XVII XVI V IV hK"
"""Seed 000's example: "die sieben höchsten Tarocks, zwei kleine und ein König"."""
FABERL = TrickRules("suit", overtrump=True)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


def test_valat_check_figures() -> None:
    """RULES.md decision 8: "allow it when it succeeds in practically all of
    them": 200 deals, at least 99 %; deterministic, so replays agree."""
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
    """In a suit game the tarocks are a plain suit; with ``xx_high`` (seed 000
    read literally, RULES.md decision 4) the XX is their highest card, so XX
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
