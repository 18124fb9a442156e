"""The engine refuses illegal actions with a reason and leaves the state untouched;
malformed deals raise DealError."""

from __future__ import annotations

import json
import random

import pytest
from helpers54 import (
    Step,
    act,
    decode,
    play_out,
    random_game,
    random_hand,
    replayed,
    rigged_hand,
    rules54,
    snapshot,
    to_play,
    tricks,
)

from tarock.core.actions import Action, Call, Discard, Kontra, Pass, Play
from tarock.core.cards import DECK54, parse_card
from tarock.core.engine import DealError, Hand, IllegalAction
from tarock.core.record import record_of, replay

# seat 1 (forehand) calls XI, held by seat 2; "s7 s8 s9" is the first pile.
HANDS = ["cK cQ cC cJ c10 c9 c8 c7 sK sQ sC sJ",
         "hK h4 h3 XX XIX XVIII XVII XVI XV XIV XIII XII",
         "hQ hC h1 h2 XI X IX dK dQ dC dJ d1",
         "VIII VII VI V IV III II I d2 d3 d4 s10"]
TALON = ["s7 s8 s9", "hJ XXI Sküs"]


def hand_at(phase: str) -> Hand:
    """A hand of the rigged deal waiting in ``phase``."""
    hand = rigged_hand(HANDS, TALON)
    if phase == "discard":
        act(hand, "1 call XI")
    elif phase == "kontra":
        act(hand, "1 call XI", "1 discard s7 s8 s9")
    elif phase == "play":
        to_play(hand, discard="s7 s8 s9")
        act(hand, "1 play hK")
    elif phase == "done":
        act(hand, "1 pass", "2 pass", "3 pass", "0 pass")
    assert hand.state.phase == phase
    return hand


def refused(hand: Hand, step: Step) -> IllegalAction:
    """Apply ``step``; it must raise and leave state and legal actions identical."""
    before = snapshot(hand)
    legal = {s: list(hand.legal(s)) for s in range(4)}
    action = decode(hand, step)
    reason = hand.why_not(action)
    with pytest.raises(IllegalAction) as info:
        hand.apply(action)
    assert hand.state == before
    assert {s: list(hand.legal(s)) for s in range(4)} == legal
    assert info.value.reason == reason
    assert info.value.action == action
    assert info.value.reason.message in str(info.value)
    return info.value


CASES = [
    ("bidding", "2 pass", "not-your-turn"),
    ("bidding", Pass(4), "no-such-seat"),
    ("bidding", Pass(-1), "no-such-seat"),
    ("bidding", "1 call XIX", "must-call-highest"),
    ("bidding", "1 call XX", "must-call-highest"),  # held by seat 1 itself
    ("bidding", "1 play hK", "wrong-phase"),
    ("bidding", "1 discard h3 h4 hK", "wrong-phase"),
    ("bidding", "1 kontra", "wrong-phase"),
    ("discard", "1 pass", "wrong-phase"),
    ("discard", "1 play s7", "wrong-phase"),
    ("discard", "2 discard hQ hC h1", "not-your-turn"),
    ("discard", "1 discard s7 s8", "discard-count"),
    ("discard", "1 discard s7 s8 s9 h3", "discard-count"),
    ("discard", Discard(1, (parse_card("s7"), parse_card("s7"), parse_card("s8"))), "discard-count"),
    ("discard", "1 discard s7 s8 c7", "not-in-hand"),
    ("discard", "1 discard s7 s8 hK", "discard-king"),
    ("discard", "1 discard s7 s8 XII", "discard-tarock"),
    ("kontra", "2 play hQ", "wrong-phase"),
    ("kontra", "2 call XX", "wrong-phase"),
    ("kontra", "2 kontra", "partner-cannot-kontra"),
    ("kontra", "3 kontra", "not-your-turn"),
    ("kontra", "1 kontra", "not-your-turn"),
    ("play", "2 pass", "wrong-phase"),
    ("play", "2 kontra", "wrong-phase"),
    ("play", "2 play hK", "not-in-hand"),  # already played by seat 1
    ("play", "2 play c7", "not-in-hand"),  # seat 0's card
    ("play", "2 play XI", "must-follow-suit"),
    ("play", "3 play h2", "not-your-turn"),
    ("done", "1 call XX", "hand-over"),
    ("done", "1 pass", "hand-over"),
    ("done", "2 play hQ", "hand-over"),
]


