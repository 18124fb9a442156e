"""Findings of the rules review of ``tarock40`` and ``tarock40-online``.

Each test names the source sentence behind docs/rules.md §13 (the 40-card game
and the 54-card text it keeps) or §14 (the online platform)
or the reading of docs/rules.md it holds the code to,
and failed before the fix it guards.
"""

from __future__ import annotations

import random

import pytest
from line_items import Line, lines
from test_tarock40_support import act, decode, finished, play, rigged, rules40

from tarock.core.actions import Announce, Bid, Kontra, KontraTarget, Pass, Play
from tarock.core.cards import parse_card
from tarock.core.deal import deal
from tarock.core.engine import Hand, IllegalAction
from tarock.core.observation import observe
from tarock.core.record import record_of, replay
from tarock.core.state import Announcement

ONLINE = "tarock40-online"


def reason(hand: Hand, step: str) -> str:
    """The reason code the engine gives for refusing ``step``."""
    with pytest.raises(IllegalAction) as err:
        hand.apply(decode(hand, step))
    assert err.value.reason.message
    return err.value.reason.code


def online(hands: list[str], dealer: int = 3) -> Hand:
    return rigged(hands, dealer=dealer, variant=ONLINE)


# -- tarock40: the Kontra is on the whole game ------------------------------------------

def test_tarock40_kontra_has_no_target() -> None:
    """docs/rules.md §8.1: "Wer Kontra sagt, verdoppelt den Spielwert samt allen Prämien
    (× 2)." There is one chain on the whole game: a Kontra naming an
    announcement ("target") is no action of this game and was let through."""
    hand = act(rigged([], dealer=3), "0 bid solo trull",
               "1 pass", "2 pass", "3 pass")
    assert hand.state.phase == "kontra"
    assert reason(hand, "1 kontra trull") == "kontra-target"
    assert hand.state.kontra_level == 0 and hand.state.actions[-1] == Pass(3)
    data = record_of(hand).to_json()
    data["actions"].append({"seat": 1, "type": "kontra", "target": "trull"})
    result = replay(data)
    assert result.error_index == 4 and result.reason is not None
    assert result.reason.code == "kontra-target"
    act(hand, "1 kontra")
    assert hand.state.kontra_level == 1


# -- tarock40-online: the tournament rules hold (docs/rules.md §14) -------------------------

PFLICHT = ["XX", "I XXI Sküs", "XIX"]
"""Seat 0 (the Rufer) calls the XIX (seat 2); seat 1 holds the Trull."""


def test_online_pflichtkontra() -> None:
    """docs/rules.md §8.3: "Pflichtkontra (Turnierregel, nur 40 Blatt): Wer als Gegner eines
    Rufspiels alle drei Trullstücke (Pagat, Mond und Sküs) auf der Hand hält, muss
    Kontra geben, solange der Rufer nichts zusätzlich angesagt hat. Auf höhere
    Stufen besteht kein Zwang, bei Faberl und Solo gilt die Pflicht nicht."
    docs/rules.md §14 names every way ``tarock40-online`` differs from
    ``tarock40``; the Pflichtkontra is not among them.  In the auction the bound
    opponent may outbid the Rufer or say Kontra, but not agree ("weiter", or an
    addition) without it."""
    hand = act(online(PFLICHT), "0 bid rufspiel")
    legal = hand.legal(1)
    assert Kontra(1) in legal and any(isinstance(a, Bid) for a in legal)
    assert not any(isinstance(a, (Pass, Announce)) for a in legal)
    assert reason(hand, "1 pass") == "pflichtkontra"
    assert reason(hand, "1 announce trull against") == "pflichtkontra"
    act(hand, "1 kontra", "2 pass", "3 pass", "0 kontra")
    assert Pass(1) in hand.legal(1)  # "Auf höhere Stufen besteht kein Zwang"
    act(hand, "1 pass", "2 pass", "3 pass")
    assert hand.state.phase == "play" and hand.state.kontra_level == 2
    # the Rufer announced something: no duty
    added = act(online(PFLICHT), "0 bid rufspiel trull")
    assert Pass(1) in added.legal(1)
    # "bei Faberl und Solo gilt die Pflicht nicht"
    solo = act(online(PFLICHT), "0 bid solo")
    assert Pass(1) in solo.legal(1)
    # an earlier opponent's Kontra fulfils it: the chain is past the first level
    later = act(online(["XX", "", "XIX", "I XXI Sküs"]), "0 bid rufspiel", "1 kontra", "2 pass")
    assert Pass(3) in later.legal(3)
    # outbidding is a way out: the bound seat is no longer the opponent of a Rufspiel
    out = act(online(PFLICHT), "0 bid rufspiel", "1 bid solo")
    assert out.state.declarer == 1


