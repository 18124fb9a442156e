"""``koenigrufen-course``: scenario tests of the Tarock course of docs/rules.md §17,
each citing the sentence it checks.

Seats: dealer 3, so seat 0 is the forehand and the order is 0, 1, 2, 3.
"""

from __future__ import annotations

import random

from line_items import Line, lines
from test_koenigrufen_random import COURSE_NAME, act, cards, check_hand, gut_all, play_out, rigged

from tarock.core.actions import Announce, Bid, Call, Discard, Kontra, Pass, Play
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.state import Trick
from tarock.variants.koenigrufen.actions import GiveUp, TakeTalon

FH = "cK sK hK I II XV XVI XVII XVIII XIX cQ d4"


def bids(hand: Hand, seat: int) -> set[str]:
    return {a.contract for a in hand.legal(seat) if isinstance(a, Bid)}


def plays(hand: Hand, seat: int) -> set[int]:
    return {a.card for a in hand.legal(seat) if isinstance(a, Play)}


def declare(hand: Hand, game: str) -> None:
    """The forehand bids ``game``, the others pass."""
    act(hand, Bid(0, game), Pass(1), Pass(2), Pass(3))


# -- 2.3 Lizitationsreihenfolge ---------------------------------------------------------

def test_the_forehand_must_bid_first_and_forehand_games_are_his() -> None:
    # "Er muss als erster ein Spiel melden." -- "Fahrer darf nur von der Vorhand gemeldet werden",
    # "Vorhandrufer ... darf nur vom Vorhandspieler gemeldet werden", "Sechser Darf nur vom
    # Vorhandspieler gemeldet werden"
    hand = rigged(COURSE_NAME, [FH, "", "", ""])
    assert Pass(0) not in hand.legal(0)
    assert {"fahrer", "rufer", "sechser", "zwiccolo", "solo-eigen"} <= bids(hand, 0)
    act(hand, Bid(0, "rufer"))
    assert not {"fahrer", "rufer", "sechser"} & bids(hand, 1)
    assert "zwiccolo" in bids(hand, 1) and Pass(1) in hand.legal(1)


def test_a_forehand_game_bid_by_another_is_refused_with_its_reason() -> None:
    # "Fahrer darf nur von der Vorhand gemeldet werden"
    hand = rigged(COURSE_NAME, [FH, "", "", ""])
    act(hand, Bid(0, "zwiccolo"))
    reason = hand.why_not(Bid(1, "sechser"))
    assert reason is not None and reason.code == "forehand-game"


def test_stichzwang_reason_only_when_a_card_could_beat() -> None:
    # 3.2: "Hat man einen höheren Tarock als der vorher ausgespielte, muss man stechen." -- with
    # nothing higher there is no duty to beat, so refusing a card must give another reason
    # (here the Fahrer's "Der Spatz darf nur als letzter Tarock ausgespielt bzw. zugegeben werden").
    from tarock.variants.koenigrufen.cardplay import play_reason

    flags = {"colour": False, "stichzwang": True, "maerchen": False, "pagat_last": True}
    assert play_reason(cards("I V"), cards("XX"), cards("I")[0], **flags).code == "pagat-last"
    assert play_reason(cards("V XXI"), cards("XX"), cards("V")[0], **flags).code == "must-beat"


def test_only_higher_games_and_the_overbid_may_bid_again() -> None:
    # "alle weiteren Spieler ein Spiel melden, wenn es eine höhere Wertigkeit besitzt als die bisher
    # gemeldeten Spiele" -- "Allerdings darf ein Spieler, wenn sein gemeldetes Spiel im Laufe der
    # Lizitation überboten wurde, seinerseits noch einmal ein höheres Spiel melden."
    hand = rigged(COURSE_NAME, [FH, "", "", ""])
    act(hand, Bid(0, "rufer"), Bid(1, "piccolo"))
    assert "zwiccolo" not in bids(hand, 2) and "besserrufer" not in bids(hand, 2)
    act(hand, Pass(2), Pass(3))
    assert hand.state.to_move == 0
    assert {"besserrufer", "bettel", "sechser"} <= bids(hand, 0) and "piccolo" not in bids(hand, 0)
    act(hand, Pass(0))
    assert hand.state.contract is not None and hand.state.contract.name == "piccolo"