@pytest.mark.parametrize(("phase", "step", "code"), CASES)
def test_illegal_action_reason_and_state_untouched(phase: str, step: Step, code: str) -> None:
    hand = hand_at(phase)
    assert refused(hand, step).reason.code == code


def test_legal_actions_are_accepted_after_a_refusal() -> None:
    hand = hand_at("play")
    refused(hand, "2 play XI")
    act(hand, "2 play h2")
    assert hand.state.trick is not None and hand.state.trick.seats == [1, 2]


def test_actions_after_the_last_trick_are_refused() -> None:
    hand = to_play(rigged_hand(HANDS, TALON), discard="s7 s8 s9")
    play_out(hand)
    assert hand.state.to_move is None
    assert all(hand.legal(s) == [] for s in range(4))
    for action in (Pass(0), Play(1, parse_card("hK")), Kontra(2), Call(3, parse_card("XX"))):
        assert refused(hand, action).reason.code == "hand-over"


def test_only_the_seat_to_move_has_legal_actions() -> None:
    hand = rigged_hand(HANDS, TALON)
    rng = random.Random(7)
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        for other in range(4):
            if other != seat:
                assert hand.legal(other) == []
                assert refused(hand, Pass(other)).reason.code == "not-your-turn"
        act(hand, rng.choice(hand.legal(seat)))


def _wild_action(rng: random.Random, hand: Hand) -> Action:
    seat = rng.randrange(4)
    card = rng.choice(DECK54)
    return rng.choice([
        Pass(seat), Kontra(seat), Play(seat, card), Call(seat, card),
        Discard(seat, tuple(rng.sample(DECK54, 3))),
    ])


@pytest.mark.parametrize("seed", range(30))
def test_random_attempts_never_change_the_state(seed: int) -> None:
    """Any action the engine refuses leaves no trace: the hand ends exactly as the same
    hand played with only the accepted actions."""
    rng = random.Random(seed)
    deck = list(DECK54)
    rng.shuffle(deck)
    hands = [deck[i * 12:(i + 1) * 12] for i in range(4)]
    talon = [deck[48:51], deck[51:]]
    rules = rules54()
    hand = Hand(rules, seed % 4, hands, talon)
    accepted: list[Action] = []
    while not hand.done:
        for _ in range(5):
            action = _wild_action(rng, hand)
            if hand.why_not(action) is None:
                continue
            refused(hand, action)
        legal = hand.legal(hand.state.to_move or 0)
        choice = rng.choice(legal)
        hand.apply(choice)
        accepted.append(choice)
    clean = Hand(rules, seed % 4, hands, talon)
    for action in accepted:
        clean.apply(action)
    assert clean.state == hand.state


# -- malformed deals -------------------------------------------------------------------

def _deal() -> tuple[list[list[int]], list[list[int]]]:
    cards = list(DECK54)
    return [cards[i * 12:(i + 1) * 12] for i in range(4)], [cards[48:51], cards[51:]]


def test_a_proper_deal_is_accepted() -> None:
    hands, talon = _deal()
    hand = Hand(rules54(), 0, hands, talon)
    assert hand.state.phase == "bidding"
    assert hand.deal == (hands, talon)


def test_three_hands() -> None:
    hands, talon = _deal()
    with pytest.raises(DealError, match="expected 4 hands, got 3"):
        Hand(rules54(), 0, hands[:3], talon)


@pytest.mark.parametrize("size", [11, 13])
def test_wrong_hand_size(size: int) -> None:
    hands, talon = _deal()
    everything = [c for h in hands for c in h] + [c for p in talon for c in p]
    hands = [everything[:size]] + [everything[size + 12 * i:size + 12 * (i + 1)] for i in range(3)]
    rest = everything[size + 36:]
    with pytest.raises(DealError, match=f"seat 0 holds {size} cards"):
        Hand(rules54(), 0, hands, [rest[:3], rest[3:]])


