"""Trick play from data (core/tricks.py) against the rules of docs/rules.md §4.

Every combination of :class:`~core.contracts.TrickRules` that a shipped
variant (or the shipped example plugins) uses is checked against an oracle
written here from the rule sentences, with its own card order, on random
hands and tricks: the legal cards, the winner, and for every card that may
not be played, the rule that forbids it.

- docs/rules.md §4.1 and §13.4: "Farbzwang: Die angespielte Farbe muss bedient werden." /
  "Tarockzwang: Wer die Farbe nicht hat, muss einen Tarock zugeben." /
  "Stichzwang: Liegt ein Tarock im Stich, muss man mit einem höheren Tarock
  stechen, wenn man kann." / Faberl: "Deren Karten stechen alles (der König ist
  der höchste Trumpf). Die Tarocks sind in diesem Spiel eine gewöhnliche Farbe
  ... wer die Farbe nicht bedienen kann, muss Trumpf zugeben und wenn möglich
  überstechen." / "Kaiserstich: Liegen Pagat, Mond und Sküs im selben Stich,
  gewinnt der Pagat (nicht im Faberl)." (docs/rules.md §4.5 and §4.3)
- docs/rules.md §4.6, Farbenspiele: "Alle Spieler dürfen erst dann Tarock ausspielen,
  wenn sie keine Farbkarten mehr haben. Kann ein Spieler eine Farbe nicht
  bedienen, muss er Tarock zugeben, die aber nicht stechen."  Negative games:
  "Es gilt Stichzwang. Liegen Mond und Pagat, muss der Sküs nicht dazugegeben
  werden." / "Der Pagat darf nur als letztes Tarock gespielt werden, außer es
  gilt Stichzwang beim Märchenstich."
- docs/rules.md §4.4: "wenn z.b. Karo Bube gespielt wurde und der nachfolgende
  Spieler sowohl Karo König als auch Karo 3er Blatt in der Hand hat, er den
  König nehmen muss ... Hat man aber kein Karo, muss man mit einer Tarockkarte
  stechen. ... Hat man einen höheren Tarock als der vorher ausgespielte, muss
  man stechen."
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarock.core.cards import DECK40, DECK54, SUIT_LETTERS, TAROCK, Card, parse_card
from tarock.core.contracts import TrickRules
from tarock.core.plugins import load_plugins
from tarock.core.tricks import legal, refusal, winner

CATALOGUE = load_plugins(Path(__file__).resolve().parent.parent / "plugins.toml")

# -- the oracle's own view of the cards --------------------------------------------------------------

_ORDER = {  # highest first
    "T": "Sküs XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI X IX VIII VII VI V IV III II I",
    "c": "cK cQ cC cJ c10 c9 c8 c7", "s": "sK sQ sC sJ s10 s9 s8 s7",
    "h": "hK hQ hC hJ h1 h2 h3 h4", "d": "dK dQ dC dJ d1 d2 d3 d4",
}
SUIT: dict[Card, str] = {}
HEIGHT: dict[Card, int] = {}
for _suit, _names in _ORDER.items():
    for _pos, _name in enumerate(reversed(_names.split())):
        SUIT[parse_card(_name)] = _suit
        HEIGHT[parse_card(_name)] = _pos
PAGAT, MOND, SKUS = parse_card("I"), parse_card("XXI"), parse_card("Sküs")
LITERAL = {c: (0 if c == PAGAT else HEIGHT[c] + 100 if c not in (MOND, SKUS) else HEIGHT[c] - 19)
           for c in SUIT if SUIT[c] == "T"}
"""The Faberl read literally (option ``faberl_xx_high``): "der XX ist ihre höchste, der Pagat ihre
niedrigste Karte"; Mond and Sküs, which the sentence forgets, just above the Pagat (docs/rules.md §4.5)."""


def height(card: Card, rules: TrickRules) -> int:
    if rules.trump == "suit" and rules.xx_high and SUIT[card] == "T":
        return LITERAL[card]
    return HEIGHT[card]


