"""``koenigrufen-club``: scenario tests of the rulebook of docs/rules.md §16,
each citing the sentence it checks.

Seats: dealer 3, so seat 0 is the forehand and the order is 0, 1, 2, 3.
"""

from __future__ import annotations

import random

from line_items import Line, lines
from test_koenigrufen_random import CLUB_NAME, act, cards, check_hand, gut_all, play_out, rigged

from tarock.core.actions import GAME, Announce, Bid, Call, Discard, Kontra, KontraTarget, Pass, Play
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.variants.koenigrufen.actions import Bei, GiveUp, TakeTalon
from tarock.variants.koenigrufen.cardplay import thirds

# seat 0: three Kings, Pagat and Uhu, seven tarocks
FH = "cK sK hK I II XV XVI XVII XVIII XIX cQ d4"


def bids(hand: Hand, seat: int) -> set[str]:
    return {a.contract for a in hand.legal(seat) if isinstance(a, Bid)}


def to_rufer(hand: Hand) -> None:
    act(hand, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3), Bid(0, "rufer"))


# -- Vorhand und Lizit ---------------------------------------------------------

def test_the_forehand_opens_with_vorhand_or_a_lizitspiel_and_cannot_pass() -> None:
    # "Die Vorhand sagt Vorhand! oder ein Lizitspiel." "Abgeben der Vorhand ist unzulässig."
    hand = rigged(CLUB_NAME, [FH, "", "", ""])
    legal = hand.legal(0)
    assert Pass(0) not in legal
    assert bids(hand, 0) == {"vorhand", "piccolo", "solorufer", "bettler", "besserrufer", "dreier",
                             "piccolo-ouvert", "bettel-ouvert", "solodreier"}  # 7 tarocks: no colour game
    assert hand.why_not(Pass(0)).code == "must-bid"


def test_after_vorhand_and_three_weiter_the_forehand_may_play_a_vorhandspiel() -> None:
    # "Wenn im ersteren Falle alle anderen Spieler Weiter! gesagt haben, kann die Vorhand auch ein
    # Vorhandspiel spielen."
    hand = rigged(CLUB_NAME, [FH, "", "", ""])
    act(hand, Bid(0, "vorhand"))
    assert "rufer" not in bids(hand, 1) and "trischaken" not in bids(hand, 1)
    act(hand, Pass(1), Pass(2), Pass(3))
    assert hand.state.to_move == 0 and Pass(0) not in hand.legal(0)
    assert {"rufer", "trischaken", "sechserdreier", "piccolo", "solodreier"} <= bids(hand, 0)
    act(hand, Bid(0, "trischaken"))
    assert hand.state.contract is not None and hand.state.contract.name == "trischaken"
    assert hand.state.phase == "play"  # "Jungfrauenansage und Kontra sind nicht möglich."


def test_the_forehand_may_not_take_over_a_bid_game() -> None:
    # "Sie darf ein lizitiertes Spiel nicht übernehmen."
    hand = rigged(CLUB_NAME, [FH, "", "", ""])
    act(hand, Bid(0, "vorhand"), Bid(1, "piccolo"), Pass(2), Pass(3))
    assert "piccolo" not in bids(hand, 0)
    assert "solorufer" in bids(hand, 0)


def test_passing_is_final_and_nobody_overbids_himself() -> None:
    # "Wer bei Lizit des Spiels einmal Weiter! gesagt hat, kann kein Spiel mehr lizitieren."
    # "Wer nicht überboten wurde, darf sich nicht selber überlizitieren."
    hand = rigged(CLUB_NAME, [FH, "", "", ""])
    act(hand, Bid(0, "vorhand"), Pass(1), Bid(2, "piccolo"), Pass(3), Bid(0, "solorufer"))
    assert hand.state.to_move == 2  # seat 1 passed and is skipped
    act(hand, Bid(2, "bettler"))
    assert hand.state.to_move == 0  # seats 1 and 3 are out
    act(hand, Pass(0))
    assert hand.state.contract is not None and hand.state.contract.name == "bettler"
    assert hand.state.declarer == 2


def test_bid_order_and_values() -> None:
    # "Lizitspiele: Piccolo 15, Solorufer 20, Bettler 25, Besserrufer 10+Vogel, Farbendreier 40,
    # Dreier 40, Piccolo ouvert 45, Bettel ouvert 60, Farbensolodreier 80, Solodreier 80"
    hand = rigged(CLUB_NAME, [FH, "IV V VI", "", ""])
    act(hand, Bid(0, "bettler"))
    assert bids(hand, 1) == {"besserrufer", "dreier", "piccolo-ouvert", "bettel-ouvert", "solodreier",
                             "farbendreier", "farbensolodreier"}
    act(hand, Bid(1, "dreier"))
    assert "farbendreier" not in bids(hand, 2) and "piccolo-ouvert" in bids(hand, 2)


# -- Bei-games -------------------------------------------------------------------