@pytest.mark.parametrize("sizes", [(2, 4), (6,), (3, 3, 0)])
def test_wrong_talon_piles(sizes: tuple[int, ...]) -> None:
    hands, talon = _deal()
    flat = [c for p in talon for c in p]
    piles, pos = [], 0
    for size in sizes:
        piles.append(flat[pos:pos + size])
        pos += size
    with pytest.raises(DealError, match="talon piles"):
        Hand(rules54(), 0, hands, piles)


def test_a_card_dealt_twice() -> None:
    hands, talon = _deal()
    talon[1][2] = hands[0][0]
    with pytest.raises(DealError) as info:
        Hand(rules54(), 0, hands, talon)
    assert "dealt twice: I" in str(info.value)
    assert "missing: d4" in str(info.value)


@pytest.mark.parametrize("bad", [54, 99, -1])
def test_a_card_not_in_the_deck(bad: int) -> None:
    hands, talon = _deal()
    talon[1][2] = bad
    with pytest.raises(DealError, match="not in this deck"):
        Hand(rules54(), 0, hands, talon)


@pytest.mark.parametrize("dealer", [-1, 4])
def test_a_dealer_who_is_no_seat(dealer: int) -> None:
    hands, talon = _deal()
    with pytest.raises(DealError, match="dealer"):
        Hand(rules54(), dealer, hands, talon)


# -- records ---------------------------------------------------------------------------

def test_replay_stops_at_the_first_illegal_action() -> None:
    hand = hand_at("play")
    data = json.loads(record_of(hand).dumps())
    good = len(data["actions"])
    data["actions"].append({"seat": 2, "type": "play", "card": "XI"})
    data["actions"].append({"seat": 2, "type": "play", "card": "h2"})
    result = replay(data)
    assert result.error_index == good
    assert result.reason is not None and result.reason.code == "must-follow-suit"
    assert result.hand is not None and result.hand.state == hand.state


def test_replay_names_a_malformed_action() -> None:
    hand = hand_at("discard")
    data = json.loads(record_of(hand).dumps())
    data["actions"].append({"seat": 1, "type": "discard", "cards": ["s7", "s8", "hX"]})
    result = replay(data)
    assert result.error_index == 1
    assert result.reason is not None and result.reason.code == "malformed-action"
    assert "hX" in result.reason.message


def test_record_round_trip_mid_hand() -> None:
    hand = hand_at("play")
    tricks(hand, "h2")
    again = replay(json.loads(record_of(hand).dumps()))
    assert again.error_index is None and again.hand is not None
    assert again.hand.state == hand.state
    assert again.hand.legal(3) == hand.legal(3)


@pytest.mark.parametrize("seed", range(8))
def test_record_round_trip_of_whole_hands(seed: int) -> None:
    """record_of -> JSON -> replay (variant looked up by name) gives the same state and result."""
    hand = random_game(seed)
    again = replayed(hand)
    assert again.done and again.state == hand.state
    assert again.state.result == hand.state.result
    assert again.deal == hand.deal == random_hand(seed).deal


def test_apply_unchecked_carries_out_what_apply_refuses_but_keeps_the_turn() -> None:
    """The network follows another seat's hand without knowing it: the engine applies that
    seat's card though it is illegal for the hand the node pretends it holds, and the
    turn moves on as it would; the turn itself and the hand's end are still checked."""
    hand = hand_at("play")  # seat 1 led hK; seat 2 holds hQ hC h1 h2 and must follow
    illegal = Play(2, parse_card("XI"))
    assert hand.why_not(illegal) is not None
    hand.apply_unchecked(illegal)
    assert hand.state.trick is not None and hand.state.trick.cards[-1] == parse_card("XI")
    assert hand.state.to_move == 3
    with pytest.raises(IllegalAction) as info:
        hand.apply_unchecked(Play(0, parse_card("cK")))
    assert info.value.reason.code == "not-your-turn"
    done = hand_at("done")
    with pytest.raises(IllegalAction):
        done.apply_unchecked(Pass(1))
