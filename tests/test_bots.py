"""The bots: legal choices only, decisions from the observation alone, the
Pagat held for the last trick, no Subkontra, and the heuristic beats random.

docs/rules.md §12 states the rules of tarock54.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

import pytest
from bot_helpers import Deal, RandomCards, hidden_swaps, swapped

from tarock.client.bots import BOT_KINDS, HeuristicBot, RandomBot, SearchBot, make_bot
from tarock.client.bots.heuristic import KONTRA_AT, REKONTRA_AT, hand_strength
from tarock.client.bots.knowledge import read
from tarock.client.players import Player
from tarock.core.actions import Action, Bid, Call, Discard, Kontra, Pass, Play, Trump
from tarock.core.cards import DECK54, PAGAT, parse_card
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe
from tarock.core.plugins import load_plugins
from tarock.core.registry import find_variant
from tarock.core.rules import Rules


def rules54() -> Rules:
    return find_variant("tarock54").rules()


def seeded_deal(seed: int) -> Deal:
    return deal(rules54(), random.Random(seed))


def run(hand: Hand, players: Sequence[Player]) -> list[Action]:
    """Play ``hand`` to the end; check every decision is legal; the actions."""
    taken: list[Action] = []
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        obs = observe(hand, seat)
        action = players[seat].decide(obs)
        assert action in obs.legal, f"{players[seat].name} chose {action} outside {obs.legal}"
        hand.apply(action)
        taken.append(action)
    return taken


def rigged(named: dict[int, str], seed: int, talon0: str = "") -> Deal:
    """A deal giving the named cards to those seats; the rest shuffled by ``seed``."""
    hands = [[parse_card(c) for c in named.get(s, "").split()] for s in range(4)]
    first = [parse_card(c) for c in talon0.split()]
    used = {c for h in hands for c in h} | set(first)
    rest = [c for c in DECK54 if c not in used]
    random.Random(seed).shuffle(rest)
    for hand in hands:
        while len(hand) < 12:
            hand.append(rest.pop())
    while len(first) < 3:
        first.append(rest.pop())
    return hands, [first, rest]


def test_make_bot_kinds() -> None:
    assert BOT_KINDS == ("random", "heuristic", "medium", "hard")
    assert isinstance(make_bot("random", 1), RandomBot)
    bot = make_bot("heuristic", 2, "Hilde")
    assert isinstance(bot, HeuristicBot) and bot.name == "Hilde"
    for kind in ("medium", "hard"):
        search = make_bot(kind, 3, "Sepp")
        assert isinstance(search, SearchBot) and search.level.name == kind and search.name == "Sepp"
    with pytest.raises(ValueError, match=r"genius.*random.*heuristic.*medium.*hard"):
        make_bot("genius", 0)


@pytest.mark.parametrize("kinds", [("heuristic", "random", "heuristic", "random"),
                                   ("heuristic",) * 4, ("random",) * 4])
def test_bots_only_choose_legal_actions(kinds: tuple[str, ...]) -> None:
    decided = 0
    for seed in range(60):
        hands, talon = seeded_deal(seed)
        players = [make_bot(kind, 1000 * seed + s) for s, kind in enumerate(kinds)]
        decided += len(run(Hand(rules54(), seed % 4, hands, talon), players))
    assert decided > 60 * 4


# -- observation independence ------------------------------------------------

def replay(original: Deal, prefix: Sequence[Action]) -> Hand | None:
    hand = Hand(rules54(), 0, *original)
    try:
        for action in prefix:
            hand.apply(action)
    except ValueError:
        return None
    return hand


def decision_points(actions: Sequence[Action], phases: Sequence[str]) -> list[int]:
    """Indices of a bidding, discard, Kontra and several play decisions."""
    points = []
    for phase in ("bidding", "discard", "kontra"):
        points += [i for i, p in enumerate(phases) if p == phase][:1]
    plays = [i for i, p in enumerate(phases) if p == "play"]
    points += [plays[j] for j in (0, 1, 6, 13, 22, 31, 40) if j < len(plays)]
    return points


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_decisions_depend_only_on_the_observation(kind: str) -> None:
    checked: set[str] = set()
    for seed in range(4):
        original = seeded_deal(500 + seed)
        hand = Hand(rules54(), 0, *original)
        players = [make_bot("heuristic", s) for s in range(4)]
        actions: list[Action] = []
        phases: list[str] = []
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            phases.append(hand.state.phase)
            actions.append(players[seat].decide(observe(hand, seat)))
            hand.apply(actions[-1])
        for index in decision_points(actions, phases):
            first = replay(original, actions[:index])
            assert first is not None
            seat = first.state.to_move
            assert seat is not None
            tried = 0
            for a, b in hidden_swaps(first, seat):
                second = replay(swapped(original, a, b), actions[:index])
                if second is None:  # the swap made an earlier action illegal
                    continue
                seen = observe(first, seat)
                assert observe(second, seat) == seen, (index, a, b)
                decision = make_bot(kind, 77).decide(seen)
                assert make_bot(kind, 77).decide(observe(second, seat)) == decision, (index, a, b)
                checked.add(phases[index])
                tried += 1
                if tried == 3:
                    break
            assert tried, f"no hidden swap found at decision {index}"
    assert checked == {"bidding", "discard", "kontra", "play"}


# -- other variants' actions ---------------------------------------------------

@dataclass(frozen=True, slots=True)
class Announce(Action):
    """An action type the bots have never heard of."""

    type: ClassVar[str] = "announce-something"


def bidding_obs(hand_cards: str) -> Observation:
    obs = observe(Hand(rules54(), 3, *rigged({0: hand_cards}, 1)), 0)
    assert obs.phase == "bidding" and obs.to_move == 0
    return obs


WEAK = "II III IV cJ c10 c9 sJ s10 hJ h1 dJ d1"
STRONG = "Sküs XXI XX XIX XVIII XVII V cK sK hK h1 h2"


def test_heuristic_bids_the_lowest_contract_only_with_a_good_hand() -> None:
    bids = (Bid(0, "rufer"), Bid(0, "rufer", ("pagat",)), Bid(0, "solo"))
    bot = make_bot("heuristic", 0)
    assert bot.decide(replace(bidding_obs(WEAK), legal=(Pass(0), *bids))) == Pass(0)
    assert bot.decide(replace(bidding_obs(STRONG), legal=(Pass(0), *bids))) == Bid(0, "rufer")
    assert bot.decide(bidding_obs(WEAK)) == Pass(0)
    assert bot.decide(bidding_obs(STRONG)) == Call(0, parse_card("XVI"))


def test_heuristic_calls_a_king_it_does_not_hold_and_names_its_long_suit() -> None:
    obs = bidding_obs("Sküs XXI XX XIX XVIII XVII V cK h1 h2 h3 d1")
    kings = tuple(Call(0, parse_card(k)) for k in ("cK", "sK", "hK", "dK"))
    assert make_bot("heuristic", 0).decide(replace(obs, legal=kings)) == Call(0, parse_card("hK"))
    obs = bidding_obs(STRONG)  # hearts: King and two pips
    trumps = tuple(Trump(0, letter) for letter in "cshd")
    assert make_bot("heuristic", 0).decide(replace(obs, legal=trumps)) == Trump(0, "h")


def test_bots_take_unknown_actions_safely() -> None:
    obs = bidding_obs(STRONG)
    for kind in BOT_KINDS:
        assert make_bot(kind, 3).decide(replace(obs, legal=(Announce(0), Pass(0)))) in (Announce(0), Pass(0))
    assert make_bot("heuristic", 3).decide(replace(obs, legal=(Announce(0), Pass(0)))) == Pass(0)
    only = (Announce(0), Announce(0))
    assert make_bot("heuristic", 3).decide(replace(obs, legal=only)) == Announce(0)


def test_heuristic_plays_legally_when_a_suit_is_trump() -> None:
    """A contract naming a trump suit (Faberl): the play reasoning follows it."""
    for seed in range(10):
        hand = Hand(rules54(), seed % 4, *seeded_deal(4000 + seed))
        players = [make_bot("heuristic", s) for s in range(4)]
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            obs = observe(hand, seat)
            if obs.phase == "play" and obs.contract is not None:
                faberl = replace(obs, contract=replace(obs.contract, trump="h"))
                assert make_bot("heuristic", seat).decide(faberl) in obs.legal
            hand.apply(players[seat].decide(obs))


# -- the Pagat ---------------------------------------------------------------

# docs/rules.md §12.4: "Pagat Ultimo: Wird der Pagat (I) im letzten Stich ausgespielt und
# gewinnt er ihn, gibt es 1 Punkt extra für die Partei dieses Spielers."
PAGAT_HANDS = (
    "I XXI Sküs XX XIX XVIII XVII XVI XV hK sK cK",
    "I XXI Sküs XX XIX XVIII XVII XVI dK hK d1 h1",
    "I Sküs XX XIX XVIII XVII XVI XV XIV cK c10 c9",
)


@pytest.mark.parametrize("named", PAGAT_HANDS)
@pytest.mark.parametrize("seed", range(4))
def test_heuristic_keeps_the_pagat_for_the_last_trick(named: str, seed: int) -> None:
    hand = Hand(rules54(), 3, *rigged({0: named}, seed))  # seat 0 is the forehand
    players: list[Player] = [make_bot("heuristic", 0)]
    players += [make_bot("random", seed * 10 + s) for s in (1, 2, 3)]
    actions = run(hand, players)
    before_last = [a for a in actions if isinstance(a, Play)][:-4]
    assert Play(0, PAGAT) not in before_last
    last = hand.state.tricks[-1]
    assert last.cards[last.seats.index(0)] == PAGAT
    assert last.winner == 0
    assert hand.state.result is not None
    assert "pagat-ultimo" in [i.name for i in hand.state.result.premium_items]


# -- Kontra ------------------------------------------------------------------

# docs/rules.md §11.1: "Wer eine Stufe auslässt, beendet die Konter-Runde; Bots wagen kein
# Subkontra und kein Re-Sub."
DECLARER = "XX Sküs XXI XVIII XVII XVI XV XIV cK sK hK dK"  # calls the XIX
GIVER = "XIII XII XI X IX VIII VII VI cQ sQ hQ dQ"


def kontra_hand(declarer: str, giver: str) -> Hand:
    hand = Hand(rules54(), 3, *rigged({0: declarer, 1: giver, 2: "XIX"}, 5))
    hand.apply(Call(0, parse_card("XIX")))
    discard = hand.legal(0)[0]
    assert isinstance(discard, Discard)
    hand.apply(discard)
    assert hand.state.phase == "kontra" and hand.state.to_move == 1
    return hand


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_bots_never_subkontra(kind: str) -> None:
    strong = "Sküs XXI XVIII XVII XVI XV XIV XIII cK sK hK dK"
    hand = kontra_hand("XX I XII XI X IX VIII VII cQ sQ hQ dQ", strong)
    assert hand_strength(hand.state.hands[1]) >= KONTRA_AT
    if kind == "heuristic":  # with this hand it does say Kontra ...
        assert make_bot(kind, 1).decide(observe(hand, 1)) == Kontra(1)
    hand.apply(Kontra(1))
    hand.apply(Kontra(0))  # Rekontra
    obs = observe(hand, 1)
    assert obs.kontra_level == 2 and Kontra(1) in obs.legal
    for seed in range(20):  # ... but never Subkontra
        assert make_bot(kind, seed).decide(obs) == Pass(1)


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_bots_never_re_sub(kind: str) -> None:
    hand = kontra_hand(DECLARER, GIVER)
    assert hand_strength(hand.state.hands[0]) >= REKONTRA_AT
    hand.apply(Kontra(1))
    if kind == "heuristic":  # the declarer's very strong hand says Rekontra ...
        assert make_bot(kind, 0).decide(observe(hand, 0)) == Kontra(0)
    hand.apply(Kontra(0))
    hand.apply(Kontra(1))  # Subkontra
    obs = observe(hand, 0)
    assert obs.kontra_level == 3 and Kontra(0) in obs.legal
    for seed in range(20):  # ... but never Re-Sub
        assert make_bot(kind, seed).decide(obs) == Pass(0)


def test_heuristic_weak_opponent_passes_the_kontra() -> None:
    hand = kontra_hand(DECLARER, GIVER)
    assert hand_strength(hand.state.hands[1]) < KONTRA_AT
    assert make_bot("heuristic", 0).decide(observe(hand, 1)) == Pass(1)


# -- strength ----------------------------------------------------------------

def table_totals(heuristic_seats: tuple[int, ...], hands: int) -> tuple[int, int]:
    totals = [0, 0, 0, 0]
    for seed in range(hands):
        kinds = ["heuristic" if s in heuristic_seats else "random" for s in range(4)]
        players = [make_bot(kind, 4 * seed + s) for s, kind in enumerate(kinds)]
        hand = Hand(rules54(), seed % 4, *seeded_deal(9000 + seed))
        run(hand, players)
        assert hand.state.result is not None
        for s in range(4):
            totals[s] += hand.state.result.settlement[s]
    ours = sum(totals[s] for s in heuristic_seats)
    return ours, sum(totals) - ours


@pytest.mark.parametrize("seats", [(0, 2), (1, 3)])
def test_heuristic_beats_random(seats: tuple[int, int]) -> None:
    ours, theirs = table_totals(seats, 200)
    assert ours > theirs


@pytest.mark.parametrize("seats", [(0, 2), (1, 3)])
def test_heuristic_card_play_beats_random_card_play(seats: tuple[int, int]) -> None:
    """Same bidding on both sides, so the card play alone makes the difference."""
    totals = [0, 0, 0, 0]
    rules = find_variant("tarock54").rules({"kontra": False})
    for seed in range(300):
        players = [make_bot("heuristic", s) if s in seats else RandomCards(s) for s in range(4)]
        hand = Hand(rules, seed % 4, *deal(rules, random.Random(12_000 + seed)))
        run(hand, players)
        assert hand.state.result is not None
        for s in range(4):
            totals[s] += hand.state.result.settlement[s]
    ours = sum(totals[s] for s in seats)
    assert ours > sum(totals) - ours


# -- a house rule's trick rules ---------------------------------------------------------

CLUB = load_plugins(Path(__file__).resolve().parent.parent / "plugins.toml").find("tarock54-club")
TRULL_TRICK = {0: "XXI XX XIX XVIII XVII XVI XV hK hQ hC hJ h1",
               1: "Sküs XIV XIII XII dK dQ dC dJ d1 d2 d3 d4",
               3: "I V VI cK cQ cC cJ c10 sK sQ sC sJ"}


def trull_trick_choice(rules: Rules) -> tuple[Action, Observation]:
    """Seat 0 calls, lays away, leads the Mond; seat 1 must take it with the Sküs, seat 2
    follows: what does seat 3, holding the Pagat and two small tarocks, play?"""
    hand = Hand(rules, 3, *rigged(TRULL_TRICK, 7))
    while hand.state.phase != "play":
        seat = hand.state.to_move
        assert seat is not None
        legal = hand.legal(seat)
        calls = [a for a in legal if isinstance(a, Call)]
        passes = [a for a in legal if isinstance(a, Pass)]
        hand.apply(calls[0] if calls and seat == 0 else (passes or legal)[0])
    hand.apply(Play(0, parse_card("XXI")))
    hand.apply(Play(1, parse_card("Sküs")))
    hand.apply(min(hand.legal(2), key=lambda a: a.card if isinstance(a, Play) else 99))
    obs = observe(hand, 3)
    return make_bot("heuristic", 3).decide(obs), obs


def test_a_house_rules_kaiserstich_is_known_to_the_bots() -> None:
    """tarock54-club borrows the 40-card Kaiserstich (docs/rules.md §4.8) ("Liegen Pagat, Mond und
    Sküs im selben Stich, gewinnt der Pagat") for 54 cards: the bots read it from the contract's trick rules,
    as they read the overtrump duty, so the club's Pagat takes the Trull trick; under tarock54
    and with the club's option off the Pagat would lose there, and a small tarock goes."""
    action, obs = trull_trick_choice(CLUB.rules())
    assert obs.rules is not None and obs.rules.variant == "tarock54-club"
    assert read(obs).kaiser and action == Play(3, PAGAT)
    for rules in (rules54(), CLUB.rules({"kaiserstich": False})):
        action, obs = trull_trick_choice(rules)
        assert not read(obs).kaiser and isinstance(action, Play) and action.card != PAGAT
