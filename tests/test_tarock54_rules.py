"""Scenario tests: every rule of docs/rules.md §12 ("54 Blatt").

Each test quotes the German source sentence behind docs/rules.md §12
(or names the reading there) it checks.  Seats are 0..3, the dealer is seat 0
unless said otherwise, so seat 1 is the forehand (Vorhand).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from helpers54 import (
    Step,
    act,
    cards,
    play_out,
    points_by_groups,
    rigged_hand,
    rules54,
    snapshot,
    to_play,
    tricks,
    won_cards,
)
from line_items import Line, lines

from tarock.core.actions import Call, Discard, Kontra, Pass, Play
from tarock.core.cards import KING, PAGAT, TRULL, format_card, parse_card, rank_of
from tarock.core.engine import Hand, IllegalAction
from tarock.core.observation import observe
from tarock.core.state import Trick


def reason_of(hand: Hand, *steps: Step) -> str:
    """Apply all but the last step, then return the reason code the last one is refused with."""
    act(hand, *steps[:-1])
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as info:
        act(hand, steps[-1])
    assert hand.state == before
    return info.value.reason.code


def legal_cards(hand: Hand, seat: int) -> set[str]:
    return {format_card(a.card) for a in hand.legal(seat) if isinstance(a, Play)}


# -- rigged deals ---------------------------------------------------------------

# F: seat 1 (forehand) calls XI and takes "s7 s8 s9"; seat 2 holds XI (partner)
# and hearts; seat 3 has no hearts but tarocks; seat 0 neither hearts nor tarocks.
DEAL_F = (
    ["cK cQ cC cJ c10 c9 c8 c7 sK sQ sC sJ",
     "hK h4 h3 XX XIX XVIII XVII XVI XV XIV XIII XII",
     "hQ hC h1 h2 XI X IX dK dQ dC dJ d1",
     "VIII VII VI V IV III II I d2 d3 d4 s10"],
    ["s7 s8 s9", "hJ XXI Sküs"],
)

# S: seat 1 calls XV (held by seat 3); nobody else holds a heart; seat 2 holds
# X IX VIII, seat 3 XV XIV II, seat 0 only tarocks below XV.
DEAL_S = (
    ["III IV V VI VII d1 d2 d3 d4 XI XII XIII",
     "h4 h3 h2 h1 hJ XX XIX XVIII XVII XVI cK sK",
     "X IX VIII cQ cC cJ c10 c9 c8 c7 sQ sC",
     "XV XIV II sJ s10 s9 s8 s7 dK dQ dC dJ"],
    ["hK hQ hC", "I XXI Sküs"],
)

# A: seat 1 holds the twelve highest tarocks but the X, calls the X, which lies
# in the second talon pile: alone, and every trick is his.
DEAL_A = (
    ["I II III cK cQ cC cJ c10 sK sQ sC sJ",
     "Sküs XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI",
     "IV V VI s10 s9 s8 s7 hK hQ hC hJ h1",
     "VII VIII IX h2 h3 h4 dK dQ dC dJ d1 d2"],
    ["c7 c8 c9", "X d3 d4"],
)

# V: seat 1 holds only the lowest suit cards, calls the XX, which lies in the
# talon: alone, and the opponents take every trick.
DEAL_V = (
    ["I II III IV V VI VII cK cQ cC cJ h1",
     "c7 c8 c9 c10 s7 s8 s9 s10 h4 h3 h2 d4",
     "VIII IX X XI XII XIII sK sQ sC sJ hK hQ",
     "XIV XV XVI XVII XXI Sküs hC hJ dK dQ dC dJ"],
    ["d3 d2 d1", "XX XIX XVIII"],
)


@dataclass(frozen=True)
class Game:
    """A whole hand as written down: deal, actions before play, the 12 tricks."""

    hands: list[str]
    talon: list[str]
    steps: list[str]
    tricks: list[str]
    dealer: int = 0
    options: dict[str, bool] = field(default_factory=dict)

    def play(self, steps: list[str] | None = None) -> Hand:
        hand = rigged_hand(self.hands, self.talon, self.dealer, dict(self.options) or None)
        act(hand, *(self.steps if steps is None else steps))
        tricks(hand, *self.tricks)
        assert hand.done
        return hand


# Whole hands found by random play and written down; the comments give each
# trick's leader -> winner.
WIN_36 = Game(
    hands=["I XVII h1 c8 d2 cC dQ d1 sQ VI Sküs s8",
           "d3 hC hJ hQ VII c9 s7 XX sJ dJ IX XII",
           "XI XIII sK XIV h4 d4 hK XVI II cJ cQ XIX",
           "XV dK s10 h3 c7 X XVIII III h2 IV sC s9"],
    talon=["dC XXI VIII", "c10 cK V"],
    steps=["1 call XIX", "1 discard sJ dJ d3", "2 pass", "3 pass", "0 pass"],
    tricks=["hC h4 h3 h1",  # 1 -> 1
            "hQ hK h2 I",  # 1 -> 0
            "sQ s7 sK sC",  # 0 -> 2
            "d4 dK dQ dC",  # 2 -> 3
            "c7 cC c9 cQ",  # 3 -> 2
            "XI XV Sküs XII",  # 2 -> 0
            "d1 VII XIII XVIII",  # 0 -> 3
            "X XVII XXI XIV",  # 3 -> 1
            "XX II IV VI",  # 1 -> 1
            "VIII XVI III s8",  # 1 -> 2
            "XIX s9 c8 IX",  # 2 -> 2
            "cJ s10 d2 hJ"],  # 2 -> 2
)

DRAW_35 = Game(
    hands=["XX I VII hQ dK XXI sC h3 hK cK hJ h2",
           "s10 d1 VIII c10 cC dQ cJ Sküs d2 hC XIV d4",
           "VI XI s7 X III dJ XVI h1 s8 XII IX dC",
           "XVIII c7 XV XIX c8 c9 cQ sQ XIII V XVII IV"],
    talon=["d3 sJ s9", "II sK h4"],
    steps=["1 pass", "2 pass", "3 pass", "0 call XIX", "0 discard s9 hQ hJ", "1 pass", "2 pass", "3 pass"],
    tricks=["cC XI c9 cK",  # 1 -> 2
            "XII XIII XX Sküs",  # 2 -> 1
            "c10 IX c8 XXI",  # 1 -> 0
            "h2 hC h1 XVII",  # 0 -> 3
            "XVIII VII VIII VI",  # 3 -> 3
            "IV I XIV XVI",  # 3 -> 2
            "s8 sQ sC s10",  # 2 -> 3
            "cQ dK cJ X",  # 3 -> 2
            "dJ XV d3 d1",  # 2 -> 3
            "c7 sJ d4 III",  # 3 -> 2
            "dC XIX hK d2",  # 2 -> 3
            "V h3 dQ s7"],  # 3 -> 3
)

DRAW_35_PAGAT = Game(
    hands=["dJ XII s10 cK sK c10 c8 dC XXI h3 XVI XIII",
           "V VIII h2 VI sJ XV c7 d1 s9 sC dQ s8",
           "XI X IX hK hQ c9 cC dK d4 hJ IV XX",
           "hC XVII I s7 Sküs III XIV VII II h4 sQ h1"],
    talon=["d3 cQ XIX", "XVIII cJ d2"],
    steps=["1 pass", "2 pass", "3 pass", "0 call XX", "0 discard c10 h3 dC", "1 pass", "2 pass", "3 pass"],
    tricks=["s8 XI sQ s10",  # 1 -> 2
            "cC III cK c7",  # 2 -> 3
            "II XXI V XX",  # 3 -> 0
            "sK s9 X s7",  # 0 -> 2
            "hQ h4 XIX h2",  # 2 -> 0
            "c8 XV c9 Sküs",  # 0 -> 3
            "h1 XIII VI hJ",  # 3 -> 0
            "XVI VIII IV XVII",  # 0 -> 3
            "XIV XII sC IX",  # 3 -> 3
            "VII cQ sJ dK",  # 3 -> 3
            "hC d3 dQ hK",  # 3 -> 2
            "d4 I dJ d1"],  # 2 -> 3: the opponents' Pagat, not led, wins
)

LOSE_34 = Game(
    hands=["VIII s7 sK Sküs cQ sC XX XII s9 XIV XIX XXI",
           "XVI XV V VII X XVII hQ VI II dK s10 h4",
           "c7 c8 h1 I cC d2 c10 hJ cJ cK XVIII d4",
           "dQ hK d1 h2 III dC hC XI IX h3 dJ XIII"],
    talon=["sQ d3 IV", "sJ c9 s8"],
    steps=["1 pass", "2 call XX", "2 discard sQ h1 d2", "1 pass", "3 pass", "0 pass"],
    tricks=["VI XVIII XI XIX",  # 1 -> 0
            "Sküs XVII IV III",  # 0 -> 0
            "XII XV I IX",  # 0 -> 1
            "dK d3 dC XX",  # 1 -> 0
            "sK s10 cK XIII",  # 0 -> 3
            "h2 VIII hQ hJ",  # 3 -> 0
            "s7 X c10 dJ",  # 0 -> 1
            "VII cJ h3 XIV",  # 1 -> 0
            "s9 V c7 d1",  # 0 -> 1
            "II d4 dQ XXI",  # 1 -> 0
            "cQ XVI cC hK",  # 0 -> 1
            "h4 c8 hC sC"],  # 1 -> 3
)

PAGAT_OURS = Game(
    hands=["c10 d1 VII III IV XVII d3 dK cJ h3 XVI XII",
           "dQ dJ cQ sJ hJ sQ d2 s7 hC VIII XIII c9",
           "h4 h1 dC VI XVIII hQ h2 s8 d4 XIV V IX",
           "XX XV cK XIX XXI I hK c8 X XI II sK"],
    talon=["cC s10 s9", "Sküs c7 sC"],
    steps=["1 pass", "2 call XX", "2 discard cC s9 h4", "1 pass", "3 pass", "0 pass"],
    tricks=["cQ IX c8 cJ",  # 1 -> 2
            "h1 hK h3 hJ",  # 2 -> 3
            "cK c10 c9 V",  # 3 -> 2
            "hQ XX XVI hC",  # 2 -> 3
            "XV XVII XIII XVIII",  # 3 -> 2
            "s8 sK VII sQ",  # 2 -> 0
            "XII VIII XIV XIX",  # 0 -> 3
            "XXI III s7 VI",  # 3 -> 3
            "X IV sJ dC",  # 3 -> 3
            "XI dK dJ s10",  # 3 -> 3
            "II d1 d2 d4",  # 3 -> 3
            "I d3 dQ h2"],  # 3 -> 3: the partner leads the Pagat and wins
)

PAGAT_THEIRS = Game(
    hands=["Sküs s7 cC XIII sK XXI I s9 XVIII sC XVI dQ",
           "s10 hJ III XX hK IV XV XVII d3 II dC XI",
           "d1 c8 sJ VI c9 X hQ IX h2 d2 XII dJ",
           "cJ VII h1 V h3 sQ c7 VIII s8 cQ XIX cK"],
    talon=["XIV dK hC", "d4 c10 h4"],
    steps=["1 call XIX", "1 discard hC hJ dC", "2 pass", "3 pass", "0 pass"],
    tricks=["III XII XIX XXI",  # 1 -> 0
            "dQ dK d1 VIII",  # 0 -> 3
            "V XIII XX X",  # 3 -> 1
            "s10 sJ sQ sC",  # 1 -> 3
            "s8 sK XV VI",  # 3 -> 1
            "II IX VII XVI",  # 1 -> 0
            "s9 IV c8 cJ",  # 0 -> 1
            "XIV d2 cK XVIII",  # 1 -> 0
            "cC XI c9 c7",  # 0 -> 1
            "XVII hQ cQ Sküs",  # 1 -> 0
            "s7 d3 dJ h3",  # 0 -> 0
            "I hK h2 h1"],  # 0 -> 0: an opponent leads the Pagat and wins
)

PAGAT_LOSES = Game(
    hands=["cK II d1 h3 VII XVII dK cQ dC h4 s8 XVI",
           "V cJ XV dQ sQ cC XIX XI I sJ XIV hJ",
           "s7 sK c10 c9 X sC III Sküs c7 h2 XXI IV",
           "s10 hK XIII XII s9 IX d2 VIII XX XVIII h1 d3"],
    talon=["VI hC dJ", "c8 d4 hQ"],
    steps=["1 pass", "2 call XX", "2 discard c10 c7 dJ", "1 pass", "3 pass", "0 pass"],
    tricks=["cC c9 XX cK",  # 1 -> 3
            "h1 h4 hJ h2",  # 3 -> 1
            "sQ s7 s9 s8",  # 1 -> 1
            "cJ VI XIII cQ",  # 1 -> 3
            "VIII XVI XIX XXI",  # 3 -> 2
            "sC s10 II sJ",  # 2 -> 0
            "d1 dQ IV d2",  # 0 -> 2
            "III XVIII XVII XV",  # 2 -> 3
            "hK h3 XI hC",  # 3 -> 1
            "V X XII VII",  # 1 -> 3
            "d3 dC XIV Sküs",  # 3 -> 2
            "sK IX dK I"],  # 2 -> 3: the Pagat is played last but the IX wins
)

ALONE_LOST = Game(
    hands=["d4 X d2 VIII sQ XI II hC d3 sJ XVIII c9",
           "I dK cJ VI hQ XVII h4 XXI IX cC XIX III",
           "XV c10 c8 cQ s10 V h3 h1 s8 hJ s9 c7",
           "dJ XVI s7 dQ h2 XIII sK d1 sC IV XIV Sküs"],
    talon=["cK hK dC", "VII XII XX"],
    steps=["1 call XX", "1 discard cC cJ dC", "2 pass", "3 pass", "0 pass"],
    tricks=["cK c10 IV c9",  # 1 -> 3
            "dJ d2 dK XV",  # 3 -> 2
            "c8 Sküs X XXI",  # 2 -> 3
            "sK sJ XVII s9",  # 3 -> 1
            "IX V XIV XVIII",  # 1 -> 0
            "d4 XIX s10 d1",  # 0 -> 1
            "h4 h1 h2 hC",  # 1 -> 0
            "XI I c7 XVI",  # 0 -> 3
            "XIII II VI s8",  # 3 -> 3
            "s7 sQ III h3",  # 3 -> 1
            "hQ hJ dQ VIII",  # 1 -> 0
            "d3 hK cQ sC"],  # 0 -> 0
)


def deal_f() -> Hand:
    return rigged_hand(*DEAL_F)


# -- Geben und Ansage ---------------------------------------------------------------

def test_twelve_cards_each_and_a_talon_of_six() -> None:
    """"Jeder bekommt 12 Karten, 6 Karten bleiben als Talon verdeckt liegen." """
    rules = rules54()
    assert rules.hand_size == 12
    assert rules.talon_piles == (3, 3)
    hand = deal_f()
    assert [len(h) for h in hand.state.hands] == [12, 12, 12, 12]
    assert sum(len(p) for p in hand.state.talon) == 6


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_bidding_starts_with_the_forehand(dealer: int) -> None:
    """"Reihum, beginnend mit der Vorhand (dem Spieler nach dem Geber): Weiter (passen)
    oder einen Tarock rufen." """
    hand = rigged_hand(*DEAL_F, dealer=dealer)
    forehand = (dealer + 1) % 4
    assert hand.state.phase == "bidding"
    assert hand.state.to_move == forehand
    kinds = {type(a) for a in hand.legal(forehand)}
    assert kinds == {Pass, Call}
    for other in range(4):
        if other != forehand:
            assert hand.legal(other) == []
    act(hand, Pass(forehand))
    assert hand.state.to_move == (forehand + 1) % 4