def test_bei_values_add_up_and_overbid_an_interposed_game() -> None:
    # "Der Wert der Bei-Spiele wird für das Lizit aufaddiert. Wenn der kombinierte Wert der
    # Negativspiele über einem dazwischen lizitierten Spiel liegt, kann es überlizitiert werden
    # (z. B. Piccolo, Solo, Piccolo bei)." "(nur gleichartige)" "Der erste Spielersteher spielt aus."
    hand = rigged(CLUB_NAME, [FH, "", "", ""])
    act(hand, Bid(0, "piccolo"), Bid(1, "solorufer"))
    beis = {a.contract for a in hand.legal(2) if isinstance(a, Bei)}
    assert beis == {"piccolo"}
    act(hand, Bei(2, "piccolo"), Pass(3))
    assert hand.state.to_move == 1  # the Solorufer is overbid; seat 0 holds the top bid with seat 2
    act(hand, Pass(1))
    s = hand.state
    assert s.contract is not None and s.contract.name == "piccolo" and s.contract.declarers == (0, 2)
    gut_all(hand)
    assert s.trick is not None and s.trick.leader == 0
    play_out(hand, random.Random(3))
    check_hand(hand)
    r = s.result
    assert r is not None
    made = {d: sum(1 for t in s.tricks if t.winner == d) == 1 for d in (0, 2)}
    expected = [0, 0, 0, 0]
    for d in (0, 2):
        for other in range(4):
            if other != d:
                amount = 15 if made[d] else -15
                expected[d] += amount
                expected[other] -= amount
    assert list(r.settlement) == expected


def test_nobody_joins_his_own_game_with_bei() -> None:
    # "Wer nicht überboten wurde, darf sich nicht selber überlizitieren." "Alle Negativspiele können
    # bis zu 3mal Bei gespielt werden" -- "Bei" joins another player's game: the overbid Piccolo
    # player may bid again, but not "Piccolo bei" to himself (it would change nothing and keep him
    # bidding for ever).
    hand = rigged(CLUB_NAME, [FH, "", "", ""])
    act(hand, Bid(0, "piccolo"), Bid(1, "solorufer"), Pass(2), Pass(3))
    assert hand.state.to_move == 0
    assert Bei(0, "piccolo") not in hand.legal(0)
    assert hand.why_not(Bei(0, "piccolo")).code == "bei-own"
    act(hand, Pass(0))
    assert hand.state.contract is not None and hand.state.contract.name == "solorufer"


def test_up_to_three_bei_and_individual_kontra() -> None:
    # "Alle Negativspiele können bis zu 3mal Bei gespielt werden" -- "Es zählt bei positiven Spielen
    # für die Partei, bei negativen individuell."
    hand = rigged(CLUB_NAME, [FH, "", "", ""])
    act(hand, Bid(0, "bettler"), Bei(1, "bettler"), Bei(2, "bettler"), Bei(3, "bettler"))
    s = hand.state
    assert s.contract is not None and s.contract.declarers == (0, 1, 2, 3)
    assert s.phase == "announce"
    assert Kontra(0, KontraTarget(declarer=2)) in hand.legal(0)
    act(hand, Kontra(0, KontraTarget(declarer=2)), Pass(0), Pass(1))
    assert Kontra(2, KontraTarget(answer=0)) in hand.legal(2)
    act(hand, Kontra(2, KontraTarget(answer=0)), Pass(2), Pass(3), Pass(0), Pass(1))
    assert s.phase == "play"
    play_out(hand, random.Random(1))
    check_hand(hand)
    r = s.result
    assert r is not None
    ok = {d: not any(t.winner == d for t in s.tricks) for d in range(4)}
    expected = [0, 0, 0, 0]
    for d in range(4):
        for other in range(4):
            if other != d:
                amount = (25 if ok[d] else -25) * (4 if (d, other) == (2, 0) else 1)
                expected[d] += amount
                expected[other] -= amount
    assert list(r.settlement) == expected
    # one item per declarer and other player, the Kontra and Re of seats 0 and 2 on that pair only
    assert sorted((i.side, i.opposite, i.made, i.kontra) for i in r.items) == sorted(
        ((d,), (o,), ok[d], 2 if (d, o) == (2, 0) else 0) for d in range(4) for o in range(4) if o != d)


def test_bei_leader_option() -> None:
    # "Der erste Spielersteher spielt aus." against the remark "Und Ausspiel bei
    # Negativ-Bei-Spielen: derjenige, der als erster ein Negativspiel angesagt hat."
    for option, leader in (("first-declarer", 2), ("first-negative-bidder", 1)):
        hand = rigged(CLUB_NAME, [FH, "", "", ""], options={"bei_leader": option})
        act(hand, Bid(0, "vorhand"), Bid(1, "piccolo"), Bid(2, "bettler"), Bei(3, "bettler"), Pass(0),
            Bei(1, "bettler"))
        assert hand.state.contract is not None and hand.state.contract.declarers == (2, 3, 1)
        gut_all(hand)
        assert hand.state.trick is not None and hand.state.trick.leader == leader
        joined = rigged(CLUB_NAME, [FH, "", "", ""], options={"bei_leader": option})
        act(joined, Bid(0, "vorhand"), Bid(1, "piccolo"), Pass(2), Pass(3), Bei(0, "piccolo"))
        gut_all(joined)
        assert joined.state.trick is not None and joined.state.trick.leader == 1


# -- Ruferspiele -----------------------------------------------------------------

