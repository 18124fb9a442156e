"""Scenario tests of ``tarock40-online``: each point of docs/rules.md §14,
with the source sentence it rests on, and the
plugin's shape (a house rule over ``tarock40`` that answers only what differs).
"""

from __future__ import annotations

import inspect
import random
from pathlib import Path

import pytest
from line_items import Line, lines
from test_tarock40_support import act, decode, finished, play, rigged, rules40

from tarock.core.actions import GAME, Announce, Bid, Kontra, KontraTarget, Play
from tarock.core.cards import PAGAT, parse_card
from tarock.core.deal import deal
from tarock.core.engine import Hand, IllegalAction
from tarock.core.observation import observe
from tarock.core.plugins import load_plugins
from tarock.core.registry import find_variant
from tarock.core.state import Announcement, HandState
from tarock.core.table import Table
from tarock.variants.tarock40 import Tarock40
from tarock.variants.tarock40_online import Tarock40Online

ONLINE = "tarock40-online"
ROOT = Path(__file__).resolve().parent.parent


def online(hands: list[str] | None = None, dealer: int = 3) -> Hand:
    return rigged(hands or [], dealer=dealer, variant=ONLINE)


def reason(hand: Hand, step: str) -> str:
    with pytest.raises(IllegalAction) as err:
        hand.apply(decode(hand, step))
    return err.value.reason.code


def premiums(state: HandState) -> dict[str, int]:
    """Each premium's amount in the scored hand (what each opponent of the declarer party pays it)."""
    return {p.name: p.amount for p in rules40(ONLINE).score(state).premium_items}


# -- the plugin ------------------------------------------------------------------------

def test_a_plugin_over_tarock40_selected_in_plugins_toml() -> None:
    """docs/rules.md §14: "a house-rule plugin over tarock40"; it answers only
    the hooks in which §14 differs and is listed in plugins.toml."""
    plugins = find_variant(ONLINE).plugins()
    assert [type(p) for p in plugins] == [Tarock40, Tarock40Online]
    hooks = {n for n, _ in inspect.getmembers(Tarock40Online) if n.startswith("tarock_")}
    # the games (narrowed, renamed), clockwise play, the phases and the open auction, the verdicts on
    # additions and Kontras, the announced Pagat held back, silent Absolut for either party, the Valat
    assert hooks == {"tarock_contracts", "tarock_variant_facts", "tarock_phases", "tarock_phase",
                     "tarock_announce_verdict", "tarock_kontra_verdict", "tarock_legal_plays",
                     "tarock_play_reason", "tarock_premium_outcomes", "tarock_score"}
    catalogue = load_plugins(ROOT / "plugins.toml")
    assert catalogue.find(ONLINE).name == ONLINE
    assert catalogue.enabled[0] == "tarock40"  # docs/rules.md §3.6: a new table plays 40 cards


def test_clockwise() -> None:
    """"Sobald sie dort losgelassen wurde, ist der nächste Spieler im
    Uhrzeigersinn an der Reihe.\" (docs/rules.md §3.1: a variant setting.)"""
    assert rules40(ONLINE).facts.facts.direction == "clockwise"
    assert rules40().facts.facts.direction == "counterclockwise"
    assert "direction" not in rules40(ONLINE).options  # a fact of the variant, not a table option
    hand = act(online(), "0 bid solo", "1 pass", "2 pass", "3 pass")
    hand.apply(hand.legal(0)[0])
    assert hand.state.to_move == 1  # the engine still goes seat + 1; the client draws it


# -- the Rufer -------------------------------------------------------------------------

def test_the_rufer_must_bid() -> None:
    """"Sobald drei Spieler nacheinander "weiter" gesagt haben (nur der Rufer muss
    zumindest einmal etwas ansagen), ist die Lizitation beendet\""""
    hand = online()
    assert hand.state.to_move == 0 and all(isinstance(a, Bid) for a in hand.legal(0))
    assert reason(hand, "0 pass") == "rufer-must-bid"
    act(hand, "0 bid rufspiel", "1 pass", "2 pass", "3 pass")
    assert hand.state.declarer == 0 and hand.state.phase == "play"