@pytest.mark.parametrize(("held", "called"), [
    ("", "XX"),
    ("XIX", "XX"),
    ("XX", "XIX"),
    ("XX XIX", "XVIII"),
    ("XX XIX XVIII XVII XVI XV", "XIV"),
    ("XX XVIII", "XIX"),
])
def test_the_card_to_call(held: str, called: str) -> None:
    """"Gerufen wird der XX („20er rufen“); wer ihn selbst hält, ruft den XIX, wer XX und
    XIX hält, den XVIII und so weiter." """
    hand = rigged_hand(["", held, "", ""], fill=True)
    calls = [a for a in hand.legal(1) if isinstance(a, Call)]
    assert calls == [Call(1, parse_card(called))]
    act(hand, f"1 call {called}")
    assert hand.state.declarer == 1
    assert hand.state.called == parse_card(called)


@pytest.mark.parametrize(("held", "attempt"), [
    ("", "XIX"),
    ("XX", "XVIII"),
    ("XX", "XX"),
    ("XX XIX", "XVII"),
])
def test_no_lower_call_while_a_higher_card_is_free(held: str, attempt: str) -> None:
    """"Eine tiefere Karte darf man nicht rufen, solange eine höhere frei ist." """
    hand = rigged_hand(["", held, "", ""], fill=True)
    assert reason_of(hand, f"1 call {attempt}") == "must-call-highest"