def test_the_highest_game_ends_the_bidding() -> None:
    # "wenn der erste Spieler (Vorhand) bereits das höchstmögliche Spiel gemeldet hat, kann kein
    # weiterer Spieler ein Spiel melden."  "Solo eigen: Höchstmögliches Spiel beim Tarock"
    hand = rigged(COURSE_NAME, [FH, "", "", ""])
    act(hand, Bid(0, "solo-eigen"))
    assert hand.legal(1) == [Pass(1)]


# -- 4.1 Spielen mit Talon, 4.2 positive Spiele --------------------------------------

def test_rufer_talon_turned_up_discards_hidden_kings_and_trull_stay() -> None:
    # "Nach Steigerung eines dieser Spiele wird der Talon umgedreht." "Die Gegner haben keine
    # Information über die abgelegten Karten. Abgelegt werden dürfen alle Farbkarten außer den
    # Königen. Hat man keine anderen Farbkarten mehr, dürfen alle Tarock außer den Trullstücken
    # (Spatz, Mond, Gschtis) verlegt werden."
    hand = rigged(COURSE_NAME, ["cK sK hK I II XV XVI XVII XVIII XIX XX cQ", "dK"],
                  talon=["c10 XXI c9", "s10 s9 s8"])
    declare(hand, "rufer")
    act(hand, Call(0, cards("dK")[0]))
    assert observe(hand, 3).talon_shown == ((tuple(cards("c10 XXI c9"))), tuple(cards("s10 s9 s8")))
    act(hand, TakeTalon(0, 0))
    assert {tuple(d.cards) for d in hand.legal(0) if isinstance(d, Discard)} == {
        tuple(sorted(cards("cQ c10 c9")))}
    assert hand.why_not(Discard(0, tuple(sorted(cards("XV c10 c9"))))).code == "discard-tarock"
    act(hand, Discard(0, tuple(sorted(cards("cQ c10 c9")))))
    assert observe(hand, 1).discards == ()
    assert Discard(0, ()) in observe(hand, 1).history


def test_tarocks_laid_away_without_other_suit_cards() -> None:
    # "Sind keine Farbkarten mehr im Blatt, müssen Tarockkarten abgelegt werden (alle außer den
    # Trullstücken Gschtis, Mond und Spatz)"
    hand = rigged(COURSE_NAME, ["cK sK hK I II XV XVI XVII XVIII XIX XX Sküs", "dK"],
                  talon=["c10 XXI III", "s10 s9 s8"])
    declare(hand, "rufer")
    act(hand, Call(0, cards("dK")[0]), TakeTalon(0, 0))
    options = {tuple(d.cards) for d in hand.legal(0) if isinstance(d, Discard)}
    assert all(cards("c10")[0] in d for d in options)
    assert not any(set(d) & set(cards("I XXI Sküs cK sK hK")) for d in options)
    assert len(options) == 28  # c10 and two of the eight plain tarocks


def test_called_king_in_the_talon_play_alone_or_give_up() -> None:
    # "Ruft der Spieler einen König, der im Talon liegt, spielt er entweder alleine oder er schleift
    # das Spiel, d.h. er gibt auf."
    hand = rigged(COURSE_NAME, [FH], talon=["dK c10 c9", "s10 s9 s8"])
    declare(hand, "rufer")
    act(hand, Call(0, cards("dK")[0]))
    assert GiveUp(0) in hand.legal(0)
    act(hand, GiveUp(0))
    assert hand.state.result is not None and hand.state.result.settlement == (-6, 2, 2, 2)


