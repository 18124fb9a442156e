"""Königrufen (docs/rules.md §16 and §17): full random hands of every game to the end.

Checks on every hand: card conservation, 210 thirds (70 points) in all,
zero-sum settlement, and replay identity (record -> JSON -> replay gives the
same result); and against the tariffs, goals and counting written here from
the rule texts: each game's value, won or lost at 35/2 (docs/rules.md §16) or 35/1
(§17), a negative game's exact number of tricks settled with each other
player, and where each plays for himself the points of each seat.  Also at
a five-seat table (docs/rules.md §3.5: "Der jeweilige Kartengeber spielt selbst
nicht mit und setzt aus").  The helpers here are
shared by the other ``test_koenigrufen*`` modules.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tarock.core.actions import Action, Bid, Pass
from tarock.core.cards import DECK54, MOND, Card, format_card, parse_card
from tarock.core.deal import deal
from tarock.core.engine import DONE, Hand
from tarock.core.observation import observe
from tarock.core.record import record_of, replay
from tarock.core.registry import available_variants, find_variant
from tarock.core.rules import Rules
from tarock.core.state import Announcement, Contract, HandState, Trick
from tarock.variants.koenigrufen.club import CLUB
from tarock.variants.koenigrufen.context import KEY
from tarock.variants.koenigrufen.course import COURSE

CLUB_NAME = "koenigrufen-club"
COURSE_NAME = "koenigrufen-course"

# -- the rule texts' tariffs and goals, independent of the variants' data ------------------------

TARIFF = {
    # docs/rules.md §16.1: "Rufer 10, Trischaken 10, Sechserdreier 30 (verloren 60)";
    # "Piccolo 15, Solorufer 20,
    # Bettler 25, Besserrufer 10 + Vogel, Farbendreier 40, Dreier 40, Piccolo ouvert 45, Bettel ouvert
    # 60, Farbensolodreier 80, Solodreier 80"
    CLUB_NAME: {"rufer": (10, 10), "trischaken": (10, 10), "sechserdreier": (30, 60), "piccolo": (15, 15),
                "solorufer": (20, 20), "bettler": (25, 25), "besserrufer": (10, 10), "farbendreier": (40, 40),
                "dreier": (40, 40), "piccolo-ouvert": (45, 45), "bettel-ouvert": (60, 60),
                "farbensolodreier": (80, 80), "solodreier": (80, 80)},
    # docs/rules.md §17.1, the course's overview: "Fahrer 1, Vorhandrufer 2, Zwiccolo 3, Piccolo 4,
    # Besserrufer 2,
    # Solo-Rufer 4, Bettel 5, Einschauer 6, Sechser 6 (verloren 12), Farberl 6, Zwiccolo ouvert 6,
    # Piccolo ouvert 8, Bettel ouvert 10, Solo eigen 10"
    COURSE_NAME: {"fahrer": (1, 1), "rufer": (2, 2), "zwiccolo": (3, 3), "piccolo": (4, 4),
                  "besserrufer": (2, 2), "solorufer": (4, 4), "bettel": (5, 5), "einschauer": (6, 6),
                  "sechser": (6, 12), "farberl": (6, 6), "zwiccolo-ouvert": (6, 6), "piccolo-ouvert": (8, 8),
                  "bettel-ouvert": (10, 10), "solo-eigen": (10, 10)},
}
TRICKS_GOAL = {"piccolo": 1, "piccolo-ouvert": 1, "bettler": 0, "bettel": 0, "bettel-ouvert": 0,
               "zwiccolo": 2, "zwiccolo-ouvert": 2}
"""Negative games: "exakt 2 Stiche" (Zwiccolo), "exakt 1 Stich" (Piccolo), "keinen Stich" (Bettel)."""
WIN = {CLUB_NAME: 3 * 35 + 2, COURSE_NAME: 3 * 35 + 1}
"""docs/rules.md §5.3: "Zum Gewinn eines positiven Spiels braucht man 35/2." / "35 Punkte plus 1 Blatt"."""
_POINTS = {"I": 5, "XXI": 5, "Sküs": 5, "cK": 5, "sK": 5, "hK": 5, "dK": 5,
           "cQ": 4, "sQ": 4, "hQ": 4, "dQ": 4, "cC": 3, "sC": 3, "hC": 3, "dC": 3,
           "cJ": 2, "sJ": 2, "hJ": 2, "dJ": 2}


def thirds_of(cards_: Sequence[Card]) -> int:
    """docs/rules.md §5.1: "Es werden zum Zählen immer 3 Karten auf einmal genommen. Wert der 3 Karten
    wird addiert.
    Von der Summe werden 2 Punkte abgezogen" -- in thirds, each card its value less two thirds."""
    return sum(3 * _POINTS.get(format_card(c), 1) - 2 for c in cards_)