def test_first_call_ends_the_bidding_and_the_caller_is_the_rufer() -> None:
    """"Wer ruft, ist der Rufer. Wer den gerufenen Tarock hält, ist sein Partner."
    (variant decision: the first call ends the bidding.)"""
    hand = deal_f()
    act(hand, "1 pass", "2 call XX")
    state = hand.state
    assert state.declarer == 2
    assert state.partner == 1  # seat 1 holds the XX
    assert state.declarer_party() == {1, 2}
    assert state.phase == "discard"
    assert state.to_move == 2


def test_dealer_may_call_after_three_passes() -> None:
    """"Reihum, beginnend mit der Vorhand ...: Weiter (passen) oder einen Tarock rufen." """
    hand = deal_f()
    act(hand, "1 pass", "2 pass", "3 pass", "0 call XX")
    assert hand.state.declarer == 0
    assert hand.state.partner == 1


def test_partner_is_secret_until_the_called_card_is_played() -> None:
    """"Das bleibt geheim, bis die Karte gespielt wird." """
    hand = to_play(deal_f(), discard="s7 s8 s9")
    assert hand.state.partner == 2
    assert [observe(hand, s).partner for s in range(4)] == [None, None, 2, None]
    # trick 1: hK h2 V cK (seat 3 wins); trick 2: seat 3 leads VII, seat 0 c7,
    # seat 1 XX, then seat 2 plays the called XI.
    tricks(hand, "hK h2 V cK", "VII c7 XX")
    assert [observe(hand, s).partner for s in range(4)] == [None, None, 2, None]
    assert not hand.state.partner_known
    tricks(hand, "XI")
    assert hand.state.partner_known
    assert [observe(hand, s).partner for s in range(4)] == [2, 2, 2, 2]