def test_three_kings_call_the_fourth() -> None:
    # "Hat ein Ruferspieler 3 Könige im Blatt, kann er mit Den vierten! den Partner bestimmen."
    hand = rigged(CLUB_NAME, [FH, "", "", ""])
    to_rufer(hand)
    assert hand.legal(0) == [Call(0, cards("dK")[0])]
    assert hand.why_not(Call(0, cards("hK")[0])).code == "self-call"


def test_four_kings_call_a_queen_or_by_option_no_calling_game() -> None:
    # "Hat ein Spieler alle 4 Könige im Blatt, kann er eine Dame rufen." against the remark
    # "Wer 4 Könige hat, kann nicht rufen"
    four = "cK sK hK dK I II XV XVI XVII XVIII XIX cQ"
    hand = rigged(CLUB_NAME, [four, "", "", ""])
    to_rufer(hand)
    assert {a.card for a in hand.legal(0) if isinstance(a, Call)} == set(cards("sQ hQ dQ"))
    strict = rigged(CLUB_NAME, [four, "", "", ""], options={"four_kings": "none"})
    assert not {"solorufer", "besserrufer"} & bids(strict, 0)
    act(strict, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3))
    assert "rufer" not in bids(strict, 0)


def test_rufer_talon_turned_up_half_chosen_tarocks_laid_away_openly() -> None:
    # "Trullstücke und Könige dürfen nie verlegt werden, andere Tarock nur offen (außer bei
    # Farbenspielen)." -- "Beim Sechserdreier wird der Talon verdeckt aufgenommen" (so otherwise open)
    hand = rigged(CLUB_NAME, [FH, "dK", "", ""], talon=["XX c10 c9", "s10 s9 s8"])
    to_rufer(hand)
    act(hand, Call(0, cards("dK")[0]))
    assert observe(hand, 2).talon_shown == tuple(tuple(cards(p)) for p in ("XX c10 c9", "s10 s9 s8"))
    assert hand.state.partner == 1 and observe(hand, 2).partner is None and observe(hand, 1).partner == 1
    act(hand, TakeTalon(0, 0))
    discard = tuple(sorted(cards("XV c10 c9")))
    assert Discard(0, discard) in hand.legal(0)
    assert hand.why_not(Discard(0, tuple(sorted(cards("I c10 c9"))))).code == "discard-trull"
    assert hand.why_not(Discard(0, tuple(sorted(cards("cK c10 c9"))))).code == "discard-king"
    act(hand, Discard(0, discard))
    seen = observe(hand, 3)
    assert seen.discards == tuple(cards("XV"))
    assert Discard(0, tuple(cards("XV"))) in seen.history
    assert observe(hand, 0).discards == discard
    # "Kontra vor Talon ist nicht möglich": announcements and Kontras come after the discard
    assert hand.state.phase == "announce"


def test_called_king_in_the_talon_choose_a_half_or_give_up() -> None:
    # "Liegt der gerufene König, kann man die Hälfte frei wählen (und ev. kontriert werden) oder
    # aufgeben."
    hand = rigged(CLUB_NAME, [FH, "", "", ""], talon=["dK c10 c9", "s10 s9 s8"])
    to_rufer(hand)
    act(hand, Call(0, cards("dK")[0]))
    assert set(hand.legal(0)) == {TakeTalon(0, 0), TakeTalon(0, 1), GiveUp(0)}
    act(hand, GiveUp(0))
    assert hand.done and hand.state.result is not None
    assert hand.state.result.settlement == (-30, 10, 10, 10)
    check_hand(hand)
    alone = rigged(CLUB_NAME, [FH, "", "", ""], talon=["dK c10 c9", "s10 s9 s8"])
    to_rufer(alone)
    act(alone, Call(0, cards("dK")[0]), TakeTalon(0, 1))
    assert alone.state.partner is None
    act(alone, Discard(0, tuple(sorted(cards("s10 s9 s8")))))
    gut_all(alone)
    play_out(alone, random.Random(2))
    check_hand(alone)
    assert alone.state.result is not None and alone.state.result.declarers == (0,)


def test_besserrufer_giving_up_pays_the_smallest_bird() -> None:
    # "Beim Besserrufer ist in diesem Falle der kleinste Vogel im Blatt zu zahlen."
    hand = rigged(CLUB_NAME, [FH, "", "", ""], talon=["dK c10 c9", "s10 s9 s8"])
    act(hand, Bid(0, "besserrufer"), Pass(1), Pass(2), Pass(3), Call(0, cards("dK")[0]), GiveUp(0))
    r = hand.state.result
    assert r is not None and r.settlement == (-90, 30, 30, 30)  # (10 + Pagat 20) to each


def test_besserrufer_names_his_bird_after_the_talon_but_not_one_from_it() -> None:
    # "der spielbestimmende Vogel wird nach Talon angesagt, wobei „switchen“ auf einen Vogel im Talon
    # nicht erlaubt ist."
    hand = rigged(CLUB_NAME, ["cK sK hK I XV XVI XVII XVIII XIX cQ d4 d3", "dK", "", ""],
                  talon=["II c10 c9", "s10 s9 s8"])
    act(hand, Bid(0, "besserrufer"), Pass(1), Pass(2), Pass(3), Call(0, cards("dK")[0]),
        TakeTalon(0, 0), Discard(0, tuple(sorted(cards("c10 c9 d4")))))
    assert hand.state.phase == "announce" and hand.state.to_move == 0
    assert Pass(0) not in hand.legal(0)
    assert hand.why_not(Announce(0, ("uhu",))).code == "bird-from-talon"
    act(hand, Announce(0, ("pagat",)))
    assert Announce(0, ("uhu",)) in hand.legal(0) and Pass(0) in hand.legal(0)