def check_against_the_texts(hand: Hand) -> None:
    """The game's items and the seats' points as the rule texts have them."""
    s, r = hand.state, hand.state.result
    assert r is not None and s.contract is not None
    name = s.contract.name
    value, lost = TARIFF[s.variant][name]
    games = r.game_items
    if name in ("trischaken", "fahrer"):
        # each for himself: a seat's tricks, and the talon "einzeln zu den ersten 6 Stichen" (002,
        # Trischaken) or to "Der Spieler, der den letzten Stich macht" (003, Fahrer)
        own: dict[int, list[Card]] = {x: [] for x in s.players}
        for t in s.tricks:
            assert t.winner is not None
            own[t.winner].extend(t.cards)
        rest = [c for p in s.talon for c in p]
        if name == "trischaken":
            for t, card in zip(s.tricks, rest, strict=False):
                assert t.winner is not None
                own[t.winner].append(card)
        else:
            assert s.tricks[-1].winner is not None
            own[s.tricks[-1].winner].extend(rest)
        assert r.seat_points == tuple(thirds_of(own.get(x, [])) for x in range(s.seats))
        return
    if name in TRICKS_GOAL:
        declarers = s.contract.declarers or (s.declarer,)
        want = []
        for d in declarers:
            made = sum(1 for t in s.tricks if t.winner == d) == TRICKS_GOAL[name]
            want += [((d,), (o,), value, made) for o in s.players if o != d]
        assert sorted((g.side, g.opposite, g.base, g.made) for g in games) == sorted(want)
        return
    if r.note == "given up":  # the declarer pays the game (a Besserrufer his smallest bird too)
        [game] = games
        assert game.made is False and game.side == (s.declarer,) and game.base >= value
        return
    if not games:  # docs/rules.md §17.5: "Valat 6x" replaces the game
        sides = {t.winner in s.declarer_party() for t in s.tricks}
        assert s.variant == COURSE_NAME and len(sides) == 1
        return
    [game] = games
    # docs/rules.md §17.6: "auf alle Fälle den einfachen Spielwert"
    if r.note == "the called King lay in the talon":
        assert (game.base, game.made, game.kontra) == (value, False, 0)
        return
    won = r.points[0] >= WIN[s.variant]
    assert game.made == won and r.won == won
    assert game.base == (value if won else lost)


def rules_for(variant: str, options: dict[str, Any] | None = None) -> Rules:
    """An installed variant's rules, or one the repository's plugins.toml defines."""
    if variant in available_variants():
        return find_variant(variant).rules(options)
    return find_variant(variant, Path(__file__).resolve().parent.parent / "plugins.toml").rules(options)


def cards(names: str | Sequence[str]) -> list[Card]:
    if isinstance(names, str):
        names = names.split()
    return [parse_card(n) for n in names]


def rigged(variant: str, hands: Sequence[str], talon: Sequence[str] = ("", ""), dealer: int = 3,
           options: dict[str, Any] | None = None) -> Hand:
    """A hand dealt as written; cards not named fill the hands (12 each) and
    the talon (3 + 3) in deck order (suit cards first, then tarocks from I)."""
    dealt = [cards(h) for h in hands] + [[] for _ in range(4 - len(hands))]
    piles = [cards(p) for p in talon]
    named = {c for part in dealt + piles for c in part}
    rest = [c for c in DECK54[22:] + DECK54[:22] if c not in named]
    for part, size in [(h, 12) for h in dealt] + [(p, 3) for p in piles]:
        while len(part) < size:
            part.append(rest.pop(0))
    return Hand(rules_for(variant, options), dealer, dealt, piles)