@pytest.mark.parametrize("talon", [["c7 c8 XX", "c10 d3 d4"], ["c7 c8 c9", "XX d3 d4"]])
def test_called_card_in_the_talon_means_alone(talon: list[str]) -> None:
    """"Liegt der gerufene Tarock im Talon, spielt der Rufer allein gegen die drei anderen."
    (Also when the XX lies in the first pile, which the Rufer takes up himself.)"""
    hand = rigged_hand(["", "", "", ""], talon, fill=True)
    act(hand, "1 call XX")
    assert hand.state.partner is None
    assert hand.state.declarer_party() == {1}
    to_play(hand)
    assert hand.state.declarer_party() == {1}


def test_alone_counts_triple() -> None:
    """"Die Wertung zählt dann dreifach." / "Spielt der Rufer allein gegen drei, bekommt
    er das Dreifache." (docs/rules.md §10: the value from each of the three.)"""
    hand = ALONE_LOST.play()
    result = hand.state.result
    assert result is not None
    assert hand.state.partner is None
    assert result.won is False
    assert lines(result) == [Line("game", "declarers", False, -1)]
    assert result.settlement == (1, -3, 1, 1)


def test_four_passes_no_game() -> None:
    """"Passen alle vier, wird neu gegeben." (docs/rules.md §3.4: the deal is void.)"""
    hand = deal_f()
    act(hand, "1 pass", "2 pass", "3 pass", "0 pass")
    assert hand.done
    result = hand.state.result
    assert result is not None
    assert result.declarers == ()
    assert result.settlement == (0, 0, 0, 0)
    assert hand.state.declarer is None
    assert hand.state.tricks == []
    assert [len(h) for h in hand.state.hands] == [12] * 4
    assert reason_of(hand, "1 call XX") == "hand-over"


# -- Talon und Drücken --------------------------------------------------------------

def test_rufer_takes_the_first_pile_and_lays_three_away() -> None:
    """"Der Rufer nimmt den ersten Talon-Stapel (3 Karten) auf und drückt danach 3 Karten ab." """
    hand = deal_f()
    act(hand, "1 call XI")
    state = hand.state
    assert state.phase == "discard" and state.to_move == 1
    assert sorted(state.talon_taken) == sorted(cards("s7 s8 s9"))
    assert len(state.hands[1]) == 15
    assert set(cards("s7 s8 s9")) <= set(state.hands[1])
    assert state.talon == [[], cards("hJ XXI Sküs")]
    assert all(isinstance(a, Discard) and len(a.cards) == 3 for a in hand.legal(1))
    assert reason_of(hand, "1 discard s7 s8") == "discard-count"
    act(hand, "1 discard h3 s8 s9")
    assert len(state.hands[1]) == 12
    assert sorted(state.discards) == sorted(cards("h3 s8 s9"))
    assert state.phase == "kontra"


def test_no_kings_and_no_trull_laid_away() -> None:
    """"Nicht gedrückt werden dürfen Könige sowie Pagat, Mond und Sküs." """
    hand = rigged_hand(["", "cK sK Sküs XXI I c7 c8 c9 h4 h3", "", ""], ["hK d4 d3", ""], fill=True)
    act(hand, "1 call XX")
    for discard in hand.legal(1):
        assert isinstance(discard, Discard)
        assert not any(rank_of(c) == KING and c >= 22 for c in discard.cards)
        assert not TRULL & set(discard.cards)
    assert reason_of(hand, "1 discard cK c7 c8") == "discard-king"
    assert reason_of(hand, "1 discard hK c7 c8") == "discard-king"
    assert reason_of(hand, "1 discard I c7 c8") == "discard-trull"
    assert reason_of(hand, "1 discard XXI c7 c8") == "discard-trull"
    assert reason_of(hand, "1 discard Sküs c7 c8") == "discard-trull"