def test_besserrufer_keeps_a_bird_of_his_own_to_name() -> None:
    # "wobei „switchen“ auf einen Vogel im Talon nicht erlaubt ist" -- so the Besserrufer may not lay
    # away the last bird he held before the talon
    hand = rigged(CLUB_NAME, ["cK sK hK III XV XVI XVII XVIII XIX cQ d4 d3", "dK"],
                  talon=["II c10 c9", "s10 s9 s8"])
    act(hand, Bid(0, "besserrufer"), Pass(1), Pass(2), Pass(3), Call(0, cards("dK")[0]), TakeTalon(0, 0))
    assert not any(cards("III")[0] in d.cards for d in hand.legal(0) if isinstance(d, Discard))
    assert hand.why_not(Discard(0, tuple(sorted(cards("III c10 c9"))))).code == "discard-bird"
    assert Discard(0, tuple(sorted(cards("II c10 c9")))) in hand.legal(0)


def test_several_besserrufer_name_birds_and_the_highest_plays() -> None:
    # "Es ist zulässig, mehrere Besserrufer anzusagen; in diesem Falle sagen die Spieler ihre Vögel
    # vor dem Rufen. Wer den höchsten Vogel ansagt, spielt."
    hand = rigged(CLUB_NAME, ["I XV XVI XVII XVIII XIX XX cK sK", "II III", "", ""])
    act(hand, Bid(0, "besserrufer"))
    assert "besserrufer" in bids(hand, 1)
    act(hand, Bid(1, "besserrufer"), Pass(2), Pass(3))
    s = hand.state
    assert s.phase == "birds" and s.to_move == 0 and Pass(0) not in hand.legal(0)
    act(hand, Announce(0, ("pagat",)))
    assert set(hand.legal(1)) == {Pass(1), Announce(1, ("uhu",)), Announce(1, ("kakadu",))}
    act(hand, Announce(1, ("uhu",)))
    assert s.declarer == 1 and s.phase == "call"
    assert [(a.name, a.seat) for a in s.announcements] == [("uhu", 1)]


def test_besserrufer_needs_a_bird() -> None:
    # Renonce: "Wer ohne Vogel Besserrufer lizitiert, zahlt an jeden Mitspieler 30 C" -- not offered
    # (docs/rules.md §1.3)
    hand = rigged(CLUB_NAME, ["XV XVI XVII XVIII XIX XX cK sK", "", "", ""])
    assert "besserrufer" not in bids(hand, 0)


def test_solorufer_king_in_the_talon_counts_at_the_end_and_no_kontra_counts() -> None:
    # "Liegt beim Solorufer der gerufene König im Talon, erhält der Solospieler die Talonhälfte mit
    # dem König. Kontras zählen dann in keinem Fall." -- a Solorufer does not use the talon: nobody
    # looks into it, Kontras may be said as in every Solorufer (Kontra "zählt" not), and at the end
    # the half with the King counts for the declarer, who played alone; the Kontras count for nothing.
    hand = rigged(CLUB_NAME, [FH, "", "", ""], talon=["c10 c9 c8", "s10 dK s8"])
    act(hand, Bid(0, "solorufer"), Pass(1), Pass(2), Pass(3), Call(0, cards("dK")[0]))
    s = hand.state
    assert s.phase == "announce" and len(s.hands[0]) == 12 and s.talon_taken == []
    assert all(observe(hand, seat).talon_shown == () for seat in range(4))
    act(hand, Pass(0))
    assert Kontra(1) in hand.legal(1)
    act(hand, Kontra(1), Pass(1), Pass(2), Pass(3))
    assert Kontra(0) in hand.legal(0)  # the Re: he does not know that he is alone
    act(hand, Kontra(0), Pass(0), Pass(1), Pass(2), Pass(3))
    assert s.phase == "play" and s.kontra_level == 2
    play_out(hand, random.Random(4))
    check_hand(hand)
    r = s.result
    assert r is not None and r.declarers == (0,)
    ours = [c for t in s.tricks if t.winner == 0 for c in t.cards] + cards("s10 dK s8")
    assert r.points[0] == thirds(ours)
    game, *premiums = lines(r)
    assert game == Line("game", "declarers", r.won, 20 if r.won else -20)
    assert all(p.kontra == 0 for p in premiums)  # "Kontras zählen dann in keinem Fall"
    assert r.settlement[0] == 3 * sum(i.amount for i in r.items)


