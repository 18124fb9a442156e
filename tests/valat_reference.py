"""The Valat check's play-out as it was first written, on lists of cards:
the reference :mod:`core.valatbits` must agree with deal for deal
(tests/test_valat_bits.py).  Kept in the tests only; the check plays on bit sets."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tarock.core.cards import MOND, PAGAT, SKUS, STRENGTH, SUIT_OF, TAROCK, Card, Suit
from tarock.core.contracts import TrickRules
from tarock.core.tricks import legal, strength_order, winner

SEATS = 4

Legal = Callable[[Sequence[Card], Sequence[Card]], list[Card]]
Winner = Callable[[Sequence[Card]], int]


class _Game:
    """The rules one simulation plays by: trump suit, card order, legal plays, winner."""

    def __init__(self, rules: TrickRules, trump: Suit) -> None:
        self.trump = trump
        self.kaiser = rules.trull_trick and trump == TAROCK
        self.strength: Sequence[int] = STRENGTH if trump == TAROCK else strength_order(rules.xx_high)
        self.legal: Legal = lambda hand, trick: legal(hand, trick, rules, trump)
        self.winner: Winner = lambda cards: winner(cards, rules, trump)

    def low_key(self, card: Card) -> tuple[bool, int]:
        """Cheapest first: plain cards before trumps, low before high."""
        return SUIT_OF[card] == self.trump, self.strength[card]


def _safe_leads(game: _Game, mine: Sequence[Card], opps: Sequence[Sequence[Card]]) -> list[Card]:
    """The declarer's leads that no opponent can beat, whatever they play."""
    trump, strength = game.trump, game.strength
    top: dict[Suit, int] = {}
    ruff: set[Suit] = set()
    holds: list[set[Suit]] = []
    for hand in opps:
        suits = {SUIT_OF[c] for c in hand}
        holds.append(suits)
        for c in hand:
            s = SUIT_OF[c]
            if strength[c] > top.get(s, -1):
                top[s] = strength[c]
    for suit in range(5):
        if suit != trump and any(suit not in h and trump in h for h in holds):
            ruff.add(suit)
    kaiser_risk = False
    if game.kaiser:
        owner = {c: i for i, hand in enumerate(opps) for c in hand if c in (MOND, PAGAT)}
        kaiser_risk = MOND in owner and PAGAT in owner and owner[MOND] != owner[PAGAT]
    out = []
    for card in mine:
        suit = SUIT_OF[card]
        if strength[card] < top.get(suit, -1) or suit in ruff:
            continue
        if card == SKUS and kaiser_risk:
            continue
        out.append(card)
    return out


def _opponents_can_win(game: _Game, hands: list[list[Card]], order: Sequence[int], me: int,
                       trick: list[Card], k: int) -> bool:
    """Whether the opponents can take this trick against the declarer's best answer."""
    if k == len(order):
        return order[game.winner(trick)] != me
    seat = order[k]
    legal = game.legal(hands[seat], trick)
    if seat == me:
        return all(_opponents_can_win(game, hands, order, me, [*trick, c], k + 1) for c in legal)
    return any(_opponents_can_win(game, hands, order, me, [*trick, c], k + 1) for c in legal)


def _cheapest_winner(game: _Game, hands: list[list[Card]], order: Sequence[int], me: int,
                     trick: list[Card]) -> Card | None:
    k = len(trick)
    for card in sorted(game.legal(hands[me], trick), key=game.low_key):
        if not _opponents_can_win(game, hands, order, me, [*trick, card], k + 1):
            return card
    return None


def _leader_outranks_a_suit(game: _Game, hands: list[list[Card]], me: int) -> bool:
    """Whether the first leader holds a plain card above every card the declarer
    holds of its suit, holding some.

    Then the opponents take the first trick, as the full search would find:
    the declarer must follow that suit below the lead, and only an
    opponent's card (a higher one of the suit, or a trump) can beat it; the
    Kaiserstich needs a Pagat, which the declarer's plain card is not.  The
    search is only needed where this cheap test says no.
    """
    strength, trump = game.strength, game.trump
    top: dict[Suit, int] = {}
    for c in hands[me]:
        suit = SUIT_OF[c]
        if suit != trump and strength[c] > top.get(suit, -1):
            top[suit] = strength[c]
    return any(strength[c] > top.get(SUIT_OF[c], 1 << 30) for c in hands[0])


def _first_trick_led_by_opponent(game: _Game, hands: list[list[Card]], me: int) -> list[Card] | None:
    """Play the first trick when an opponent leads; None if the opponents can take it."""
    order = tuple(range(SEATS))
    if _leader_outranks_a_suit(game, hands, me) or _opponents_can_win(game, hands, order, me, [], 0):
        return None
    best: tuple[tuple[bool, int], list[Card]] | None = None
    for lead in hands[0]:
        trick = [lead]
        for seat in range(1, me):
            trick.append(min(game.legal(hands[seat], trick), key=game.low_key))
        answer = _cheapest_winner(game, hands, order, me, trick)
        if answer is None:  # cannot happen after the search above; be safe
            return None
        cost = game.low_key(answer)
        if best is None or cost > best[0]:
            best = (cost, [*trick, answer])
    assert best is not None
    trick = best[1]
    for seat in range(me + 1, SEATS):
        trick.append(min(game.legal(hands[seat], trick), key=game.low_key))
    return trick


def _makes_valat(game: _Game, hands: list[list[Card]], me: int) -> bool:
    """Play one open distribution out; True if the declarer takes every trick."""
    if me != 0:
        trick = _first_trick_led_by_opponent(game, hands, me)
        if trick is None:
            return False
        for seat, card in enumerate(trick):
            hands[seat].remove(card)
    opps = [hands[s] for s in range(SEATS) if s != me]
    mine = hands[me]
    trump = game.trump
    while mine:
        safe = _safe_leads(game, mine, opps)
        if not safe:
            return False
        opp_trumps = any(SUIT_OF[c] == trump for hand in opps for c in hand)
        trumps = [c for c in safe if SUIT_OF[c] == trump]
        lead = min(trumps, key=game.low_key) if opp_trumps and trumps else min(safe, key=game.low_key)
        trick = [lead]
        for offset in range(1, SEATS):
            hand = hands[(me + offset) % SEATS]
            trick.append(min(game.legal(hand, trick), key=game.low_key))
        if game.winner(trick) != 0:
            return False
        for offset, card in enumerate(trick):
            hands[(me + offset) % SEATS].remove(card)
    return True
