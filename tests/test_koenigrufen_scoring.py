"""Königrufen counting, premiums and settlement in cents, on finished hands
built card by card (docs/rules.md §16 and §17).

Dealer 3: seat 0 is the forehand; in the Rufer hands seat 0 declares and
seat 2 is his partner (called Diamond King).
"""

from __future__ import annotations

from line_items import Line, lines
from test_koenigrufen_random import CLUB_NAME, COURSE_NAME, cards, finished

from tarock.core.state import HandResult
from tarock.variants.koenigrufen.cardplay import thirds

ONES = "c10 c9 c8 c7 s10 s9 s8 s7 h1 h2 h3 h4 d1 d2 d3 d4 V VI VII VIII IX X XI XII XIII XIV"
TALON = "c10 c9 c8 c7 s10 s9"


def ones(n: int, skip: str = "") -> str:
    avoid = set(skip.split())
    return " ".join([c for c in ONES.split() if c not in avoid][:n])


def score(variant: str, contract: str, declarer: int = 0, **kw: object) -> HandResult:
    rules, state = finished(variant, contract, declarer, **kw)  # type: ignore[arg-type]
    return rules.score(state)


def rufer(variant: str = CLUB_NAME, **kw: object) -> HandResult:
    kw.setdefault("partner", 2)
    kw.setdefault("called", "dK")
    return score(variant, "rufer", 0, **kw)


def prem(result: HandResult) -> dict[str, int]:
    """Each premium's amount: what each opponent of the declarer party pays it."""
    return {p.name: p.amount for p in lines(result) if p.name != "game"}


def item(result: HandResult, name: str) -> Line:
    """The line of the one item called ``name``."""
    [found] = [p for p in lines(result) if p.name == name]
    return found


# -- points: thirds and the winning line -------------------------------------------

def test_counting_in_thirds_70_points() -> None:
    # 003: "Es werden zum Zählen immer 3 Karten auf einmal genommen. Wert der 3 Karten wird addiert.
    # Von der Summe werden 2 Punkte abgezogen" -- "5+2+1= 8 2 = 6", "1+1+1= 3-2 = 1"
    assert thirds(cards("cK cJ c10")) == 3 * 6
    assert thirds(cards("c7 c8 c9")) == 3 * 1
    assert thirds(list(range(54))) == 210


def test_club_needs_35_2_course_35_1() -> None:
    # 002: "Zum Gewinn eines positiven Spiels braucht man 35/2."  003: "Die beiden zusammen müssen von
    # insgesamt 70 Punkten am Ende 35 Punkte plus 1 Blatt erreichen, um das Spiel zu gewinnen."
    ours = "cK sK hK dK I XXI Sküs cJ c7 s10 s9 s8 s7 h1 h2 h3"
    kw = {"discards": "c10 c9 c8", "won": {0: ours}, "rest": 1}
    assert thirds(cards(ours + " c10 c9 c8")) == 106
    club = rufer(CLUB_NAME, **kw)
    assert club.won is False and club.points == (106, 104)
    # lost game 10, silent Trull 10 and 4 Könige 10 for the declarer's party
    assert lines(club) == [Line("game", "declarers", False, -10), Line("trull", "declarers", True, 10),
                           Line("kings", "declarers", True, 10)]
    assert club.settlement == (10, -10, 10, -10)
    course = rufer(COURSE_NAME, **kw)
    assert course.won is True
    # silent: half of "Trull 2"
    assert lines(course) == [Line("game", "declarers", True, 2), Line("trull", "declarers", True, 1)]
    assert course.settlement == (3, -3, 3, -3)
    won = rufer(CLUB_NAME, discards="cJ sJ hJ", won={0: "cK sK hK dK I XXI Sküs dJ"}, rest=1)
    assert won.won is True and won.points[0] == 107
    assert won.settlement == (30, -30, 30, -30)


# -- the club's premiums, docs/rules.md §16.5 --------------------------------------------------------------

def test_absolut_from_45_2_grammopoi_from_55_2() -> None:
    # "Absolut (ab 45/2) 5/10", "Grammopoi (ab 55/2) 5/10"
    theirs = "cK sK hK Sküs cJ " + ones(11, TALON)
    r = rufer(talon=TALON, won={1: theirs}, rest=0)
    assert r.points == (137, 73) and prem(r) == {"absolut": 5}
    assert item(r, "absolut") == Line("absolut", "declarers", True, 5)
    assert r.settlement == (15, -15, 15, -15)
    r = rufer(talon=TALON, won={1: "cK sK hK Sküs XXI " + ones(3, TALON)}, rest=0)
    assert r.points == (136, 74) and prem(r) == {}
    r = rufer(talon=TALON, won={1: "cK cQ " + ones(14, TALON)}, rest=0)
    assert r.points == (167, 43) and prem(r) == {"trull": 10, "absolut": 5, "grammopoi": 5}