def test_sechserdreier_talon_taken_face_down_value_30_lost_60() -> None:
    # "Beim Sechserdreier wird der Talon verdeckt aufgenommen." "Sechserdreier 30, verloren 60"
    hand = rigged(CLUB_NAME, [FH, "", "", ""])
    act(hand, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3), Bid(0, "sechserdreier"))
    s = hand.state
    assert s.phase == "discard" and len(s.hands[0]) == 18
    assert observe(hand, 1).talon_shown == () and len(observe(hand, 0).talon_seen) == 6
    act(hand, hand.legal(0)[0])
    gut_all(hand)
    play_out(hand, random.Random(5))
    check_hand(hand)
    r = s.result
    game = lines(r)[0]
    assert game == Line("game", "declarers", r.won, 30 if r.won else -60)
    assert r is not None and r.settlement[0] == 3 * sum(i.amount for i in r.items)


# -- Farbenspiele ------------------------------------------------------------------

def test_colour_games_at_most_six_tarocks_before_and_after_talon_suit_cards_open() -> None:
    # "Man darf sowohl vor, als auch nach Talon höchstens 6 Tarock im Blatt haben."
    # "Außer Königen und Trullstücken darf alles verlegt werden, Farbkarten aber offen."
    six = "cK sK I XV XVI XVII XVIII XIX cQ cC d4 d3"
    assert "farbendreier" not in bids(rigged(CLUB_NAME, [FH, "", "", ""]), 0)
    hand = rigged(CLUB_NAME, [six, "", "", ""], talon=["II III IV", "c10 c9 c8"])
    act(hand, Bid(0, "farbendreier"), Pass(1), Pass(2), Pass(3), TakeTalon(0, 0))
    assert all(sum(1 for c in d.cards if c < 22) == 3 for d in hand.legal(0) if isinstance(d, Discard))
    act(hand, Discard(0, tuple(sorted(cards("II III IV")))))
    assert observe(hand, 1).discards == ()
    hand2 = rigged(CLUB_NAME, [six, "", "", ""], talon=["II c10 c9", "s10 s9 s8"])
    act(hand2, Bid(0, "farbendreier"), Pass(1), Pass(2), Pass(3), TakeTalon(0, 0))
    act(hand2, Discard(0, tuple(sorted(cards("II c10 cC")))))
    assert sorted(observe(hand2, 1).discards) == sorted(cards("c10 cC"))


def test_colour_game_tarocks_led_last_and_they_do_not_win() -> None:
    # "Die Vorhand spielt zuerst aus. Alle Spieler dürfen erst dann Tarock ausspielen, wenn sie keine
    # Farbkarten mehr haben. Kann ein Spieler eine Farbe nicht bedienen, muss er Tarock zugeben, die
    # aber nicht stechen." "Es besteht kein Stichzwang"
    hand = rigged(CLUB_NAME, ["IV V VI VII VIII IX cK sK s10 s9 h1 h2",
                              "dK dQ dC dJ d1 d2 d3 d4 X XI XII XIII"])
    act(hand, Bid(0, "farbensolodreier"), Pass(1), Pass(2), Pass(3))
    gut_all(hand)
    assert hand.state.trick is not None and hand.state.trick.leader == 0
    assert all(c >= 22 for c in (a.card for a in hand.legal(0) if isinstance(a, Play)))
    act(hand, Play(0, cards("cK")[0]))
    assert {a.card for a in hand.legal(1) if isinstance(a, Play)} == set(cards("X XI XII XIII"))
    act(hand, Play(1, cards("XIII")[0]))
    while hand.state.to_move not in (0, None) and len(hand.state.tricks) == 0:
        act(hand, hand.legal(hand.state.to_move)[0])
    assert hand.state.tricks[0].winner != 1


# -- Negativspiele, Trischaken, Märchenstich ---------------------------------------------

def test_negative_games_stichzwang_pagat_last_declarer_leads() -> None:
    # "Bei positiven Spielen spielt die Vorhand aus, bei negativen der Spielersteher."
    # "Es gilt Stichzwang." "Der Pagat darf nur als letztes Tarock gespielt werden"
    hand = rigged(CLUB_NAME, ["cK sK hK dK cQ sQ hQ dQ cC sC hC dC",
                              "I II X XX c10 c9 c8 c7 s10 s9 s8 s7", "XI XII"])
    act(hand, Bid(0, "vorhand"), Bid(1, "bettler"), Pass(2), Pass(3), Pass(0))
    gut_all(hand)
    assert hand.state.trick is not None and hand.state.trick.leader == 1
    plays = {a.card for a in hand.legal(1) if isinstance(a, Play)}
    assert cards("I")[0] not in plays and hand.why_not(Play(1, cards("I")[0])).code == "pagat-last"
    act(hand, Play(1, cards("X")[0]))
    # seat 2 holds XI and XII and must beat the X
    assert {a.card for a in hand.legal(2) if isinstance(a, Play)} == set(cards("XI XII"))


def test_maerchenstich_and_stichzwang() -> None:
    # "Märchenstich: Fällt die Trull in einem Stich, sticht immer der Pagat (bei Farbspielen nur,
    # wenn Tarock ausgespielt worden ist)." "Liegen Mond und Pagat, muss der Sküs nicht dazugegeben
    # werden." "außer es gilt Stichzwang beim Märchenstich"
    from tarock.variants.koenigrufen.cardplay import legal_cards, trick_winner

    assert trick_winner(cards("Sküs XXI I c7"), colour=False, maerchen=True) == 2
    assert trick_winner(cards("cK Sküs XXI I"), colour=True, maerchen=True) == 0
    assert trick_winner(cards("V Sküs XXI I"), colour=True, maerchen=True) == 3
    flags = {"colour": False, "stichzwang": True, "maerchen": True, "pagat_last": True}
    assert sorted(legal_cards(cards("Sküs V"), cards("XXI I"), **flags)) == sorted(cards("V Sküs"))
    assert legal_cards(cards("I V"), cards("XXI Sküs"), **flags) == cards("I")
    assert legal_cards(cards("I V"), cards("XX"), **flags) == cards("V")