def trumps_of(rules: TrickRules, suit: str) -> str:
    return suit if rules.trump == "suit" else "T"


def oracle_winner(cards: Sequence[Card], rules: TrickRules, suit: str) -> int:
    led = SUIT[cards[0]]
    if rules.trump == "colour" and led != "T":  # the tarocks "stechen nicht"
        pool = [i for i, c in enumerate(cards) if SUIT[c] == led]
    else:
        if rules.trull_trick and rules.trump != "suit" and {PAGAT, MOND, SKUS} <= set(cards):
            return list(cards).index(PAGAT)  # Kaiserstich / Märchenstich
        trump = trumps_of(rules, suit)
        pool = [i for i, c in enumerate(cards) if SUIT[c] == trump]
        pool = pool or [i for i, c in enumerate(cards) if SUIT[c] == led]
    return max(pool, key=lambda i: height(cards[i], rules))


def oracle(hand: Sequence[Card], trick: Sequence[Card], rules: TrickRules,
           suit: str) -> tuple[set[Card], dict[Card, str]]:
    """The legal cards, and for every other card of the hand the rule that rules it out."""
    why: dict[Card, str] = {}

    def keep(allowed: list[Card], code: str) -> list[Card]:
        for c in hand:
            if c not in allowed and c not in why:
                why[c] = code
        return allowed

    trump = trumps_of(rules, suit)
    if not trick:
        allowed = list(hand)
        if rules.trump == "colour" and any(SUIT[c] != "T" for c in hand):
            allowed = keep([c for c in hand if SUIT[c] != "T"], "colour-tarock-lead")
    else:
        led = SUIT[trick[0]]
        same = [c for c in hand if SUIT[c] == led]
        if same:
            allowed = keep(same, "must-follow-suit")
        else:
            trumping = [c for c in hand if SUIT[c] == trump]
            code = "must-play-tarock" if trump == "T" else "must-play-trump"
            allowed = keep(trumping, code) if trumping else list(hand)
        in_trick = [height(c, rules) for c in trick if SUIT[c] == trump]
        trumping = all(SUIT[c] == trump for c in allowed)
        if rules.overtrump and rules.trump != "colour" and in_trick and trumping:
            higher = [c for c in allowed if height(c, rules) > max(in_trick)]
            if higher:
                allowed = keep(higher, "must-overtrump")
        if rules.must_win:
            beating = [c for c in allowed if oracle_winner([*trick, c], rules, suit) == len(trick)]
            if beating:
                allowed = keep(beating, "must-beat")
    if rules.pagat_last and PAGAT in allowed and len(allowed) > 1 and any(
            SUIT[c] == "T" and c != PAGAT for c in hand):
        allowed = keep([c for c in allowed if c != PAGAT], "pagat-last")
    return set(allowed), why


# -- the combinations the variants use ---------------------------------------------------------------

VARIANT_OPTIONS: list[tuple[str, dict[str, object]]] = [
    ("tarock54", {}), ("tarock40", {}), ("tarock40", {"faberl_xx_high": True}), ("tarock40-online", {}),
    ("koenigrufen-club", {}), ("koenigrufen-course", {}), ("tarock54-club", {}),
    ("tarock54-club", {"kaiserstich": False}),
]


@cache
def used() -> dict[TrickRules, tuple[str, int]]:
    """Every TrickRules a shipped contract plays with, and a (variant, deck size) using it."""
    out: dict[TrickRules, tuple[str, int]] = {}
    for name, options in VARIANT_OPTIONS:
        rules = CATALOGUE.find(name).rules(dict(options))
        for spec in rules.contracts:
            out.setdefault(spec.tricks, (name, len(rules.deck)))
    return out