VALAT_DEAL = ["Sküs XXI XX XIX XVIII XVII XVI V IV hK", "XV XIV XIII XII XI X IX VIII cK cQ",
              "VII I cC cJ c10 sK sQ sC sJ s10", "VI hQ hC hJ h1 dK dQ dC dJ d1"]


def test_online_kontra_on_an_announced_valat_needs_a_strong_hand() -> None:
    """docs/rules.md §13.7: "Kontra auf einen Valat (Turnierregel, nur 40 Blatt): Hat der
    Rufer einen Valat angesagt, darf ein Gegner nur mit starker Hand kontern ...
    beim Solo mit den zwei höchsten Tarocks XVI und XV zu siebt, XV und XIV zu
    acht und so weiter ... Sonst bleibt nur „Weiter“." (docs/rules.md §14: not
    one of the online platform's differences; its Valat Kontra is said in the
    auction, on the Valat's own chain.)"""
    hand = act(online(VALAT_DEAL), "0 bid solo valat")
    assert Kontra(1, KontraTarget("valat")) in hand.legal(1)  # XV and XIV among eight tarocks
    act(hand, "1 pass")
    assert not any(isinstance(a, Kontra) for a in hand.legal(2))
    assert reason(hand, "2 kontra valat") == "valat-kontra-needs-strength"
    act(hand, "2 pass", "3 pass")
    assert hand.state.phase == "play"


def test_online_valat_of_the_opponents_may_be_kontrad() -> None:
    """The restriction is on Kontras against the declarer's Valat ("Hat der Rufer
    einen Valat angesagt, darf ein Gegner ..."); the declarer may Kontra a Valat
    that the opponents announce "gegen das Spiel"."""
    hand = act(online(["XX", "XIX"]), "0 bid rufspiel", "1 pass", "2 announce valat against")
    act(hand, "3 pass")
    assert Kontra(0, KontraTarget("valat")) in hand.legal(0)


# -- tarock40-online: the reasons name the rule that was broken ------------------------------

def test_online_pagat_held_reason_only_when_the_pagat_could_be_played() -> None:
    """docs/rules.md §14.6: "Im Spiel herrscht Farb- und Tarockzwang." and "Für den Ansager
    ist es Pflicht, den Pagat erst zum letzt möglichen Zeitpunkt zu spielen": a
    Pagat that may not follow a led suit is refused for Farbzwang, not for
    having been announced."""
    hand = online(["I hK hQ c10 s10 d1 cJ sJ dJ dC", "XX XIX hC hJ"], dealer=0)
    act(hand, "1 bid rufspiel", "2 pass", "3 pass", "0 announce pagat against",
        "1 pass", "2 pass", "3 pass")
    play(hand, "hC")
    hand.apply(hand.legal(2)[0])
    hand.apply(hand.legal(3)[0])
    assert reason(hand, "0 play I") == "must-follow-suit"
    assert {a.card for a in hand.legal(0) if isinstance(a, Play)} == {parse_card("hK"), parse_card("hQ")}


def test_online_kontra_reasons() -> None:
    """Every refused Kontra says why: no such announcement, the wrong party's
    turn on that chain, the chain at its top, or a Valat that replaces the rest
    (docs/rules.md §14.7: "nur mehr der Valat selbst mit seinen Kontras")."""
    hand = act(online(["XX", "XIX"]), "0 bid rufspiel trull")
    assert reason(hand, "1 kontra pagat") == "no-such-announcement"
    assert reason(hand, "1 kontra") == "kontra-wrong-party"  # the partner: not against his side
    act(hand, "1 pass", "2 kontra")
    assert reason(hand, "3 kontra") == "kontra-wrong-party"  # Rekontra is the declarer's
    act(hand, "3 pass", "0 kontra", "1 pass", "2 kontra", "3 pass", "0 kontra")
    assert hand.state.kontra_level == 4
    assert reason(hand, "1 kontra") == "kontra-max"
    valat = act(online(["XX", "XIX"]), "0 bid rufspiel valat", "1 pass")
    assert reason(valat, "2 kontra") == "after-valat"
    off = act(rigged(["XX", "XIX"], dealer=3, variant=ONLINE, options={"kontra": False}),
              "0 bid rufspiel")
    assert reason(off, "1 kontra") == "kontra-off"


def test_tarock40_absolut_and_pagat_reasons_point_to_the_game() -> None:
    """docs/rules.md §13.6: "Angesagt werden können Pagat, Trull und Valat (zu jedem Gebot)
    sowie Absolut (Faberl oder Solo absolut)" and "Pagat nur beim Rufspiel":
    Absolut and a Solo's Pagat are bid as games, and the reason says so."""
    hand = rigged(["I"], dealer=3)
    with pytest.raises(IllegalAction) as err:
        hand.apply(Bid(0, "solo", ("absolut",)))
    assert err.value.reason.code == "absolut-is-a-game" and "solo-absolut" in err.value.reason.message
    with pytest.raises(IllegalAction) as err:
        hand.apply(Bid(0, "solo", ("pagat",)))
    assert err.value.reason.code == "pagat-only-rufspiel" and "solo-pagat" in err.value.reason.message