def test_the_rufer_rotates() -> None:
    """"In jeder weiteren Runde wird der nächste Spieler im Uhrzeigersinn zum
    Rufer.\" The Rufer is the forehand, who opens; no deal is passed out."""
    rules = rules40(ONLINE)
    rng = random.Random(5)
    table = Table(rounds=4)
    openers = []
    while not table.over:
        hand = Hand(rules, table.dealer, *deal(rules, rng), context=table.context)
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            hand.apply(rng.choice(hand.legal(seat)))
        first = hand.state.actions[0]
        assert isinstance(first, Bid) and first.seat == (hand.state.dealer + 1) % 4
        result = hand.state.result
        assert result is not None and not result.passed_out
        row = table.add(result, first.contract, rules.next_context(hand.state, result))
        assert row is not None  # never passed out
        openers.append(first.seat)
    assert openers == [1, 2, 3, 0]


# -- the auction -----------------------------------------------------------------------

def test_three_passes_in_a_row_end_the_auction() -> None:
    """"Anschließend sagen die Spieler, beginnend bei der Vorhand, reihum höhere
    Spiele an und/oder Zusätze zum angesagten Spiel. Sobald drei Spieler
    nacheinander "weiter" gesagt haben ... ist die Lizitation beendet\""""
    hand = act(online(["XX", "XIX"]), "0 bid rufspiel", "1 pass", "2 kontra", "3 pass", "0 pass")
    assert hand.state.phase == "bidding" and hand.state.kontra_level == 1
    act(hand, "1 pass")
    assert hand.state.phase == "play"


def test_a_higher_game_wipes_additions_and_kontras() -> None:
    """"Sobald ein Spieler ein höheres Spiel (Farbensolo schlägt Rufer, Solo
    schlägt Farbensolo) ansagt, sind die Zusätze für das vorige Spiel wirkungslos
    (auch alle Kontras).\""""
    hand = act(online(["XX", "", "", "XIX"]), "0 bid rufspiel trull", "1 kontra", "2 kontra trull")
    assert hand.state.kontra_level == 1 and hand.state.announcements[0].kontra == 1
    act(hand, "3 bid faberl")
    assert hand.state.announcements == [] and hand.state.kontra_level == 0
    assert hand.state.declarer == 3 and hand.state.called is None and hand.state.partner is None


def test_who_agreed_cannot_bid_higher() -> None:
    """"Außerdem kann der Spieler kein höheres Spiel mehr ansagen, wenn der
    Spieler dem angesagten Spiel bereits zugestimmt hat (entweder durch "weiter"
    oder durch Zusatzansagen). Danach kann man nur mehr Zusätze melden.\""""
    hand = act(online(["XX", "XIX"]), "0 bid rufspiel", "1 pass", "2 pass", "3 bid faberl",
               "0 pass", "1 kontra", "2 pass", "3 pass")
    assert not any(isinstance(a, Bid) for a in hand.legal(0))  # agreed by "weiter"
    assert reason(hand, "0 bid solo") == "already-agreed"
    act(hand, "0 announce absolut against")
    assert not any(isinstance(a, Bid) for a in hand.legal(1))  # agreed by its Kontra
    act(hand, "1 pass", "2 pass", "3 pass")
    assert hand.state.phase == "trump" and hand.state.declarer == 3


def test_rufspiel_called_card_public_at_once() -> None:
    """Decision 5 lets the partner add to the game during the auction, so the
    called card of a Rufer is told when it is bid (the variant's docstring)."""
    hand = act(online(["XX", "XIX"]), "0 bid rufspiel")
    assert all(observe(hand, s).called == parse_card("XIX") for s in range(4))