def test_the_variants_use_these_combinations() -> None:
    combos = set(used())
    assert TrickRules(overtrump=True) in combos  # tarock54
    assert TrickRules(overtrump=True, trull_trick=True) in combos  # tarock40, the club's Kaiserstich
    assert TrickRules("suit", overtrump=True) in combos  # Faberl
    assert TrickRules("suit", overtrump=True, xx_high=True) in combos  # Faberl, the literal reading
    # Königrufen's positive games (the course has no Märchenstich, docs/rules.md §17.4)
    assert TrickRules() in combos
    assert TrickRules(trull_trick=True) in combos  # the club's positive games, Märchenstich
    assert TrickRules(must_win=True, pagat_last=True, trull_trick=True) in combos  # the club's negative games
    assert TrickRules(must_win=True) in combos  # the course's negative games
    assert TrickRules(must_win=True, pagat_last=True) in combos  # the course's Fahrer
    assert TrickRules("colour", trull_trick=True) in combos  # the club's Farbendreier
    assert TrickRules("colour", must_win=True) in combos  # the course's Farberl


@st.composite
def situations(draw: st.DrawFn) -> tuple[TrickRules, list[Card], list[Card], str]:
    rules = draw(st.sampled_from(sorted(used(), key=repr)))
    deck = DECK40 if used()[rules][1] == 40 else DECK54
    order = draw(st.permutations(deck))
    size = draw(st.integers(1, 12 if len(deck) == 54 else 10))
    played = draw(st.integers(0, 3))
    hand, trick = list(order[:size]), list(order[size:size + played])
    suit = draw(st.sampled_from(SUIT_LETTERS)) if rules.trump == "suit" else "T"
    return rules, hand, trick, suit


def index_of(suit: str) -> int:
    return TAROCK if suit == "T" else SUIT_LETTERS.index(suit)