def test_kontra_on_absolut_carries_to_the_grammopoi() -> None:
    # "Ansage/Gewinn des Grammopoi bedingt selbiges für den Absolut. Kontra auf Absolut bedingt
    # selbiges für den Grammopoi."
    r = rufer(talon=TALON, won={1: "cK cQ " + ones(14, TALON)}, rest=0,
              announced=[("grammopoi", 0, 0), ("absolut", 0, 1)], kontra_by={"absolut": 1})
    assert lines(r) == [Line("game", "declarers", True, 10), Line("trull", "declarers", True, 10),
                        Line("absolut", "declarers", True, 20, announced=True, kontra=1),
                        Line("grammopoi", "declarers", True, 20, announced=True, kontra=1)]


def test_solo_games_double_the_premiums() -> None:
    # "In Solospielen gelten alle Prämien doppelt."
    r = score(CLUB_NAME, "solodreier", won={0: "cK sK hK dK I XXI Sküs dJ"}, rest=1)
    assert r.won is False
    assert lines(r) == [Line("game", "declarers", False, -80), Line("trull", "declarers", True, 20, scale=2),
                        Line("kings", "declarers", True, 20, scale=2)]
    assert r.settlement == (-120, 40, 40, 40)


def test_kontra_counts_for_the_party_but_not_between_partners() -> None:
    # "Stellt sich am Ende heraus, dass sich Partner unwissentlich kontriert haben, zählt dies nicht."
    # "Kontra ist bis Re (4fach) möglich"
    kw = {"discards": "cJ sJ hJ", "won": {0: "cK sK hK dK I XXI Sküs dJ"}, "rest": 1}
    opp = rufer(announced=[("trull", 2, 1)], kontra_by={"trull": 1}, **kw)
    assert item(opp, "trull") == Line("trull", "declarers", True, 40, announced=True, kontra=1)
    assert item(opp, "game").kontra == 0  # a Kontra on the Trull is on the Trull alone
    re = rufer(announced=[("trull", 2, 2)], kontra_by={"trull": 3}, **kw)
    assert item(re, "trull") == Line("trull", "declarers", True, 80, announced=True, kontra=2)
    partner = rufer(announced=[("trull", 2, 1)], kontra_by={"trull": 0}, **kw)
    assert item(partner, "trull") == Line("trull", "declarers", True, 20, announced=True, kontra=0)
    game = rufer(game_kontra=2, kontra_by={"": 1}, **kw)
    assert lines(game) == [Line("game", "declarers", True, 40, kontra=2),
                           Line("trull", "declarers", True, 10), Line("kings", "declarers", True, 10)]
    assert game.settlement == (60, -60, 60, -60)


def test_solorufer_king_in_the_talon_its_half_for_him_and_kontras_void() -> None:
    # "Liegt beim Solorufer der gerufene König im Talon, erhält der Solospieler die Talonhälfte mit
    # dem König. Kontras zählen dann in keinem Fall."  "In Solospielen gelten alle Prämien doppelt."
    r = score(CLUB_NAME, "solorufer", called="dK", talon="dK c9 c8 c7 s10 s9",
              won={0: "cK sK hK I XXI Sküs cQ sQ"}, rest=1, game_kontra=2,
              announced=[("trull", 0, 1)], kontra_by={"": 1, "trull": 1}, called_in_talon=True)
    assert thirds(cards("cK sK hK I XXI Sküs cQ sQ")) == 98
    assert r.points == (113, 97) and r.won is True
    assert lines(r) == [Line("game", "declarers", True, 20),
                        Line("trull", "declarers", True, 40, announced=True, scale=2),
                        Line("kings", "declarers", True, 20, scale=2)]
    assert r.settlement == (240, -80, -80, -80)