def test_gegen_das_spiel() -> None:
    """"Für die Deklaration der Parteien gilt, dass bei jeder Ansage klar sein
    muss, ob der Ansager zur Partei des Spielers gehört oder zur Partei des
    Gegners. In den wenigen Fällen, in denen dies durch die Ansage selbst noch
    nicht eindeutig ist, sagt ein Gegner zusätzlich „Gegen das Spiel“.\""""
    hand = act(online(["XX", "XIX"]), "0 bid rufspiel", "1 pass")
    assert Announce(2, ("trull",), True) in hand.legal(2)
    assert Announce(2, ("trull",), False) not in hand.legal(2)
    assert reason(hand, "2 announce trull") == "wrong-side"
    act(hand, "2 announce trull against")
    assert hand.state.announcements == [Announcement("trull", 2, True)]
    act(hand, "3 pass", "0 pass")
    assert observe(hand, 3).partner is None
    assert Announce(1, ("absolut",), False) in hand.legal(1)
    assert reason(hand, "1 announce absolut against") == "wrong-side"
    act(hand, "1 announce absolut")  # the partner adds for his side ...
    assert all(observe(hand, s).partner == 1 for s in range(4))  # ... and is known


def test_kontra_on_each_addition() -> None:
    """"Zuvor führen noch alle Kontras auf das Spiel sowie die Zusätze dazu, dass
    der jeweilige Wert verdoppelt wird.\""""
    hand = act(online(), "0 bid solo trull")
    trull = KontraTarget("trull")
    assert {a for a in hand.legal(1) if isinstance(a, Kontra)} == {Kontra(1, GAME), Kontra(1, trull)}
    act(hand, "1 kontra trull")
    assert Kontra(2, trull) not in hand.legal(2)  # Rekontra is the declarer's
    act(hand, "2 pass", "3 pass", "0 kontra trull")
    assert hand.state.announcements[0].kontra == 2 and hand.state.kontra_level == 0
    rules = rules40(ONLINE)
    tricks = [(0, "Sküs XXI IV V"), (0, "I hQ sQ cQ"), (1, "hK hC hJ h1")]
    state = finished(rules, "solo", 0, tricks, announcements=[Announcement("trull", 0, kontra=2)], kontra=1)
    result = rules.score(state)
    # each with its own Kontra: the Trull's Rekontra, the game's Kontra
    assert lines(result) == [Line("game", "declarers", False, -4 * 2, kontra=1),
                             Line("trull", "declarers", True, 2 * 2 * 4, announced=True, kontra=2, scale=2),
                             Line("mondfang", "declarers", True, 2, scale=2)]  # silent: no Kontra of its own


def test_after_a_valat_only_its_kontra() -> None:
    """"Aus diesem Grund sind auch keine weiteren Zusätze mehr ansagbar, nachdem
    Valat gemeldet wurde.\""""
    # seat 2 may Kontra the Valat: "mit Sküs oder Mond zu neunt" (docs/rules.md §13.7, kept by §14)
    hand = act(online(["XX", "XIX", "Sküs XVIII XVII XVI XV XIV XIII XII XI hQ"]), "0 bid rufspiel valat")
    legal = hand.legal(1)
    assert not any(isinstance(a, Announce) for a in legal)
    assert [a for a in legal if isinstance(a, Kontra)] == []  # the partner: nothing to raise
    act(hand, "1 pass")
    assert [a for a in hand.legal(2) if isinstance(a, Kontra)] == [Kontra(2, KontraTarget("valat"))]
    assert reason(hand, "2 announce trull against") == "after-valat"