def test_tarocks_laid_away_only_without_enough_suit_cards() -> None:
    """"Andere Tarock-Karten nur dann, wenn nicht genug Farbkarten zum Drücken da sind." """
    # Enough suit cards: no tarock may go.
    hand = rigged_hand(["", "cK c7 c8 c9 II III IV V VI VII VIII IX", "", ""], ["X XI XII", ""], fill=True)
    act(hand, "1 call XX")
    assert {d.cards for d in hand.legal(1) if isinstance(d, Discard)} == {tuple(sorted(cards("c7 c8 c9")))}
    assert reason_of(hand, "1 discard c7 c8 II") == "discard-tarock"

    # One suit card besides the four Kings: it goes, and two tarocks with it.
    hand = rigged_hand(["", "cK sK hK dK c7 I II III IV V VI VII", "", ""], ["VIII IX X", ""], fill=True)
    act(hand, "1 call XX")
    legal = [d.cards for d in hand.legal(1) if isinstance(d, Discard)]
    assert len(legal) == 36  # c7 and two of the nine tarocks II..X
    assert all(parse_card("c7") in d and sum(c < 22 for c in d) == 2 for d in legal)
    assert reason_of(hand, "1 discard II III IV") == "discard-tarock"
    assert reason_of(hand, "1 discard c7 I II") == "discard-trull"
    act(hand, "1 discard c7 II X")
    assert sorted(hand.state.discards) == sorted(cards("c7 II X"))


def test_discards_count_for_the_rufer_party_and_the_other_pile_for_the_opponents() -> None:
    """"Die gedrückten Karten zählen am Ende für die Rufer-Partei, der übrige Talon-Stapel
    für die Gegner." """
    hand = rigged_hand(*DEAL_A)
    to_play(hand, discard="c7 c8 c9")
    play_out(hand)
    result = hand.state.result
    assert result is not None
    # The opponents win no trick, yet the second pile (X d3 d4) is theirs: 1 point.
    assert all(t.winner == 1 for t in hand.state.tricks)
    assert result.points == (69 * 3, 1 * 3)
    ours, theirs = won_cards(hand.state)
    assert sorted(theirs) == sorted(cards("X d3 d4"))
    assert set(cards("c7 c8 c9")) <= set(ours)


# -- Spielen ------------------------------------------------------------------------

def test_forehand_leads_the_first_trick_even_when_another_seat_declares() -> None:
    """"Die Vorhand spielt die erste Karte aus" """
    hand = to_play(deal_f(), caller=2)
    assert hand.state.declarer == 2
    assert hand.state.phase == "play"
    assert hand.state.to_move == 1
    assert hand.state.trick is not None and hand.state.trick.leader == 1


def test_winner_leads_next_and_play_goes_round() -> None:
    """"danach beginnt, wer den letzten Stich gewonnen hat. Gespielt wird reihum gegen den
    Uhrzeigersinn." (the next seat is seat + 1; docs/rules.md §3.1)"""
    hand = to_play(deal_f(), discard="s7 s8 s9")
    tricks(hand, "hK h2 V cK")
    first = hand.state.tricks[0]
    assert first.leader == 1 and first.seats == [1, 2, 3, 0]
    assert first.winner == 3
    assert hand.state.to_move == 3
    tricks(hand, "d2 c7 XII d1")
    second = hand.state.tricks[1]
    assert second.seats == [3, 0, 1, 2] and second.winner == 1
    assert hand.state.to_move == 1


def test_farbzwang() -> None:
    """"Farbzwang: Die angespielte Farbe muss bedient werden." """
    hand = to_play(deal_f(), discard="s7 s8 s9")
    tricks(hand, "hK")
    assert legal_cards(hand, 2) == {"hQ", "hC", "h1", "h2"}  # holds tarocks too
    assert reason_of(hand, "2 play XI") == "must-follow-suit"
    assert reason_of(hand, "2 play dK") == "must-follow-suit"
    # Following the suit is enough even when a tarock lies in the trick.
    tricks(hand, "h2 V cK", "d2 c7 XII")
    assert legal_cards(hand, 2) == {"dK", "dQ", "dC", "dJ", "d1"}
    assert reason_of(hand, "2 play XI") == "must-follow-suit"


def test_farbzwang_for_tarock_led() -> None:
    """"Farbzwang: Die angespielte Farbe muss bedient werden." (a tarock lead asks for tarock)"""
    hand = to_play(deal_f(), discard="s7 s8 s9")
    tricks(hand, "hK h2 V cK", "VII c7")
    assert legal_cards(hand, 1) == {"XX", "XIX", "XVIII", "XVII", "XVI", "XV", "XIV", "XIII", "XII"}
    assert reason_of(hand, "1 play h4") == "must-follow-suit"


def test_tarockzwang() -> None:
    """"Tarockzwang: Wer die Farbe nicht hat, muss einen Tarock zugeben. Nur wer auch keinen
    Tarock hat, darf eine beliebige Karte abwerfen." """
    hand = to_play(deal_f(), discard="s7 s8 s9")
    tricks(hand, "hK h2")
    assert legal_cards(hand, 3) == {"VIII", "VII", "VI", "V", "IV", "III", "II", "I"}
    assert reason_of(hand, "3 play d2") == "must-play-tarock"
    tricks(hand, "V")
    # Seat 0 has neither hearts nor tarocks: any card.
    assert legal_cards(hand, 0) == {"cK", "cQ", "cC", "cJ", "c10", "c9", "c8", "c7", "sK", "sQ", "sC", "sJ"}