def test_birds_silent_and_announced() -> None:
    # "Pagat Ultimo 10/20", "Uhu 15/30", "Kakadu (Kanari, Pelikan) 20/40"
    won = rufer(tricks={11: (1, "c10 I c9 c8", 2)}, rest=3)
    assert item(won, "pagat") == Line("pagat", "declarers", True, 10)
    lost = rufer(tricks={11: (1, "XX I c9 c8", 1)}, won={0: "h1 h2 h3 h4"}, rest=3)
    assert item(lost, "pagat") == Line("pagat", "declarers", False, -10)
    opp = rufer(tricks={10: (1, "II c9 c8 c7", 1)}, won={0: "h1 h2 h3 h4"}, rest=3, announced=[("uhu", 1, 0)])
    assert item(opp, "uhu") == Line("uhu", "opponents", True, -30, announced=True)
    failed = rufer(won={0: "h1 h2 h3 h4"}, rest=3, announced=[("kakadu", 0, 0)])
    assert item(failed, "kakadu") == Line("kakadu", "declarers", False, -40, announced=True)
    # "Marabu (Quapil, Wildsau) 25/50": the fourth-last trick
    marabu = rufer(tricks={8: (0, "IV c9 c8 c7", 0)}, rest=3)
    assert prem(marabu)["marabu"] == 25


def test_king_ultimo() -> None:
    # "König Ultimo 10/20"
    assert prem(rufer(tricks={11: (0, "c10 c9 dK c8", 2)}, rest=3))["king"] == 10
    assert prem(rufer(tricks={11: (0, "c10 c9 dK c8", 2)}, rest=3, announced=[("king", 2, 0)]))["king"] == 20
    assert prem(rufer(tricks={11: (0, "XX c9 dK c8", 0)}, rest=3, announced=[("king", 2, 0)]))["king"] == -20


def test_mondfang_between_parties_not_among_partners_by_default() -> None:
    # "Mondfang wird zwischen den Spielparteien abgerechnet. Mondfang unter Partnern zählt nicht."
    # and the remark "Und der Mondfang zählt sehr wohl auch bei den Spielpartnern" (option)
    # (docs/rules.md §9.4: the Sküs takes the trick holding the Mond)
    caught = rufer(tricks={0: (1, "XXI V VI Sküs", 0)}, rest=3)
    assert item(caught, "mondfang") == Line("mondfang", "declarers", True, 5)
    partners = rufer(tricks={0: (2, "XXI V Sküs VI", 0)}, rest=3)
    assert "mondfang" not in prem(partners)
    shame = rufer(tricks={0: (2, "XXI V Sküs VI", 0)}, rest=3, options={"mondfang_partners": True})
    assert item(shame, "mondfang") == Line("mondfang", "opponents", True, -5)


def test_a_mond_the_skus_does_not_take_is_no_mondfang() -> None:
    # docs/rules.md §9.4: "der Sküs sticht den Mond der anderen Partei"; of the
    # Märchenstich the club's rulebook says "Dies zählt, abgesehen von der gewonnenen Trull, nicht als
    # Prämie":
    # the Pagat taking the Trull trick is no Mondfang, though the Trull counts for its party.
    maerchen = rufer(tricks={0: (1, "XXI Sküs V I", 0)}, rest=3)
    assert "mondfang" not in prem(maerchen)
    assert item(maerchen, "trull") == Line("trull", "declarers", True, 10)
    # the opponents' Sküs in the trick, the Mond of the other party, but the Pagat wins it
    theirs = rufer(tricks={0: (0, "XXI Sküs V I", 3)}, rest=2)
    assert "mondfang" not in prem(theirs)
    assert item(theirs, "trull") == Line("trull", "opponents", True, -10)


def test_announced_mondfang_and_when_it_is_void() -> None:
    # "Mondfang 5/50" -- "Wird der Mondfang angesagt, obwohl der Partner ihn hält, ist die Ansage
    # hinfällig."
    made = rufer(tricks={0: (1, "XXI V VI Sküs", 0)}, rest=3, announced=[("mondfang", 0, 0)],
                 data={"mond_holder": 1})
    assert item(made, "mondfang") == Line("mondfang", "declarers", True, 50, announced=True)
    failed = rufer(tricks={0: (1, "XXI V VI VII", 1)}, won={0: "h1 h2 h3 h4"}, rest=3,
                   announced=[("mondfang", 0, 0)],
                   data={"mond_holder": 1})
    assert item(failed, "mondfang") == Line("mondfang", "declarers", False, -50, announced=True)
    void = rufer(tricks={0: (2, "XXI V VI VII", 2)}, rest=3, announced=[("mondfang", 0, 0)],
                 data={"mond_holder": 2})
    assert "mondfang" not in prem(void)


