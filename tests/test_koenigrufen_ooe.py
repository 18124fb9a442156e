"""``koenigrufen-ooe``: the Upper-Austrian tournament rules (docs/rules.md §18; the test names keep
the numbers of the profile they were written from), and the koenigrufen base's options they set,
each default being the club's rule.

Money in cents at 10 ct per point.  Seats: dealer 3, so seat 0 (A) is the forehand and the order
is 0, 1, 2, 3 (A, B, C, D).
"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

from line_items import Line, lines
from test_koenigrufen_random import CLUB_NAME, act, cards, finished, gut_all, play_out, rigged, rules_for

from tarock.core.actions import Announce, Bid, Call, Discard, Kontra, KontraTarget, Pass
from tarock.core.engine import Hand
from tarock.core.plugins import load_plugins
from tarock.core.record import record_of, replay
from tarock.core.state import HandResult
from tarock.core.tricks import winner
from tarock.variants.koenigrufen.actions import GiveUp, TakeTalon

OOE = "koenigrufen-ooe"
CATALOGUE = load_plugins(Path(__file__).resolve().parent.parent / "plugins.toml")
FH = "cK sK hK I II XV XVI XVII XVIII XIX cQ d4"
"""Seat 0: three Kings, Pagat and Uhu, seven tarocks."""
TALON = ["c10 c9 c8", "s10 s9 s8"]


def bids(hand: Hand, seat: int) -> set[str]:
    return {a.contract for a in hand.legal(seat) if isinstance(a, Bid)}


def game_of(hand: Hand) -> tuple[str, int | None]:
    s = hand.state
    assert s.contract is not None
    return s.contract.name, s.declarer


def replays(hand: Hand) -> None:
    """The hand is over, settles to zero and its record replays to the same result."""
    r = hand.state.result
    assert hand.done and r is not None and sum(r.settlement) == 0
    again = replay(json.loads(json.dumps(record_of(hand).to_json())), variants=CATALOGUE.variants)
    assert again.error_index is None and again.hand is not None and again.hand.state.result == r


def score(contract: str, declarer: int = 0, **kw: object) -> HandResult:
    rules, state = finished(OOE, contract, declarer, **kw)  # type: ignore[arg-type]
    return rules.score(state)


# -- the plugin file ---------------------------------------------------------------------------

def test_the_plugin_is_one_short_file_on_the_public_api() -> None:
    path = Path(__file__).resolve().parent.parent / "examples" / "koenigrufen_ooe.py"
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 120
    modules = {n.module for n in ast.walk(ast.parse(text)) if isinstance(n, ast.ImportFrom)}
    assert modules <= {"__future__", "collections.abc", "dataclasses", "typing", "tarock.core.contracts",
                       "tarock.core.facts", "tarock.core.hookspecs"}


# -- docs/rules.md §18.2: the auction ---------------------------------------------------------------

def test_profile_3_1_ladder_bettel_below_solorufer_sechserdreier_between_farbendreier_and_dreier() -> None:
    hand = rigged(OOE, [FH, "IV V VI", "", ""])
    act(hand, Bid(0, "bettler"))
    assert "solorufer" in bids(hand, 1) and "piccolo" not in bids(hand, 1)
    sechser = rigged(OOE, [FH, "IV V VI", "", ""])
    act(sechser, Bid(0, "sechserdreier"))
    assert "farbendreier" not in bids(sechser, 1) and "dreier" in bids(sechser, 1)


def test_profile_3_2_sechserdreier_only_as_the_forehands_first_word() -> None:
    # docs/rules.md §18.2: A "Sechserdreier", B, C, D "weiter" -> A plays the Sechserdreier
    hand = rigged(OOE, [FH, "", "", ""], talon=TALON)
    assert {"vorhand", "sechserdreier"} <= bids(hand, 0) and Pass(0) not in hand.legal(0)
    act(hand, Bid(0, "sechserdreier"), Pass(1), Pass(2), Pass(3))
    assert game_of(hand) == ("sechserdreier", 0)
    # docs/rules.md §18.2: after "Vorhand" and three passes any game but the Sechserdreier
    other = rigged(OOE, [FH, "", "", ""], talon=TALON)
    act(other, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3))
    assert {"trischaken", "rufer", "dreier"} <= bids(other, 0) and "sechserdreier" not in bids(other, 0)
    assert other.why_not(Bid(0, "sechserdreier")).code == "opening-game"


def test_profile_3_4_example_1_the_forehand_holds_twice_and_plays_the_dreier() -> None:
    # A "Vorhand", B "Piccolo", C "weiter", D "Farbendreier", A "ich halte", B "Dreier", D "weiter",
    # A "ich halte", B "weiter" -> A plays a Dreier
    hand = rigged(OOE, [FH, "", "", ""], talon=TALON)
    act(hand, Bid(0, "vorhand"), Bid(1, "piccolo"), Pass(2), Bid(3, "farbendreier"))
    assert "farbendreier" in bids(hand, 0)  # the hold
    act(hand, Bid(0, "farbendreier"))
    assert "farbendreier" not in bids(hand, 1)  # after a hold the others bid strictly higher
    act(hand, Bid(1, "dreier"), Pass(3), Bid(0, "dreier"), Pass(1))
    assert game_of(hand) == ("dreier", 0)


def test_profile_3_4_example_3_holding_a_dreier_over_the_own_sechserdreier() -> None:
    hand = rigged(OOE, [FH, "", "", ""], talon=TALON)
    act(hand, Bid(0, "sechserdreier"), Bid(1, "dreier"), Pass(2), Pass(3), Bid(0, "dreier"), Pass(1))
    assert game_of(hand) == ("dreier", 0)
    assert hand.state.phase == "talon"  # an ordinary Dreier: one talon half


def test_profile_3_4_only_the_forehand_holds_and_the_club_has_no_hold() -> None:
    hand = rigged(OOE, [FH, "", "", ""])
    act(hand, Bid(0, "vorhand"), Bid(1, "piccolo"))
    assert "piccolo" not in bids(hand, 2)
    club = rigged(CLUB_NAME, [FH, "", "", ""])
    act(club, Bid(0, "vorhand"), Bid(1, "piccolo"), Pass(2), Pass(3))
    assert "piccolo" not in bids(club, 0)
    held = rigged(CLUB_NAME, [FH, "", "", ""], options={"forehand_hold": True})
    act(held, Bid(0, "vorhand"), Bid(1, "piccolo"), Pass(2), Pass(3), Bid(0, "piccolo"), Pass(1))
    assert game_of(held) == ("piccolo", 0)


def test_profile_3_6_no_calling_game_with_four_kings_no_bei_one_besserrufer() -> None:
    hand = rigged(OOE, ["cK sK hK dK I XV XVI XVII XVIII XIX XX d4", "II"])
    assert not {"solorufer", "besserrufer"} & bids(hand, 0)
    act(hand, Bid(0, "piccolo"))
    assert "besserrufer" in bids(hand, 1)
    assert not [a for a in hand.legal(1) if type(a).__name__ == "Bei"]


# -- docs/rules.md §18.3: the Sküs wins a Trull trick -------------------------------------------

def test_profile_1_no_special_tricks_the_skus_takes_the_trull() -> None:
    rules = rules_for(OOE)
    assert all(winner(cards("I XXI Sküs c7"), c.tricks) == 2 for c in rules.contracts
               if c.tricks.trump == "tarock")
    assert winner(cards("I XXI Sküs c7"), rules_for(CLUB_NAME).contract("dreier").tricks) == 0  # Märchenstich


# -- docs/rules.md §15.11, §18.8: giving up -----------------------------------------------------------------

def test_profile_4_3_schleifen_pays_game_and_bird_to_each() -> None:
    hand = rigged(OOE, ["cK sK hK II XV XVI XVII XVIII XIX cQ d4 d3", "", "", ""],
                  talon=["dK c10 c9", "s10 s9 s8"])
    act(hand, Bid(0, "besserrufer"), Pass(1), Pass(2), Pass(3), Call(0, cards("dK")[0]), GiveUp(0))
    r = hand.state.result
    assert r is not None and r.settlement == (-150, 50, 50, 50)  # 3 x (1 + Uhu 4) points
    for variant, options, paid in ((CLUB_NAME, {}, 90), (CLUB_NAME, {"giveup_price": "game"}, 30)):
        club = rigged(variant, [FH, "", "", ""], talon=["dK c10 c9", "s10 s9 s8"], options=options or None)
        act(club, Bid(0, "besserrufer"), Pass(1), Pass(2), Pass(3), Call(0, cards("dK")[0]), GiveUp(0))
        assert club.state.result is not None and club.state.result.settlement[0] == -paid


# -- docs/rules.md §18.3: discards ----------------------------------------------------------------

COLOUR_HAND = "III IV V VI dK s7 h1 h2 h3 d2 d3 sQ"
"""Seat 1: four plain tarocks, no Trull card."""


def discards_of(contract: str, variant: str = OOE) -> set[tuple[int, ...]]:
    hand = rigged(variant, [FH, "III IV V VI dK s7 h1 h2 h3 d2 d3 sQ"], talon=TALON)
    act(hand, Bid(0, "vorhand"), Bid(1, contract), Pass(2), Pass(3), Pass(0), TakeTalon(1, 0))
    return {a.cards for a in hand.legal(1) if isinstance(a, Discard)}


def test_profile_4_4_tarocks_laid_away_only_without_suit_cards_the_farbendreier_the_other_way() -> None:
    plain = set(cards("s7 h1 h2 h3 d2 d3 sQ c10 c9 c8"))
    assert discards_of("dreier") and all(set(d) <= plain for d in discards_of("dreier"))
    assert discards_of("farbendreier") == {tuple(sorted(cards("III IV V")))} | {
        tuple(sorted(c)) for c in ([*cards(x)] for x in ("III IV VI", "III V VI", "IV V VI"))}
    hand = rigged(OOE, [FH, "III IV V VI dK s7 h1 h2 h3 d2 d3 sQ"], talon=TALON)
    act(hand, Bid(0, "vorhand"), Bid(1, "farbendreier"), Pass(2), Pass(3), Pass(0), TakeTalon(1, 0))
    assert hand.why_not(Discard(1, tuple(sorted(cards("III IV s7"))))).code == "discard-suit"
    assert any(set(d) & set(cards("III IV V VI")) for d in discards_of("dreier", CLUB_NAME))  # the club


# -- docs/rules.md §18.4: announcements and Kontra ----------------------------------------------------

def dreier_of_seat_1(variant: str = OOE, **options: object) -> Hand:
    hand = rigged(variant, [FH], talon=TALON, options=dict(options) or None)
    act(hand, Bid(0, "vorhand"), Bid(1, "dreier"), Pass(2), Pass(3), Pass(0), TakeTalon(1, 0),
        Discard(1, tuple(sorted(cards("c10 c9 c8")))))
    assert hand.state.phase == "announce"
    return hand


def test_profile_5_1_the_declarer_opens_and_each_announces_only_in_his_first_turn() -> None:
    # docs/rules.md §18.4: the declarer opens, the others follow in playing order
    hand = dreier_of_seat_1()
    assert hand.state.to_move == 1
    act(hand, Announce(1, ("trull",)), Pass(1), Pass(2), Kontra(3, KontraTarget("trull")))
    # after a Kontra only more Kontras ("on everything") and Gut in that turn
    assert hand.why_not(Announce(3, ("kings",))).code == "kontra-said"
    act(hand, Kontra(3), Pass(3))
    assert hand.state.kontra_level == 1 and hand.state.announcements[0].kontra == 1
    # the forehand had no turn yet: she may announce; the others spoke and may not any more
    act(hand, Announce(0, ("kings",)), Pass(0))
    assert hand.state.to_move == 1 and hand.why_not(Announce(1, ("valat",))).code == "announce-once"
    act(hand, Kontra(1, KontraTarget("trull")), Pass(1))  # a Rekontra still may come later
    assert hand.why_not(Announce(2, ("valat",))).code == "announce-once"
    gut_all(hand)
    assert hand.state.phase == "play" and hand.state.announcements[0].kontra == 2
    # the club: the declarer opens, a Kontra keeps the whole turn, a player announces again later
    club = dreier_of_seat_1(CLUB_NAME)
    act(club, Pass(1), Pass(2), Kontra(3), Announce(3, ("kings",)), Pass(3), Pass(0), Pass(1))
    assert club.why_not(Announce(2, ("trull",))) is None
    opt = dreier_of_seat_1(CLUB_NAME, announce_first="forehand")
    assert opt.state.to_move == 0


def test_profile_5_3_the_besserrufer_names_his_bird_before_his_gut() -> None:
    hand = rigged(OOE, ["cK I XV XVI XVII XVIII XIX cQ d4 d3 h4 h3", "II III dK XX XXI Sküs"], talon=TALON)
    act(hand, Bid(0, "vorhand"), Bid(1, "besserrufer"), Pass(2), Pass(3), Pass(0), Call(1, cards("hK")[0]),
        TakeTalon(1, 0), Discard(1, tuple(sorted(cards("c10 c9 c8")))))
    assert hand.state.to_move == 1 and Pass(1) not in hand.legal(1)
    act(hand, Announce(1, ("uhu",)), Pass(1))
    assert hand.state.to_move == 2


def test_profile_5_4_kontra_rekontra_subkontra_and_no_more() -> None:
    hand = dreier_of_seat_1()
    act(hand, Pass(1), Kontra(2), Pass(2), Pass(3), Pass(0), Kontra(1), Pass(1), Kontra(2), Pass(2),
        Pass(3), Pass(0))
    assert hand.state.kontra_level == 3 and hand.why_not(Kontra(1)).code == "kontra-max"
    gut_all(hand)
    play_out(hand, random.Random(5))
    replays(hand)
    r = hand.state.result
    assert r is not None and r.items[0].name in ("game", "valat") and r.items[0].factor == 8  # x8
    club = dreier_of_seat_1(CLUB_NAME)
    act(club, Pass(1), Pass(2), Pass(3), Kontra(0), Pass(0), Kontra(1), Pass(1))
    assert club.why_not(Kontra(2)).code == "kontra-max"  # the club stops at Re


def test_profile_5_4_negative_games_three_levels_per_opponent_and_rekontra_against_all() -> None:
    # docs/rules.md §18.4: each defender's own chain; the declarer's Rekontra against all defenders
    # standing at Kontra is one turn of Rekontras
    hand = rigged(OOE, [FH], talon=TALON)
    act(hand, Bid(0, "piccolo"), Pass(1), Pass(2), Pass(3))
    on0, re1, re2 = KontraTarget(declarer=0), KontraTarget(answer=1), KontraTarget(answer=2)
    act(hand, Pass(0), Kontra(1, on0), Pass(1), Kontra(2, on0), Pass(2), Pass(3),
        Kontra(0, re1), Kontra(0, re2), Pass(0))  # A: Rekontra against B and C in one turn
    act(hand, Kontra(1, on0), Pass(1))  # B: Subkontra
    assert hand.why_not(Kontra(2, on0)) is None  # C may still
    act(hand, Pass(2))
    assert hand.why_not(Kontra(3, KontraTarget(answer=1))).code == "no-kontra-to-answer"
    act(hand, Pass(3))
    assert hand.why_not(Kontra(0, re1)).code == "re-said"
    gut_all(hand)
    play_out(hand, random.Random(1))
    replays(hand)
    r = hand.state.result
    assert r is not None and [i.kontra for i in r.items] == [3, 2, 0]
    made = sum(1 for t in hand.state.tricks if t.winner == 0) == 1
    assert r.settlement[0] == (1 if made else -1) * 20 * (8 + 4 + 1)


def farbendreier_of_seat_1(**options: object) -> Hand:
    hand = rigged(OOE, [FH, COLOUR_HAND], talon=TALON, options=dict(options) or None)
    act(hand, Bid(0, "vorhand"), Bid(1, "farbendreier"), Pass(2), Pass(3), Pass(0), TakeTalon(1, 0),
        Discard(1, tuple(sorted(cards("III IV V")))), Pass(1))
    return hand


def test_profile_5_4_colour_games_a_defender_kontras_or_announces_valat() -> None:
    # docs/rules.md §18.4: in the colour games a defender says Kontra or announces Valat
    hand = farbendreier_of_seat_1()
    act(hand, Announce(2, ("valat",)))
    assert hand.why_not(Kontra(2)).code == "kontra-or-valat" and Kontra(2) not in hand.legal(2)
    # announcing only in one's first turn, the other way round shows with that option off
    later = farbendreier_of_seat_1(announce_once=False)
    act(later, Kontra(2), Pass(2), Announce(3, ("kings",)), Pass(3), Pass(0), Pass(1))
    assert later.why_not(Announce(2, ("valat",))).code == "kontra-or-valat"
    club = rigged(CLUB_NAME, [FH, "III IV V VI dK s7 h1 h2 h3 d2 d3 sQ"], talon=TALON)
    act(club, Bid(0, "vorhand"), Bid(1, "farbendreier"), Pass(2), Pass(3), Pass(0), TakeTalon(1, 0),
        Discard(1, tuple(sorted(cards("c10 c9 c8")))), Pass(1), Announce(2, ("valat",)))
    assert club.why_not(Kontra(2)) is None  # the club allows both


def test_profile_9_5_piccolo_kontra_ladder_per_opponent() -> None:
    # A made the Piccolo; B kontra, A retour, B subkontra (x8); C kontra (x2); D x1
    won = "c7 c8 c9 c10"
    r = score("piccolo", 0, won={0: won}, rest=1, pairs={(0, 1): 3, (0, 2): 1})
    assert r.settlement == (220, -160, -40, -20)


# -- docs/rules.md §18.5: premiums ------------------------------------------------------------------

def test_profile_6_a_failed_silent_premium_costs_nothing() -> None:
    # docs/rules.md §18.5: the Pagat played in the last trick and beaten, not announced
    last = {11: (0, "I c7 c8 XXI", 3)}
    r = score("dreier", 0, tricks=last, rest=0)
    assert "pagat" not in {i.name for i in r.items}
    club = finished(CLUB_NAME, "dreier", 0, tricks=last, rest=0)
    assert Line("pagat", "declarers", False, -10) in lines(club[0].score(club[1]))  # the club charges it
    announced = score("dreier", 0, tricks=last, rest=0, announced=[("pagat", 0, 0)])
    assert Line("pagat", "declarers", False, -20, announced=True) in lines(announced)


def test_profile_6_koenig_ultimo_is_made_when_its_party_takes_the_last_trick() -> None:
    # docs/rules.md §18.5: the partner's King falls in the last trick, the declarer trumps it
    last, one = {11: (1, "d2 dK d3 XX", 0)}, {1: "XIX XVIII XVII XVI"}
    r = score("rufer", 0, partner=2, called="dK", tricks=last, rest=0, won=one)
    assert Line("king", "declarers", True, 10) in lines(r)
    itself = score("rufer", 0, partner=2, called="dK", tricks={11: (1, "d2 dK d3 d4", 2)}, rest=0, won=one)
    assert Line("king", "declarers", True, 10) in lines(itself)  # the King itself takes it
    beaten = score("rufer", 0, partner=2, called="dK", tricks={11: (0, "d4 d2 dK XX", 3)}, rest=0, won=one,
                   announced=[("king", 2, 0)])
    assert Line("king", "declarers", False, -20, announced=True) in lines(beaten)
    club = finished(CLUB_NAME, "rufer", 0, partner=2, called="dK", tricks=last, rest=0, won=one)
    assert Line("king", "declarers", False, -10) in lines(club[0].score(club[1]))  # the King must take it


def test_profile_4_2_announcing_koenig_ultimo_makes_the_partnership_public() -> None:
    hand = rigged(OOE, ["cK sK I XV XVI XVII XVIII XIX cQ d4 d3 h4", "", "hK"], talon=TALON)
    act(hand, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3), Bid(0, "rufer"), Call(0, cards("hK")[0]),
        TakeTalon(0, 0), Discard(0, tuple(sorted(cards("c10 c9 c8")))), Pass(0), Pass(1))
    assert hand.state.partner == 2 and not hand.state.partner_known
    act(hand, Announce(2, ("king",)), Pass(2))
    assert hand.state.partner_known


def test_profile_9_3_example_1_besserrufer_kontras_on_different_items() -> None:
    # docs/rules.md §18.4, §18.5: A calls cK (C), announces Uhu; B kontras the Uhu, A Rekontra,
    # D kontras the game; A and C make the game, the Uhu falls before its trick: lost
    r = score("besserrufer", 0, partner=2, called="cK", won={1: "XXI sK c7 c8", 3: "dK hK d2 d3"}, rest=0,
              announced=[("uhu", 0, 2)], kontra_by={"uhu": 1, "": 3}, game_kontra=1)
    assert lines(r) == [Line("game", "declarers", True, 20, kontra=1),
                        Line("uhu", "declarers", False, -160, announced=True, kontra=2)]
    assert r.settlement == (-140, 140, -140, 140)  # 1.40 euros each


def test_profile_9_4_example_2_sechserdreier_lost_announced_pagat_made() -> None:
    # docs/rules.md §18.5: the lost Sechserdreier doubles, the Pagat does not; the Kings silently
    # with the defenders
    r = score("sechserdreier", 0, discards="s7 s8 s9 s10 d2 d3", tricks={11: (0, "I c7 c8 c9", 0)}, rest=1,
              announced=[("pagat", 0, 0)])
    assert r.settlement == (-210, 70, 70, 70)


# -- docs/rules.md §18.6: Valat -----------------------------------------------------------------------

def test_profile_9_6_dreier_valat_announced_replaces_the_game_silent_premiums_drop() -> None:
    r = score("dreier", 0, tricks={11: (0, "I c7 c8 c9", 0)}, rest=0,
              announced=[("valat", 0, 0), ("pagat", 0, 0)])
    assert lines(r) == [Line("pagat", "declarers", True, 20, announced=True),
                        Line("valat", "declarers", True, 320, announced=True)]
    assert r.settlement == (1020, -340, -340, -340)  # A +102, each defender -34 points
    kontra = score("dreier", 0, tricks={11: (0, "I c7 c8 c9", 0)}, rest=0, announced=[("valat", 0, 0)],
                   game_kontra=1, kontra_by={"": 1})
    assert lines(kontra) == [Line("valat", "declarers", True, 640, announced=True, kontra=1)]  # §18.6


def test_profile_9_6_solorufer_valat_not_doubled_again() -> None:
    r = score("solorufer", 0, partner=2, called="dK", won={2: "dK c7 c8 c9"}, rest=0,
              announced=[("valat", 0, 0)])
    assert r.settlement == (160, -160, 160, -160)


def test_profile_7_4_sechserdreier_valat_lost_doubles() -> None:
    discards = "c10 c9 c8 c7 s10 s9"
    failed = score("sechserdreier", 0, discards=discards, tricks={0: (1, "h2 h3 h4 d2", 1)}, rest=0,
                   announced=[("valat", 0, 0)])
    assert failed.settlement == (-1920, 640, 640, 640)  # 4 x 8 x 2 points per defender
    theirs = score("sechserdreier", 0, discards=discards, rest=1)
    assert theirs.settlement == (-960, 320, 320, 320)  # the defenders' silent Valat: 4 x 4 x 2


def test_valat_option_defaults_keep_the_club_and_course_rules() -> None:
    rules, state = finished(CLUB_NAME, "dreier", 0, tricks={11: (0, "I c7 c8 c9", 0)}, rest=0)
    assert state.options["valat"] == "premium"
    assert "game" in {i.name for i in rules.score(state).items}
    rules, state = finished("koenigrufen-course", "rufer", 0, partner=2, called="dK", rest=0)
    assert state.options["valat"] == "replaces-all"


# -- docs/rules.md §18.7: Trischaken ------------------------------------------------------------------

B106 = "I II V VI VII IX XII XIII XIV XV XVI XVII XVIII XXI cJ sC hQ hJ h2 h3 h4 dQ dC dJ"
"""With the last trick (cQ, s8, d1, d4) and the talon c10 c9 c8 c7 s10 s9: 106 thirds, 35/1."""
LAST = {11: (1, "cQ s8 d1 d4", 1)}
T6 = "c10 c9 c8 c7 s10 s9"


def trischaken(**kw: object) -> HandResult:
    return score("trischaken", 0, talon=kw.pop("talon", T6), **kw)


def test_profile_8_one_loser_pays_the_jungfrau_everything() -> None:
    r = trischaken(won={1: B106, 2: "XIX XX III IV"}, tricks=LAST, rest=0)
    assert r.seat_points[1] == 106 and r.seat_points[3] == 0
    assert r.settlement == (0, -30, 0, 30)


def test_profile_8_two_jungfrauen_share_rounded_up() -> None:
    # 35/1 against 34/2, two Jungfrauen: the loser pays 4, 2 each
    r = trischaken(won={1: B106}, tricks=LAST, rest=3)
    assert r.seat_points[1] == 106 and r.seat_points[3] == 104
    assert r.settlement == (20, -40, 20, 0)


def test_profile_8_the_trischaker_buergermeister_loses_alone_at_four() -> None:
    r = trischaken(won={0: B106 + " XIX XX III IV", 2: "sK sQ sJ s7"}, tricks={11: (0, "cQ s8 d1 d4", 0)},
                   rest=1)
    assert r.seat_points[0] >= 107
    assert r.settlement == (-120, 0, 0, 120)


CLUBS_HEARTS = "cK cQ cC cJ c10 c9 c8 c7 hK hQ hC hJ h1 h2 h3 h4"
SPADES_DIAMONDS = "sK sQ sC sJ s10 s9 s8 s7 dK dQ dC dJ d1 d2 d3 d4"
SMALL = "V VI VII VIII IX X XI XII"
TRULL = "I XVI XVII XVIII XIX XX XXI Sküs"
T_TAROCKS = "II III IV XIII XIV XV"


def test_profile_8_two_tied_losers_pay_two_each() -> None:
    r = trischaken(talon=T_TAROCKS, won={0: SMALL, 1: CLUBS_HEARTS, 2: SPADES_DIAMONDS, 3: TRULL})
    assert r.seat_points[1] == r.seat_points[2] == max(r.seat_points)
    assert r.settlement == (20, -20, -20, 20)
    virgin = trischaken(talon=T_TAROCKS, won={1: CLUBS_HEARTS, 2: SPADES_DIAMONDS, 3: TRULL + " " + SMALL})
    assert virgin.settlement == (40, -20, -20, 0)  # a single Jungfrau gets all four


def test_profile_8_the_trischaker_tied_for_most_loses_alone_doubled() -> None:
    r = trischaken(talon=T_TAROCKS, won={0: CLUBS_HEARTS, 1: SPADES_DIAMONDS, 2: SMALL, 3: TRULL})
    assert r.settlement == (-60, 20, 20, 20)
    club = finished(CLUB_NAME, "trischaken", 0, talon=T_TAROCKS,
                    won={0: CLUBS_HEARTS, 1: SPADES_DIAMONDS, 2: SMALL, 3: TRULL})
    assert club[1].options["trischaken"] == "ranks"


def test_profile_8_three_tied_losers_pay_one_each_to_the_fourth() -> None:
    r = trischaken(talon="XIV XV XVI XVIII XIX XX", tricks={11: (0, "II III IV XVII", 0)},
                   won={0: "dK dQ dC dJ d1 d2 d3 d4", 1: "cK cQ cC cJ c10 c9 c8 c7 I V VI VII",
                        2: "sK sQ sC sJ s10 s9 s8 s7 XXI VIII IX X",
                        3: "hK hQ hC hJ h1 h2 h3 h4 Sküs XI XII XIII"})
    assert r.seat_points[1] == r.seat_points[2] == r.seat_points[3] > r.seat_points[0]
    assert r.settlement == (30, -10, -10, -10)


def test_profile_8_trischaken_is_played_to_the_end_and_replays() -> None:
    hand = rigged(OOE, [FH], talon=TALON)
    act(hand, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3), Bid(0, "trischaken"))
    assert hand.state.phase == "play"
    play_out(hand, random.Random(8))
    replays(hand)
    r = hand.state.result
    assert r is not None and sum(1 for x in r.settlement if x < 0) in (1, 2, 3)