def test_besserrufer_announces_at_least_one_bird_and_may_announce_more() -> None:
    # "Spieler ruft einen König und muss mindestens einen Vogel (Spatz, Uhu, Dreier oder Vierer)
    # ansagen. Er darf natürlich auch 2, 3 oder alle 4 Vögel ansagen."
    hand = rigged(COURSE_NAME, [FH, "dK"], talon=["c10 c9 c8", "s10 s9 s8"])
    assert "besserrufer" in bids(hand, 0)
    declare(hand, "besserrufer")
    act(hand, Call(0, cards("dK")[0]), TakeTalon(0, 0), Discard(0, tuple(sorted(cards("c10 c9 c8")))))
    assert hand.state.phase == "announce" and Pass(0) not in hand.legal(0)
    act(hand, Announce(0, ("pagat",)))
    assert Announce(0, ("uhu",)) in hand.legal(0)
    act(hand, Announce(0, ("uhu",)), Pass(0))
    gut_all(hand)
    # "Wird z.b. der Dreier angesagt, muss der Spieler mit ihm den drittletzten Stich machen, beim Uhu
    # (II) den vorletzten usw." -- the announced birds are kept for their tricks
    act(hand, Play(0, cards("XV")[0]))
    while hand.state.to_move != 0:
        seat = hand.state.to_move
        assert seat is not None
        act(hand, hand.legal(seat)[0])
    assert not plays(hand, 0) & set(cards("I II"))
    play_out(hand, random.Random(8))
    check_hand(hand)


def test_einschauer_half_the_talon_alone_6_cents() -> None:
    # "Spieler nimmt eine Hälfte des Talons auf, legt dafür 3 Karten ab, spielt allein gegen die anderen
    # 3 Mitspieler ... Bei Gewinn des Spieles ... bekommt der Spieler 6 Cent, bei Verlust muss er 6
    # Cent bezahlen."  "Vorhand spielt aus"
    hand = rigged(COURSE_NAME, ["", "cK sK hK I II XV XVI XVII XVIII XIX cQ d4"],
                  talon=["c10 c9 c8", "s10 s9 s8"])
    act(hand, Bid(0, "rufer"), Bid(1, "einschauer"), Pass(2), Pass(3), Pass(0))
    act(hand, TakeTalon(1, 1), Discard(1, tuple(sorted(cards("s10 s9 s8")))))
    gut_all(hand)
    assert hand.state.trick is not None and hand.state.trick.leader == 0
    play_out(hand, random.Random(9))
    check_hand(hand)
    r = hand.state.result
    assert r is not None and r.declarers == (1,)
    assert lines(r)[0] == Line("game", "declarers", r.won, 6 if r.won else -6)
    assert r.settlement[1] == 3 * sum(i.amount for i in r.items)


def test_sechser_whole_talon_six_away_lost_double() -> None:
    # "Spieler nimmt den ganzen Talon auf, legt dafür 6 Karten ab" -- "Verliert der Sechserspieler
    # sein Spiel ..., muss er den doppelten Spielwert (12 Cent) bezahlen. Gewinnt er, erhält er den
    # einfachen Spielwert (6 Cent)."
    hand = rigged(COURSE_NAME, [FH])
    declare(hand, "sechser")
    assert len(hand.state.hands[0]) == 18 and len(observe(hand, 2).talon_shown[1]) == 3
    act(hand, hand.legal(0)[-1])
    gut_all(hand)
    play_out(hand, random.Random(10))
    check_hand(hand)
    r = hand.state.result
    assert lines(r)[0] == Line("game", "declarers", r.won, 6 if r.won else -12)


# -- 3.2 Stichzwang, 4.3 negative Spiele ---------------------------------------------------

def test_negative_games_stichzwang_and_the_declarer_leads() -> None:
    # "Hat man einen höheren Tarock als der vorher ausgespielte, muss man stechen." "Bettler-Spieler
    # spielt aus (wie bei allen negativen Spielen spielt der Spieler aus)"
    hand = rigged(COURSE_NAME, ["", "V X cK sK hK dK cQ sQ hQ dQ cC sC", "IV XI XII c10"])
    act(hand, Bid(0, "rufer"), Bid(1, "bettel"), Pass(2), Pass(3), Pass(0))
    gut_all(hand)
    assert hand.state.trick is not None and hand.state.trick.leader == 1
    act(hand, Play(1, cards("X")[0]))
    assert plays(hand, 2) == set(cards("XI XII"))
    act(hand, Play(2, cards("XI")[0]))
    assert hand.why_not(Play(3, cards("c7")[0])) is not None