def test_valat_of_a_weak_solo_is_refused() -> None:
    """"So z.B. erlaubt es das Programm nicht "Valat" anzusagen, wenn der Spieler
    ein viel zu schwaches Blatt hat.\""""
    hand = online(["XV X V IV hQ sJ c10 d1 cC sC"])
    assert reason(hand, "0 bid solo valat") == "valat-too-weak"
    short = online(["Sküs XXI XX XIX XVIII XVII XVI V IV hQ"])  # the check played 3 deals and lost them
    with pytest.raises(IllegalAction) as err:
        short.apply(decode(short, "0 bid solo valat"))
    assert err.value.reason.code == "valat-too-weak"
    assert "3 of the 3 deals played were lost and 0 made" in err.value.reason.message
    strong = online(["Sküs XXI XX XIX XVIII XVII XVI V IV hK"])
    assert Bid(0, "solo", ("valat",)) in strong.legal(0)


# -- scoring ------------------------------------------------------------------------------

def test_valat_replaces_game_and_premiums() -> None:
    """"Ein Valat, unabhängig davon ob still oder angesagt, hebt alle anderen
    Prämien auf. ... Auch das Spiel selbst wird daraufhin nicht mehr gewertet,
    sondern nur mehr der Valat selbst mit seinen Kontras.\""""
    rules = rules40(ONLINE)
    tricks = [(0, "Sküs XXI I IV"), (0, "hK sK cK dK")]
    silent = rules.score(finished(rules, "rufspiel", 0, tricks, partner=2))
    assert lines(silent) == [Line("valat", "declarers", True, 6)]  # no game item
    assert silent.settlement == (6, -6, 6, -6)
    base = rules40().score(finished(rules40(), "rufspiel", 0, tricks, partner=2))
    # tarock40: everything adds up (decision 13)
    assert len(base.premium_items) > 1 and lines(base)[0] == Line("game", "declarers", False, -1)
    lost = [(0, "Sküs XXI I IV"), (1, "hK sK cK dK")]
    loud = rules.score(finished(rules, "solo", 0, lost, kontra=1,
                                announcements=[Announcement("valat", 0, kontra=1),
                                               Announcement("trull", 0)]))
    # "nur mehr der Valat selbst mit seinen Kontras": not the game's Kontra, not the Trull
    assert lines(loud) == [Line("valat", "declarers", False, -12 * 2 * 2, announced=True, kontra=1, scale=2)]


def test_farbensolo_counts_the_kings_not_the_tarock_premiums() -> None:
    """"Beim Farbensolo zählen die Prämien Pagat, Trull und Mondfang nicht, d.h.
    alle die mit Tarock zu tun haben. Königstrull zählt hingegen schon. Außerdem
    kann der Pagat gar nicht erst angesagt werden.\""""
    rules = rules40(ONLINE)
    tricks = [(0, "Sküs XXI IV V"), (0, "dK hK sK cK"), (1, "hQ h1 sQ cQ"), (0, "I c10 s10 hJ")]
    state = finished(rules, "faberl", 0, tricks, trump="d")
    got = premiums(state)
    assert got == {"kings": 2}
    assert rules.contract("faberl").premiums == {"kings", "absolut", "valat"}  # type: ignore[union-attr]
    base = rules40()
    names = {p.name for p in base.score(finished(base, "faberl", 0, tricks, trump="d")).premium_items}
    assert names == {"trull", "kings"}
    hand = online(["I XX"])
    assert reason(hand, "0 bid faberl pagat") == "not-in-farbensolo"
    assert reason(hand, "0 bid faberl trull") == "not-in-farbensolo"
    act(hand, "0 bid faberl")
    assert not any(isinstance(a, Announce) and {"pagat", "trull"} & set(a.announce)
                   for a in hand.legal(1))


def test_silent_absolut_for_either_party() -> None:
    """"Sollte eine Partei diese Punktezahl erreichen ohne Absolut angesagt zu
    haben, wird es als still gewonnen gewertet.\""""
    tricks = [(1, "hK hQ hC hJ"), (1, "sK sQ sC sJ"), (1, "cK cQ cC cJ"), (1, "Sküs XX XIX XVIII"),
              (1, "XXI XVII XVI XV"), (1, "dK dQ dC dJ"), (0, "I c10 s10 h1")]
    online_state = finished(rules40(ONLINE), "rufspiel", 0, tricks, partner=2)
    assert [p for p in lines(rules40(ONLINE).score(online_state)) if p.name == "absolut"] == [
        Line("absolut", "opponents", True, -1)]
    base = rules40()
    base_result = base.score(finished(base, "rufspiel", 0, tricks, partner=2))
    assert "absolut" not in {p.name for p in base_result.premium_items}


