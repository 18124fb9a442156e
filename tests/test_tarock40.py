"""Scenario tests of ``tarock40``: one or more per rule of docs/rules.md §13
("Variante 40 Blatt" (and the parts of the 54-card text it keeps:
"Alles gilt wie oben, außer:")), and of the readings in docs/rules.md §10, §4.5, §11, §4.3, §13.6.

Each test quotes the German source sentence it checks.
"""

from __future__ import annotations

import random

import pytest
from line_items import Line, lines
from test_tarock40_support import act, cards, decode, finished, play, rigged, rules40

from tarock.client.i18n import set_language
from tarock.client.text.rule_words import reason_text
from tarock.core.actions import Bid, Kontra, Pass, Play, Trump
from tarock.core.cards import DECK40, TAROCK, format_card, parse_card
from tarock.core.deal import deal
from tarock.core.engine import Hand, IllegalAction
from tarock.core.observation import observe
from tarock.core.record import record_of, replay
from tarock.core.state import Announcement, HandState
from tarock.core.table import Table, is_passed_out
from tarock.core.valat import SOLO, valat_on_own
from tarock.variants.cards40 import VALUE40, count40
from tarock.variants.tarock40 import may_kontra_valat


def reason(hand: Hand, step: str) -> str:
    """The reason code the engine gives for refusing ``step``."""
    with pytest.raises(IllegalAction) as err:
        hand.apply(decode(hand, step))
    return err.value.reason.code


def plays(hand: Hand, seat: int) -> set[int]:
    """The cards ``seat`` may play now."""
    return {a.card for a in hand.legal(seat) if isinstance(a, Play)}


def premiums(state: HandState) -> dict[str, int]:
    """Each premium's amount in the scored hand (what each opponent of the declarer party pays it)."""
    return {p.name: p.amount for p in rules40().score(state).premium_items}


def premium_lines(state: HandState) -> dict[str, Line]:
    return {p.name: p for p in lines(rules40().score(state)) if p.name != "game"}


# -- cards and deal ---------------------------------------------------------------