def test_valat_keeps_game_premiums_and_material_only_when_lost_or_kontra() -> None:
    # "Bei Valat zählen alle Spielprämien, Materialprämien aber nur, wenn für die Valatseite
    # verloren, oder wenn ein Kontra erfolgt ist."  "Valat 80/160"
    kw = {"talon": TALON, "tricks": {0: (1, "XXI V VI Sküs", 0), 11: (1, "h1 I h2 h3", 2)}, "rest": 0}
    r = rufer(**kw)
    assert lines(r) == [Line("game", "declarers", True, 10), Line("pagat", "declarers", True, 10),
                        Line("mondfang", "declarers", True, 5), Line("valat", "declarers", True, 80)]
    assert r.settlement == (105, -105, 105, -105)
    gained = rufer(announced=[("trull", 1, 0)], **kw)
    assert "trull" not in prem(gained)
    kontra = rufer(announced=[("trull", 1, 1)], kontra_by={"trull": 0}, **kw)
    assert item(kontra, "trull") == Line("trull", "opponents", False, 40, announced=True, kontra=1)
    lost = rufer(talon="Sküs c9 c8 c7 s10 s9", tricks={11: (1, "h1 I h2 h3", 2)}, rest=0,
                 announced=[("trull", 0, 0)])
    assert item(lost, "trull") == Line("trull", "declarers", False, -20, announced=True)


def test_trischaken_ranks_and_payments() -> None:
    # "Jungfrau - kein Stich, Unterwertiger - höchstens 17/1, Oberwertiger - 17/2 bis höchstens 35/1,
    # Bürgermeister - 35/2 und mehr" -- "Unterwertiger: 10 an Jungfrau; Oberwertiger: 10 an
    # Unterwertigen, 20 an Jungfrau; Bürgermeister: 10 an Oberwertigen, 20 an Unterwertigen, 30 an
    # Jungfrau" -- "Der Talon wird einzeln zu den ersten 6 Stichen zugeworfen."
    over = "cK sK hK dK cQ sQ hQ " + ones(9, "c10 c9 c8 c7")
    r = score(CLUB_NAME, "trischaken", won={3: "", 2: over, 1: "c10 c9 c8 c7"}, rest=3,
              talon=ones(6, "c10 c9 c8 c7 " + over))
    assert r.seat_points[1] == 4 and 53 <= r.seat_points[2] <= 106 and r.seat_points[3] >= 107
    assert r.seat_points[0] == 0
    assert r.settlement == (60, 20, -20, -60)


# -- the course's premiums and games, docs/rules.md §17 ---------------------------------------------

def test_course_premium_tariffs() -> None:
    # "Ansagen (in Cent) König 2 Spatz 2 Dreier 6 Trull 2 Uhu 4 Vierer 8 Valat 6x"
    r = rufer(COURSE_NAME, tricks={11: (0, "c10 c9 dK c8", 2), 10: (2, "II c7 s10 s9", 2)}, rest=3,
              announced=[("king", 2, 0)])
    assert prem(r)["king"] == 2 and prem(r)["uhu"] == 2  # silent: half
    failed = rufer(COURSE_NAME, won={0: ones(4)}, rest=3, announced=[("marabu", 0, 0), ("kakadu", 2, 0)])
    assert prem(failed)["marabu"] == -8 and prem(failed)["kakadu"] == -6
    spatz = rufer(COURSE_NAME, tricks={11: (0, "I c9 c8 c7", 0)}, rest=3, announced=[("pagat", 0, 0)])
    assert prem(spatz)["pagat"] == 2


def test_course_valat_replaces_game_and_premiums() -> None:
    # "Valat 6x"
    silent = rufer(COURSE_NAME, talon=TALON, rest=0)
    assert lines(silent) == [Line("valat", "declarers", True, 6)]  # no game item: the Valat replaces it
    assert silent.settlement == (6, -6, 6, -6)
    loud = rufer(COURSE_NAME, talon=TALON, rest=0, announced=[("valat", 0, 0), ("trull", 0, 0)])
    assert lines(loud) == [Line("valat", "declarers", True, 12, announced=True)]


