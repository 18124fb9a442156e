"""The bots in Königrufen (docs/rules.md §16 and §17):
legal choices only, four and five at a table; decisions from the observation
alone; within the limits every bot keeps; a sensible auction; low cards in
a Bettel; and the heuristic beats random play.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from bot_helpers import Deal, RandomCards, hidden_swaps, swapped
from test_koenigrufen_random import CLUB_NAME, COURSE_NAME, act, cards, gut_all, rigged, rules_for

from tarock.client.bots import koenig, make_bot
from tarock.client.bots.koenig_eval import chance, tarock_score
from tarock.client.players import Player
from tarock.core.actions import Action, Announce, Bid, Call, Pass, Play
from tarock.core.cards import SUIT_OF, VALUE, Card
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.plugins import load_plugins
from tarock.variants.koenigrufen.actions import TakeTalon

VARIANTS = (CLUB_NAME, COURSE_NAME)
NEGATIVE = {spec.name for v in VARIANTS for spec in rules_for(v).contracts if spec.goal.kind == "tricks"}
CATALOGUE = load_plugins(Path(__file__).resolve().parent.parent / "plugins.toml")



def seeded(variant: str, seed: int, seats: int = 4) -> tuple[Hand, Deal]:
    """A hand dealt from ``seed`` (the dealer sits out at five seats)."""
    rules = rules_for(variant)
    rng = random.Random(seed)
    dealer = seed % seats
    active = tuple(s for s in range(seats) if s != dealer) if seats == 5 else ()
    hands, talon = deal(rules, rng, seats, active)
    return Hand(rules, dealer, hands, talon, seats, active), (hands, talon)


def run(hand: Hand, players: Sequence[Player]) -> list[Action]:
    """Play ``hand`` to the end, checking that every decision is legal."""
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


# -- legal play and the limits -----------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seats", [4, 5])
def test_bots_only_choose_legal_actions(variant: str, seats: int) -> None:
    """Every decision of both bots is one of ``obs.legal``, at four and five seats
    (docs/rules.md §3.5: "Der jeweilige Kartengeber spielt selbst nicht mit und setzt aus")."""
    games: set[str] = set()
    for seed in range(40):
        hand, _ = seeded(variant, 300 + seed, seats)
        kinds = ("heuristic", "random") if seed % 2 else ("heuristic", "heuristic")
        players = [make_bot(kinds[s % 2], 1000 * seed + s) for s in range(seats)]
        run(hand, players)
        assert hand.state.result is not None and sum(hand.state.result.settlement) == 0
        if hand.state.contract is not None:
            games.add(hand.state.contract.name)
    assert len(games) >= 4, games


@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_keep_the_limits(variant: str) -> None:
    """docs/rules.md §11.1 ("Bots sagen nur einen Valat an, und nur mit einer nahezu
    unschlagbaren Hand"): no bot announces a Valat in Königrufen (no Valat check exists for it);
    the heuristic announces only the Trull, the Pagat and the Besserrufer's bird, with the card
    in hand (docs/rules.md §15.5: "nur dann ansagen, wenn er die jeweilige Karte im Blatt hat")."""
    announced: set[str] = set()
    for seed in range(100):
        hand, _ = seeded(variant, 700 + seed)
        kinds = ["heuristic", "random" if seed % 3 == 0 else "heuristic"] * 2
        players = [make_bot(kinds[s], seed * 4 + s) for s in range(4)]
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            obs = observe(hand, seat)
            action = players[seat].decide(obs)
            if isinstance(action, Announce):
                assert "valat" not in action.announce
                if kinds[seat] == "heuristic" and obs.phase == "announce":
                    name = action.announce[0]
                    announced.add(name)
                    bird_due = Pass(seat) not in obs.legal  # the Besserrufer's bird
                    assert name in ("trull", "pagat") or bird_due, (name, obs.hand)
                    assert name != "pagat" or cards("I")[0] in obs.hand
            hand.apply(action)
    assert announced, "no announcement at all in 100 hands"


# -- decisions from the observation alone ---------------------------------------------------------

def replayed(variant: str, dealer: int, original: Deal, prefix: Sequence[Action]) -> Hand | None:
    hand = Hand(rules_for(variant), dealer, *original)
    try:
        act(hand, *prefix)
    except ValueError:
        return None
    return hand


@pytest.mark.parametrize("variant", VARIANTS)
def test_decisions_depend_only_on_the_observation(variant: str) -> None:
    """Swap cards the deciding seat cannot see: whenever its observation stays the
    same, so does the heuristic's decision (auction, talon, discard, announcements, play)."""
    checked: set[str] = set()
    for seed in range(6):
        hand, original = seeded(variant, 900 + seed)
        dealer = hand.state.dealer
        players = [make_bot("heuristic", s) for s in range(4)]
        actions: list[Action] = []
        phases: list[str] = []
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            phases.append(hand.state.phase)
            actions.append(players[seat].decide(observe(hand, seat)))
            hand.apply(actions[-1])
        points = [i for i, p in enumerate(phases) if p != "play"][:8]
        plays = [i for i, p in enumerate(phases) if p == "play"]
        points += [plays[j] for j in (0, 1, 5, 14, 27, 40) if j < len(plays)]
        for index in points:
            first = replayed(variant, dealer, original, actions[:index])
            assert first is not None
            seat = first.state.to_move
            assert seat is not None
            seen = observe(first, seat)
            decision = make_bot("heuristic", 77).decide(seen)
            tried = 0
            for a, b in hidden_swaps(first, seat):
                second = replayed(variant, dealer, swapped(original, a, b), actions[:index])
                if second is None or observe(second, seat) != seen:
                    continue  # the swap made an action illegal, or showed (talon turned up, ouvert)
                assert make_bot("heuristic", 77).decide(observe(second, seat)) == decision, (index, a, b)
                checked.add(phases[index])
                tried += 1
                if tried == 2:
                    break
    assert {"bidding", "play"} <= checked and len(checked) >= 4, checked


# -- the auction -----------------------------------------------------------------------------------

STRONG = "Sküs XXI XX XIX XVIII XVII XVI XV cK sK hK d1"
"""Nine tarocks with the Trull's top, three Kings: a solo hand."""
GOOD = "XX XVIII XV XII X VII cK sQ h1 h3 d4 dJ"
"""Six tarocks, none of the Trull, a King: a Rufer with a partner, not a solo."""
LOW = "II III IV V c7 c8 s7 s8 h3 h4 d3 d4"
"""Only low cards: a negative hand."""
WEAK = "VI VII IX cC cJ c8 sQ s7 hJ h4 dJ d3"
"""Middling rubbish: neither a solo nor a safe negative game."""


def bid_of(variant: str, hand_text: str, seat: int = 0, dealer: int = 3) -> Action:
    hand = rigged(variant, [hand_text if s == seat else "" for s in range(4)], dealer=dealer)
    if seat != hand.state.forehand:
        forehand = hand.state.forehand
        opening = Bid(forehand, "vorhand") if variant == CLUB_NAME else Bid(forehand, "fahrer")
        act(hand, opening)
        while hand.state.to_move != seat:
            act(hand, Pass(hand.state.to_move))  # type: ignore[arg-type]
    return make_bot("heuristic", 0).decide(observe(hand, seat))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seat", [0, 1])
def test_a_strong_positive_hand_never_bids_a_negative_game(variant: str, seat: int) -> None:
    for text in (STRONG, GOOD):
        action = bid_of(variant, text, seat)
        assert not (isinstance(action, Bid) and action.contract in NEGATIVE), (text, action)
        assert action.type != "bei"
    strong = bid_of(variant, STRONG, 1)
    assert isinstance(strong, Bid)
    spec = rules_for(variant).contract(strong.contract)
    assert spec is not None and chance(spec, cards(STRONG)) > 0.5


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_low_hand_bids_a_negative_game_and_a_weak_hand_passes(variant: str) -> None:
    action = bid_of(variant, LOW, 1)
    assert isinstance(action, Bid) and action.contract in NEGATIVE, action
    assert bid_of(variant, WEAK, 1) == Pass(1)
    assert tarock_score(cards(STRONG)) > tarock_score(cards(GOOD)) > tarock_score(cards(WEAK))


@pytest.mark.parametrize("text,game", [(GOOD, "rufer"), (WEAK, "trischaken"), (STRONG, "dreier")])
def test_the_club_forehand_says_vorhand_and_then_chooses_a_game(text: str, game: str) -> None:
    """docs/rules.md §6.2: "Die Vorhand sagt Vorhand! oder ein Lizitspiel. Wenn im ersteren Falle alle
    anderen Spieler Weiter! gesagt haben, kann die Vorhand auch ein Vorhandspiel spielen."
    A middling hand calls a King, a weak one plays Trischaken (Jungfrau is possible), a strong
    one a solo game (a Lizitspiel straight away)."""
    hand = rigged(CLUB_NAME, [text])
    bot = make_bot("heuristic", 0)
    first = bot.decide(observe(hand, 0))
    if game == "dreier":
        assert isinstance(first, Bid) and first.contract in ("dreier", "solodreier"), first
        return
    assert first == Bid(0, "vorhand")
    act(hand, first, Pass(1), Pass(2), Pass(3))
    assert bot.decide(observe(hand, 0)) == Bid(0, game)


@pytest.mark.parametrize("text,game", [(GOOD, "rufer"), (WEAK, "fahrer")])
def test_the_course_forehand_opens_with_a_rufer_or_a_fahrer(text: str, game: str) -> None:
    """docs/rules.md §6.2: the forehand "muss als erster ein Spiel melden"; 5.1 Fahrer: "Spielziel:
    möglichst wenige ... Zählpunkte" -- for a hand that takes few tricks."""
    hand = rigged(COURSE_NAME, [text])
    assert make_bot("heuristic", 0).decide(observe(hand, 0)) == Bid(0, game)


def test_the_called_king_and_the_talon_half() -> None:
    """Call the King of a suit the declarer is void in; take the half that helps most."""
    hand = rigged(CLUB_NAME, ["Sküs XXI XIX XVII XIV XI VIII cK sK h1 h2 h3"],
                  talon=["c10 c9 c8", "XX XVIII s7"])
    act(hand, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3), Bid(0, "rufer"))
    bot = make_bot("heuristic", 0)
    call = bot.decide(observe(hand, 0))
    assert isinstance(call, Call) and SUIT_OF[call.card] == 3  # diamonds: void
    act(hand, call)
    take = bot.decide(observe(hand, 0))
    assert take == TakeTalon(0, 1)