def test_forty_cards() -> None:
    """"20 Tarock (Pagat I, IV bis XX, Mond XXI und Sküs; der II und der III
    fehlen) und 20 Farbkarten: je Farbe König, Dame, Cavall, Bube und die
    höchste Zahlkarte (schwarz die 10, rot die 1). Zusammen 40 Karten.\""""
    deck = rules40().deck
    assert len(deck) == 40
    tarocks = {format_card(c) for c in deck if c < 22}
    assert tarocks == {"I", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV",
                       "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "Sküs"}
    pips = {format_card(c) for c in deck if c >= 22 and format_card(c)[1:] not in ("K", "Q", "C", "J")}
    assert pips == {"c10", "s10", "h1", "d1"}


def test_ten_cards_each_no_talon() -> None:
    """"Jeder bekommt 10 Karten, es gibt keinen Talon und kein Drücken. Sobald
    die Ansage entschieden ist, beginnt gleich das Spiel mit 10 Stichen.\""""
    rules = rules40()
    assert (rules.hand_size, rules.talon_piles) == (10, ())
    hands, talon = deal(rules, random.Random(3))
    assert [len(h) for h in hands] == [10] * 4 and talon == []
    hand = act(rigged([], dealer=3, options={"kontra": False}), "0 bid solo", "1 pass", "2 pass", "3 pass")
    assert hand.state.phase == "play" and hand.state.to_move == 0


def test_redeal_without_a_tarock() -> None:
    """"Jedes Blatt braucht mindestens ein Tarock, ein einzelnes Trullstück
    zählt nicht dazu. Sonst wird sofort neu gegeben.\""""
    rules = rules40()
    plain = [c for c in DECK40 if c >= 22]
    tarocks = [c for c in DECK40 if c < 22]
    no_tarock = [plain[:10], plain[10:] , tarocks[:10], tarocks[10:]]
    assert rules.redeal_reason(no_tarock) is not None
    lone = cards("Sküs") + plain[:9]
    assert rules.redeal_reason([lone, [], [], []]) is not None
    assert rules.redeal_reason([cards("Sküs XXI") + plain[:8], [], [], []]) is None
    assert rules.redeal_reason([cards("IV") + plain[:9], [], [], []]) is None
    rng = random.Random(7)
    for _ in range(300):
        for hand in deal(rules, rng)[0]:
            real = [c for c in hand if c < 22]
            assert real and not (len(real) == 1 and real[0] in cards("I XXI Sküs"))


# -- bidding ----------------------------------------------------------------------

def test_bidding_starts_with_the_forehand_and_outbids() -> None:
    """"Reihum, beginnend mit der Vorhand, sagt jeder ein höheres Spiel an als
    das bisherige Höchstgebot oder passt.\""""
    hand = rigged([], dealer=1)
    assert hand.state.to_move == 2
    act(hand, "2 bid faberl")
    legal = {a.contract for a in hand.legal(3) if isinstance(a, Bid)}
    assert "solo" in legal and not {"rufspiel", "faberl"} & legal
    assert reason(hand, "3 bid faberl") == "bid-too-low"
    assert reason(hand, "3 bid rufspiel") == "bid-too-low"


def test_the_ladder() -> None:
    """"Die Spiele, vom niedrigsten zum höchsten: Rufspiel, Faberl, Solo, Faberl
    absolut, Solo absolut, Solo mit Pagat ... Das Gebot steht auf einer Stufe
    mit Solo absolut.\""""
    rules = rules40()
    ranks = [rules.contract(n).rank for n in ("rufspiel", "faberl", "solo", "faberl-absolut", "solo-absolut")]
    assert ranks == sorted(set(ranks))
    assert rules.contract("solo-pagat").rank == rules.contract("solo-absolut").rank
    assert [c.name for c in rules.contracts][:5] == ["rufspiel", "faberl", "solo", "faberl-absolut",
                                                     "solo-absolut"]


def test_a_pass_is_final() -> None:
    """"Wer passt, ist draußen.\""""
    hand = act(rigged([], dealer=3), "0 pass", "1 bid rufspiel", "2 bid faberl", "3 pass")
    assert hand.state.to_move == 1  # seat 0 passed and is skipped
    act(hand, "1 bid solo")
    assert hand.state.to_move == 2


def test_bidding_ends_when_all_others_passed() -> None:
    """"Die Ansage endet, wenn alle anderen gepasst haben\""""
    hand = act(rigged([], dealer=3), "0 bid rufspiel", "1 pass", "2 pass")
    assert hand.state.phase == "bidding" and hand.state.declarer is None
    act(hand, "3 pass")
    assert hand.state.declarer == 0 and hand.state.contract is not None
    assert hand.state.contract.name == "rufspiel" and hand.state.phase == "kontra"


def test_the_last_seat_may_still_bid_after_three_passes() -> None:
    """"Die Ansage endet, wenn alle anderen gepasst haben\" (the fourth bids: nobody is left)."""
    hand = act(rigged([], dealer=3), "0 pass", "1 pass", "2 pass", "3 bid solo")
    assert hand.state.declarer == 3 and hand.state.phase == "kontra"


def test_a_top_level_bid_ends_the_bidding() -> None:
    """"... oder ein Gebot der obersten Stufe (Solo absolut, Solo mit Pagat)
    angesagt wurde.\""""
    hand = act(rigged([], dealer=3), "0 bid rufspiel", "1 bid solo-absolut")
    assert hand.state.declarer == 1 and hand.state.phase == "kontra"
    hand = act(rigged(["I"], dealer=3), "0 bid solo-pagat")
    assert hand.state.declarer == 0 and hand.state.phase == "kontra"


def test_four_passes_deal_again() -> None:
    """"Passen alle vier, wird neu gegeben.\" (docs/rules.md §3.4: not a round.)"""
    hand = act(rigged([], dealer=0), "1 pass", "2 pass", "3 pass", "0 pass")
    assert hand.done
    result = hand.state.result
    assert result is not None and result.passed_out and is_passed_out(result) and hand.state.passed_out
    assert result.settlement == (0, 0, 0, 0) and result.items == ()


# -- Rufspiel ---------------------------------------------------------------------

def test_rufspiel_calls_the_highest_tarock_not_held() -> None:
    """"Gerufen wird der höchste Tarock von XX bis XVI, den man nicht selbst
    hält: Wer den XX hält, ruft den XIX, wer XX und XIX hält, den XVIII\""""
    hand = rigged(["XX XIX c10 s10 h1 d1 cJ sJ hJ dJ", "XVIII"], dealer=3)
    act(hand, "0 bid rufspiel", "1 pass", "2 pass", "3 pass")
    assert hand.state.called == parse_card("XVIII") and hand.state.partner == 1


def test_holding_all_five_cannot_call() -> None:
    """"Wer alle fünf hält, kann nicht rufen.\""""
    hand = rigged(["XX XIX XVIII XVII XVI"], dealer=3)
    assert not any(isinstance(a, Bid) and a.contract == "rufspiel" for a in hand.legal(0))
    assert reason(hand, "0 bid rufspiel") == "cannot-call"
    assert hand.why_not(Bid(0, "faberl")) is None


def test_the_called_card_is_told_when_the_bidding_is_decided() -> None:
    """"Weil alle Tarock-Karten ausgeteilt sind, hat der Rufer immer einen
    Partner. Welche Karte gerufen wurde, erfahren alle erst, wenn die Ansage
    entschieden ist.\""""
    hand = act(rigged([], dealer=3), "0 bid rufspiel", "1 pass", "2 pass")
    assert hand.state.called is None
    assert all(observe(hand, s).called is None for s in range(4))
    act(hand, "3 pass")
    called = hand.state.called
    assert called is not None and hand.state.partner not in (None, 0)
    assert all(observe(hand, s).called == called for s in range(4))


def test_the_partnership_is_public_when_the_called_card_is_played() -> None:
    """"Wer den gerufenen Tarock hält, ist sein Partner. Das bleibt geheim, bis
    die Karte gespielt wird.\""""
    hand = rigged(["XX c10 s10 h1 d1 cJ sJ hJ dJ I", "XIX IV V VI VII VIII IX X XI XII"], dealer=3,
                  options={"kontra": False})
    act(hand, "0 bid rufspiel", "1 pass", "2 pass", "3 pass")
    assert observe(hand, 2).partner is None and observe(hand, 1).partner == 1
    play(hand, "XX XIX")
    assert observe(hand, 2).partner == 1


# -- Faberl -----------------------------------------------------------------------

FABERL = ["hK hC cK cQ sK sQ dK Sküs XXI XX", "hQ hJ cC cJ c10 XIX XVIII XVII XVI XV",
          "h1 sC sJ s10 XIV XIII XII XI X IX", "dQ dC dJ d1 VIII VII VI V IV I"]


def faberl_hand(options: dict[str, object] | None = None) -> Hand:
    hand = rigged(FABERL, dealer=3, options={"kontra": False, **(options or {})})
    return act(hand, "0 bid faberl", "1 pass", "2 pass", "3 pass")


def test_faberl_declarer_names_the_trump() -> None:
    """"Faberl (Farben-Solo): Du spielst allein gegen die drei anderen und
    wählst eine Trumpffarbe.\" (docs/rules.md §4.5: named once the bidding is won.)"""
    hand = faberl_hand()
    assert hand.state.phase == "trump"
    assert set(hand.legal(0)) == {Trump(0, s) for s in "cshd"}
    assert reason(hand, "0 trump x") == "no-such-suit"
    act(hand, "0 trump h")
    assert hand.state.contract is not None and hand.state.contract.trump == "h"
    assert hand.state.phase == "play"


def test_faberl_trumps_must_be_beaten_if_possible() -> None:
    """"Deren Karten stechen alles (der König ist der höchste Trumpf). ... Es gilt
    Farbzwang; wer die Farbe nicht bedienen kann, muss Trumpf zugeben und wenn
    möglich überstechen.\""""
    hand = act(faberl_hand(), "0 trump h")
    play(hand, "hC")
    assert plays(hand, 1) == set(cards("hQ"))  # hJ would not beat the hC
    assert reason(hand, "1 play hJ") == "must-overtrump"
    play(hand, "hQ")
    assert plays(hand, 2) == set(cards("h1"))
    play(hand, "h1")
    assert len(hand.legal(3)) == 10  # neither hearts nor trumps: anything
    play(hand, "I")
    assert hand.state.tricks[-1].winner == 1


def test_faberl_tarocks_are_a_plain_suit() -> None:
    """"Die Tarocks sind in diesem Spiel eine gewöhnliche Farbe ... und sie
    stechen nicht.\" (docs/rules.md §4.3: no duty to beat in a plain suit.)"""
    hand = act(faberl_hand(), "0 trump h")
    play(hand, "hC hQ h1 I")  # seat 1 leads next
    play(hand, "XV")
    assert plays(hand, 2) == set(cards("XIV XIII XII XI X IX"))
    play(hand, "IX VIII Sküs")
    assert hand.state.tricks[-1].winner == 0  # normal order: the Sküs is highest (decision 4)
    play(hand, "sK")
    assert plays(hand, 1) == set(cards("hJ"))  # void in spades: trump
    play(hand, "hJ sC")
    assert plays(hand, 3) == set(cards("dQ dC dJ d1 VII VI V IV"))
    play(hand, "VII")
    assert hand.state.tricks[-1].winner == 1  # the trump beats the King of spades


def test_faberl_literal_order_option() -> None:
    """"der XX ist ihre höchste, der Pagat ihre niedrigste Karte\" (option
    ``faberl_xx_high``, docs/rules.md §4.5)."""
    hand = act(faberl_hand({"faberl_xx_high": True}), "0 trump h")
    play(hand, "hC hQ h1 I", "XV IX VIII Sküs")
    assert hand.state.tricks[-1].winner == 1
    state = finished(rules40(options={"faberl_xx_high": True}), "faberl", 0,
                     [(0, "XX XIX XXI Sküs")], trump="h")
    assert state.tricks[0].winner == 0


def test_faberl_no_pagat_ultimo_no_kaiserstich_no_mondfang() -> None:
    """"Einen Pagat Ultimo gibt es hier nicht.\"; Kaiserstich and Mond fangen
    "(nicht im Faberl)\"."""
    rules = rules40()
    tricks = [(0, "Sküs XXI IV V"), (0, "I hQ sQ cQ")]
    faberl = finished(rules, "faberl", 0, tricks, trump="d")
    assert [t.winner for t in faberl.tricks] == [0, 0]
    assert "pagat" not in premiums(faberl) and "mondfang" not in premiums(faberl)
    solo = premium_lines(finished(rules, "solo", 0, tricks))
    assert solo["pagat"] == Line("pagat", "declarers", True, 2, scale=2)
    assert solo["mondfang"] == Line("mondfang", "declarers", True, 2, scale=2)
    assert finished(rules, "faberl", 0, [(1, "XXI Sküs I IV")], trump="h").tricks[0].winner == 2
    assert finished(rules, "solo", 0, [(1, "XXI Sküs I IV")]).tricks[0].winner == 3  # Kaiserstich


def test_faberl_and_solo_are_worth_four() -> None:
    """"Der Spielwert ist 4 (das Rufspiel zählt 1).\""""
    rules = rules40()
    assert [rules.contract(n).value for n in ("rufspiel", "faberl", "solo")] == [1, 4, 4]


# -- counting and settlement ------------------------------------------------------

def test_counting_card_by_card() -> None:
    """"Pagat, Mond, Sküs und die Könige je 5, Dame 4, Cavall 3, Bube 2, die
    übrigen Tarocks 1 Auge. Die Zahlkarte jeder Farbe („Glatze“) zählt nichts.
    Beide Parteien zusammen haben genau 88 Augen.\""""
    assert count40(DECK40) == 88
    values = [VALUE40[c] for c in cards("I XXI Sküs hK hQ hC hJ h1 c10 XX IV")]
    assert values == [5, 5, 5, 5, 4, 3, 2, 0, 0, 1, 1]


SPLIT_44 = [(0, "hK hQ hC hJ"), (0, "sK sQ sC sJ"), (0, "cK cQ cC cJ"), (0, "VI IV c10 s10"),
            (1, "Sküs I V VII"), (1, "XXI VIII IX X"), (1, "XX XI XII XIII"), (1, "XIX XIV XV XVI"),
            (1, "XVIII XVII dK dQ"), (1, "dC dJ d1 h1")]


def test_44_44_goes_to_the_opponents() -> None:
    """"Der Rufer (bzw. Alleinspieler) braucht die Mehrheit der Augen, also 45.
    Den Gegnern genügen 44: Bei 44 : 44 gewinnen die Gegner, ein Remis gibt es nicht.\""""
    rules = rules40()
    result = rules.score(finished(rules, "solo", 0, SPLIT_44))
    assert result.points == (44, 44) and result.won is False
    assert lines(result)[0] == Line("game", "declarers", False, -4)
    won = [(0, "VII VI IV c10") if t == (0, "VI IV c10 s10") else
           (1, "Sküs I V s10") if t == (1, "Sküs I V VII") else t for t in SPLIT_44]
    result = rules.score(finished(rules, "solo", 0, won))
    assert result.points == (45, 43) and result.won is True
    assert lines(result)[0] == Line("game", "declarers", True, 4)


def test_settlement_per_opponent() -> None:
    """docs/rules.md §10: 2 v 2 each loser pays one winner; a lone player
    receives the value from, or pays it to, each of the three others."""
    rules = rules40()
    solo = rules.score(finished(rules, "solo", 0, SPLIT_44))
    per = sum(p.amount for p in lines(solo))
    assert lines(solo)[0] == Line("game", "declarers", False, -4)
    assert solo.settlement == (3 * per, -per, -per, -per)
    ruf = rules.score(finished(rules, "rufspiel", 0, SPLIT_44, partner=2, called=parse_card("XX")))
    assert lines(ruf)[0] == Line("game", "declarers", False, -1)
    amount = sum(p.amount for p in lines(ruf))
    assert ruf.settlement == (amount, -amount, amount, -amount) and sum(ruf.settlement) == 0


# -- absolut games and Solo mit Pagat -----------------------------------------------

def test_absolut_needs_56() -> None:
    """"Faberl absolut: ... Dafür muss er mindestens 56 Augen machen, sonst hat
    er verloren, auch mit mehr Augen als die Gegner. Schafft er es, gibt es die
    angesagte Absolut-Prämie (2, im Einzelspiel doppelt), sonst geht sie an die Gegner.\""""
    rules = rules40()
    won45 = [(0, "VII VI IV c10") if t == (0, "VI IV c10 s10") else
             (1, "Sküs I V s10") if t == (1, "Sküs I V VII") else t for t in SPLIT_44]
    lost = finished(rules, "solo-absolut", 0, won45)
    assert lost.announcements == [Announcement("absolut", 0)]  # the game announces it
    result = rules.score(lost)
    assert result.points[0] == 45 and result.won is False
    assert lines(result)[0] == Line("game", "declarers", False, -4)
    assert premium_lines(lost)["absolut"] == Line("absolut", "declarers", False, -4, announced=True, scale=2)
    big = [(0, t[1]) if t[1].startswith(("XX ", "XIX", "Sküs")) else t for t in won45]
    made = finished(rules, "faberl-absolut", 0, big, trump="d")
    result = rules.score(made)
    assert result.points[0] >= 56 and result.won is True
    assert premium_lines(made)["absolut"] == Line("absolut", "declarers", True, 4, announced=True, scale=2)


def test_solo_absolut_and_faberl_absolut_bids() -> None:
    """"Solo absolut: Wie das Solo mit Absolut-Ansage. Es steht auf der obersten
    Stufe und beendet die Ansage sofort.\""""
    hand = act(rigged([], dealer=3), "0 bid faberl-absolut")  # seat 1 lacks the Pagat
    assert {a.contract for a in hand.legal(1) if isinstance(a, Bid)} == {"solo-absolut"}
    act(hand, "1 bid solo-absolut")
    assert hand.state.declarer == 1
    assert [a.name for a in hand.state.announcements] == ["absolut"]


def test_solo_mit_pagat_needs_the_pagat() -> None:
    """"Solo mit Pagat (Schwarzer mit Pagat): ... Dafür brauchst du den Pagat auf
    der Hand. ... Gelingt der Pagat, gibt es die angesagte Pagat-Prämie (2, im
    Einzelspiel doppelt), sonst geht sie an die Gegner.\""""
    hand = rigged(["IV", "I"], dealer=3)
    assert reason(hand, "0 bid solo-pagat") == "pagat-not-held"
    hand = act(rigged(["I"], dealer=3), "0 bid solo-pagat")
    assert [a.name for a in hand.state.announcements] == ["pagat"]
    rules = rules40()
    made = finished(rules, "solo-pagat", 0, [(1, "hK hQ hC hJ"), (0, "I c10 s10 h1")])
    assert premium_lines(made)["pagat"] == Line("pagat", "declarers", True, 4, announced=True, scale=2)
    lost = finished(rules, "solo-pagat", 0, [(0, "I c10 s10 h1"), (1, "hK hQ hC hJ")])
    assert premium_lines(lost)["pagat"] == Line("pagat", "declarers", False, -4, announced=True, scale=2)


# -- premiums -----------------------------------------------------------------------

def test_premiums_silent_and_doubled_in_single_games() -> None:
    """"Prämien gehen an die Partei, die sie schafft; im Einzelspiel (Faberl,
    Solo) zählen sie doppelt: Pagat Ultimo ... 1; Trull ... 1; 4 Könige ... 1;
    Mond fangen: der Sküs sticht den Mond der anderen Partei (nicht im Faberl): 1\""""
    rules = rules40()
    tricks = [(0, "Sküs XXI IV V"), (0, "hK sK cK dK"), (2, "c10 s10 h1 I")]
    ruf = finished(rules, "rufspiel", 0, tricks, partner=2, called=parse_card("XX"))
    assert ruf.tricks[0].winner == 0 and ruf.tricks[2].winner == 1  # the Pagat (seat 1) takes the last
    got = premium_lines(ruf)
    assert got == {"kings": Line("kings", "declarers", True, 1),
                   "mondfang": Line("mondfang", "declarers", True, 1),
                   "pagat": Line("pagat", "opponents", True, -1)}  # no Trull: the Pagat with the opponents
    solo = finished(rules, "solo", 0, tricks)
    assert premium_lines(solo) == {k: v._replace(amount=2 * v.amount, scale=2) for k, v in got.items()}


def test_trull_and_valat() -> None:
    """"Trull: Pagat, Mond und Sküs liegen in den Stichen einer Partei: 1;
    angesagt 2 ... Valat: eine Partei macht alle 10 Stiche: 6; angesagt 12\""""
    rules = rules40()
    tricks = [(0, "Sküs XXI I IV"), (0, "hK hQ hC hJ")]
    assert premiums(finished(rules, "rufspiel", 0, tricks, partner=2))["trull"] == 1
    assert premiums(finished(rules, "rufspiel", 0, tricks, partner=2))["valat"] == 6
    loud = premium_lines(finished(rules, "rufspiel", 0, tricks, partner=2,
                                  announcements=[Announcement("trull", 0), Announcement("valat", 0)]))
    assert loud["trull"] == Line("trull", "declarers", True, 2, announced=True)
    assert loud["valat"] == Line("valat", "declarers", True, 12, announced=True)


def test_a_lost_announcement_goes_to_the_opponents() -> None:
    """"Gelingt die Ansage, gibt es die angesagte Prämie (Pagat 2, Trull 2,
    Valat 12; im Einzelspiel doppelt), sonst geht sie an die Gegner; die stille
    Prämie entfällt dann.\""""
    rules = rules40()
    tricks = [(1, "Sküs XXI I IV"), (1, "hK hQ hC hJ")]  # the opponents take everything
    silent = premium_lines(finished(rules, "solo", 0, tricks))
    assert silent["trull"] == Line("trull", "opponents", True, -2, scale=2)
    assert silent["valat"] == Line("valat", "opponents", True, -12, scale=2)
    loud = premium_lines(finished(rules, "solo", 0, tricks,
                                  announcements=[Announcement("trull", 0), Announcement("valat", 0)]))
    # announced value to them, not also the silent one
    assert loud["trull"] == Line("trull", "declarers", False, -4, announced=True, scale=2)
    assert loud["valat"] == Line("valat", "declarers", False, -24, announced=True, scale=2)


def test_silent_absolut_only_for_the_declarers() -> None:
    """"Absolut: die Rufer-Partei macht mindestens 56 Augen: 1\" (docs/rules.md §13.6)."""
    rules = rules40()
    them = finished(rules, "rufspiel", 0, [(1, c) for _, c in SPLIT_44[:9]] + [(0, SPLIT_44[9][1])],
                    partner=2)
    assert rules.score(them).points[1] >= 56 and "absolut" not in premiums(them)
    ours = finished(rules, "rufspiel", 0, [(0, c) for _, c in SPLIT_44[:9]] + [(1, SPLIT_44[9][1])],
                    partner=2)
    assert rules.score(ours).points[0] >= 56
    assert premium_lines(ours)["absolut"] == Line("absolut", "declarers", True, 1)


def test_kaiserstich() -> None:
    """"Kaiserstich: Liegen Pagat, Mond und Sküs im selben Stich, gewinnt der
    Pagat (nicht im Faberl).\""""
    rules = rules40()
    assert finished(rules, "rufspiel", 0, [(2, "Sküs IV I XXI")]).tricks[0].winner == 0
    assert finished(rules, "faberl", 0, [(2, "Sküs IV I XXI")], trump="c").tricks[0].winner == 2


# -- announcements with a bid -------------------------------------------------------

def test_announcements_with_every_bid() -> None:
    """"Zu jedem Gebot kannst du im Feld „Zusätzlich ansagen“ Pagat, Trull und
    Valat ankündigen (Pagat nur beim Rufspiel und nur mit dem Pagat auf der
    Hand), auch mehrere zugleich.\""""
    hand = rigged(["I"], dealer=3)
    bids = {(a.contract, a.announce) for a in hand.legal(0) if isinstance(a, Bid)}
    assert ("rufspiel", ("pagat", "trull", "valat")) in bids
    assert ("solo", ("trull",)) in bids and ("solo", ("pagat",)) not in bids
    assert reason(hand, "0 bid solo pagat") == "pagat-only-rufspiel"
    other = rigged(["IV", "I"], dealer=3)
    assert reason(other, "0 bid rufspiel pagat") == "pagat-not-held"
    act(hand, "0 bid rufspiel pagat trull", "1 pass", "2 pass", "3 pass")
    assert hand.state.announcements == [Announcement("pagat", 0), Announcement("trull", 0)]


def test_announced_pagat_in_rufspiel() -> None:
    """"Pagat Ultimo: der Pagat gewinnt den letzten Stich (nicht im Faberl): 1;
    angesagt (Rufspiel, Solo mit Pagat) 2\""""
    rules = rules40()
    ann = [Announcement("pagat", 0)]
    made = finished(rules, "rufspiel", 0, [(1, "hK hQ hC hJ"), (0, "I c10 s10 h1")], partner=2,
                    announcements=ann)
    assert premium_lines(made)["pagat"] == Line("pagat", "declarers", True, 2, announced=True)
    early = finished(rules, "rufspiel", 0, [(0, "I c10 s10 h1"), (1, "hK hQ hC hJ")], partner=2,
                     announcements=ann)
    assert premium_lines(early)["pagat"] == Line("pagat", "declarers", False, -2, announced=True)


# -- Valat aus eigener Kraft ---------------------------------------------------------

STRONG = "Sküs XXI XX XIX XVIII XVII XVI V IV hK"


def test_valat_on_own_strength() -> None:
    """"Valat aus eigener Kraft: Beim Solo und Faberl darf ein Valat nur angesagt
    werden, wenn das Blatt ihn aus eigener Kraft gewinnt. Zum Beispiel die
    sieben höchsten Tarocks, zwei kleine und ein König, aber nicht mit
    irgendeiner Farbkarte; beim Faberl einen König in jeder Farbe und die
    höchsten vier Trümpfe\""""
    hand = rigged([STRONG], dealer=3)
    assert Bid(0, "solo", ("valat",)) in hand.legal(0)
    weak = rigged([STRONG.replace("hK", "hQ")], dealer=3)
    assert Bid(0, "solo", ("valat",)) not in weak.legal(0)
    assert reason(weak, "0 bid solo valat") == "valat-not-own-strength"
    faberl = rigged(["hK hQ hC hJ cK sK dK Sküs XXI XX"], dealer=3)
    assert Bid(0, "faberl", ("valat",)) in faberl.legal(0)


def test_a_refused_valat_says_how_many_deals_were_made() -> None:
    """"Die App spielt dein Blatt dazu gegen viele Verteilungen durch und lässt
    den Valat zu, wenn er praktisch immer gelingt": the refusal says what the
    check found (deals lost and made of those played, the 95 % interval, the
    bar), in German and in English; without the Sküs no deal is played
    ("aber nicht mit irgendeiner Farbkarte" shows the bar is high)."""
    weak = rigged([STRONG.replace("hK", "hQ")], dealer=3)
    with pytest.raises(IllegalAction) as err:
        weak.apply(decode(weak, "0 bid solo valat"))
    why = err.value.reason
    assert why.code == "valat-not-own-strength"
    assert why.message == ("a Valat in this game needs a hand that makes it on its own: 3 of the 3 deals "
                           "played were lost and 0 made (95% Wilson interval of the rate 0.0–56.1 %); "
                           "a Valat must be made in 198 of 200")
    assert reason_text(why) == ("ein Valat in diesem Spiel braucht ein Blatt, das ihn aus eigener Kraft "
                                "gewinnt: von 3 durchgespielten Verteilungen gingen 3 verloren und 0 "
                                "gelangen (95-%-Intervall nach Wilson für die Quote 0,0–56,1 %); ein Valat "
                                "muss in 198 von 200 gelingen")
    set_language("en")
    assert reason_text(why) == why.message
    no_skus = rigged(["XXI XX XIX XVIII XVII XVI XV V IV hK"], dealer=3)
    with pytest.raises(IllegalAction) as err:
        no_skus.apply(decode(no_skus, "0 bid solo valat"))
    assert err.value.reason.message.endswith("without the highest trump an opponent takes a trick, "
                                             "so no deal was played")


def test_valat_check_only_in_single_games() -> None:
    """"Beim Rufspiel gilt die Prüfung nicht, dort hilft der Partner mit.\""""
    weak = rigged(["XV X V IV hQ sJ c10 d1 cC sC"], dealer=3)
    assert Bid(0, "rufspiel", ("valat",)) in weak.legal(0)
    assert Bid(0, "solo", ("valat",)) not in weak.legal(0)


def test_valat_check_leader_needs_less() -> None:
    """"wer nicht ausspielt, braucht dafür mehr als der Ausspieler\""""
    assert valat_on_own(cards(STRONG), SOLO, TAROCK, 0)
    assert not valat_on_own(cards(STRONG), SOLO, TAROCK, 2)
    hand = rigged(["c10", STRONG], dealer=3)  # seat 1 plays second
    assert Bid(1, "solo", ("valat",)) not in act(hand, "0 pass").legal(1)


# -- Kontra ---------------------------------------------------------------------------

def test_kontra_round_opponents_from_forehand() -> None:
    """"Wenn die Ansage entschieden ist ... sagen die Gegner des Rufers reihum,
    beginnend mit der Vorhand, Kontra oder „Weiter“.\""""
    hand = act(rigged([], dealer=0), "1 pass", "2 bid solo", "3 pass", "0 pass")
    assert hand.state.phase == "kontra" and hand.state.to_move == 1
    act(hand, "1 pass")
    assert hand.state.to_move == 3


def test_solo_chain_stops_after_rekontra() -> None:
    """"Wer Kontra sagt, verdoppelt ... Danach ist nur noch der Rufer an der Reihe
    und kann mit Rekontra antworten (× 4). ... Bei Faberl und Solo ist nach dem
    Rekontra Schluss.\""""
    hand = act(rigged([], dealer=3), "0 bid solo", "1 pass", "2 pass", "3 pass", "1 kontra")
    assert hand.state.to_move == 0 and set(hand.legal(0)) == {Pass(0), Kontra(0)}
    act(hand, "0 kontra")
    assert hand.state.kontra_level == 2 and hand.state.phase == "play"


def test_rufspiel_chain_to_resub() -> None:
    """"Beim Rufspiel geht es weiter: Der Kontra-Geber kann mit Subkontra (× 8)
    antworten, und der Rufer darf mit Re-Sub (× 16) abschließen.\""""
    hand = rigged(["XX", "XIX"], dealer=3)  # seat 1 is the partner
    act(hand, "0 bid rufspiel", "1 pass", "2 pass", "3 pass")
    assert hand.state.partner == 1
    act(hand, "1 pass", "2 kontra", "0 kontra", "2 kontra", "0 kontra")
    assert hand.state.kontra_level == 4 and hand.state.phase == "play"


def test_skipping_a_level_ends_the_chain() -> None:
    """"Wer eine Stufe auslässt, beendet die Konter-Runde\""""
    hand = act(rigged(["XX", "XIX"], dealer=3), "0 bid rufspiel", "1 pass", "2 pass", "3 pass",
               "1 pass", "2 kontra", "0 pass")
    assert hand.state.kontra_level == 1 and hand.state.phase == "play"


def test_partner_cannot_kontra() -> None:
    """"Der geheime Partner des Rufers kann nicht gegen seinen Rufer kontern, er
    kann nur „Weiter“ sagen.\""""
    hand = act(rigged(["XX", "XIX"], dealer=3), "0 bid rufspiel", "1 pass", "2 pass", "3 pass")
    assert hand.legal(1) == [Pass(1)]
    assert reason(hand, "1 kontra") == "partner-cannot-kontra"


def test_the_factor_covers_game_and_premiums() -> None:
    """"Der Faktor gilt für den Spielwert samt allen Prämien: Ein gewonnenes Solo
    ohne Prämien (4) zählt mit Rekontra 4 × 4 = 16.\""""
    rules = rules40()
    tricks = [(0, "hK hQ hC hJ"), (0, "sK sQ sC sJ"), (0, "cK cQ cC cJ"), (0, "XXI VI IV c10"),
              (1, "Sküs V s10 XIII"), (2, "I VIII IX X"), (1, "XX XI XII VII"), (1, "XIX XIV XV XVI"),
              (1, "XVIII XVII dK dQ"), (1, "dC dJ d1 h1")]
    result = rules.score(finished(rules, "solo", 0, tricks, kontra=2))
    assert result.won is True
    assert lines(result) == [Line("game", "declarers", True, 16, kontra=2)]
    assert result.settlement == (48, -16, -16, -16)


PFLICHT = ["XX c10 s10 h1 d1 cJ sJ hJ dJ IV", "I XXI Sküs", "XIX"]


def test_pflichtkontra() -> None:
    """"Pflichtkontra (Turnierregel, nur 40 Blatt): Wer als Gegner eines Rufspiels
    alle drei Trullstücke (Pagat, Mond und Sküs) auf der Hand hält, muss Kontra
    geben, solange der Rufer nichts zusätzlich angesagt hat. Auf höhere Stufen
    besteht kein Zwang, bei Faberl und Solo gilt die Pflicht nicht.\""""
    hand = act(rigged(PFLICHT, dealer=3), "0 bid rufspiel", "1 pass", "2 pass", "3 pass")
    assert hand.state.partner != 1 and hand.legal(1) == [Kontra(1)]
    assert reason(hand, "1 pass") == "pflichtkontra"
    act(hand, "1 kontra", "0 kontra")
    assert Pass(1) in hand.legal(1)  # no duty to Subkontra
    added = act(rigged(PFLICHT, dealer=3), "0 bid rufspiel trull", "1 pass", "2 pass", "3 pass")
    assert Pass(1) in added.legal(1)
    solo = act(rigged(PFLICHT, dealer=3), "0 bid solo", "1 pass", "2 pass", "3 pass")
    assert Pass(1) in solo.legal(1)


VALAT_DEAL = [STRONG, "XV XIV XIII XII XI X IX VIII cK cQ", "VII I cC cJ c10 sK sQ sC sJ s10",
              "VI hQ hC hJ h1 dK dQ dC dJ d1"]


def test_kontra_on_an_announced_valat() -> None:
    """"Kontra auf einen Valat (Turnierregel, nur 40 Blatt): Hat der Rufer einen
    Valat angesagt, darf ein Gegner nur mit starker Hand kontern ... beim Solo
    mit den zwei höchsten Tarocks XVI und XV zu siebt, XV und XIV zu acht und so
    weiter ... Sonst bleibt nur „Weiter“.\""""
    hand = act(rigged(VALAT_DEAL, dealer=3), "0 bid solo valat", "1 pass", "2 pass", "3 pass")
    assert Kontra(1) in hand.legal(1)  # XV and XIV among eight tarocks
    act(hand, "1 pass")
    assert hand.legal(2) == [Pass(2)]
    assert reason(hand, "2 kontra") == "valat-kontra-needs-strength"


def test_valat_kontra_strong_hands() -> None:
    """"mit Sküs oder Mond zu neunt (die einzige Farbkarte darf kein König sein,
    außer er spielt aus) oder mit dem XX zu zehnt ... beim Faberl mit drei
    Königen und dem Mond zu siebt\""""
    rules = rules40()
    solo, faberl, ruf = rules.contract("solo"), rules.contract("faberl"), rules.contract("rufspiel")
    assert solo is not None and faberl is not None and ruf is not None
    nine = cards("Sküs XIX XVIII XVII XVI XV XIV XIII XII")
    assert may_kontra_valat([*nine, *cards("hQ")], ruf, leads=False)
    assert not may_kontra_valat([*nine, *cards("hK")], ruf, leads=False)
    assert may_kontra_valat([*nine, *cards("hK")], ruf, leads=True)
    assert may_kontra_valat(cards("XX XIX XVIII XVII XVI XV XIV XIII XII XI"), ruf, leads=False)
    assert not may_kontra_valat(cards("XIX XVIII XVII XVI XV XIV XIII XII XI hK"), ruf, leads=False)
    assert may_kontra_valat(cards("XVI XV X IX VIII VII VI hQ sQ cQ"), solo, leads=False)
    assert not may_kontra_valat(cards("XVI XV X IX VIII VII VI hQ sQ cQ"), ruf, leads=False)
    assert may_kontra_valat(cards("XIII XII XI X IX VIII VII VI V IV"), solo, leads=False)
    assert may_kontra_valat(cards("hK sK cK XXI XV XIV XIII XII XI X"), faberl, leads=False)
    assert not may_kontra_valat(cards("hK sK cQ XXI XV XIV XIII XII XI X"), faberl, leads=False)


# -- records -------------------------------------------------------------------------

def test_record_shape_and_replay() -> None:
    """The issue's record vocabulary: bid with announce, trump, kontra, pass, play;
    hands of 10 cards and an empty talon."""
    hand = rigged(["hK hQ hC hJ cK sK dK Sküs XXI XX"], dealer=3)
    act(hand, "0 bid faberl valat", "1 pass", "2 pass", "3 pass", "0 trump h", "1 pass", "2 pass", "3 pass")
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(hand.legal(seat)[0])
    data = record_of(hand).to_json()
    assert data["talon"] == [] and all(len(h) == 10 for h in data["hands"])
    assert data["actions"][0] == {"seat": 0, "type": "bid", "contract": "faberl", "announce": ["valat"]}
    assert data["actions"][4] == {"seat": 0, "type": "trump", "suit": "h"}
    again = replay(data)
    assert again.error_index is None and again.hand is not None
    assert again.hand.state.result == hand.state.result
    assert hand.state.result is not None and hand.state.result.items[-1].name == "valat"
    assert hand.state.result.items[-1].announced


def test_illegal_actions_are_rejected_at_their_index() -> None:
    hand = act(rigged([], dealer=3), "0 bid faberl", "1 pass")
    data = record_of(hand).to_json()
    data["actions"].append({"seat": 2, "type": "bid", "contract": "rufspiel"})
    data["actions"].append({"seat": 3, "type": "pass"})
    result = replay(data)
    assert result.error_index == 2 and result.reason is not None and result.reason.code == "bid-too-low"
    data["actions"][2] = {"seat": 2, "type": "bid", "contract": "solo", "announce": ["pagat"]}
    assert replay(data).error_index == 2
    data["actions"][2] = {"seat": 3, "type": "pass"}
    assert replay(data).reason.code == "not-your-turn"  # type: ignore[union-attr]
    data["actions"][2] = {"seat": 2, "type": "play", "card": format_card(hand.state.hands[2][0])}
    assert replay(data).error_index == 2


def test_play_is_checked() -> None:
    """"Farbzwang ... Tarockzwang ... Stichzwang: Liegt ein Tarock im Stich, muss
    man mit einem höheren Tarock stechen, wenn man kann.\" (kept from the 54-card text)"""
    hand = rigged(["XX IV hK", "XXI V hQ", "Sküs", "I"], dealer=3, options={"kontra": False})
    act(hand, "0 bid solo", "1 pass", "2 pass", "3 pass")
    play(hand, "IV")
    assert hand.why_not(Play(1, parse_card("hQ"))) is not None
    assert plays(hand, 1) >= set(cards("XXI V"))


def test_solo_keeps_tarock_trumps_and_plays_alone() -> None:
    """"Solo: Du spielst allein gegen die drei anderen, Tarock bleibt Trumpf wie
    im Rufspiel.\""""
    hand = act(rigged(["IV hK", "hQ", "V"], dealer=3, options={"kontra": False}),
               "0 bid solo", "1 pass", "2 pass", "3 pass")
    assert hand.state.partner is None and hand.state.called is None
    assert hand.state.declarer_party() == frozenset({0})
    state = finished(rules40(), "solo", 0, [(0, "hK hQ IV hC")])
    assert state.tricks[0].winner == 2  # the IV trumps the King


def test_the_lobby_preselects_forty_cards() -> None:
    """"Beim Eröffnen eines Tischs wählt man zwischen 54 Blatt und der
    40-Blatt-Variante (in der Lobby vorausgewählt).\" (docs/rules.md §3.6)"""
    from pathlib import Path

    from tarock.core.plugins import load_plugins
    catalogue = load_plugins(Path(__file__).resolve().parent.parent / "plugins.toml")
    assert catalogue.enabled[0] == "tarock40" and "tarock54" in catalogue.enabled


def test_a_table_of_twelve_rounds() -> None:
    """"Ein Tisch spielt 12 Runden, danach gibt es den Endstand. ... Der Sieger
    erhält 4 Hauptpunkte (HP), der Zweite 2, der Dritte 1, der Vierte 0.\""""
    rules = rules40()
    rng = random.Random(9)
    table = Table()
    deals = 0
    while not table.over:
        hands, talon = deal(rules, rng)
        hand = Hand(rules, table.dealer, hands, talon, context=table.context)
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            hand.apply(rng.choice(hand.legal(seat)))
        result = hand.state.result
        assert result is not None
        table.add(result, hand.state.contract.name if hand.state.contract else "",
                  rules.next_context(hand.state, result))
        deals += 1
        assert deals < 100
    assert table.over and len(table.rows) == 12 and sum(table.totals) == 0
    assert [row.dealer for row in table.rows] == [n % 4 for n in range(12)]
    standing = table.standings()
    assert sum(s.main for s in standing) == 7
    assert {s.seat: s.sub for s in standing} == dict(enumerate(table.totals))
