"""Why a hinted action, in words the observation proves.

:func:`explain` gives a reason only where the player's own observation
proves it: what lies on the table now, the cards the player can account
for, the player's own hand, and the rules of following suit.  A claim about
how a trick ends is made only when no card still unseen can change it.
Where nothing can be proven (how strong a hand is, which talon half is
better) the hint names the choice without a reason.

Each reason is a catalogue message (context ``hint``); :data:`REASONS`
lists them for the tests that check every reason against the continuations
a sampled deal allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from tarock.client.i18n import NP_
from tarock.client.text.cards import suit_text
from tarock.client.text.figures import SYMBOLS
from tarock.client.ui.cards import card_text
from tarock.core.actions import Action, Bid, Kontra, Pass, Play, Trump
from tarock.core.cards import SUIT_LETTERS, SUIT_OF, TAROCK, Card, is_king
from tarock.core.contracts import TrickRules
from tarock.core.observation import Observation
from tarock.core.tricks import trump_of, winner

Reason = tuple[str, dict[str, str]]

WINS = NP_("hint", "takes the trick: no card still unseen can beat it")
"""The card wins the trick whatever the players after it hold."""
HIGHEST_SO_FAR = NP_("hint", "the highest card in the trick so far")
"""The card beats the cards played before it (the players after it may still beat it)."""
PARTNER_HOLDS = NP_("hint", "{name} holds the trick so far: {card} adds points to it")
"""The partner's card leads the trick now, and the card is worth more than the least."""
CHEAPEST = NP_("hint", "{card} lies higher, and no card you may play is worth less")
"""The card does not beat the trick's leading card now, and it is the cheapest legal card."""
TRUMP_LEAD = NP_("hint", "a trump lead: who holds a trump must play one")
"""A trump led: a later player with a trump has only trumps to play."""
SUIT_LEAD = NP_("hint", "a {suit} lead: who holds {suit} must follow")
"""A plain suit led: a later player with that suit has only that suit to play."""
HAND_COUNT = NP_("hint", "your hand: tarocks {tarocks} ({high} from XV up), Kings {kings}")
"""What the bidder's hand holds (facts, the judgement is the bot's)."""
LONGEST_SUIT = NP_("hint", "the suit you hold most cards of ({n})")
"""The trump suit chosen is the hand's longest."""

REASONS = (WINS, HIGHEST_SO_FAR, PARTNER_HOLDS, CHEAPEST, TRUMP_LEAD, SUIT_LEAD, HAND_COUNT, LONGEST_SUIT)


def seen_cards(obs: Observation) -> frozenset[Card]:
    """Every card ``obs`` lets its seat account for: its hand, the tricks, what lies open."""
    cards: set[Card] = set(obs.hand) | set(obs.talon_seen) | set(obs.discards)
    for trick in (*obs.tricks, *((obs.trick,) if obs.trick is not None else ())):
        cards.update(trick.cards)
    for pile in obs.talon_shown:
        cards.update(pile)
    for _seat, open_cards in obs.open_hands:
        cards.update(open_cards)
    return frozenset(cards)


def explain(obs: Observation, action: Action) -> Reason:
    """Why ``action`` in words ``obs`` proves (a msgid of context ``hint`` and its fields),
    or ``("", {})``: no reason."""
    if isinstance(action, Play):
        return explain_play(obs, action.card)
    if isinstance(action, Bid | Kontra) or (isinstance(action, Pass) and obs.phase == "bidding"):
        return HAND_COUNT, hand_count(obs.hand)
    if isinstance(action, Trump) and action.suit in SUIT_LETTERS:
        suit = SUIT_LETTERS.index(action.suit)
        held = [c for c in obs.hand if SUIT_OF[c] == suit]
        others = [sum(1 for c in obs.hand if SUIT_OF[c] == s) for s in range(TAROCK) if s != suit]
        if held and len(held) > max(others, default=0):
            return LONGEST_SUIT, {"n": str(len(held)), "suit": suit_text(action.suit, SYMBOLS)}
    return "", {}


def hand_count(hand: Sequence[Card]) -> dict[str, str]:
    tarocks = [c for c in hand if SUIT_OF[c] == TAROCK]
    return {
        "tarocks": str(len(tarocks)),
        "high": str(sum(1 for c in tarocks if c >= 14)),
        "kings": str(sum(1 for c in hand if is_king(c))),
    }


def explain_play(obs: Observation, card: Card) -> Reason:
    contract = obs.contract
    if contract is None:
        return "", {}
    rules, trump = contract.spec.tricks, trump_of(contract.spec.tricks, contract.suit)
    trick = obs.trick
    before = tuple(trick.cards) if trick is not None else ()
    values = obs.rules.facts.card_values if obs.rules is not None else ()
    if not before:
        if SUIT_OF[card] == trump:
            return TRUMP_LEAD, {}
        if SUIT_OF[card] == TAROCK:  # the tarocks as a plain suit (a suit game): no word for it here
            return "", {}
        return SUIT_LEAD, {"suit": suit_text(SUIT_LETTERS[SUIT_OF[card]], SYMBOLS)}
    assert trick is not None
    later = _later_seats(obs)
    if winner((*before, card), rules, trump) == len(before):
        if later == 0 or not beatable(obs, card, later):
            return WINS, {}
        return HIGHEST_SO_FAR, {}
    leading = winner(before, rules, trump)
    holder = trick.seats[leading]
    if values and holder in friends(obs) and values[card] > min(values):
        return PARTNER_HOLDS, {"name": "", "card": card_text(card), "seat": str(holder)}
    legal = [a.card for a in obs.legal if isinstance(a, Play)]
    if values and legal and values[card] == min(values[c] for c in legal):
        return CHEAPEST, {"card": card_text(before[leading])}
    return "", {}


def _later_seats(obs: Observation) -> int:
    """How many cards the trick still takes after this seat's."""
    active = len(obs.active) if obs.active else obs.seats
    played = len(obs.trick.cards) if obs.trick is not None else 0
    return max(0, active - played - 1)


def beatable(obs: Observation, card: Card, later: int) -> bool:
    """Whether cards this seat cannot account for, played after ``card``, could take the trick."""
    contract = obs.contract
    assert contract is not None and obs.trick is not None
    rules: TrickRules = contract.spec.tricks
    trump = trump_of(rules, contract.suit)
    unseen = [c for c in range(len(SUIT_OF)) if c not in seen_cards(obs) and _in_deck(obs, c)]
    before = (*obs.trick.cards, card)
    mine = len(before) - 1
    for n in range(1, later + 1):
        for extra in combinations(unseen, n):
            if winner((*before, *extra), rules, trump) != mine:
                return True
    return False


def _in_deck(obs: Observation, card: Card) -> bool:
    deck = obs.rules.deck if obs.rules is not None else ()
    return not deck or card in deck


def friends(obs: Observation) -> set[int]:
    """The seats this seat knows to play with (from the observation alone)."""
    if obs.declarer is None:
        return set()
    if obs.seat == obs.declarer:
        return {obs.partner} if obs.partner is not None and obs.partner != obs.seat else set()
    if obs.partner == obs.seat:
        return {obs.declarer}
    if obs.partner is not None:
        return {s for s in range(obs.seats) if s not in (obs.declarer, obs.partner, obs.seat)}
    return set()