def test_course_solo_rufer_doubles_and_the_king_in_the_talon() -> None:
    # "Ansagen zählen sowohl angesagt als auch heimlich doppelt" -- "Liegt der gerufene König im
    # Talon, erhält ihn der Rufer am Ende des Spieles und muss dafür ein leeres Blatt abgeben. Im Fall
    # des Hineinrufens muss der Spieler auf alle Fälle den einfachen Spielwert bezahlen, auch wenn das
    # Spiel kontriert wurde."
    r = score(COURSE_NAME, "solorufer", partner=2, called="dK",
              discards="", won={0: "cK sK hK I XXI Sküs " + ones(6)}, rest=1)
    assert prem(r) == {"trull": 2}
    inside = score(COURSE_NAME, "solorufer", called="dK", talon="dK c9 c8 c7 s10 s9",
                   won={0: "cK sK hK I XXI Sküs cQ sQ hQ dQ cC sC hC dC cJ sJ hJ dJ h1 h2"
                        " V VI VII VIII"}, rest=1, game_kontra=1, kontra_by={"": 1},
                   called_in_talon=True)
    assert inside.won is False
    # the Kontra on the game does not count: "auf alle Fälle den einfachen Spielwert"
    assert lines(inside) == [Line("game", "declarers", False, -4),
                             Line("trull", "declarers", True, 2, scale=2)]
    assert inside.settlement == (-6, 2, 2, 2)
    assert inside.points[0] == thirds(cards("cK sK hK I XXI Sküs cQ sQ hQ dQ cC sC hC dC cJ sJ hJ dJ h1"
                                             " h2 V VI VII dK"))


def test_course_zwiccolo_exactly_two_tricks_and_individual_kontra() -> None:
    # "Spielziel: exakt 2 Stiche ... Bei Erreichen von genau 2 Stichen bekommt der Spieler 3 Cent,
    # ansonsten bezahlt er 3 Cent."
    made = score(COURSE_NAME, "zwiccolo", won={0: ones(8)}, rest=1, pairs={(0, 1): 1})
    assert made.settlement == (12, -6, -3, -3)
    failed = score(COURSE_NAME, "zwiccolo", won={0: ones(12)}, rest=1, pairs={(0, 1): 1})
    assert failed.settlement == (-12, 6, 3, 3)


def test_course_fahrer_payments() -> None:
    # "Verlierer des Spieles ist der Mitspieler mit den meisten Punkten. Er muss den anderen drei
    # Mitspielern den einfachen Spielwert bezahlen. Hat ein Mitspieler am Ende mehr als 35 Punkte 1
    # Blatt, muss er den doppelten Spielwert bezahlen. Hat jedoch die Vorhand ... die meisten Punkte,
    # so muss er den doppelten Spielwert bezahlen (Vierfach bei mehr als 35 Pkt. 1 Blatt)"
    heavy = "cK sK hK dK cQ sQ hQ dQ " + ones(4, TALON)
    r = score(COURSE_NAME, "fahrer", talon=TALON,
              won={0: ones(12, TALON + " " + heavy), 1: "XV XVI XVII XVIII XIX XX I II III IV cC sC",
                   3: "", 2: heavy}, rest=3)
    assert r.seat_points[2] == 102 and max(r.seat_points) == 102
    assert r.settlement == (1, 1, -3, 1) and r.next_round_factor == 2
    # "Hat ein Spieler kontriert, wird der Spielwert verdoppelt, bei zwei Spielern vervierfacht"
    k = score(COURSE_NAME, "fahrer", talon=TALON,
              won={0: ones(12, TALON + " " + heavy), 1: "XV XVI XVII XVIII XIX XX I II III IV cC sC",
                   3: "", 2: heavy}, rest=3, data={"fahrer": {"by": [1, 3]}})
    assert k.settlement == (4, 4, -12, 4)
    fh = score(COURSE_NAME, "fahrer", talon=TALON, rest=0,
               won={1: ones(8, TALON), 2: ones(8, TALON + " " + ones(8, TALON)),
                    3: "XV XVI XVII XVIII XIX XX II III"})
    assert fh.seat_points[0] > 106 and fh.settlement == (-12, 4, 4, 4)


def test_course_fahrer_jungfrau_takes_the_whole_sum() -> None:
    # "Hat ein Spieler keinen Stich gemacht (d.h. keine Punkte), ist er eine so genannte Jungfrau und
    # erhält die gesamte Summe, die der Verlierer zu bezahlen hat."
    heavy = "cK sK hK dK cQ sQ hQ dQ " + ones(4, TALON)
    r = score(COURSE_NAME, "fahrer", talon=TALON, won={0: ones(12, TALON + " " + heavy), 1: "", 2: heavy},
              rest=1)
    assert r.seat_points[3] == 0 and r.seat_points[2] == 102
    assert r.settlement == (0, 0, -3, 3)