def test_trischaken_talon_into_the_first_six_tricks_and_free_leads() -> None:
    # "Der Talon wird einzeln zu den ersten 6 Stichen zugeworfen."
    # "abgesehen vom Pagat als letztes Tarock herrscht Ausspielfreiheit."
    hand = rigged(CLUB_NAME, ["I V VI cK sK hK dK cQ sQ hQ dQ cC"], talon=["XX XIX XVIII", "d2 d3 d4"])
    act(hand, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3), Bid(0, "trischaken"))
    plays = {a.card for a in hand.legal(0) if isinstance(a, Play)}
    assert cards("I")[0] not in plays and len(plays) == 11
    assert observe(hand, 2).talon_shown == ((), ())
    rng = random.Random(6)
    while len(hand.state.tricks) < 4:
        act(hand, rng.choice(hand.legal(hand.state.to_move)))  # type: ignore[arg-type]
    assert observe(hand, 2).talon_shown == (tuple(cards("XX XIX XVIII")), tuple(cards("d2")))
    play_out(hand, rng)
    check_hand(hand)


# -- Prämien und Kontra ----------------------------------------------------------------

def announce_phase() -> Hand:
    """A Rufer of seat 0 with seat 1 as partner (Diamond King, also Mond and Kakadu); seat 2 holds
    the Marabu."""
    hand = rigged(CLUB_NAME, [FH, "dK XXI III"], talon=["c10 c9 c8", "s10 s9 s8"])
    to_rufer(hand)
    act(hand, Call(0, cards("dK")[0]), TakeTalon(0, 0), Discard(0, tuple(sorted(cards("c10 c9 c8")))))
    assert hand.state.partner == 1 and hand.state.phase == "announce" and hand.state.to_move == 0
    return hand


def words(hand: Hand, seat: int) -> set[str]:
    return {a.announce[0] for a in hand.legal(seat) if isinstance(a, Announce)}


def targets(hand: Hand, seat: int) -> set[KontraTarget]:
    return {a.target for a in hand.legal(seat) if isinstance(a, Kontra)}


TRULL = KontraTarget("trull")


def test_announcement_rights_card_in_hand() -> None:
    # "Ein Spieler darf König ultimo und Vögel nur dann ansagen, wenn er die jeweilige Karte im Blatt
    # hat." Renonce: "Ansage des Mondfangs, wenn man ihn selber hat" (not offered, docs/rules.md §1.3)
    hand = announce_phase()
    assert words(hand, 0) == {"trull", "kings", "absolut", "grammopoi", "pagat", "uhu", "mondfang", "valat"}
    assert hand.why_not(Announce(0, ("king",))).code == "king-not-in-hand"
    assert hand.why_not(Announce(0, ("kakadu",))).code == "bird-not-in-hand"
    act(hand, Pass(0))
    assert {"king", "kakadu"} <= words(hand, 1) and "mondfang" not in words(hand, 1)
    assert hand.why_not(Announce(1, ("mondfang",))).code == "mondfang-own-mond"
    act(hand, Pass(1))
    assert "marabu" in words(hand, 2)


def test_grammopoi_brings_the_absolut_and_kontra_per_announcement() -> None:
    # "Ansage/Gewinn des Grammopoi bedingt selbiges für den Absolut." "Kontra ist bis Re (4fach)
    # möglich" "Es zählt bei positiven Spielen für die Partei" -- the partner knows his side and is
    # not offered a Kontra on it; the opponents do not know who the partner is.
    hand = announce_phase()
    act(hand, Announce(0, ("grammopoi",)), Pass(0))
    s = hand.state
    assert [(a.name, a.seat) for a in s.announcements] == [("grammopoi", 0), ("absolut", 0)]
    assert targets(hand, 1) == set()
    act(hand, Announce(1, ("trull",)), Pass(1))
    assert targets(hand, 2) == {GAME, KontraTarget("grammopoi"), KontraTarget("absolut"), TRULL}
    act(hand, Kontra(2), Kontra(2, KontraTarget("trull")), Pass(2), Pass(3))
    assert s.kontra_level == 1
    # Re by the declarer on the game; the Re on the Trull is its announcer's (the declarer does not
    # know the Trull is his partner's)
    assert targets(hand, 0) == {GAME}
    act(hand, Kontra(0), Pass(0))
    assert s.kontra_level == 2 and GAME not in targets(hand, 1) and TRULL in targets(hand, 1)
    act(hand, Pass(1), Pass(2), Pass(3))
    assert s.phase == "play"  # "bis dreimal Gut! kommt"


