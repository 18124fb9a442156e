"""Cards, the card notation, decks, values and the order within a suit.

docs/rules.md §2 ("Die Karten").
"""

from __future__ import annotations

import pytest

from tarock.core.cards import (
    CLUBS,
    DECK40,
    DECK54,
    DIAMONDS,
    HEARTS,
    MOND,
    PAGAT,
    SKUS,
    SPADES,
    STRENGTH,
    SUIT_OF,
    TAROCK,
    TRULL,
    VALUE,
    CardError,
    format_card,
    format_cards,
    is_king,
    is_tarock,
    parse_card,
    parse_cards,
    rank_of,
    sort_key,
    suit_card,
    suit_of,
    tarock,
)
from tarock.variants.common import tarock_trick_winner

ALL_NAMES = [
    "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI",
    "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "Sküs",
    "cK", "cQ", "cC", "cJ", "c10", "c9", "c8", "c7",
    "sK", "sQ", "sC", "sJ", "s10", "s9", "s8", "s7",
    "hK", "hQ", "hC", "hJ", "h1", "h2", "h3", "h4",
    "dK", "dQ", "dC", "dJ", "d1", "d2", "d3", "d4",
]


def test_canonical_names_of_all_54_cards() -> None:
    """Record notation: tarocks I..XXI and Sküs; suit letter c s h d, rank K Q C J, then
    the pips 10 9 8 7 (black) or 1 2 3 4 (red)."""
    assert [format_card(c) for c in DECK54] == ALL_NAMES
    assert format_cards(DECK54) == ALL_NAMES


@pytest.mark.parametrize("card", DECK54)
def test_round_trip(card: int) -> None:
    """Every card's canonical name parses back to the card."""
    assert parse_card(format_card(card)) == card


def test_names_are_unique_also_without_case() -> None:
    """Case-insensitive parsing must not merge two cards (e.g. ``cC`` and ``Cc``)."""
    assert len({n.casefold() for n in ALL_NAMES}) == 54


@pytest.mark.parametrize(("alias", "name"), [
    ("IIII", "IV"),
    ("iiii", "IV"),
    ("Skus", "Sküs"),
    ("skus", "Sküs"),
    ("SKÜS", "Sküs"),
    ("sküs", "Sküs"),
    ("xx", "XX"),
    ("xxi", "XXI"),
    ("♣K", "cK"),
    ("♠10", "s10"),
    ("♥K", "hK"),
    ("♥1", "h1"),
    ("♦C", "dC"),
    ("♥k", "hK"),
    ("hk", "hK"),
    ("HK", "hK"),
    ("Hk", "hK"),
    ("dc", "dC"),
    ("sj", "sJ"),
    ("C10", "c10"),
    (" XV ", "XV"),
])
def test_aliases(alias: str, name: str) -> None:
    """Issue 2: "IV may also be written IIII", "Sküs (ASCII Skus)", suit symbols ♣♠♥♦,
    any letter case."""
    assert parse_card(alias) == parse_card(name)
    assert format_card(parse_card(alias)) == name


@pytest.mark.parametrize("bad", [
    "", "XXII", "0", "hX", "zK", "c1", "h10", "c4", "d7", "K", "h", "Skü", "I I", "♥", "hK!",
])
def test_unknown_names_raise_a_clear_error(bad: str) -> None:
    """A wrong name says which text is wrong and how cards are written."""
    with pytest.raises(CardError) as info:
        parse_card(bad)
    message = str(info.value)
    assert repr(bad) in message
    assert "I..XXI" in message and "suit letter" in message


@pytest.mark.parametrize("bad", [-1, 54, 100])
def test_format_rejects_unknown_ids(bad: int) -> None:
    with pytest.raises(CardError, match=str(bad)):
        format_card(bad)


@pytest.mark.parametrize("bad", [0, 23, -5])
def test_tarock_numbers(bad: int) -> None:
    assert tarock(1) == PAGAT and tarock(21) == MOND and tarock(22) == SKUS
    with pytest.raises(CardError):
        tarock(bad)