@settings(max_examples=3000, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_legal_cards_winner_and_refusals_follow_the_texts(
        case: tuple[TrickRules, list[Card], list[Card], str]) -> None:
    rules, hand, trick, suit = case
    trump = index_of(suit)
    got = legal(hand, trick, rules, trump)
    want, why = oracle(hand, trick, rules, suit)
    assert got, "a hand always has a card to play"
    assert set(got) <= set(hand) and len(set(got)) == len(got)
    assert set(got) == want
    for card in hand:
        if card not in want:
            reason = refusal(hand, trick, card, rules, trump)
            assert reason.code == why[card], (card, reason)
            assert reason.message
    if trick:
        won = winner(trick, rules, trump)
        assert 0 <= won < len(trick) and won == oracle_winner(trick, rules, suit)
    full = [*trick, *got[:1]]
    assert 0 <= winner(full, rules, trump) < len(full)


# -- the sentences, one by one ------------------------------------------------------------------------

def cards(names: str) -> list[Card]:
    return [parse_card(n) for n in names.split()]


TAROCK54 = TrickRules(overtrump=True)
NEGATIVE_CLUB = TrickRules(must_win=True, pagat_last=True, trull_trick=True)
COLOUR = TrickRules("colour")


def test_seed_000_stichzwang_whenever_a_tarock_lies_in_the_trick() -> None:
    # "Liegt ein Tarock im Stich, muss man mit einem höheren Tarock stechen, wenn man kann."
    assert set(legal(cards("V XX cK"), cards("hK X"), TAROCK54)) == set(cards("XX"))
    assert refusal(cards("V XX cK"), cards("hK X"), parse_card("V"), TAROCK54).code == "must-overtrump"
    # with nothing higher any tarock will do; following a plain suit carries no such duty
    assert set(legal(cards("V IV cK"), cards("hK X"), TAROCK54)) == set(cards("V IV"))
    assert set(legal(cards("h4 hQ"), cards("hK X"), TAROCK54)) == set(cards("h4 hQ"))


def test_seed_000_faberl_the_king_is_the_highest_trump_the_tarocks_a_plain_suit() -> None:
    faberl = TrickRules("suit", overtrump=True)
    hearts = SUIT_LETTERS.index("h")
    assert winner(cards("cK h4 Sküs"), faberl, hearts) == 1  # the trump takes it
    assert winner(cards("Sküs XX h4 hK"), faberl, hearts) == 3  # the King is the highest trump
    assert winner(cards("XX Sküs I cK"), faberl, hearts) == 1  # tarocks a plain suit, normal order
    literal = TrickRules("suit", overtrump=True, xx_high=True)
    assert winner(cards("XX Sküs I cK"), literal, hearts) == 0  # "der XX ist ihre höchste"
    # "wer die Farbe nicht bedienen kann, muss Trumpf zugeben und wenn möglich überstechen"
    assert set(legal(cards("h2 hK XX"), cards("c7 h1"), faberl, hearts)) == set(cards("hK"))
    hand, trick = cards("h2 hK XX"), cards("c7 h1")
    assert refusal(hand, trick, parse_card("XX"), faberl, hearts).code == "must-play-trump"
    assert refusal(hand, trick, parse_card("h2"), faberl, hearts).code == "must-overtrump"
    # no Kaiserstich in the Faberl
    assert winner(cards("Sküs I XXI"), faberl, hearts) == 0


def test_seed_002_colour_games() -> None:
    # "erst dann Tarock ausspielen, wenn sie keine Farbkarten mehr haben"
    assert set(legal(cards("XX hK"), [], COLOUR)) == set(cards("hK"))
    assert refusal(cards("XX hK"), [], parse_card("XX"), COLOUR).code == "colour-tarock-lead"
    assert set(legal(cards("XX I"), [], COLOUR)) == set(cards("XX I"))
    # "muss er Tarock zugeben, die aber nicht stechen"
    assert set(legal(cards("XX dK"), cards("h4"), COLOUR)) == set(cards("XX"))
    assert winner(cards("h4 XX hK Sküs"), COLOUR) == 2
    assert winner(cards("V XX hK"), COLOUR) == 1  # led in tarock, the tarocks count


def test_seed_002_maerchenstich_and_stichzwang() -> None:
    # "Liegen Mond und Pagat, muss der Sküs nicht dazugegeben werden."
    assert set(legal(cards("Sküs V"), cards("XXI I"), NEGATIVE_CLUB)) == set(cards("Sküs V"))
    # "Der Pagat darf nur als letztes Tarock gespielt werden, außer es gilt Stichzwang beim Märchenstich."
    assert legal(cards("I V"), cards("XXI Sküs"), NEGATIVE_CLUB) == cards("I")
    assert set(legal(cards("I V"), cards("X"), NEGATIVE_CLUB)) == set(cards("V"))
    assert refusal(cards("I V"), cards("X"), parse_card("I"), NEGATIVE_CLUB).code == "pagat-last"
    assert winner(cards("XXI Sküs I"), NEGATIVE_CLUB) == 2


def test_seed_003_stichzwang_in_the_negative_games() -> None:
    negative = TrickRules(must_win=True)
    # "Karo Bube gespielt ... sowohl Karo König als auch Karo 3er Blatt ... er den König nehmen muss"
    assert legal(cards("dK d3 XX"), cards("dJ"), negative) == cards("dK")
    assert refusal(cards("dK d3 XX"), cards("dJ"), parse_card("d3"), negative).code == "must-beat"
    # "Hat man aber kein Karo, muss man mit einer Tarockkarte stechen."
    assert set(legal(cards("V hK"), cards("dJ"), negative)) == set(cards("V"))
    # "Hat man einen höheren Tarock als der vorher ausgespielte, muss man stechen."
    assert legal(cards("V XX"), cards("X"), negative) == cards("XX")
    # nothing beats: no duty, and the reason for a refused card is the rule that refuses it
    fahrer = TrickRules(must_win=True, pagat_last=True)
    assert set(legal(cards("I V"), cards("XX"), fahrer)) == set(cards("V"))
    assert refusal(cards("I V"), cards("XX"), parse_card("I"), fahrer).code == "pagat-last"


def test_refusal_of_a_card_that_is_legal_is_no_rule() -> None:
    """The hooks ask ``refusal`` only for cards that are not legal; for a legal one it
    names no specific rule."""
    assert refusal(cards("V hK"), [], parse_card("V"), TAROCK54).code == "not-allowed"