# -- card play --------------------------------------------------------------------------------------

def test_the_bettel_declarer_plays_low() -> None:
    """docs/rules.md §17.1, Bettel: "Spielziel: keinen Stich machen"; with Stichzwang a low card that
    others must beat is the safe lead, and a trick is ducked whenever a lower card is allowed."""
    hand = rigged(COURSE_NAME, ["II III IV V c7 c8 cC s7 s8 h3 h4 d4", "XX XXI Sküs", "", ""])
    act(hand, Bid(0, "bettel"), Pass(1), Pass(2), Pass(3))
    gut_all(hand)
    bot = make_bot("heuristic", 0)
    lead = bot.decide(observe(hand, 0))
    assert isinstance(lead, Play)
    assert lead.card not in cards("cC"), lead  # a low card: a pip or a low tarock
    act(hand, lead)
    # the others follow; whenever the declarer can stay under the trick, it does
    rng = random.Random(4)
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        obs = observe(hand, seat)
        if seat == 0:
            action = bot.decide(obs)
            trick = obs.trick.cards if obs.trick is not None else ()
            plays = [a.card for a in obs.legal if isinstance(a, Play)]
            if trick and any(not koenig_wins(trick, c) for c in plays):
                assert isinstance(action, Play) and not koenig_wins(trick, action.card)
        else:
            action = rng.choice(obs.legal)
        hand.apply(action)