def test_farbzwang_then_tarock_then_anything() -> None:
    # "Befindet sich kein Herz in den eigenen Karten, muss, wenn möglich, mit einem Tarock gestochen
    # werden. Hat man auch keinen Tarock mehr, darf man eine beliebige andere Farbkarte zugeben."
    hand = rigged(COURSE_NAME, ["h4 V VI VII VIII IX X XI XII XIII XIV XX",
                                "cK sK dK cQ sQ dQ cC sC dC cJ sJ dJ",
                                "XV XVI c10 c9 c8 c7 s10 s9 s8 s7 d1 d2"])
    declare(hand, "solo-eigen")
    gut_all(hand)
    act(hand, Play(0, cards("h4")[0]))
    assert plays(hand, 1) == set(cards("cK sK dK cQ sQ dQ cC sC dC cJ sJ dJ"))
    act(hand, Play(1, cards("cK")[0]))
    assert plays(hand, 2) == set(cards("XV XVI"))
    act(hand, Play(2, cards("XV")[0]))
    assert plays(hand, 3) == {c for c in hand.state.hands[3] if 38 <= c < 46}  # hearts


def test_ouvert_cards_open_after_the_first_trick() -> None:
    # "Spieler spielt eine Karte aus. Nachdem alle 4 Spieler eine Karte zugegeben haben, werden die
    # Karten aufgedeckt." "Spielwert: Zwicc.(6 Cent); Picc(8); Bettl.(10)"
    hand = rigged(COURSE_NAME, [FH])
    declare(hand, "piccolo-ouvert")
    gut_all(hand)
    assert observe(hand, 1).open_hands == ()
    for _ in range(4):
        seat = hand.state.to_move
        assert seat is not None
        act(hand, hand.legal(seat)[0])
    assert observe(hand, 1).open_hands == ((0, observe(hand, 0).hand),)
    play_out(hand, random.Random(11))
    check_hand(hand)
    r = hand.state.result
    assert r is not None and abs(r.settlement[0]) == 3 * 8
    # the declarer against each other player: made or failed, no Kontra
    made = sum(1 for t in hand.state.tricks if t.winner == 0) == 1
    assert sorted((i.side, i.opposite, i.base, i.made, i.kontra) for i in r.items) == [
        ((0,), (o,), 8, made, 0) for o in (1, 2, 3)]


# -- 5. Die weiteren vier Spiele -------------------------------------------------------

def test_fahrer_kontra_pagat_last_talon_to_the_last_trick() -> None:
    # "Jeder Spieler außer der Vorhand darf das Spiel kontrieren." "Der Spatz darf nur als letzter
    # Tarock ausgespielt bzw. zugegeben werden. Der Spieler, der den letzten Stich macht, bekommt den
    # Talon zu seinen Stichen dazu." "Die nächste Spielrunde (4 bzw. 5 Spiele) zählt doppelt"
    hand = rigged(COURSE_NAME, [FH])
    declare(hand, "fahrer")
    s = hand.state
    assert s.phase == "kontra" and s.to_move == 1 and hand.legal(0) == []
    act(hand, Kontra(1), Pass(2), Kontra(3))
    assert s.phase == "play" and s.kontra_level == 2
    assert cards("I")[0] not in plays(hand, 0)
    play_out(hand, random.Random(12))
    check_hand(hand)
    assert s.result is not None and s.result.next_round_factor == 2
    assert s.result.items and all(i.name == "fahrer" and i.kontra == 2 for i in s.result.items)


def test_solo_rufer_talon_stays_covered() -> None:
    # "Talon bleibt verdeckt und wird am Ende den beiden Gegenspielern zugerechnet" "Mögliche
    # Ansagen: König, Spatz, Uhu, Dreier, Vierer, Trull, Valat"
    hand = rigged(COURSE_NAME, [FH, "dK"])
    declare(hand, "solorufer")
    act(hand, Call(0, cards("dK")[0]))
    s = hand.state
    assert s.phase == "announce" and len(s.hands[0]) == 12 and observe(hand, 2).talon_shown == ()
    words = {a.announce[0] for seat in range(4) for a in [*hand.legal(seat)] if isinstance(a, Announce)}
    assert words <= {"king", "pagat", "uhu", "kakadu", "marabu", "trull", "valat"}
    assert Announce(1, ("king",)) not in hand.legal(1)