def test_grammopoi_on_top_of_the_own_partys_absolut() -> None:
    # "Ansage/Gewinn des Grammopoi bedingt selbiges für den Absolut." -- the partner, who knows the
    # Absolut is his side's, may raise it to a Grammopoi; an opponent may not build on it.
    hand = announce_phase()
    act(hand, Announce(0, ("absolut",)), Pass(0))
    assert "grammopoi" in words(hand, 1)
    act(hand, Announce(1, ("grammopoi",)), Pass(1))
    assert [(a.name, a.seat) for a in hand.state.announcements] == [("absolut", 0), ("grammopoi", 1)]
    other = announce_phase()
    act(other, Announce(0, ("absolut",)), Pass(0), Pass(1))
    assert "grammopoi" not in words(other, 2)
    assert other.why_not(Announce(2, ("grammopoi",))).code == "absolut-taken"


def test_reasons_for_kontras_that_are_not_open() -> None:
    # "Kontra ist bis Re (4fach) möglich" "Es zählt bei positiven Spielen für die Partei, bei negativen
    # individuell." -- the partner knows his side: no Kontra on the declarer's game
    hand = announce_phase()
    act(hand, Pass(0))
    assert hand.why_not(Kontra(1)).code == "own-side"
    assert hand.why_not(Kontra(1, KontraTarget("valat"))).code == "kontra-target"
    act(hand, Pass(1), Kontra(2))
    assert hand.why_not(Kontra(2)).code == "re-not-yours"
    negative = rigged(CLUB_NAME, [FH, "", "", ""])
    act(negative, Bid(0, "bettler"), Bei(1, "bettler"), Pass(2), Pass(3))
    assert negative.why_not(Kontra(0, KontraTarget(declarer=0))).code == "own-game"
    assert negative.why_not(Kontra(0, KontraTarget(declarer=2))).code == "not-a-declarer"
    assert negative.why_not(Kontra(0, KontraTarget(answer=2))).code == "no-kontra-to-answer"
    assert negative.why_not(Kontra(0)).code == "kontra-target"


def test_three_gut_end_the_announcements() -> None:
    # "Nach Ablage darf jeder Spieler so lange Prämien und Kontras ansagen, bis dreimal Gut! kommt."
    hand = announce_phase()
    act(hand, Pass(0), Pass(1), Announce(2, ("marabu",)), Pass(2), Pass(3), Pass(0))
    assert hand.state.phase == "announce" and hand.state.to_move == 1
    act(hand, Pass(1))
    assert hand.state.phase == "play"


def test_an_announced_king_waits_for_the_last_trick() -> None:
    # "Hat man einen Vogel (oder König ultimo) angesagt, muss man immer versuchen, die entsprechende
    # Karte zum vorgeschriebenen Stich zu spielen"
    hand = announce_phase()
    act(hand, Pass(0), Announce(1, ("king",)))
    gut_all(hand)
    act(hand, Play(0, cards("d4")[0]))
    assert hand.legal(1) == [Play(1, cards("dK")[0])]  # the only Diamond: blocked, must follow suit
    assert hand.state.tricks == []


def test_announced_birds_blocked_and_sacrificed() -> None:
    # "wurden sie in ebendiesem blockiert, können sie danach nach Belieben gespielt werden. Wenn ein
    # Vogel geopfert werden muss, sind die höheren zuerst aufzugeben."
    from tarock.variants.koenigrufen.base import restrict

    pagat, uhu, xv = cards("I II XV")
    due = {pagat: 11, uhu: 10}
    assert restrict([pagat, uhu, xv], due, 3) == [xv]
    assert restrict([pagat, uhu], due, 3) == [uhu]  # the higher bird goes first
    assert restrict([pagat, uhu, xv], due, 10) == [uhu]  # its trick: play it
    assert restrict([xv], due, 10) == [xv]  # blocked in its trick
    assert restrict([uhu, xv], {pagat: 11, uhu: 10}, 11) == [uhu, xv]  # free afterwards


def test_the_higher_announced_bird_is_given_up_first_with_its_reason() -> None:
    # "Wenn ein Vogel geopfert werden muss, sind die höheren zuerst aufzugeben."
    hand = rigged(CLUB_NAME, ["cK sK hK I XV XVI XVII XVIII XIX XX cQ d4", "dK",
                              "III IV c10 c9 c8 c7 s10 s9 s8 s7 h1 h2"], talon=["II V VI", "VII VIII IX"])
    to_rufer(hand)
    act(hand, Call(0, cards("dK")[0]), TakeTalon(0, 0), Discard(0, tuple(sorted(cards("cQ d4 V")))))
    act(hand, Pass(0), Pass(1), Announce(2, ("kakadu",)), Announce(2, ("marabu",)), Pass(2))
    gut_all(hand)
    act(hand, Play(0, cards("XV")[0]))
    act(hand, hand.legal(1)[0])
    # a tarock is led: seat 2 holds only its two announced birds and must give one up
    assert hand.legal(2) == [Play(2, cards("IV")[0])]
    reason = hand.why_not(Play(2, cards("III")[0]))
    assert reason is not None and reason.code == "bird-sacrifice"