def finished(variant: str, contract: str, declarer: int, *, partner: int | None = None,
             called: str | None = None, won: dict[int, str] | None = None, rest: int | None = None,
             tricks: dict[int, tuple[int, str, int]] | None = None, discards: str = "",
             talon: str = "", options: dict[str, Any] | None = None,
             announced: Sequence[tuple[str, int, int]] = (), kontra_by: dict[str, int] | None = None,
             game_kontra: int = 0, pairs: dict[tuple[int, int], int] | None = None,
             declarers: tuple[int, ...] = (), data: dict[str, Any] | None = None,
             called_in_talon: bool = False) -> tuple[Rules, HandState]:
    """A finished hand built directly, for scoring tests (dealer 3, forehand 0).

    ``tricks``: index -> (leader, the four cards in play order, winner);
    ``won``: seat -> cards it won in other tricks (a multiple of four);
    ``rest``: the seat that won every card not named elsewhere.
    ``announced``: (premium, seat, Kontra level); ``kontra_by``: premium (or
    "" for the game) -> the seat that said Kontra.  ``data``: more of the
    variant's bookkeeping; ``called_in_talon``: the called card lay in the
    talon when it was called (core's call phase notes it).  In the other tricks the
    winner leads and plays the Mond himself; tricks holding a bird or the
    called card come first, so no silent premium arises unless written.
    """
    rules = rules_for(variant, options)
    named: list[Card] = cards(discards) + cards(talon)
    explicit = {i: (lead, cards(cs), w) for i, (lead, cs, w) in (tricks or {}).items()}
    piles = {s: cards(cs) for s, cs in (won or {}).items()}
    named += [c for _, cs, _ in explicit.values() for c in cs] + [c for cs in piles.values() for c in cs]
    assert len(set(named)) == len(named), "a card named twice"
    if not talon:  # the talon (or what is left of it) from plain tarocks nobody named
        spare = [c for c in range(19, 3, -1) if c not in named][:6 - len(cards(discards))]
        talon = " ".join(format_card(c) for c in spare)
        named += spare
    if rest is not None:
        piles.setdefault(rest, []).extend(c for c in DECK54 if c not in named)
    state = HandState(variant, rules.options, 4, 3, [[], [], [], []],
                      [cards(talon)[:3], cards(talon)[3:]])
    spec = rules.contract(contract)
    assert spec is not None, f"{variant} has no game {contract!r}"
    state.contract = Contract(spec, declarers=declarers)
    state.declarer = declarer
    state.partner = partner
    state.called = parse_card(called) if called else None
    state.discards = cards(discards)
    state.kontra_level = game_kontra
    state.announcements = [Announcement(n, s, kontra=k) for n, s, k in announced]
    early = set(cards("I II III IV")) | ({parse_card(called)} if called else set())
    chunks = [(w, sorted(cs[i:i + 4], key=lambda c: c != MOND))
              for w, cs in piles.items() for i in range(0, len(cs), 4)]
    chunks.sort(key=lambda chunk: not early & set(chunk[1]))
    for i in range(12):
        if i in explicit:
            lead, cs, w = explicit[i]
        else:
            w, cs = chunks.pop(0)
            lead = w
        seats = [(lead + k) % 4 for k in range(4)]
        state.tricks.append(Trick(lead, seats, list(cs), w))
    assert not chunks and sorted(c for t in state.tricks for c in t.cards) == sorted(
        c for c in DECK54 if c not in state.discards and c not in cards(talon))
    state.data[KEY] = {"ann": {"kontra_by": kontra_by or {}, "pairs": pairs or {}}, **(data or {})}
    if called_in_talon:
        state.data["called_in_talon"] = True
    state.phase = DONE
    return rules, state


def act(hand: Hand, *steps: Action) -> None:
    for step in steps:
        hand.apply(step)


def gut_all(hand: Hand) -> None:
    """Everyone says "Gut!" until the announcements are over."""
    while hand.state.phase == "announce":
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(Pass(seat))