def test_parse_cards_and_card_helpers() -> None:
    assert parse_cards(["XX", "hK", "c10"]) == (19, suit_card(HEARTS, 0), suit_card(CLUBS, 4))
    assert suit_of(parse_card("sQ")) == SPADES and rank_of(parse_card("sQ")) == 1
    assert suit_of(parse_card("d4")) == DIAMONDS and rank_of(parse_card("d4")) == 7
    assert suit_of(SKUS) == TAROCK and is_tarock(SKUS) and not is_tarock(parse_card("cK"))
    assert [c for c in DECK54 if is_king(c)] == list(parse_cards(["cK", "sK", "hK", "dK"]))
    assert {parse_card("I"), parse_card("XXI"), parse_card("Sküs")} == TRULL


def test_deck_54() -> None:
    """"22 Tarock-Karten (I bis XXI und der Sküs als höchster Trumpf) und vier Farben mit je
    acht Karten: König, Dame, Cavall und Bube sowie in Schwarz (♣ ♠) die 10 bis 7 und in
    Rot (♥ ♦) die 1 bis 4." """
    assert len(DECK54) == 54 == len(set(DECK54))
    assert sum(1 for c in DECK54 if SUIT_OF[c] == TAROCK) == 22
    for suit in (CLUBS, SPADES, HEARTS, DIAMONDS):
        assert sum(1 for c in DECK54 if SUIT_OF[c] == suit) == 8


def test_deck_40() -> None:
    """"Karten: 20 Tarock (Pagat I, IV bis XX, Mond XXI und Sküs; der II und der III fehlen)
    und 20 Farbkarten: je Farbe König, Dame, Cavall, Bube und die höchste Zahlkarte (schwarz
    die 10, rot die 1). Zusammen 40 Karten." """
    expected = set(ALL_NAMES) - {"II", "III"} - {
        n for n in ALL_NAMES if n[0] in "cshd" and n[1:] not in ("K", "Q", "C", "J", "10", "1")}
    assert len(DECK40) == 40 == len(set(DECK40))
    assert set(format_cards(DECK40)) == expected
    assert sum(1 for c in DECK40 if SUIT_OF[c] == TAROCK) == 20


@pytest.mark.parametrize(("name", "points"), [
    ("cK", 5), ("hK", 5), ("sQ", 4), ("dQ", 4), ("cC", 3), ("hC", 3), ("sJ", 2), ("dJ", 2),
    ("I", 5), ("XXI", 5), ("Sküs", 5),
    ("II", 1), ("XX", 1), ("XI", 1), ("c10", 1), ("c7", 1), ("h1", 1), ("d4", 1),
])
def test_values(name: str, points: int) -> None:
    """"König 5 Augen, Dame 4 Augen, Cavall 3 Augen, Bube 2 Augen, Pagat (I), Mond (XXI) und
    Sküs je 5 Augen, alle anderen Karten 1 Auge." """
    assert VALUE[parse_card(name)] == points


def test_values_total() -> None:
    """54 cards make 70 points in groups of three: 3 * sum(values) - 2 * 54 == 3 * 70."""
    assert sum(VALUE[c] for c in DECK54) == 106
    assert 3 * sum(VALUE[c] for c in DECK54) - 2 * 54 == 210


@pytest.mark.parametrize("order", [
    "cK cQ cC cJ c10 c9 c8 c7",
    "sK sQ sC sJ s10 s9 s8 s7",
    "hK hQ hC hJ h1 h2 h3 h4",
    "dK dQ dC dJ d1 d2 d3 d4",
    "Sküs XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI X IX VIII VII VI V IV III II I",
])
def test_order_within_a_suit(order: str) -> None:
    """"In jeder Farbe gilt: König schlägt Dame, Dame schlägt Cavall, Cavall schlägt Bube, und
    der Bube schlägt die Zahlkarten." / "Die rote 1 ist die höchste Zahlkarte, die rote 4 die
    niedrigste." / "der Sküs als höchster Trumpf" """
    ranked = list(parse_cards(order.split()))
    strengths = [STRENGTH[c] for c in ranked]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)
    for i, high in enumerate(ranked):
        for low in ranked[i + 1:]:
            assert tarock_trick_winner([low, high]) == 1
            assert tarock_trick_winner([high, low]) == 0


def test_display_order() -> None:
    """Tarocks high to low, then clubs, spades, hearts, diamonds, each from the King."""
    shuffled = parse_cards(["d4", "I", "hK", "Sküs", "c7", "cK", "XX", "h1"])
    ordered = sorted(shuffled, key=sort_key)
    assert format_cards(ordered) == ["Sküs", "XX", "I", "cK", "c7", "hK", "h1", "d4"]