def test_reasons_for_bids_that_are_not_allowed() -> None:
    # "Wenn im ersteren Falle alle anderen Spieler Weiter! gesagt haben, kann die Vorhand auch ein
    # Vorhandspiel spielen." "Wer ohne Vogel Besserrufer lizitiert ..." "Man darf sowohl vor, als auch
    # nach Talon höchstens 6 Tarock im Blatt haben."
    hand = rigged(CLUB_NAME, [FH, "V VI VII VIII IX X XI", "", ""])
    assert hand.why_not(Bid(0, "rufer")).code == "forehand-game"
    act(hand, Bid(0, "vorhand"))
    assert hand.why_not(Bid(1, "rufer")).code == "forehand-game"
    assert hand.why_not(Bid(1, "besserrufer")).code == "no-bird"
    assert hand.why_not(Bid(1, "farbendreier")).code == "too-many-tarocks"
    assert hand.why_not(Bid(1, "vorhand")).code == "vorhand-opening"
    act(hand, Pass(1), Pass(2), Pass(3))
    assert hand.why_not(Pass(0)).code == "must-choose"
    assert hand.why_not(Bid(0, "farbendreier")).code == "too-many-tarocks"


def test_a_kontra_between_unknowing_partners_does_not_count() -> None:
    # "Bei der Prämienansage wird nicht deklariert, von welcher Seite sie erfolgt. Stellt sich am Ende
    # heraus, dass sich Partner unwissentlich kontriert haben, zählt dies nicht."
    hand = announce_phase()
    act(hand, Pass(0), Announce(1, ("trull",)), Pass(1), Pass(2), Pass(3))
    assert TRULL in targets(hand, 0)
    act(hand, Kontra(0, KontraTarget("trull")), Pass(0), Pass(1), Pass(2), Pass(3))
    play_out(hand, random.Random(15))
    check_hand(hand)
    r = hand.state.result
    assert r is not None
    [trull] = [p for p in lines(r) if p.name == "trull"]
    assert trull.party == "declarers" and trull.announced and trull.kontra == 0 and abs(trull.amount) == 20


def test_every_deal_is_played() -> None:
    # "Jedes Spiel muss gespielt werden. Ein Blatt ohne Tarock und Könige wird nicht zusammengeworfen."
    hand = rigged(CLUB_NAME, ["cQ sQ hQ dQ cC sC hC dC cJ sJ hJ dJ"])
    assert hand.rules.redeal_reason(hand.state.hands) is None
    assert Pass(0) not in hand.legal(0)


def test_dreier_half_the_talon_alone_40() -> None:
    # "Dreier 40" -- a Lizitspiel with the talon ("Beim Sechserdreier wird der Talon verdeckt
    # aufgenommen": the Dreier's is turned up), alone against three
    hand = rigged(CLUB_NAME, [FH], talon=["c10 c9 c8", "s10 s9 s8"])
    act(hand, Bid(0, "dreier"), Pass(1), Pass(2), Pass(3))
    assert observe(hand, 1).talon_shown == (tuple(cards("c10 c9 c8")), tuple(cards("s10 s9 s8")))
    act(hand, TakeTalon(0, 1), Discard(0, tuple(sorted(cards("s10 s9 s8")))))
    gut_all(hand)
    play_out(hand, random.Random(16))
    check_hand(hand)
    r = hand.state.result
    assert r is not None and r.declarers == (0,)
    assert lines(r)[0] == Line("game", "declarers", r.won, 40 if r.won else -40)
    assert r.settlement[0] == 3 * sum(i.amount for i in r.items)


def test_ouvert_all_hands_open_before_the_second_lead() -> None:
    # "Bei den Ouvertspielen legen alle Spieler vor dem zweiten Ausspielen ihre Karten auf."
    # "Bettel ouvert 60"
    hand = rigged(CLUB_NAME, [FH])
    act(hand, Bid(0, "bettel-ouvert"), Pass(1), Pass(2), Pass(3))
    gut_all(hand)
    assert observe(hand, 2).open_hands == ()
    for _ in range(4):
        seat = hand.state.to_move
        assert seat is not None
        act(hand, hand.legal(seat)[0])
    view = observe(hand, 2)
    assert [seat for seat, _ in view.open_hands] == [0, 1, 3]
    assert dict(view.open_hands)[1] == observe(hand, 1).hand
    play_out(hand, random.Random(17))
    check_hand(hand)
    r = hand.state.result
    assert r is not None and abs(r.settlement[0]) == 3 * 60


def test_kontra_in_a_game_alone_against_three() -> None:
    # "Es zählt bei positiven Spielen für die Partei": in a Dreier the three opponents are one party
    # and know it, so one of them does not kontra another's announcement but may answer with Re.
    hand = rigged(CLUB_NAME, [FH], talon=["c10 c9 c8", "s10 s9 s8"])
    act(hand, Bid(0, "dreier"), Pass(1), Pass(2), Pass(3), TakeTalon(0, 0),
        Discard(0, tuple(sorted(cards("c10 c9 c8")))), Pass(0), Announce(1, ("trull",)), Pass(1))
    assert targets(hand, 2) == {GAME}
    act(hand, Pass(2), Pass(3))
    assert targets(hand, 0) == {TRULL}
    act(hand, Kontra(0, KontraTarget("trull")), Pass(0), Pass(1))
    assert targets(hand, 2) == {GAME, TRULL}