def play_out(hand: Hand, rng: random.Random) -> None:
    """Random legal cards to the end of the hand."""
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(rng.choice(hand.legal(seat)))


def choose(hand: Hand, rng: random.Random, target: str | None) -> Action:
    """A random legal action, steered towards ``target`` in the auction."""
    s = hand.state
    seat = s.to_move
    assert seat is not None
    legal = hand.legal(seat)
    if s.phase == "bidding" and target is not None:
        wanted = [a for a in legal if isinstance(a, Bid) and a.contract == target]
        if wanted:
            return wanted[0]
        opening = [a for a in legal if isinstance(a, Bid) and a.contract == "vorhand"]
        if opening:
            return opening[0]
        passes = [a for a in legal if isinstance(a, Pass)]
        return passes[0] if passes else rng.choice(legal)
    if s.phase == "announce" and rng.random() < 0.6:
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            return passes[0]
    return rng.choice(legal)


def check_hand(hand: Hand) -> None:
    """Conservation, 210 thirds, zero sum and replay identity of a finished hand."""
    s = hand.state
    r = s.result
    assert hand.done and r is not None
    assert sum(r.settlement) == 0
    assert all(r.settlement[x] == 0 for x in range(s.seats) if x not in s.players)
    everywhere = [c for t in s.tricks for c in t.cards] + list(s.discards) + [c for p in s.talon for c in p]
    everywhere += [c for h in s.hands for c in h]
    assert sorted(everywhere) == list(DECK54)
    if r.note != "given up":
        assert not any(s.hands)
        assert sum(r.points) == 210
        if r.seat_points:
            assert sum(r.seat_points) == 210 and s.contract is not None
    check_against_the_texts(hand)
    data = json.loads(json.dumps(record_of(hand).to_json()))
    again = replay(data)
    assert again.error_index is None, again.reason
    assert again.hand is not None and again.hand.state.result == r


def random_hand(variant: str, rng: random.Random, target: str | None = None, seats: int = 4,
                options: dict[str, Any] | None = None, tries: int = 200) -> Hand:
    """A hand played to the end by random legal actions; with ``target`` deals
    are tried until that game is the one played."""
    rules = rules_for(variant, options)
    for _ in range(tries):
        dealer = rng.randrange(seats)
        active = tuple(x for x in range(seats) if x != dealer) if seats == 5 else ()
        hands, talon = deal(rules, rng, seats, active)
        hand = Hand(rules, dealer, hands, talon, seats, active)
        while not hand.done:
            if hand.state.phase != "bidding" and target is not None and hand.state.contract is not None \
                    and hand.state.contract.name != target:
                break
            seat = hand.state.to_move
            assert seat is not None
            if rng.random() < 0.1:
                view = observe(hand, seat)
                assert view.legal == tuple(hand.legal(seat))
            hand.apply(choose(hand, rng, target))
        if hand.done and (target is None or (hand.state.contract and hand.state.contract.name == target)):
            return hand
    raise AssertionError(f"no hand of {target} in {tries} deals")


@pytest.mark.parametrize("variant,dialect", [(CLUB_NAME, CLUB), (COURSE_NAME, COURSE)])
def test_every_game_runs_to_the_end(variant: str, dialect: Any) -> None:
    rng = random.Random(2024)
    for game in dialect.games:
        for _ in range(3):
            check_hand(random_hand(variant, rng, game.name))


@pytest.mark.parametrize("variant", [CLUB_NAME, COURSE_NAME])
def test_free_random_hands(variant: str) -> None:
    rng = random.Random(7)
    for _ in range(40):
        check_hand(random_hand(variant, rng))


@pytest.mark.parametrize("variant,dialect", [(CLUB_NAME, CLUB), (COURSE_NAME, COURSE)])
def test_five_at_the_table(variant: str, dialect: Any) -> None:
    rng = random.Random(5)
    for game in dialect.games[:6]:
        hand = random_hand(variant, rng, game.name, seats=5)
        check_hand(hand)
        s = hand.state
        assert s.dealer not in s.players and len(s.players) == 4
        assert s.hands[s.dealer] == [] and s.forehand == (s.dealer + 1) % 5
        assert all(s.dealer not in t.seats for t in s.tricks)