def test_farberl_no_trump_stichzwang_declarer_leads_only_valat() -> None:
    # "Es wird ohne Trumpf gespielt ... Hat ein Spieler die ausgespielte Farbe nicht in seinem Blatt,
    # muss er eine Tarockkarte nehmen. Diese ist hier aber im Gegensatz zu allen anderen Spielen
    # niedriger als die Farbkarte." "Spieler spielt aus" "Stichzwang" "Valat als einzige Ansage möglich"
    # "Es darf erst eine Tarockkarte ausgespielt werden, wenn sich keine Farbkarten mehr im Blatt
    # befindet."
    hand = rigged(COURSE_NAME, ["", "c10 c7 cK V VI VII VIII IX X XI XII XIII", "c9 c8 XX XXI", "cQ"])
    act(hand, Bid(0, "rufer"), Bid(1, "farberl"), Pass(2), Pass(3), Pass(0))
    s = hand.state
    assert s.phase == "announce" and s.to_move == 1
    assert {a.announce for a in hand.legal(1) if isinstance(a, Announce)} == {("valat",)}
    gut_all(hand)
    assert s.trick is not None and s.trick.leader == 1
    assert plays(hand, 1) == set(cards("c10 c7 cK"))
    act(hand, Play(1, cards("c10")[0]))
    assert plays(hand, 2) == set(cards("c9 c8"))
    act(hand, Play(2, cards("c9")[0]))
    assert plays(hand, 3) == set(cards("cQ"))  # the Queen beats the 10
    act(hand, Play(3, cards("cQ")[0]))
    if cards("cJ")[0] in s.hands[0]:
        act(hand, Play(0, cards("cJ")[0]))
    else:
        act(hand, hand.legal(0)[0])
    assert s.tricks[0].winner == 3
    play_out(hand, random.Random(13))
    check_hand(hand)


def test_farberl_tarocks_do_not_win_a_suit_trick() -> None:
    # "Diese ist hier aber ... niedriger als die Farbkarte."
    hand = rigged(COURSE_NAME, [FH])
    declare(hand, "farberl")
    trick = Trick(0, [0, 1, 2, 3], cards("c7 Sküs XXI d1"))
    assert hand.rules.trick_winner(hand.state, trick) == 0


def test_solo_eigen_announcements_at_once_and_no_king() -> None:
    # "Vorhand spielt aus" "Ansagen zählen doppelt, müssen aber sofort gemeldet werden" "Alle Ansagen
    # außer König möglich."
    hand = rigged(COURSE_NAME, ["", FH])
    act(hand, Bid(0, "rufer"), Bid(1, "solo-eigen"), Pass(2), Pass(3), Pass(0))
    s = hand.state
    assert s.phase == "announce" and s.to_move == 1
    assert Announce(1, ("king",)) not in hand.legal(1)
    act(hand, Announce(1, ("trull",)), Pass(1))
    act(hand, Announce(2, ("valat",)), Pass(2), Pass(3), Pass(0))
    assert s.to_move == 1 and not any(isinstance(a, Announce) for a in hand.legal(1))
    assert hand.why_not(Announce(1, ("pagat",))).code == "announce-at-once"
    gut_all(hand)
    assert s.trick is not None and s.trick.leader == 0
    play_out(hand, random.Random(14))
    check_hand(hand)


def test_no_maerchenstich_in_the_course() -> None:
    # The course ranks the Sküs highest ("Sküs bzw. Gschtis (höchste Tarockkarte)") and knows no
    # Märchenstich.
    hand = rigged(COURSE_NAME, [FH])
    declare(hand, "rufer")
    trick = Trick(0, [0, 1, 2, 3], cards("I Sküs XXI c7"))
    assert hand.rules.trick_winner(hand.state, trick) == 1