def test_stichzwang() -> None:
    """"Stichzwang: Liegt ein Tarock im Stich, muss man mit einem höheren Tarock stechen,
    wenn man kann." """
    hand = to_play(rigged_hand(*DEAL_S), discard="hQ hC h4")
    assert hand.state.partner == 3
    tricks(hand, "hJ")
    # Seat 2 has no heart: any tarock (none lies in the trick yet).
    assert legal_cards(hand, 2) == {"X", "IX", "VIII"}
    assert reason_of(hand, "2 play cQ") == "must-play-tarock"
    tricks(hand, "VIII")
    # Seat 3 must beat the VIII with XV or XIV; the II is refused.
    assert legal_cards(hand, 3) == {"XV", "XIV"}
    assert reason_of(hand, "3 play II") == "must-overtrump"
    tricks(hand, "XIV")
    # Seat 0 cannot beat the XIV: any of its tarocks, but a tarock it must be.
    assert legal_cards(hand, 0) == {"III", "IV", "V", "VI", "VII", "XI", "XII", "XIII"}
    assert reason_of(hand, "0 play d1") == "must-play-tarock"
    tricks(hand, "III")
    assert hand.state.tricks[0].winner == 3
    # Tarock led: every higher tarock, nothing lower.
    tricks(hand, "II")
    assert legal_cards(hand, 0) == {"IV", "V", "VI", "VII", "XI", "XII", "XIII"}
    tricks(hand, "XI")
    assert legal_cards(hand, 1) == {"XX", "XIX", "XVIII", "XVII", "XVI"}
    assert reason_of(hand, "1 play h3") == "must-follow-suit"
    tricks(hand, "XVI")
    assert legal_cards(hand, 2) == {"X", "IX"}
    tricks(hand, "IX")
    assert hand.state.tricks[1].winner == 1


@pytest.mark.parametrize(("played", "winner"), [
    ("h2 h1 hJ h3", 2),  # the Jack beats the pips
    ("h4 h3 h1 h2", 2),  # the red 1 is the highest pip
    ("c7 c10 c9 c8", 1),  # the black 10 is the highest pip
    ("hQ hK cK dK", 1),  # Kings of other suits do not win
    ("sC sQ sJ hK", 1),
    ("c7 cK II cQ", 2),  # a tarock in the trick wins
    ("dK II XXI I", 2),
    ("XXI I Sküs XX", 2),  # the Sküs beats all, also Pagat and Mond together
    ("I II III IV", 3),
])
def test_trick_winner(played: str, winner: int) -> None:
    """"Den Stich gewinnt die höchste Karte der angespielten Farbe. Liegt ein Tarock im
    Stich, gewinnt der höchste Tarock (der Sküs schlägt alle)." """
    hand = to_play(deal_f())
    assert hand.state.phase == "play" and hand.state.contract is not None
    trick = Trick(0, [0, 1, 2, 3], cards(played))
    assert hand.rules.trick_winner(hand.state, trick) == winner


def test_twelve_tricks() -> None:
    """"Es gibt 12 Stiche." """
    hand = WIN_36.play()
    assert len(hand.state.tricks) == 12
    assert all(len(t.cards) == 4 and sorted(t.seats) == [0, 1, 2, 3] for t in hand.state.tricks)
    assert all(h == [] for h in hand.state.hands)


# -- Zählen -------------------------------------------------------------------------

@pytest.mark.parametrize(("names", "points"), [
    ("hK hQ hC", 10),  # 5 + 4 + 3 - 2
    ("c7 c8 c9", 1),
    ("hK", 4),  # a single card: its value minus 1
    ("hK hQ", 8),  # two cards: their sum minus 1
    ("hK hQ hC hJ", 11),  # 10 + (2 - 1)
    ("hK hQ hC hJ c7", 12),  # 10 + (2 + 1 - 1)
    ("I XXI Sküs cK sK hK", 26),  # 13 + 13
    ("c7", 0),
])
def test_counting_in_groups_of_three(names: str, points: int) -> None:
    """"Gezählt wird in Dreiergruppen: Summe der drei Karten minus 2. Bei Restkarten zählen
    zwei Karten ihre Summe minus 1, eine einzelne Karte ihren Wert minus 1." """
    rules = rules54()
    state = deal_f().state
    assert rules.count(state, cards(names)) == 3 * points
    assert points_by_groups(cards(names)) == points


@pytest.mark.parametrize("split", [0, 1, 2, 27, 28, 29, 53, 54])
def test_always_seventy(split: int) -> None:
    """"Zusammen ergibt das immer genau 70 Augen." (docs/rules.md §5.2: one card over
    counts a third less, two over a third more, so both totals are whole.)"""
    rules = rules54()
    state = deal_f().state
    deck = list(rules.deck)
    a = rules.count(state, deck[:split])
    b = rules.count(state, deck[split:])
    assert a + b == 210
    assert a % 3 == 0 and b % 3 == 0


# -- Wertung ------------------------------------------------------------------------

def _check_points(hand: Hand) -> None:
    result = hand.state.result
    assert result is not None
    ours, theirs = won_cards(hand.state)
    assert result.points == (3 * points_by_groups(ours), 3 * points_by_groups(theirs))


def test_36_wins_and_the_value_is_one() -> None:
    """"Eine Partei gewinnt ab 36 Augen." / "Der Spielwert ist 1 Punkt: Jeder Verlierer zahlt
    ihn, die Gewinner bekommen zusammen genau so viel gutgeschrieben." """
    hand = WIN_36.play()
    result = hand.state.result
    assert result is not None
    _check_points(hand)
    assert result.points == (36 * 3, 34 * 3)
    assert result.declarers == (1, 2)
    assert result.won is True
    assert lines(result) == [Line("game", "declarers", True, 1)]
    assert result.settlement == (-1, 1, 1, -1)


