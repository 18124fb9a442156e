"""Helpers for tests of the 54-card game: rigged deals, scripted actions, random play.

Import them as ``from helpers54 import rigged_hand, act`` (pytest puts ``tests/``
on ``sys.path``).  Cards are written in the record notation (``XX``, ``Sküs``,
``hK``, ``c10``); a group of cards may be one space-separated string.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from tarock.core.actions import Action, Call, Pass
from tarock.core.cards import DECK54, VALUE, Card, format_card, parse_card
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.record import record_of, replay
from tarock.core.registry import find_variant
from tarock.core.rules import Rules
from tarock.core.state import HandState

Names = str | Sequence[str]
Step = str | Mapping[str, Any] | Action


def rules54(options: dict[str, Any] | None = None) -> Rules:
    """A fresh ``tarock54`` ruleset."""
    return find_variant("tarock54").rules(options)


def cards(names: Names) -> list[Card]:
    """Card ids from names: ``"XX hK c10"`` or ``["XX", "hK"]``."""
    if isinstance(names, str):
        names = names.split()
    return [parse_card(n) for n in names]


def rigged_hand(hands: Sequence[Names], talon: Sequence[Names] = ((), ()), dealer: int = 0,
                options: dict[str, Any] | None = None, fill: bool = False) -> Hand:
    """A ``tarock54`` hand dealt exactly as written.

    With ``fill=True`` the cards not named are added, suit cards first (clubs,
    spades, hearts, diamonds, each from the King down), then the tarocks from
    the Pagat up: first to the hands in seat order up to 12 cards, then to the
    talon piles up to 3.  A seat named with few cards thus gets suit cards.
    """
    rules = rules54(options)
    dealt = [cards(h) for h in hands]
    piles = [cards(p) for p in talon]
    if fill:
        named = {c for part in dealt + piles for c in part}
        rest = [c for c in DECK54[22:] + DECK54[:22] if c not in named]
        for part, size in [(h, rules.hand_size) for h in dealt] + [(p, 3) for p in piles]:
            while len(part) < size and rest:
                part.append(rest.pop(0))
    return Hand(rules, dealer, dealt, piles)


def decode(hand: Hand, step: Step) -> Action:
    """An action from a record dict, an Action, or a short text.

    Texts are ``"<seat> <type> [cards...]"``: ``"1 pass"``, ``"2 call XX"``,
    ``"2 discard c7 c8 c9"``, ``"3 kontra"``, ``"1 play hK"``.
    """
    if isinstance(step, Action):
        return step
    if isinstance(step, str):
        seat, kind, *rest = step.split()
        raw: dict[str, Any] = {"seat": int(seat), "type": kind}
        if kind in ("call", "play"):
            raw["card"] = rest[0]
        elif kind == "discard":
            raw["cards"] = rest
        step = raw
    return hand.rules.codec.decode_action(dict(step), hand.state.seats)


def act(hand: Hand, *steps: Step) -> Hand:
    """Apply the actions in order (each must be legal); return the hand."""
    for step in steps:
        hand.apply(decode(hand, step))
    return hand


def tricks(hand: Hand, *played: Names) -> Hand:
    """Play cards in order, each by the seat to move: ``tricks(h, "hK h1 h2 h3", ...)``."""
    for group in played:
        for card in cards(group):
            seat = hand.state.to_move
            assert seat is not None, "the hand takes no more cards"
            hand.apply(decode(hand, {"seat": seat, "type": "play", "card": format_card(card)}))
    return hand


def to_play(hand: Hand, caller: int | None = None, discard: Names | None = None) -> Hand:
    """Finish bidding, discard and the Kontra round so that the first trick is next.

    In the bidding, seats pass until ``caller`` (default: the forehand) calls
    the card it must call; the declarer lays away ``discard`` (default: its
    first legal discard); every seat asked in the Kontra round passes.
    """
    state = hand.state
    target = state.forehand if caller is None else caller
    while state.phase == "bidding":
        seat = _seat(state)
        calls = [a for a in hand.legal(seat) if isinstance(a, Call)]
        act(hand, calls[0] if seat == target else Pass(seat))
    if state.phase == "discard":
        seat = _seat(state)
        if discard is None:
            act(hand, hand.legal(seat)[0])
        else:
            act(hand, {"seat": seat, "type": "discard", "cards": [format_card(c) for c in cards(discard)]})
    while state.phase == "kontra":
        act(hand, Pass(_seat(state)))
    return hand


def _seat(state: HandState) -> int:
    assert state.to_move is not None, "nobody is to move"
    return state.to_move


def play_out(hand: Hand, rng: random.Random | None = None) -> Hand:
    """Finish the hand: the first legal action each time, or a random one."""
    while not hand.done:
        legal = hand.legal(_seat(hand.state))
        hand.apply(rng.choice(legal) if rng is not None else legal[0])
    return hand


def random_hand(seed: int, options: dict[str, Any] | None = None) -> Hand:
    """A hand dealt from ``random.Random(seed)``, dealer ``seed % 4``, not yet played."""
    rules = rules54(options)
    hands, talon = deal(rules, random.Random(seed))
    return Hand(rules, seed % 4, hands, talon)


def random_game(seed: int, options: dict[str, Any] | None = None) -> Hand:
    """A hand dealt and played to the end by random legal actions, all from ``seed``."""
    hand = random_hand(seed, options)
    return play_out(hand, random.Random(seed + 1_000_003))


def snapshot(hand: Hand) -> HandState:
    """A deep copy of the state, to compare with ``==`` later.

    The options are a read-only mapping (not copyable, and nothing may change
    them), so the copy shares them.
    """
    state = hand.state
    return copy.deepcopy(state, {id(state.options): state.options})


def replayed(hand: Hand, same_rules: bool = False) -> Hand:
    """The hand rebuilt from its record after a round trip through JSON text.

    The record's variant is looked up anew unless ``same_rules`` reuses the
    hand's ruleset (faster, for loops over many hands).
    """
    data = json.loads(json.dumps(record_of(hand).to_json(), ensure_ascii=False))
    result = replay(data, hand.rules if same_rules else None)
    assert result.error_index is None, result.reason
    assert result.hand is not None
    return result.hand


def points_by_groups(cards_won: Sequence[Card]) -> int:
    """Card points counted literally as the source of docs/rules.md §5.2 says, in whole points.

    Groups of three count their sum minus 2; two cards left over count their
    sum minus 1, a single card its value minus 1.  An independent oracle for
    the engine's counting in thirds.
    """
    values = [VALUE[c] for c in cards_won]
    total = 0
    for start in range(0, len(values), 3):
        group = values[start:start + 3]
        total += sum(group) - (2 if len(group) == 3 else 1)
    return total


def won_cards(state: HandState) -> tuple[list[Card], list[Card]]:
    """The cards of the declarer party (discards, tricks) and of the opponents
    (the other talon pile, tricks)."""
    party = state.declarer_party()
    ours = list(state.discards)
    theirs = [c for pile in state.talon for c in pile]
    for trick in state.tricks:
        (ours if trick.winner in party else theirs).extend(trick.cards)
    return ours, theirs