def test_opponents_announcement_scores_for_them() -> None:
    """"Absolut: Bei einem angesagten Absolut muss die ansagende Partei mindestens
    56 Punkte erreichen, um das Absolut zu gewinnen.\" (either party may announce)"""
    rules = rules40(ONLINE)
    tricks = [(0, "hK hQ hC hJ"), (1, "I c10 s10 h1")]
    state = finished(rules, "rufspiel", 0, tricks, partner=2,
                     announcements=[Announcement("absolut", 1, True)])
    # the opponents missed it: to the declarers
    assert [p for p in lines(rules.score(state)) if p.name == "absolut"] == [
        Line("absolut", "opponents", False, 2, announced=True)]


# -- the announced Pagat --------------------------------------------------------------------

def test_an_announced_pagat_is_held_to_the_last_moment() -> None:
    """"Für den Ansager ist es Pflicht, den Pagat erst zum letzt möglichen
    Zeitpunkt zu spielen, auch wenn dadurch z.B. das Spiel verloren wird.\""""
    hand = act(online(["I XX c10 s10 h1 d1 cJ sJ hJ dJ", "XIX"]),
               "0 bid rufspiel pagat", "1 pass", "2 pass", "3 pass")
    assert Play(0, PAGAT) not in hand.legal(0)
    assert reason(hand, "0 play I") == "pagat-held"
    forced = online(["I c10 s10 h1 d1 cJ sJ hJ dJ cC", "XX XIX"], dealer=0)
    act(forced, "1 bid rufspiel", "2 pass", "3 pass", "0 announce pagat against",
        "1 pass", "2 pass", "3 pass")
    play(forced, "XX")
    forced.apply(forced.legal(2)[0])
    forced.apply(forced.legal(3)[0])
    assert forced.legal(0) == [Play(0, PAGAT)]  # the only tarock: now it must go


def test_games_and_additions() -> None:
    """docs/rules.md §14: "its contracts are Rufer < Farbensolo < Solo (each
    optionally with Absolut, Pagat, Trull, Valat additions ...)\"."""
    hand = online(["I XX"])
    bids = [a for a in hand.legal(0) if isinstance(a, Bid)]
    assert {b.contract for b in bids} == {"rufspiel", "faberl", "solo"}
    offered = [(b.contract, set(b.announce)) for b in bids]
    assert ("rufspiel", {"absolut", "pagat", "trull", "valat"}) in offered
    assert hand.why_not(Bid(0, "rufspiel", ("absolut", "pagat", "trull", "valat"))) is None  # in any order
    assert reason(hand, "0 bid solo-absolut") == "unknown-contract"


def test_illegal_online_actions_are_rejected_at_their_index() -> None:
    from tarock.core.record import record_of, replay
    hand = act(online(["XX", "XIX", "Sküs XVIII XVII XVI XV XIV XIII XII XI hQ"]),
               "0 bid rufspiel valat", "1 pass")
    data = record_of(hand).to_json()
    data["actions"].append({"seat": 2, "type": "announce", "announce": ["trull"], "against": True})
    result = replay(data)
    assert result.error_index == 2 and result.reason is not None and result.reason.code == "after-valat"
    data["actions"][2] = {"seat": 2, "type": "kontra", "target": "valat"}
    data["actions"].append({"seat": 3, "type": "kontra", "target": "valat"})
    result = replay(data)
    assert result.error_index == 3 and result.reason is not None
    assert result.reason.code == "kontra-wrong-party"  # Rekontra is the declarer's party's