def test_34_loses() -> None:
    """"Eine Partei gewinnt ab 36 Augen." (the opponents with 36 win)"""
    hand = LOSE_34.play()
    result = hand.state.result
    assert result is not None
    _check_points(hand)
    assert result.points == (34 * 3, 36 * 3)
    assert result.declarers == (0, 2)
    assert result.won is False
    assert lines(result) == [Line("game", "declarers", False, -1)]
    assert result.settlement == (-1, 1, -1, 1)


def test_35_35_is_a_draw() -> None:
    """"Bei 35 : 35 gibt es ein Unentschieden." (docs/rules.md §5.2: game value 0.)"""
    hand = DRAW_35.play()
    result = hand.state.result
    assert result is not None
    _check_points(hand)
    assert result.points == (105, 105)
    assert result.won is None
    assert lines(result) == [Line("game", "declarers", None, 0)]
    assert result.settlement == (0, 0, 0, 0)


def test_draw_still_scores_premiums() -> None:
    """"Bei 35 : 35 gibt es ein Unentschieden." (docs/rules.md §5.2: premiums still count.)"""
    hand = DRAW_35_PAGAT.play()
    result = hand.state.result
    assert result is not None
    assert result.points == (105, 105) and result.won is None
    assert lines(result) == [Line("game", "declarers", None, 0), Line("pagat-ultimo", "opponents", True, -1)]
    assert result.declarers == (0, 2)
    assert result.settlement == (-1, 1, -1, 1)


def test_pagat_ultimo_for_the_declarer_party() -> None:
    """"Pagat Ultimo: Wird der Pagat (I) im letzten Stich ausgespielt und gewinnt er ihn, gibt
    es 1 Punkt extra für die Partei dieses Spielers." """
    hand = PAGAT_OURS.play()
    result = hand.state.result
    assert result is not None
    last = hand.state.tricks[-1]
    assert last.cards[0] == PAGAT and last.winner == 3 and 3 in result.declarers
    assert result.won is True
    assert lines(result) == [Line("game", "declarers", True, 1), Line("pagat-ultimo", "declarers", True, 1)]
    assert result.settlement == (-2, -2, 2, 2)


def test_pagat_ultimo_for_the_opponents() -> None:
    """"... gibt es 1 Punkt extra für die Partei dieses Spielers." (here the opponents')"""
    hand = PAGAT_THEIRS.play()
    result = hand.state.result
    assert result is not None
    assert result.declarers == (1, 3)
    assert result.won is False
    assert lines(result) == [Line("game", "declarers", False, -1),
                             Line("pagat-ultimo", "opponents", True, -1)]
    assert result.settlement == (2, -2, 2, -2)


def test_pagat_not_led_but_winning_the_last_trick() -> None:
    """"im letzten Stich ausgespielt und gewinnt" (docs/rules.md §12.4: played in the last
    trick, led or not, and wins it)."""
    hand = DRAW_35_PAGAT.play()
    last = hand.state.tricks[-1]
    assert last.cards.index(PAGAT) == 1 and last.winner == 3
    result = hand.state.result
    assert result is not None
    assert [p.name for p in result.premium_items] == ["pagat-ultimo"]


def test_losing_pagat_in_the_last_trick_costs_nothing() -> None:
    """"Wird der Pagat (I) im letzten Stich ausgespielt und gewinnt er ihn" (docs/rules.md
    §12.4: a Pagat that loses the last trick costs nothing in tarock54)."""
    hand = PAGAT_LOSES.play()
    last = hand.state.tricks[-1]
    assert PAGAT in last.cards and last.winner != last.seats[last.cards.index(PAGAT)]
    result = hand.state.result
    assert result is not None
    assert result.premium_items == ()
    assert result.won is True
    assert lines(result) == [Line("game", "declarers", True, 1)]
    assert result.settlement == (-1, -1, 1, 1)


def test_valat_alone() -> None:
    """"Valat: Macht eine Partei alle 12 Stiche, gibt es 12 Punkte extra." / "Ultimo und Valat
    werden automatisch gewertet, man muss sie nicht ansagen." """
    hand = to_play(rigged_hand(*DEAL_A), discard="c7 c8 c9")
    assert hand.state.partner is None
    play_out(hand)
    result = hand.state.result
    assert result is not None
    assert all(t.winner == 1 for t in hand.state.tricks)
    assert lines(result) == [Line("game", "declarers", True, 1), Line("valat", "declarers", True, 12)]
    # (1 + 12) from each of the three opponents.
    assert result.settlement == (-13, 39, -13, -13)


def test_valat_against_the_rufer() -> None:
    """"Valat: Macht eine Partei alle 12 Stiche, gibt es 12 Punkte extra." (the opponents)"""
    hand = to_play(rigged_hand(*DEAL_V))
    assert hand.state.partner is None
    play_out(hand)
    result = hand.state.result
    assert result is not None
    assert all(t.winner != 1 for t in hand.state.tricks)
    assert lines(result) == [Line("game", "declarers", False, -1), Line("valat", "opponents", True, -12)]
    assert result.settlement == (13, -39, 13, 13)


# -- Kontra -------------------------------------------------------------------------