# -- the rule fixes of issue 7 -----------------------------------------------------------------

@pytest.mark.parametrize("variant", ["tarock40", ONLINE])
def test_no_mondfang_when_the_pagat_takes_the_trull(variant: str) -> None:
    """docs/rules.md §9.4: "Mond fangen: der Sküs sticht den Mond der anderen Partei" and
    "Kaiserstich: Liegen Pagat, Mond und Sküs im selben Stich, gewinnt der Pagat"
    (docs/rules.md §9.4): the Sküs did not take the Mond, so there is no
    Mondfang; the Trull counts for the Pagat's party.  The Sküs taking the
    other party's Mond is one."""
    rules = rules40(variant)
    kaiser = finished(rules, "solo", 0, [(1, "XXI Sküs IV I"), (1, "hK hQ hC hJ")])
    assert kaiser.tricks[0].winner == 0  # the Pagat of seat 0
    got = {p.name: p for p in lines(rules.score(kaiser))}
    assert "mondfang" not in got
    assert got["trull"] == Line("trull", "declarers", True, 2, scale=2)
    caught = finished(rules, "solo", 0, [(1, "XXI IV V Sküs"), (1, "hK hQ hC hJ")])
    assert caught.tricks[0].winner == 0
    got = {p.name: p for p in lines(rules.score(caught))}
    assert got["mondfang"] == Line("mondfang", "declarers", True, 2, scale=2)


def test_online_absolut_announced_with_the_bid_counts_as_announced() -> None:
    """docs/rules.md §14.7: "Bei einem angesagten Absolut muss die ansagende Partei mindestens
    56 Punkte erreichen, um das Absolut zu gewinnen. Ansonsten gilt das Absolut als
    verloren."  An Absolut announced with the bid is as announced as one added
    later: it is in the game's announcements, cannot be added again, can be
    Kontra'd, counts announced (2, doubled in a single game) and lifts the
    Pflichtkontra ("solange der Rufer nichts zusätzlich angesagt hat")."""
    hand = act(online(PFLICHT), "0 bid rufspiel absolut")
    assert hand.state.announcements == [Announcement("absolut", 0)]
    assert Pass(1) in hand.legal(1)  # the Rufer announced something: no Pflichtkontra
    assert Kontra(1, KontraTarget("absolut")) in hand.legal(1)
    assert reason(hand, "1 announce absolut against") == "already-announced"
    act(hand, "1 kontra absolut", "2 pass", "3 pass", "0 pass")
    assert hand.state.phase == "play" and hand.state.announcements[0].kontra == 1
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(hand.legal(seat)[0])
    result = hand.state.result
    assert result is not None
    assert result.points[0] < 56 and "valat" not in {p.name for p in result.items}
    [absolut] = [p for p in lines(result) if p.name == "absolut"]
    assert absolut == Line("absolut", "declarers", False, -2 * 2, announced=True, kontra=1)
    solo = act(online([]), "0 bid solo absolut", "1 pass", "2 pass", "3 pass")
    assert solo.state.phase == "play" and solo.state.announcements == [Announcement("absolut", 0)]


# -- observations ----------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["tarock40", ONLINE])
def test_observations_show_only_what_a_seat_may_know(variant: str) -> None:
    """docs/rules.md §13.3: "Welche Karte gerufen wurde, erfahren alle erst, wenn die Ansage
    entschieden ist." and "Wer den gerufenen Tarock hält, ist sein Partner. Das
    bleibt geheim, bis die Karte gespielt wird."  At every step of random hands
    each seat sees its own cards, the cards played and the public actions; the
    partner only when it is public (or it is himself); in ``tarock40`` the
    called card only once the bidding is decided."""
    rules = rules40(variant)
    rng = random.Random(f"leaks-{variant}")
    for n in range(60):
        hand = Hand(rules, n % 4, *deal(rules, rng))
        while not hand.done:
            state = hand.state
            for seat in range(4):
                obs = observe(hand, seat)
                assert sorted(obs.hand) == sorted(state.hands[seat])
                assert obs.open_hands == () and obs.talon_shown == () and obs.talon_seen == ()
                assert obs.discards == () and obs.result is None
                if seat != state.partner and not state.partner_known:
                    assert obs.partner is None
                if variant == "tarock40" and state.phase == "bidding":
                    assert obs.called is None and obs.contract is None and obs.declarer is None
                assert obs.history == tuple(state.actions)
                assert obs.legal == (tuple(hand.legal(seat)) if seat == state.to_move else ())
            mover = state.to_move
            assert mover is not None
            hand.apply(rng.choice(hand.legal(mover)))