def koenig_wins(trick: Sequence[Card], card: Card) -> bool:
    from tarock.client.bots.koenig_play import wins
    return wins(trick, card, 4)


# -- strength ---------------------------------------------------------------------------------------

def totals(variant: str, heuristic: tuple[int, ...], hands: int, first: int) -> tuple[int, int]:
    """The heuristic seats' and the random seats' summed results over fixed deals."""
    sums = [0, 0, 0, 0]
    for i in range(hands):
        hand, _ = seeded(variant, first + i)
        players = [make_bot("heuristic" if s in heuristic else "random", 10 * i + s) for s in range(4)]
        run(hand, players)
        assert hand.state.result is not None
        sums = [a + b for a, b in zip(sums, hand.state.result.settlement, strict=True)]
    ours = sum(sums[s] for s in heuristic)
    return ours, sum(sums) - ours


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seats", [(0, 2), (1, 3)])
def test_heuristic_beats_random(variant: str, seats: tuple[int, int]) -> None:
    """Over 100 fixed deals the two heuristic seats win far more than the two random ones
    (measured: about +350 ct per hand and seat in the club, +20 ct in the course)."""
    ours, theirs = totals(variant, seats, 100, 5000)
    value = 10 if variant == CLUB_NAME else 2  # the Rufer's value
    assert ours > theirs and ours > 100 * 2 * value  # at least a Rufer per hand and seat


