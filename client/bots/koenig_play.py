"""Card play of the heuristic in Königrufen's negative and each-for-self games.

Negative games (Piccolo, Bettel, Zwiccolo and their ouvert forms) and the
each-for-self games (Trischaken, Fahrer) are played with Stichzwang: whoever
can beat the trick so far must.  So the chance that a card wins is the
chance that no seat still to play holds a card that beats it:
:meth:`Reading.win_chance` counts, per seat after this one, the unseen cards it may
hold that would beat the trick (exactly, for a hand lying open) and takes
each such card to be in its hand with the share of the unknown cards that
hand holds.

- A declarer who needs no more tricks plays the card least likely to win;
  among (nearly) safe cards the most dangerous one, which sheds a future
  winner.  One who still needs tricks takes a trick with a card that
  surely wins, shedding the most dangerous such card, and otherwise ducks.
- The declarer's opponents want him to win tricks: with a declarer still
  to play they keep the trick low (the lowest winner when Stichzwang makes
  them beat); once a declarer leads the trick they duck under him; they
  lead the card the declarer is most likely to have to beat; cards that
  do not matter shed the highest.
- Each for himself: the card whose expected points taken (the trick's, the
  card's, a talon card thrown in, the talon after the last trick) is lowest;
  a trick lost anyway gets the highest card to shed points and danger, and a
  Jungfrau (no trick yet) weighs a first trick more.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tarock.client.bots.knowledge import Knowledge, winning_index
from tarock.client.bots.knowledge import beats as knowledge_beats
from tarock.core.cards import MOND, PAGAT, SKUS, STRENGTH, SUIT_OF, TAROCK, VALUE, Card
from tarock.core.observation import Observation

TRICK_OVERHEAD = 2.0
"""Points a trick brings beyond its cards' values (3 cards' worth of thirds)."""
TALON_IN_TRICK = 1.7
"""Mean value of one talon card thrown into a trick (Trischaken)."""
TALON_LAST = 8.0
"""Mean value of the six talon cards that go with the last trick (Fahrer)."""
JUNGFRAU = 6.0
"""Extra weight of the first trick for a seat without one (Trischaken, Fahrer)."""
SHED = 0.4
"""Weight of shedding a card's value and danger on a trick lost anyway."""
SAFE_MARGIN = 0.02
"""Cards whose chance to win is this close to the lowest count as equally safe."""
SURE = 0.9
"""A declarer who needs a trick takes it with a card that wins this surely."""


def trick_cards(obs: Observation) -> list[Card]:
    return list(obs.trick.cards) if obs.trick is not None else []


def seats_after(obs: Observation) -> list[int]:
    """The seats still to play to this trick after ``obs.seat``, in order."""
    trick = obs.trick
    played = set(trick.seats) if trick is not None else set()
    out: list[int] = []
    seat = obs.seat
    for _ in range(obs.seats - 1):
        seat = (seat + 1) % obs.seats
        if seat in played or obs.hand_sizes[seat] == 0:
            continue
        out.append(seat)
    return out


def wins(trick: Sequence[Card], card: Card, trump: int, kaiser: bool = False) -> bool:
    """Whether ``card`` would win ``trick`` so far (``trump`` -1: a colour game;
    ``kaiser``: the Pagat takes a trick holding the whole Trull)."""
    return not trick or winning_index([*trick, card], trump, kaiser) == len(trick)