def test_kontra_round_after_the_discard_from_the_forehand() -> None:
    """"Wenn die Ansage entschieden ist (beim 54-Blatt nach dem Drücken) und bevor der erste
    Stich gespielt wird, sagen die Gegner des Rufers reihum, beginnend mit der Vorhand,
    Kontra oder „Weiter“." """
    hand = deal_f()
    act(hand, "1 pass", "2 call XX")  # seat 1 (forehand) is the partner
    assert hand.state.phase == "discard"
    act(hand, hand.legal(2)[0])
    assert hand.state.phase == "kontra"
    asked = []
    while hand.state.phase == "kontra":
        seat = hand.state.to_move
        assert seat is not None
        asked.append(seat)
        act(hand, Pass(seat))
    assert asked == [1, 3, 0]
    assert hand.state.phase == "play" and hand.state.kontra_level == 0


def test_partner_can_only_pass() -> None:
    """"Der geheime Partner des Rufers kann nicht gegen seinen Rufer kontern, er kann nur
    „Weiter“ sagen." """
    hand = deal_f()
    act(hand, "1 call XI", "1 discard s7 s8 s9")
    assert hand.state.to_move == 2 and hand.state.partner == 2
    assert hand.legal(2) == [Pass(2)]
    assert reason_of(hand, "2 kontra") == "partner-cannot-kontra"
    act(hand, "2 pass")
    assert hand.legal(3) == [Pass(3), Kontra(3)]


def test_alone_all_three_may_kontra() -> None:
    """"sagen die Gegner des Rufers reihum ... Kontra oder „Weiter“." (alone: three opponents)"""
    hand = rigged_hand(*DEAL_A)
    act(hand, "1 call X", "1 discard c7 c8 c9")
    for seat in (2, 3, 0):
        assert hand.legal(seat) == [Pass(seat), Kontra(seat)]
        act(hand, Pass(seat))
    assert hand.state.phase == "play"


def test_kontra_chain_levels() -> None:
    """"Wer Kontra sagt, verdoppelt den Spielwert samt allen Prämien (× 2). Danach ist nur noch
    der Rufer an der Reihe und kann mit Rekontra antworten (× 4)." / "Beim Rufspiel geht es
    weiter: Der Kontra-Geber kann mit Subkontra (× 8) antworten, und der Rufer darf mit Re-Sub
    (× 16) abschließen." """
    hand = deal_f()
    act(hand, "1 call XI", "1 discard s7 s8 s9", "2 pass", "3 kontra")
    assert hand.state.kontra_level == 1 and hand.state.to_move == 1
    assert reason_of(hand, "0 kontra") == "not-your-turn"  # seat 0 is not asked any more
    act(hand, "1 kontra")
    assert hand.state.kontra_level == 2 and hand.state.to_move == 3
    act(hand, "3 kontra")
    assert hand.state.kontra_level == 3 and hand.state.to_move == 1
    act(hand, "1 kontra")
    assert hand.state.kontra_level == 4
    assert hand.state.phase == "play" and hand.state.to_move == 1


@pytest.mark.parametrize(("steps", "factor"), [
    (["2 pass", "3 pass", "0 pass"], 1),
    (["2 pass", "3 kontra", "1 pass"], 2),
    (["2 pass", "3 pass", "0 kontra", "1 kontra", "0 pass"], 4),
    (["2 pass", "3 kontra", "1 kontra", "3 kontra", "1 pass"], 8),
    (["2 pass", "3 kontra", "1 kontra", "3 kontra", "1 kontra"], 16),
])
def test_kontra_factor_and_skipping_a_level_ends_the_round(steps: list[str], factor: int) -> None:
    """"Wer eine Stufe auslässt, beendet die Konter-Runde" / "Der Faktor gilt für den
    Spielwert samt allen Prämien" """
    game = WIN_36
    hand = game.play(game.steps[:2] + steps)
    result = hand.state.result
    level = factor.bit_length() - 1
    assert hand.state.kontra_level == level
    assert lines(result) == [Line("game", "declarers", True, factor, kontra=level)]
    assert result is not None and result.settlement == tuple(factor * s for s in (-1, 1, 1, -1))


def test_kontra_factor_applies_to_premiums() -> None:
    """"Der Faktor gilt für den Spielwert samt allen Prämien" (Pagat Ultimo and game: (1 + 1) × 2)"""
    game = PAGAT_OURS
    hand = game.play([*game.steps[:3], "1 kontra", "2 pass"])
    result = hand.state.result
    assert lines(result) == [Line("game", "declarers", True, 2, kontra=1),
                             Line("pagat-ultimo", "declarers", True, 2, kontra=1)]
    assert result is not None and result.settlement == (-4, -4, 4, 4)


def test_kontra_factor_applies_to_valat() -> None:
    """"Wer Kontra sagt, verdoppelt den Spielwert samt allen Prämien (× 2)." (alone Valat:
    (1 + 12) × 2 from each opponent)"""
    hand = rigged_hand(*DEAL_A)
    act(hand, "1 call X", "1 discard c7 c8 c9", "2 pass", "3 kontra", "1 pass")
    play_out(hand)
    result = hand.state.result
    assert lines(result) == [Line("game", "declarers", True, 2, kontra=1),
                             Line("valat", "declarers", True, 24, kontra=1)]
    assert result is not None and result.settlement == (-26, 78, -26, -26)


def test_without_the_kontra_option_there_is_no_kontra_round() -> None:
    """"Eine Option, die beim Eröffnen eines Tischs gewählt wird („Kontra und Rekontra“)." """
    assert rules54().options["kontra"] is True
    hand = rigged_hand(*DEAL_F, options={"kontra": False})
    act(hand, "1 call XI", "1 discard s7 s8 s9")
    assert hand.state.phase == "play"
    assert hand.state.to_move == 1
    assert not any(isinstance(a, Kontra) for a in hand.legal(1))
    assert reason_of(hand, "1 kontra") == "wrong-phase"