@pytest.mark.parametrize("variant", VARIANTS)
def test_heuristic_card_play_beats_random_card_play(variant: str) -> None:
    """The same auction on both sides: the card play alone makes the difference (measured
    over 400 deals: about +9.5 ct per hand and seat in the club, +1.4 ct in the course)."""
    sums = [0, 0, 0, 0]
    for i in range(150):
        hand, _ = seeded(variant, 12_000 + i)
        players: list[Player] = [make_bot("heuristic", s) if s % 2 == 0 else RandomCards(s) for s in range(4)]
        run(hand, players)
        assert hand.state.result is not None
        sums = [a + b for a, b in zip(sums, hand.state.result.settlement, strict=True)]
    assert sums[0] + sums[2] > 0


def test_only_koenigrufen_hands_are_played_by_the_koenigrufen_rules() -> None:
    """The 54- and 40-card games (docs/rules.md §12, §13) keep their own heuristic."""
    for variant, expected in ((CLUB_NAME, True), (COURSE_NAME, True), ("tarock54", False),
                              ("tarock40", False), ("tarock40-online", False)):
        hand, _ = seeded(variant, 1)
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            obs = observe(hand, seat)
            assert koenig.applies(obs) == expected, (variant, obs.phase)
            hand.apply(make_bot("heuristic", seat).decide(obs))


def test_a_house_rule_over_a_dialect_gets_its_bots() -> None:
    """A house rule has its own name and its own rules (koenigrufen-mondfang-club: Mondfang among
    partners, the Trull at 15/30 cents over the club's rulebook): the bots read the rules, not
    the name, so on the same deal they decide as at the club until the changed rules matter."""
    house = CATALOGUE.find("koenigrufen-mondfang-club").rules()
    club = CATALOGUE.find("koenigrufen-club").rules()
    compared = 0
    for seed in range(8):
        hands, talon = deal(club, random.Random(4_000 + seed))
        ours, theirs = Hand(house, seed % 4, hands, talon), Hand(club, seed % 4, hands, talon)
        bots = [make_bot("heuristic", s) for s in range(4)]
        while not ours.done and not ours.state.tricks:  # the auction, talon, discard, announcements
            seat = ours.state.to_move
            assert seat is not None
            obs = observe(ours, seat)
            assert koenig.applies(obs) and obs.variant == "koenigrufen-mondfang-club"
            action = bots[seat].decide(obs)
            assert action == bots[seat].decide(observe(theirs, seat)), (seed, obs.phase)
            ours.apply(action)
            theirs.apply(action)
            compared += 1
    assert compared > 40


def test_several_besserrufer_the_first_names_the_bird_it_would_play() -> None:
    """docs/rules.md §6.4: "in diesem Falle sagen die Spieler ihre Vögel vor dem Rufen. Wer den höchsten Vogel
    ansagt, spielt." -- the bot that must name one names the bird whose trick comes last."""
    hand = rigged(CLUB_NAME, ["I III XV XVI XVII XVIII XIX XX cK sK", "II IV", "", ""])
    act(hand, Bid(0, "besserrufer"), Bid(1, "besserrufer"), Pass(2), Pass(3))
    assert hand.state.phase == "birds"
    assert make_bot("heuristic", 0).decide(observe(hand, 0)) == Announce(0, ("pagat",))
    act(hand, Announce(0, ("pagat",)))
    assert make_bot("heuristic", 1).decide(observe(hand, 1)) in hand.legal(1)


@pytest.mark.parametrize("colour", [False, True])
def test_the_fast_discard_rating_equals_the_hand_score(colour: bool) -> None:
    """Rating thousands of discards (a Sechser lays six of eighteen away) must stay cheap:
    the per-card sums give exactly the score of the cards kept plus the points laid away."""
    from tarock.client.bots.koenig_eval import Layaway, colour_score

    for seed in range(200):
        deck = list(range(54))
        random.Random(seed).shuffle(deck)
        hand, away = deck[:15], deck[seed % 12:seed % 12 + 3]
        kept = [c for c in hand if c not in away]
        score = colour_score(kept) if colour else tarock_score(kept)
        slow = score + sum(VALUE[c] - 2 / 3 for c in away)
        assert Layaway(hand, colour).value(away) == pytest.approx(slow)
