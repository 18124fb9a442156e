"""The Valat check's play-out on bit sets: :mod:`core.valat`'s engine.

:func:`compile_play` turns a contract's :class:`~core.contracts.TrickRules`
and trump suit into a :class:`Play` once per check: the trick engine on bit
sets that the bots' search plays on too (:class:`core.trickbits.TrickBits`:
the plain suits first, the trump suit last, each suit from its lowest card to
its highest, so a suit's lowest card is its lowest bit and "higher than" a
shift; legal cards and winner exactly as :mod:`core.tricks`), with the
check's order of cheapness "plain before trump, low before high".

:meth:`Play.makes_valat` plays one open distribution exactly as
:mod:`core.valat` describes it, choice for choice, ties included: among
cards equally cheap the declarer plays his lowest card id (his hand is
sorted) and an opponent the first in the order his cards were dealt, and an
opponent leading the first trick tries his cards in that order.  The search
of the first trick asks only whether the opponents can take it; it tries one
card for all those that cannot head the trick and are no Trull card (they
leave the led suit, the card in front and the trumps to beat as they were),
which changes the answer of no search, only its cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from tarock.core.cards import MOND, SKUS, STRENGTH, SUIT_OF, TAROCK, Card, Suit
from tarock.core.contracts import TrickRules
from tarock.core.trickbits import TrickBits
from tarock.core.tricks import strength_order

SEATS: Final = 4


class Play(TrickBits):
    """One contract's trick rules with one trump suit, compiled to bit sets
    (:class:`core.trickbits.TrickBits`), with the check's order of cheapness."""

    def __init__(self, rules: TrickRules, trump: Suit) -> None:
        super().__init__(rules, trump)
        suit_game = rules.trump == "suit" and trump != TAROCK
        strength: Sequence[int] = strength_order(rules.xx_high) if suit_game else STRENGTH
        self.cost: tuple[int, ...] = tuple((int(SUIT_OF[c] == trump) << 6) | strength[c] for c in self.card)
        """The check's order of cheapness, plain before trump and low before high, as one number."""
        self.mond_mask = self.value[MOND]
        self.skus_mask = self.value[SKUS]

    def lowest(self, cands: int, order: Sequence[Card]) -> int:
        """The cheapest card (bit) of ``cands``; among equally cheap ones the
        first in ``order`` (the hand as dealt)."""
        plain = cands & self.plain_mask
        if not plain:
            return (cands & -cands).bit_length() - 1
        low = (plain & -plain).bit_length() - 1
        if not plain & ~self.suit_mask[self.suit_of[low]]:
            return low
        cost = self.cost
        best = low
        ties: list[int] = []
        for m in self.plain_suits:
            x = plain & m
            if x:
                b = (x & -x).bit_length() - 1
                if cost[b] < cost[best]:
                    best = b
                    ties = []
                elif cost[b] == cost[best] and b != best:
                    ties.append(b)
        if ties:
            card = self.card
            return min([best, *ties], key=lambda b: order.index(card[b]))
        return best

    def lowest_id(self, cands: int) -> int:
        """The cheapest card (bit) of ``cands``; among equally cheap ones the
        lowest card id (the declarer's, whose hand is sorted)."""
        plain = cands & self.plain_mask
        if not plain:
            return (cands & -cands).bit_length() - 1
        cost, card = self.cost, self.card
        best = -1
        for m in self.plain_suits:
            x = plain & m
            if x:
                b = (x & -x).bit_length() - 1
                if best < 0 or cost[b] < cost[best] or (cost[b] == cost[best] and card[b] < card[best]):
                    best = b
        return best

    def _safe_leads(self, mine: int, opps: Sequence[int]) -> int:
        """The declarer's leads that no opponent can beat, whatever they play."""
        trump = self.trump_mask
        everyone = opps[0] | opps[1] | opps[2]
        ruffers = [o for o in opps if o & trump]
        safe = 0
        for m in self.suit_mask:
            own = mine & m
            if not own:
                continue
            if m != trump:
                ruffed = False
                for o in ruffers:
                    if not o & m:
                        ruffed = True
                        break
                if ruffed:
                    continue
            top = (everyone & m).bit_length()
            safe |= own >> top << top
        if self.kaiser and safe & self.skus_mask:
            pm = self.pagat_mask | self.mond_mask
            if everyone & pm == pm and all(o & pm != pm for o in opps):
                safe ^= self.skus_mask
        return safe

    def _opponents_can_win(self, hands: list[int], me: int, trick: list[int], tmask: int) -> bool:
        """Whether the opponents can take the first trick (seats 0..3 in turn,
        ``trick`` played so far) against the declarer's best answer."""
        k = len(trick)
        if k == SEATS:
            return self.winner(trick, tmask) != me
        cands = self.legal(hands[k], trick, tmask)
        mine = k == me
        if k:
            first = self.winner(trick, tmask)
            head = trick[first]
            above = head + 1
            beats = self.suit_mask[self.suit_of[head]] >> above << above
            if not (1 << head) & self.win_trump:
                beats |= self.win_trump
            heads = beats | self.trull if self.kaiser else beats
            idle = cands & ~heads
            if idle:  # one card stands for every card that leaves the trick as it is
                cands = (cands & heads) | (idle & -idle)
            if k == SEATS - 1:  # the last card: who takes the trick, as winner() finds it
                trull = self.trull if self.kaiser else -1
                while cands:
                    card = cands & -cands
                    cands ^= card
                    if (tmask | card) & trull == trull:
                        seat = trick.index(self.pagat) if tmask & self.pagat_mask else k
                    else:
                        seat = k if card & beats else first
                    if (seat != me) != mine:
                        return not mine
                return mine
        while cands:
            card = cands & -cands
            cands ^= card
            trick.append(card.bit_length() - 1)
            taken = self._opponents_can_win(hands, me, trick, tmask | card)
            trick.pop()
            if taken != mine:
                return taken
        return mine

    def _leader_outranks_a_suit(self, leader: int, mine: int) -> bool:
        """Whether the first leader holds a plain card above every card the declarer holds of its suit."""
        for m in self.plain_suits:
            own = mine & m
            if own and (leader & m) >> own.bit_length():
                return True
        return False

    def first_trick_taken(self, hands: list[int], me: int) -> bool:
        """Whether the opponents can take the first trick when one of them leads it (``hands``
        by place in it; the declarer at place ``me``, not 0), against the declarer's best answer."""
        return self._leader_outranks_a_suit(hands[0], hands[me]) or self._opponents_can_win(hands, me, [], 0)

    def first_trick(self, hands: list[int], orders: list[Sequence[Card]], me: int) -> list[int] | None:
        """The first trick when an opponent leads it and cannot take it (:meth:`first_trick_taken`
        False): each lead tried in the leader's order, the followers before the declarer playing
        their cheapest card, the declarer his cheapest card that holds the trick; the lead that
        costs him the most is played.  None: some lead takes the trick from him (the
        opponents can take it)."""
        bit, cost = self.bit, self.cost
        best: tuple[int, list[int]] | None = None
        for card in orders[0]:
            trick = [bit[card]]
            tmask = 1 << trick[0]
            for seat in range(1, me):
                b = self.lowest(self.legal(hands[seat], trick, tmask), orders[seat])
                trick.append(b)
                tmask |= 1 << b
            answer = self._cheapest_winner(hands, me, trick, tmask)
            if answer is None:
                return None
            if best is None or cost[answer] > best[0]:
                best = (cost[answer], [*trick, answer])
        assert best is not None
        trick = best[1]
        tmask = 0
        for b in trick:
            tmask |= 1 << b
        for seat in range(me + 1, SEATS):
            b = self.lowest(self.legal(hands[seat], trick, tmask), orders[seat])
            trick.append(b)
            tmask |= 1 << b
        return trick

    def _cheapest_winner(self, hands: list[int], me: int, trick: list[int], tmask: int) -> int | None:
        """The declarer's cheapest card (lowest id among equals) that holds the trick whatever follows."""
        cands = self.legal(hands[me], trick, tmask)
        cost, card = self.cost, self.card
        order: list[int] = []
        while cands:
            low = cands & -cands
            cands ^= low
            order.append(low.bit_length() - 1)
        order.sort(key=lambda b: (cost[b], card[b]))
        for b in order:
            trick.append(b)
            taken = self._opponents_can_win(hands, me, trick, tmask | (1 << b))
            trick.pop()
            if not taken:
                return b
        return None

    def makes_valat(self, orders: list[Sequence[Card]], me: int) -> bool:
        """Play one open distribution out (``orders``: the four hands by place in the first
        trick, as dealt); True if the declarer at place ``me`` takes every trick."""
        return self.play_out([self.mask(o) for o in orders], orders, me)

    def play_out(self, hands: list[int], orders: list[Sequence[Card]], me: int) -> bool:
        """:meth:`makes_valat` on the hands' bit sets ``hands`` (changed in place)."""
        if me != 0:
            if self.first_trick_taken(hands, me):
                return False
            first = self.first_trick(hands, orders, me)
            if first is None:  # cannot happen after the search above; be safe
                return False
            for seat, b in enumerate(first):
                hands[seat] ^= 1 << b
        return self.play_rest(hands, orders, me)

    def play_rest(self, hands: list[int], orders: list[Sequence[Card]], me: int) -> bool:
        """:meth:`play_out` from a trick the declarer leads (the first trick when he is at place 0,
        else the second, the first taken out of ``hands``); ``hands`` changed in place."""
        seats = [(me + offset) % SEATS for offset in range(1, SEATS)]
        trump = self.trump_mask
        while hands[me]:
            mine = hands[me]
            opps = [hands[s] for s in seats]
            safe = self._safe_leads(mine, opps)
            if not safe:
                return False
            trumps = safe & trump
            if trumps and (opps[0] | opps[1] | opps[2]) & trump:
                lead = (trumps & -trumps).bit_length() - 1
            else:
                lead = self.lowest_id(safe)
            trick = [lead]
            tmask = 1 << lead
            for seat in seats:
                b = self.lowest(self.legal(hands[seat], trick, tmask), orders[seat])
                trick.append(b)
                tmask |= 1 << b
            if self.winner(trick, tmask) != 0:
                return False
            hands[me] ^= 1 << lead
            for seat, b in zip(seats, trick[1:], strict=True):
                hands[seat] ^= 1 << b
        return True


def leader_threats(play: Play, mine: int) -> frozenset[Card]:
    """The cards that, in the first leader's hand, take a trick from the
    declarer's cards ``mine`` at once: a plain card above every card the
    declarer holds of its suit (:meth:`Play._leader_outranks_a_suit` as a set,
    computed once per check instead of once per deal)."""
    out: list[Card] = []
    for m in play.plain_suits:
        own = mine & m
        if own:
            above = m >> own.bit_length() << own.bit_length()
            while above:
                low = above & -above
                above ^= low
                out.append(play.card[low.bit_length() - 1])
    return frozenset(out)


@lru_cache(maxsize=64)
def compile_play(rules: TrickRules, trump: Suit) -> Play:
    """The :class:`Play` of ``rules`` with ``trump`` trumping (built once per pair)."""
    return Play(rules, trump)
