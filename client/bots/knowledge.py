"""What a bot can read off an observation: cards seen, voids, parties.

Everything here is computed from an :class:`~core.observation.Observation`
alone, so a bot built on it can never use hidden information.  The rules of
the game come from the observation too: the deck and the card values from
the table's rule facts, the trick rules (overtrump duty, Kaiserstich or
Märchenstich) from the contract in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tarock.client.bots.table import table_facts
from tarock.core.cards import MOND, PAGAT, SKUS, STRENGTH, SUIT_LETTERS, SUIT_OF, TAROCK, Card, Suit
from tarock.core.contracts import TrickRules
from tarock.core.observation import Observation, TrickView

FRIEND = 1
FOE = -1
UNKNOWN = 0

NO_CONTRACT = TrickRules()
"""The trick rules read while no contract is decided (no trick is played then)."""

NO_CAP = 21
"""A trump cap that bounds nothing (the Sküs's strength)."""


def trump_suit(obs: Observation) -> Suit:
    """The suit that trumps: the contract's named suit, else the tarocks."""
    trump = obs.contract.trump if obs.contract is not None else None
    if trump and trump in SUIT_LETTERS:
        return SUIT_LETTERS.index(trump)
    return TAROCK


def beats(card: Card, best: Card, led: Suit, trump: Suit) -> bool:
    """Whether ``card`` beats ``best`` in a trick led with ``led``."""
    suit, best_suit = SUIT_OF[card], SUIT_OF[best]
    if suit == best_suit:
        # tarocks: higher id is higher; suit cards: lower id is higher
        return card > best if suit == TAROCK else card < best
    return suit == trump


def winning_index(cards: Sequence[Card], trump: Suit, kaiser: bool = False) -> int:
    """Index of the card winning the trick so far; with ``kaiser`` the
    Kaiserstich holds (Pagat, Mond and Sküs in one trick: the Pagat wins)."""
    if kaiser and PAGAT in cards and MOND in cards and SKUS in cards:
        return list(cards).index(PAGAT)
    best = 0
    led = SUIT_OF[cards[0]]
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], led, trump):
            best = i
    return best


@dataclass(frozen=True, slots=True)
class Knowledge:
    """A seat's reading of the table."""

    obs: Observation
    trump: Suit
    unseen: frozenset[Card]
    """Cards that may be in another hand (or an unseen talon pile)."""
    void: tuple[frozenset[Suit], ...]
    """Per seat, the suits (``TAROCK`` included) it has shown not to hold."""
    cap: tuple[int, ...]
    """Per seat, no trump stronger than this (``STRENGTH``) can be in its hand
    (``NO_CAP`` = no bound)."""
    relation: tuple[int, ...]
    """Per seat, ``FRIEND``, ``FOE`` or ``UNKNOWN`` from this seat's view."""
    declarer_side: bool | None
    """Whether this seat plays with the declarer (None: no declarer)."""
    values: tuple[int, ...]
    """Card points per card id as this deck counts them (40 cards: a pip is 0)."""
    kaiser: bool = False
    """Whether the Pagat takes a trick holding the whole Trull (Kaiserstich,
    Märchenstich) in this game, where the tarocks trump."""

    def holders_after(self) -> tuple[int, ...]:
        """The seats still to play to the current trick, in order."""
        obs = self.obs
        trick = obs.trick
        if trick is None:
            return ()
        sizes = obs.hand_sizes
        out: list[int] = []
        seat = obs.seat
        for _ in range(obs.seats - 1):
            seat = (seat + 1) % obs.seats
            if seat == trick.leader or seat in trick.seats:
                break
            if sizes[seat] > 0:
                out.append(seat)
        return tuple(out)

    def may_hold(self, seat: int, card: Card) -> bool:
        """Whether ``seat`` may hold the unseen ``card``."""
        if card not in self.unseen:
            return False
        suit = SUIT_OF[card]
        if suit in self.void[seat]:
            return False
        return not (suit == self.trump and STRENGTH[card] > self.cap[seat])


def _all_tricks(obs: Observation) -> list[TrickView]:
    tricks = list(obs.tricks)
    if obs.trick is not None and obs.trick.cards:
        tricks.append(obs.trick)
    return tricks


def _relations(obs: Observation, void: Sequence[frozenset[Suit]], played: frozenset[Card]) -> \
        tuple[tuple[int, ...], bool | None]:
    me, declarer, n = obs.seat, obs.declarer, obs.seats
    rel = [UNKNOWN] * n
    rel[me] = FRIEND
    if declarer is None:
        return tuple(FRIEND if s == me else FOE for s in range(n)), None
    called = obs.called
    alone = (obs.contract is not None and obs.contract.spec.single) or (
        called is not None and (called in obs.talon_seen or called in obs.discards))
    if alone or called is None:
        party: set[int] | None = {declarer}
    elif obs.partner is not None:
        party = {declarer, obs.partner}
    elif called in obs.hand:
        party = {declarer, me}
    else:
        party = None
    if party is not None or called is None:
        party = party or {declarer}
        mine = me in party
        return tuple(FRIEND if (s in party) == mine else FOE for s in range(n)), mine
    if me == declarer:
        return tuple(rel), True
    # An opponent who does not know the partner yet: the declarer is a foe; a
    # seat that cannot hold the called card (shown void) plays with us.
    rel[declarer] = FOE
    for s in range(n):
        if s not in (me, declarer) and called not in played and SUIT_OF[called] in void[s]:
            rel[s] = FRIEND
    return tuple(rel), False


def read(obs: Observation) -> Knowledge:
    """Build the :class:`Knowledge` of ``obs.seat``."""
    table = table_facts(obs)
    rules = obs.contract.spec.tricks if obs.contract is not None else NO_CONTRACT
    trump = trump_suit(obs)
    tricks = _all_tricks(obs)
    played = frozenset(c for t in tricks for c in t.cards)
    unseen = table.deck.difference(played, obs.hand, obs.talon_seen, obs.discards)
    void: list[set[Suit]] = [set() for _ in range(obs.seats)]
    cap = [NO_CAP] * obs.seats
    # Stichzwang on trumps: a lower trump played onto a higher one shows the
    # seat holds none above it.
    overtrump = rules.overtrump and rules.trump != "colour"
    for trick in tricks:
        led = SUIT_OF[trick.cards[0]]
        top = STRENGTH[trick.cards[0]] if led == trump else -1
        for seat, card in zip(trick.seats[1:], trick.cards[1:], strict=False):
            suit = SUIT_OF[card]
            if suit != led:
                void[seat].add(led)
                if suit != trump:
                    void[seat].add(trump)
            if suit == trump:
                if overtrump and top >= 0 and STRENGTH[card] < top:
                    # Stichzwang: it could not beat the trump in the trick
                    cap[seat] = min(cap[seat], top)
                top = max(top, STRENGTH[card])
    frozen_void = tuple(frozenset(v) for v in void)
    relation, side = _relations(obs, frozen_void, played)
    # the Trull trick where the tarocks trump; in a colour game the heuristic
    # plays as if no suit trumped (see client.bots.koenig)
    kaiser = rules.trull_trick and rules.trump == "tarock" and trump == TAROCK
    return Knowledge(obs, trump, unseen, frozen_void, tuple(cap), relation, side, table.values, kaiser)