def _responses(hand: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
    """The cards of an open ``hand`` that may follow ``trick`` (suit, else tarock)."""
    led = SUIT_OF[trick[0]]
    same = [c for c in hand if SUIT_OF[c] == led]
    return same or [c for c in hand if c < 22] or list(hand)


class Reading:
    """One decision's view of the other hands: per seat the unseen cards it may
    hold (worked out once), or its cards where the hand lies open."""

    def __init__(self, obs: Observation, k: Knowledge) -> None:
        self.obs = obs
        self.k = k
        self.open = dict(obs.open_hands)
        self._pools: dict[int, list[Card]] = {}
        self._danger: dict[Card, float] = {}

    def pool(self, seat: int) -> list[Card]:
        if seat not in self._pools:
            self._pools[seat] = [c for c in self.k.unseen if self.k.may_hold(seat, c)]
        return self._pools[seat]

    def share(self, seat: int) -> float:
        """The chance that one card of the seat's pool is in its hand."""
        pool = self.pool(seat)
        return min(1.0, self.obs.hand_sizes[seat] / len(pool)) if pool else 0.0

    def beats(self, trick: Sequence[Card], best: Card, card: Card) -> bool:
        """Whether ``card`` beats ``best``, the winner of ``trick`` so far."""
        k = self.k
        if k.kaiser and MOND in trick and SKUS in trick:
            return card == PAGAT  # the Märchenstich; with the Pagat in, nothing beats it
        return knowledge_beats(card, best, SUIT_OF[trick[0]], k.trump)

    def beat_chance(self, seat: int, trick: Sequence[Card]) -> float:
        """The chance that ``seat`` holds a card that beats ``trick`` (and, with
        Stichzwang, plays it): exact for an open hand, else by counting."""
        best = trick[winning_index(trick, self.k.trump, self.k.kaiser)]
        if seat in self.open:
            return 1.0 if any(self.beats(trick, best, c) for c in _responses(self.open[seat], trick)) else 0.0
        pool = self.pool(seat)
        share = self.share(seat)

        def some(cards: int) -> float:  # the chance the seat holds at least one of so many
            return 1.0 - (1.0 - share) ** cards
        led = SUIT_OF[trick[0]]
        following = [c for c in pool if SUIT_OF[c] == led]
        beat_following = some(sum(1 for c in following if self.beats(trick, best, c)))
        if led in (TAROCK, self.k.trump):
            return beat_following
        # holding the led suit it must follow; without it, it must play a tarock
        void = 1.0 - some(len(following))
        trumping = some(sum(1 for c in pool if c < 22 and self.beats(trick, best, c)))
        return min(1.0, beat_following + void * trumping)

    def holds_chance(self, seat: int, card: Card) -> float:
        """The chance that ``seat`` holds ``card``."""
        if seat in self.open:
            return 1.0 if card in self.open[seat] else 0.0
        return self.share(seat) if self.k.may_hold(seat, card) else 0.0

    def win_chance(self, card: Card) -> float:
        """The chance that ``card`` played now wins the trick (nobody after beats it)."""
        obs, k = self.obs, self.k
        trick = trick_cards(obs)
        if not wins(trick, card, k.trump, k.kaiser):
            return 0.0
        played = [*trick, card]
        seats = seats_after(obs)
        keep = 1.0
        for seat in seats:
            keep *= 1.0 - self.beat_chance(seat, played)
        if k.kaiser and SKUS in played and PAGAT not in played:
            # the Märchenstich: Mond and Pagat still to come make it the Pagat's

            def comes(c: Card) -> float:
                return 1.0 - math.prod(1.0 - self.holds_chance(s, c) for s in seats)
            keep *= 1.0 - (1.0 if MOND in played else comes(MOND)) * comes(PAGAT)
        return keep

    def danger(self, card: Card) -> float:
        """How likely ``card`` is to win some later trick: few unseen cards above it."""
        if card not in self._danger:
            suit, strength = SUIT_OF[card], STRENGTH[card]
            above = sum(1 for c in self.k.unseen if SUIT_OF[c] == suit and STRENGTH[c] > strength)
            self._danger[card] = 1.0 / (1.0 + above)
        return self._danger[card]


def tricks_won(obs: Observation, seat: int) -> int:
    return sum(1 for t in obs.tricks if t.winner == seat)


# -- negative games -----------------------------------------------------------------

def declarer_play(r: Reading, cards: Sequence[Card], need: int) -> Card:
    """A declarer of a negative game who needs ``need`` more tricks."""
    chance = {c: r.win_chance(c) for c in cards}
    danger = r.danger
    left = len(r.obs.hand)
    if need > 0 and need >= left:
        return max(cards, key=lambda c: (chance[c], STRENGTH[c]))
    if need > 0:
        sure = [c for c in cards if chance[c] >= SURE]
        if sure:
            return max(sure, key=lambda c: (danger(c), STRENGTH[c]))
    low = min(chance.values())
    safe = [c for c in cards if chance[c] <= low + SAFE_MARGIN]
    if need > 0:  # keep the cards that may make the trick still needed
        return min(safe, key=lambda c: (danger(c), STRENGTH[c]))
    return max(safe, key=lambda c: (danger(c), STRENGTH[c], VALUE[c]))


def opponent_play(r: Reading, cards: Sequence[Card], declarers: Sequence[int]) -> Card:
    """An opponent of a negative game: make a declarer take the trick."""
    obs, k, danger = r.obs, r.k, r.danger
    trick = trick_cards(obs)
    trump = k.trump
    after = seats_after(obs)
    coming = [d for d in declarers if d in after]
    if not trick:
        return _opponent_lead(r, cards, coming)
    winner_seat = obs.trick.seats[winning_index(trick, trump, k.kaiser)] if obs.trick is not None else None
    winners = [c for c in cards if wins(trick, c, trump, k.kaiser)]
    losers = [c for c in cards if c not in winners]
    if winner_seat in declarers:
        if losers:  # duck under the declarer, shedding the highest
            return max(losers, key=lambda c: (STRENGTH[c], VALUE[c]))
        return max(winners, key=lambda c: STRENGTH[c])
    if coming:
        if winners:  # Stichzwang: keep the trick as low as we may
            return min(winners, key=lambda c: (STRENGTH[c], -danger(c)))
        return max(losers, key=lambda c: (STRENGTH[c], VALUE[c]))
    return max(cards, key=lambda c: (danger(c), STRENGTH[c]))


def _opponent_lead(r: Reading, cards: Sequence[Card], coming: Sequence[int]) -> Card:
    """Lead the card a declarer most likely must beat, the lowest of equals."""
    if not coming:
        return min(cards, key=lambda c: STRENGTH[c])

    def forcing(card: Card) -> float:
        return max(r.beat_chance(d, [card]) for d in coming)
    return max(cards, key=lambda c: (round(forcing(c), 2), -STRENGTH[c], SUIT_OF[c] != TAROCK))


def negative_play(obs: Observation, k: Knowledge, cards: Sequence[Card], goal: int,
                  declarers: Sequence[int]) -> Card:
    """A card in a game played for ``goal`` tricks exactly."""
    r = Reading(obs, k)
    if obs.seat in declarers:
        return declarer_play(r, cards, goal - tricks_won(obs, obs.seat))
    return opponent_play(r, cards, declarers)


# -- each for himself ---------------------------------------------------------------

def each_play(obs: Observation, k: Knowledge, cards: Sequence[Card], talon_last: bool) -> Card:
    """Trischaken / Fahrer: take as few points (and, for a Jungfrau, tricks) as possible."""
    trick = trick_cards(obs)
    number = len(obs.tricks)
    extra = TRICK_OVERHEAD + sum(VALUE[c] for c in trick)
    if not talon_last and number < 6:
        extra += TALON_IN_TRICK
    if talon_last and len(obs.hand) == 1:
        extra += TALON_LAST
    if tricks_won(obs, obs.seat) == 0:
        extra += JUNGFRAU

    r = Reading(obs, k)

    def cost(card: Card) -> float:
        p = r.win_chance(card)
        return p * (extra + VALUE[card]) - (1.0 - p) * SHED * (VALUE[card] + 3 * r.danger(card))
    return min(cards, key=lambda c: (round(cost(c), 3), -STRENGTH[c]))
