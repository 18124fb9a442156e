"""A proof, without playing a deal, that the Valat check loses every deal it could draw.

:mod:`core.valat` plays a hand against random distributions of the unseen
cards (:meth:`core.valatbits.Play.play_out`) and stops at the third lost
deal.  Most hands it is asked about cannot win a single distribution, so the
check's answer for them is known beforehand: three deals played, none made.
:func:`always_lost` finds such hands from bounds that hold for every
distribution, as the play-out plays it, so the check can answer them without
seeding a generator or playing a card; a hand it cannot settle is played as
before.  It never says "lost" of a hand that some distribution makes
(tests/test_valat_bound.py plays both on many hands of every kind).

The bounds, for a declarer who must take every trick (``size`` cards each,
the deck dealt out to four):

- trumps: an opponent's trump leaves him only in a trick the declarer takes
  with a trump of his (a plain card loses to it, and the Pagat of a
  Kaiserstich is a trump too), at most three to each, so more than three
  times his trumps lose at once; and each opponent gives up his lowest trump
  to a trump lead, keeping his highest to the end, so every lead that draws
  one of his must be above that highest (:func:`_trumps_kept`);
- the earliest trick at which an unseen card can leave its holder: a plain
  card goes as a discard only when its holder has no trump and none of his
  cards is cheaper (the play-out's opponents throw their cheapest card), so
  not before its holder has played all the cards cheaper than it, at most
  the unseen cards costing as much or more than it stay with him; it goes
  by following suit only to a lead of a higher card of its suit (or in the
  first trick, when an opponent leads it), at most three to a lead;
- the declarer leads only a card above every card of its suit still out
  (``Play._safe_leads``), so each of his cards gets the earliest trick by
  which the unseen cards above it can all be gone; where he leads every
  trick his cards need distinct tricks from those on (one of them may go to
  the first trick when an opponent leads it); when they do not fit, no
  distribution is made.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from tarock.core.valatbits import Play

_NEVER: Final = 1 << 8
"""The earliest trick of an unseen trump that leaves only under a higher trump of the declarer."""

_COSTS: Final = 128
"""Above every cost :class:`~core.valatbits.Play` gives a card (a trump's flag is 64)."""


@lru_cache(maxsize=64)
def _at_least(play: Play) -> tuple[int, ...]:
    """Per cost, the plain cards (bits) that cost as much or more."""
    plain, cost = play.plain_mask, play.cost
    out = []
    for level in range(_COSTS):
        mask = 0
        for b, c in enumerate(cost):
            if c >= level and plain >> b & 1:
                mask |= 1 << b
        out.append(mask)
    return tuple(out)


def always_lost(play: Play, mine: int, unseen: int, position: int, size: int) -> bool:
    """Whether the declarer's cards ``mine`` (bits of ``play``) lose every distribution of
    ``unseen`` (the other cards of a deck dealt out to four, ``size`` each) from first-trick
    place ``position``; False: not proved (some distribution may be made)."""
    trump = play.trump_mask
    if (unseen & trump).bit_count() > 3 * (mine & trump).bit_count():
        return True
    if _trumps_kept(play, mine, unseen, position, size):
        return True
    if play.kaiser and not mine & play.skus_mask:
        return False
    cost, at_least = play.cost, _at_least(play)
    plain_unseen = unseen & play.plain_mask
    # a plain card leaves as a discard at trick >= base - (unseen plain cards costing as much or more)
    base = size + 1 - (1 if play.pagat_last else 0)
    first = position != 0  # an opponent leads the first trick: any card may go to it
    spare = 1 if first else 0  # the first trick takes one card that is not led
    counts = [0] * (size + 2)  # the declarer's cards by the earliest trick they can be led
    for suit in reversed(play.suit_mask):  # the tarocks first: in a Faberl they end most hands
        own = mine & suit
        if not own:
            continue
        is_trump = suit == trump
        out = unseen & suit
        earliest: list[int] = []  # of the unseen cards above the current card, highest first
        before: list[int] = []  # the earliest tricks of the declarer's higher cards of the suit
        trick = 2 if first else 1
        while own:
            card = own.bit_length() - 1
            own ^= 1 << card
            above = out >> (card + 1) << (card + 1)
            out ^= above
            while above:
                h = above.bit_length() - 1
                above ^= 1 << h
                if is_trump:
                    earliest.append(_NEVER)
                else:
                    d = base - (plain_unseen & at_least[cost[h]]).bit_count()
                    earliest.append(d if d > 1 else 1)
            if earliest:  # else nothing of the suit is out above it: led from ``trick`` on
                trick = _lead_trick(earliest, before, trick, size, first)
            if trick > size:  # never, nor any lower card of the suit
                counts[trick] += 1 + own.bit_count()
                if counts[trick] > spare:
                    return True
                break
            counts[trick] += 1
            before.append(trick)
    late = 0
    for trick in range(size + 1, 1, -1):
        late += counts[trick]
        if late > size + 1 - trick + spare:
            return True
    return False


def _trumps_kept(play: Play, mine: int, unseen: int, position: int, size: int) -> bool:
    """Whether some opponent keeps a trump: each gives up his lowest trump to a trump
    lead, so he keeps his highest to the end, and every trump lead that draws one of his
    must be above it, a trump of the declarer's above his highest; the Pagat held back
    (Pagat last) leaves after it.  The opponents take the unseen trumps in turn from the
    highest down, each as many as he can lose; trumps left over are kept by someone in
    every distribution.  When an opponent leads the first trick, each may play any
    trump to it: the three highest go there."""
    own = mine & play.trump_mask
    out = unseen & play.trump_mask
    for _ in range(3 if position else 0):
        if not out:
            return False
        out ^= 1 << (out.bit_length() - 1)
    extra = 1 if play.pagat_last else 0
    for _ in range(3):
        if not out:
            return False
        top = out.bit_length() - 1
        for _ in range(min(size, (own >> (top + 1)).bit_count() + extra)):
            out ^= 1 << (out.bit_length() - 1)
            if not out:
                return False
    return out != 0


def _lead_trick(earliest: list[int], before: list[int], trick: int, size: int, first: bool) -> int:
    """The earliest trick from ``trick`` on by which the unseen cards above a card (their
    earliest tricks as discards, highest card first, so not increasing) can be gone: those
    that cannot be discarded by then fall to the declarer's higher cards of the suit led
    before (three to each, and one more lead in the first trick); ``size + 1``: never."""
    higher = len(before)
    if not higher:  # no lead draws them: each goes when it can be thrown away
        return min(size + 1, max(trick, earliest[0] + 1)) if earliest else trick
    while trick <= size:
        need = 0
        for d in earliest:
            if d < trick:
                break
            need += 1
        if not need:
            return trick
        leads = bisect_left(before, trick)  # the tricks of the higher cards do not decrease
        if first and leads < higher:
            leads += 1
        if need <= 3 * leads:
            return trick
        trick += 1
    return trick


@lru_cache(maxsize=64)
def _gone_first(play: Play) -> tuple[int, ...]:
    """Per card (bit), the cards its holder must have played before he may throw it
    away: the plain cards cheaper than it and every trump."""
    at_least, cost = _at_least(play), play.cost
    return tuple(play.plain_mask & ~at_least[cost[b]] | play.trump_mask for b in range(len(cost)))


class DealBound:
    """:func:`always_lost` for one distribution.  When an opponent leads the first
    trick, a plain suit the declarer holds is lost at once if the leader holds it and an
    opponent holds a card above all of the declarer's cards of it, or another opponent
    void in it holds a trump (the leader leads it, the declarer must follow, that card
    heads the trick or the trump takes it: the play-out's search of the first trick finds it).

    The play-out's opponents give up the cards of a suit from the lowest up (the first
    trick an opponent leads may take any one of them, the Pagat held back may stay), so
    a card of the declarer cannot be led before each opponent holding a higher card of
    its suit has played the cards of the suit he holds; a card above all of the
    declarer's is only thrown away, after every cheaper card and trump of its holder.
    An opponent keeps a trump when he holds more than the declarer's trumps above his
    highest can draw.  An opponent gives up a plain suit's cards from the lowest up, one a
    trick, and throws one away only after his cheaper cards and trumps: so where he holds
    more of a suit than the declarer's leads of it before one of his cards (and the first
    trick) can draw, that card waits until the highest he must throw away is gone and the
    rest have followed it, one a lead.  Where the declarer's cards do not fit the tricks
    from those on, the distribution is lost."""

    def __init__(self, play: Play, mine: int, position: int, size: int) -> None:
        self.play, self.mine, self.size = play, mine, size
        self.first = position != 0
        self.suits = [(suit, own) for suit in play.suit_mask if (own := mine & suit)]
        self.gone_first = _gone_first(play)
        self.slack = 1 if play.pagat_last else 0
        """The Pagat held back (Pagat last) leaves after higher cards."""
        self.in_order = not play.pagat_last
        """An opponent gives up a plain suit's cards from the lowest up (Pagat last
        may keep the Pagat back in a game where the tarocks are a plain suit)."""

    def lost(self, opponents: Sequence[int]) -> bool:
        """Whether the distribution ``opponents`` (their bit sets) is lost for certain."""
        play, size, first, slack = self.play, self.size, self.first, self.slack
        trump = play.trump_mask
        own_trumps = self.mine & trump
        for hand in opponents:
            held = hand & trump
            if held and first:  # he may play his highest trump to the first trick
                held ^= 1 << (held.bit_length() - 1)
            if held and held.bit_count() > (own_trumps >> held.bit_length()).bit_count() + slack:
                return True
        if first:  # the leader leads a plain suit of the declarer's, another opponent heads it
            leader = opponents[0]
            everyone = opponents[0] | opponents[1] | opponents[2]
            ruffers = [hand for hand in opponents[1:] if hand & trump]
            for suit, own in self.suits:
                if suit != trump and leader & suit:
                    if (everyone & suit).bit_length() > own.bit_length():
                        return True
                    for hand in ruffers:  # the declarer follows, an opponent void in it trumps
                        if not hand & suit:
                            return True
        counts = [0] * (size + 2)  # the declarer's cards by the earliest trick they can be led
        gone_first = self.gone_first
        first_lead = 1 if first else 0
        for suit, own in self.suits:
            bounds: list[tuple[int, int]] = []  # an opponent's highest card, its earliest trick
            # a plain suit's cards leave an opponent lowest first: per opponent holding a card
            # above one of the declarer's, the earliest trick by which each of his cards can go
            # as a discard (after his cheaper cards and trumps)
            discards: list[list[int]] = []  # his highest card, his hand, his cards but the drawn
            mine_top = own.bit_length() - 1
            for hand in opponents:
                held = hand & suit
                if not held:
                    continue
                top = held.bit_length() - 1
                if top > mine_top:
                    if suit == trump:
                        continue
                    bounds.append((top, 1 + (hand & gone_first[top]).bit_count() - slack))
                elif not first:
                    bounds.append((top, held.bit_count() - slack))
                elif held ^ (1 << top):  # one card, maybe his highest, may go to the first trick
                    second = (held ^ (1 << top)).bit_length() - 1
                    bounds.append((second, held.bit_count() - 1 - slack))
                if self.in_order and suit != trump and top > (own & -own).bit_length() - 1:
                    if first:  # the first trick may draw one, his highest
                        held ^= 1 << top
                    if held:
                        discards.append([top, hand, held])
            drawn = first_lead  # leads of the suit before the card, the first trick's too
            while own:
                card = own.bit_length() - 1
                own ^= 1 << card
                trick = 2 if first else 1
                for top, earliest in bounds:
                    if top > card and earliest + 1 > trick:
                        trick = earliest + 1
                for entry in discards:
                    # all his cards of the suit go, one a trick and the lowest first, before the
                    # card is led; at most ``drawn`` by leads (one in the first trick), so the
                    # highest he throws away is at least the highest of his cards but his
                    # ``drawn`` highest (``entry[2]``), which goes after his cheaper cards and
                    # trumps, and the cards above it follow it, one a lead after the first trick
                    top, hand, left = entry
                    if top > card and left:
                        after = (2 + (hand & gone_first[left.bit_length() - 1]).bit_count()
                                 + drawn - first_lead)
                        if after > trick:
                            trick = after
                counts[min(trick, size + 1)] += 1
                drawn += 1
                for entry in discards:  # one more lead of the suit before the next card
                    left = entry[2]
                    if left:
                        entry[2] = left ^ (1 << (left.bit_length() - 1))
        late = 0
        spare = 1 if first else 0
        for trick in range(size + 1, 1, -1):
            late += counts[trick]
            if late > size + 1 - trick + spare:
                return True
        return False
