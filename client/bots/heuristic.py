"""The heuristic bot: rule-of-thumb Tarock from the observation only.

Every decision is taken within the limits all bots keep
(:mod:`client.bots.limits`): no Subkontra or Re-Sub on any chain, a Valat
only when the hand clears the Valat check.  Then, by what is legal:

- Play, discard and trump choice first; then the auction: when a bid or a
  call is legal it is considered before any Kontra (in the online 40-card
  auction one turn offers pass, bids, additions and Kontras together), then
  additions, then Kontra, else pass.
- Which strategy plays a table is read off its rule facts once
  (:mod:`client.bots.table`), never off a variant's name.  The 40-card
  ladder (``tarock40``, ``tarock40-online`` and house rules over them) bids,
  announces, Kontras and names the Faberl's trump by :mod:`client.bots.forty`
  (thresholds set by self-play of forced contracts).
- Other games (thresholds chosen by self-play of tarock54, see
  tests/test_bots.py): :func:`hand_strength` scores the hand (two per
  tarock, two more per tarock from the XVI up, Sküs +3, Mond +2, Pagat +2
  with six or more tarocks, three per King, one per Queen, one per void when
  holding four or more tarocks).  Call (or bid the lowest contract offered)
  at ``CALL_AT``; the last seat to speak after three passes calls at
  ``CALL_AT - LAST_SEAT``.  A contract bid rather than called is judged
  from its data (:mod:`client.bots.contract_odds`: its goal, trump kind,
  talon, partnership): bid the one that promises the most among those the
  hand makes at least half the time, whatever the hand's strength (a Bettel
  with low cards), and never one it makes less often (a Bettel with high
  cards); no Kontra on a game whose goal is not card points.
- Discard: score every legal discard: +30 per suit made void, +6 per card
  point laid away (discards count for the declarer), -40 per tarock laid away
  (and its number, keep the high ones).  Kings cannot go anyway.
- Kontra: the game's chain (target "") is looked at first.  An opponent says
  Kontra at ``KONTRA_AT``; the declarer answers with Rekontra at
  ``REKONTRA_AT`` (docs/rules.md §11.1: "Bots wagen kein Subkontra und kein Re-Sub").
- Play: the trump suit is the contract's (tarocks, or the Faberl's suit, the
  tarocks then being a plain suit); card points as the deck counts them (40
  cards: a pip, the "Glatze", is worth nothing); the Pagat taking the Trull
  trick where the contract's trick rules say so (Kaiserstich, Märchenstich).
  The Pagat is held back for the last trick while an Ultimo looks possible
  or was announced (:func:`ultimo_hope`); otherwise it is cashed when it
  wins safely.  The partner is read from the observation (declarer, called
  card, public partner, holding the called card).  A trick safely won by a
  friend gets points (schmieren); a trick is taken with the cheapest card
  that cannot be beaten any more when it is worth it; otherwise the
  cheapest card is ducked.  A card counts as safe when no seat still to play
  (known friends aside) may hold a better one, using the voids and, where
  the contract's trick rules make trumps overtrump, the caps shown so far
  (:mod:`client.bots.knowledge`).  The declarer's party, and a Pagat holder
  hoping for the Ultimo, lead their top trump while none outside can beat
  it, to pull the others' trumps (leading low tarocks did not pay in
  self-play); once no foe can trump, the highest card left of a suit is
  cashed; otherwise a safe suit card with points is cashed, or a low card
  of a short suit without honours is led.
- Negative and each-for-self games, and a colour game's trumps, are played
  by :mod:`client.bots.koenig`'s reading of the contract's data on every table.
- Königrufen (docs/rules.md §15; a table where a King is called):
  :mod:`client.bots.koenig` decides the
  auction, the call, the talon, the discard, announcements and Kontras,
  and the cards of negative and each-for-self games; games played for
  points are played as above (no trump suit in colour games).
- Unknown action types and phases fall back to Pass or the first legal
  action, so the bot plays every variant legally.

The bot uses no randomness: a decision depends on the observation only, so
the seed just names the bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tarock.client.bots import contract_odds, forty, koenig
from tarock.client.bots.knowledge import FRIEND, Knowledge, read, winning_index
from tarock.client.bots.limits import NO_RAISE_FROM, VALAT, valat_suit, within_limits
from tarock.client.bots.table import table_facts
from tarock.core.actions import Action, Announce, Bid, Call, Discard, Kontra, Pass, Play, Trump
from tarock.core.cards import (
    MOND,
    PAGAT,
    QUEEN,
    SKUS,
    STRENGTH,
    SUIT_LETTERS,
    SUIT_OF,
    TAROCK,
    TRULL,
    VALUE,
    Card,
    is_king,
    rank_of,
)
from tarock.core.observation import Observation

CALL_AT = 18
"""Hand strength to call (or bid) with."""
LAST_SEAT = 3
"""Bonus for the last seat to speak when everyone else passed."""
KONTRA_AT = 30
"""Hand strength for an opponent to say Kontra."""
REKONTRA_AT = 36
"""Hand strength for the declarer to answer with Rekontra."""
TAKE_COST = 40
"""Spend a sure winner costing more than this only on a valuable trick."""
VALUABLE = 5
"""Sum of card values that makes a trick worth a costly winner."""


def hand_strength(cards: Sequence[Card]) -> int:
    """A score of a hand for bidding and Kontra (see the module docstring)."""
    tarocks = [c for c in cards if c < 22]
    score = 2 * len(tarocks) + 2 * sum(1 for c in tarocks if c >= 15)
    if SKUS in tarocks:
        score += 3
    if MOND in tarocks:
        score += 2
    if PAGAT in tarocks and len(tarocks) >= 6:
        score += 2
    for card in cards:
        if card >= 22:
            score += 3 if is_king(card) else 1 if rank_of(card) == QUEEN else 0
    if len(tarocks) >= 4:
        suits = {SUIT_OF[c] for c in cards}
        score += sum(1 for s in range(4) if s not in suits)
    return score


def ultimo_hope(obs: Observation, k: Knowledge) -> bool:
    """Whether holding the Pagat back for the last trick looks promising:
    no tarock can be outside, or our other tarocks can pull the most any
    single other seat can hold (estimated as an even share plus one)."""
    if PAGAT not in obs.hand or k.trump != TAROCK:
        return False
    if any(a.name == "pagat" and a.seat == obs.seat for a in obs.announcements):
        return True  # announced: held back whatever it costs
    mine = sum(1 for c in obs.hand if c < 22) - 1
    holders = [s for s in range(obs.seats)
               if s != obs.seat and obs.hand_sizes[s] > 0 and TAROCK not in k.void[s]]
    outside = sum(1 for c in k.unseen if c < 22 and any(k.may_hold(s, c) for s in holders))
    if outside == 0:
        return True
    return mine >= -(-outside // max(1, len(holders))) + 1


def lose_cost(card: Card, trump: int, hope: bool, values: Sequence[int] = VALUE) -> int:
    """What giving ``card`` away costs (points as ``values`` counts them, and power)."""
    if SUIT_OF[card] == trump:
        if card == PAGAT and trump == TAROCK:
            return 100 if hope else 45
        return 14 + STRENGTH[card] + (40 if VALUE[card] >= 5 else 0)
    return 10 * values[card] + STRENGTH[card]


def win_cost(card: Card, trump: int, hope: bool) -> int:
    """What spending ``card`` to win a trick costs (lost control)."""
    if SUIT_OF[card] == trump:
        if card == PAGAT and trump == TAROCK:
            return 200 if hope else 0
        if card in TRULL:
            return 45
        return 14 + STRENGTH[card]
    return STRENGTH[card]


class HeuristicBot:
    """Sensible Tarock from the observation only (see the module docstring)."""

    def __init__(self, seed: int, name: str = "Heuristic") -> None:
        self.name = name
        self.seed = seed

    def decide(self, obs: Observation) -> Action:
        """Choose one of ``obs.legal``."""
        if not obs.legal:
            raise ValueError(f"seat {obs.seat} has no legal action in phase {obs.phase!r}")
        legal = within_limits(obs)
        if len(legal) == 1:
            return legal[0]
        if legal != obs.legal:
            obs = replace(obs, legal=legal)
        strategy = table_facts(obs).strategy
        kinds = {type(a) for a in legal}
        if Play in kinds:
            return self._play(obs)
        if strategy == "koenig":
            choice = koenig.decide(obs)
            if choice is not None:
                return choice
        if Discard in kinds:
            return _discard(obs)
        forty_rules = strategy == "forty"
        if Trump in kinds:
            return _trump(obs, forty_rules)
        if Call in kinds or Bid in kinds or Announce in kinds:
            choice = _auction(obs, forty_rules)
            if choice is not None:
                return choice
        if Kontra in kinds:
            return _kontra(obs, forty_rules)
        return next((a for a in legal if isinstance(a, Pass)), legal[0])

    # -- card play -------------------------------------------------------
    def _play(self, obs: Observation) -> Action:
        k = read(obs)
        cards = [a.card for a in obs.legal if isinstance(a, Play)]
        # a colour game's trumps, negative and each-for-self games: read off the
        # contract's data (client.bots.koenig), whatever the table
        k = koenig.knowledge(obs, k)
        chosen = koenig.play(obs, k, cards)
        if chosen is not None:
            return Play(obs.seat, chosen)
        hope = ultimo_hope(obs, k)
        cand = cards
        if hope and PAGAT in cards:
            cand = [c for c in cards if c != PAGAT]
        trick = obs.trick
        leading = trick is None or not trick.cards
        card = _lead(obs, k, cand, hope) if leading else _follow(obs, k, cand, hope)
        return Play(obs.seat, card)


def _auction(obs: Observation, forty_rules: bool) -> Action | None:
    """Bid, call or announce; None to leave the turn to Kontra or Pass."""
    legal = obs.legal
    bids = [a for a in legal if isinstance(a, Bid)]
    # Held to a Pflichtkontra (docs/rules.md §8.3) a seat may bid or say Kontra, not pass:
    # that is no duty to bid.
    must = not any(isinstance(a, (Pass, Kontra)) for a in legal)
    if forty_rules:
        bid = forty.choose_bid(obs, bids, must) if bids else None
        if bid is not None:
            return bid
        announces = [a for a in legal if isinstance(a, Announce)]
        return forty.choose_addition(obs, announces) if announces else None
    if any(isinstance(a, (Call, Bid)) for a in legal):
        choice = _bid(obs)
        if not isinstance(choice, Pass):
            return choice
    return None


def _bid(obs: Observation) -> Action:
    legal = obs.legal
    calls = [a for a in legal if isinstance(a, Call)]
    bids = [a for a in legal if isinstance(a, Bid)]
    passes = [a for a in legal if isinstance(a, Pass)]
    if calls and not passes and not bids:
        return max(calls, key=lambda a: _call_preference(obs, a.card))
    threshold = CALL_AT
    if obs.history and len(obs.history) == obs.seats - 1 and all(isinstance(a, Pass) for a in obs.history):
        threshold -= LAST_SEAT
    plain = [b for b in bids if not b.announce]
    judged = _judged_bid(obs, plain, must=not passes and not calls)
    if judged is not None:
        return judged
    if passes and hand_strength(obs.hand) < threshold:
        return passes[0]
    if calls:
        return max(calls, key=lambda a: _call_preference(obs, a.card))
    rules = table_facts(obs).rules
    unknown = [b for b in plain if rules.contract(b.contract) is None]
    if unknown:  # no data to judge it by: the lowest, as ever
        return unknown[0]
    if passes:  # no bid the hand is fit for (contract_odds.sane)
        return passes[0]
    return plain[0] if plain else bids[0] if bids else legal[0]


def _judged_bid(obs: Observation, bids: Sequence[Bid], must: bool) -> Bid | None:
    """The bid whose contract the hand makes at least half the time and that
    promises the most (:mod:`client.bots.contract_odds`, read off the
    contract's data); None if none promises a gain (``must``: the best of all)."""
    rules = table_facts(obs).rules
    rated: list[tuple[float, Bid]] = []
    for bid in bids:
        spec = rules.contract(bid.contract)
        if spec is None:
            continue
        if must or contract_odds.sane(spec, obs.hand):
            rated.append((contract_odds.promise(spec, obs.hand, obs.seats), bid))
    best = max(rated, key=lambda r: r[0], default=None)
    if best is None or (best[0] <= 0 and not must):
        return None
    return best[1]


def _call_preference(obs: Observation, card: Card) -> int:
    """Prefer calling a card of a suit we hold (to reach the partner)."""
    if card in obs.hand:
        return -100
    suit = SUIT_OF[card]
    return sum(1 for c in obs.hand if SUIT_OF[c] == suit)


def _discard(obs: Observation) -> Action:
    hand = obs.hand
    before = [sum(1 for c in hand if SUIT_OF[c] == s) for s in range(4)]
    best: Action | None = None
    best_score = 0
    for action in obs.legal:
        if not isinstance(action, Discard):
            continue
        gone = set(action.cards)
        score = 0
        for s in range(4):
            after = sum(1 for c in hand if SUIT_OF[c] == s and c not in gone)
            if before[s] and not after:
                score += 30
        for c in action.cards:
            if c < 22:
                score -= 40 + c
            else:
                score += 6 * VALUE[c]
        if best is None or score > best_score:
            best, best_score = action, score
    return best if best is not None else obs.legal[0]


def _kontra(obs: Observation, forty_rules: bool) -> Action:
    """Raise a Kontra chain or pass; the game's chain first."""
    kontras = sorted((a for a in obs.legal if isinstance(a, Kontra)), key=lambda a: not a.target.game)
    passing = next((a for a in obs.legal if isinstance(a, Pass)), None)
    if passing is None:
        return kontras[0]
    if forty_rules:
        side = read(obs).declarer_side
        return next((a for a in kontras if forty.wants_kontra(obs, a, side)), passing)
    game = next((a for a in kontras if a.target.game), None)
    spec = obs.contract.spec if obs.contract is not None else None
    if game is None or (spec is not None and spec.goal.kind != "points"):
        return passing  # a negative game hangs on the declarer's hand, which ours does not show
    level = obs.kontra_level
    if level >= NO_RAISE_FROM:  # never Subkontra or Re-Sub
        return passing
    strength = hand_strength(obs.hand)
    if obs.seat == obs.declarer:
        return game if level == 1 and strength >= REKONTRA_AT else passing
    if level == 0 and strength >= KONTRA_AT and not read(obs).declarer_side:
        return game
    return passing


def _trump(obs: Observation, forty_rules: bool) -> Action:
    """Name the trump suit: in a 40-card Faberl the best-rated suit (the one
    that makes an announced Valat of the own party, if any); otherwise the
    longest suit, then the one with the most points."""
    trumps = [a for a in obs.legal if isinstance(a, Trump) and a.suit in SUIT_LETTERS]
    if not trumps:
        return obs.legal[0]
    if forty_rules:
        valat = any(a.name == VALAT and not a.against for a in obs.announcements)
        suit = valat_suit(obs) if valat else None
        letter = SUIT_LETTERS[suit if suit is not None else forty.faberl_suit(obs.hand)]
        return next((a for a in trumps if a.suit == letter), trumps[0])

    def weight(action: Trump) -> tuple[int, int]:
        suit = SUIT_LETTERS.index(action.suit)
        mine = [c for c in obs.hand if SUIT_OF[c] == suit]
        return (len(mine), sum(VALUE[c] for c in mine))
    return max(trumps, key=weight)


class _Threats:
    """What the seats still to play to this trick (known friends aside) may hold."""

    def __init__(self, k: Knowledge, led: int, after: Sequence[int]) -> None:
        trump = k.trump
        led_unseen = sum(1 for c in k.unseen if SUIT_OF[c] == led)
        self.trump = trump
        self.plain = led != trump
        self.seats: list[tuple[int, int, bool]] = []
        for seat in after:
            if k.relation[seat] == FRIEND:
                continue
            top_trump = top_led = -1
            for card in k.unseen:
                suit = SUIT_OF[card]
                if suit in (trump, led) and k.may_hold(seat, card):
                    if suit == trump:
                        top_trump = max(top_trump, STRENGTH[card])
                    else:
                        top_led = max(top_led, STRENGTH[card])
            # a seat trumps a plain lead when shown void, or when the suit runs short
            ruffs = led != trump and top_trump >= 0 and (led in k.void[seat] or led_unseen < 2 * len(after))
            self.seats.append((top_trump, top_led, ruffs))

    def beat(self, card: Card) -> bool:
        """Whether one of these seats may beat ``card`` if it wins now."""
        strength = STRENGTH[card]
        if SUIT_OF[card] == self.trump:
            return any(top > strength and (ruffs or not self.plain) for top, _, ruffs in self.seats)
        return any(top > strength or ruffs for _, top, ruffs in self.seats)


def _follow(obs: Observation, k: Knowledge, cand: list[Card], hope: bool) -> Card:
    trick = obs.trick
    assert trick is not None
    trump = k.trump
    led = SUIT_OF[trick.cards[0]]
    wi = winning_index(trick.cards, trump, k.kaiser)
    best = trick.cards[wi]
    after = k.holders_after()
    values = k.values
    pts = sum(values[c] for c in trick.cards)
    taking = len(trick.cards)
    winners = [c for c in cand if winning_index([*trick.cards, c], trump, k.kaiser) == taking]
    losers = [c for c in cand if c not in winners]
    threats = _Threats(k, led, after)

    def lose(c: Card) -> int:
        return lose_cost(c, trump, hope, values)

    def spend(c: Card) -> int:
        return win_cost(c, trump, hope)

    if k.relation[trick.seats[wi]] == FRIEND and not threats.beat(best):
        if losers:  # schmieren: the highest value the friend can take home
            return max(losers, key=lambda c: (values[c], -lose(c)))
        return min(winners, key=lambda c: lose(c) if threats.beat(c) else spend(c))
    if winners:
        sure = [c for c in winners if not threats.beat(c)]
        if sure:
            card = min(sure, key=spend)
            if spend(card) <= TAKE_COST or pts >= VALUABLE or len(obs.hand) <= 3:
                return card
        if losers:
            return min(losers, key=lose)
        # every card left may be beaten: risk a strong one on a valuable trick
        if pts >= VALUABLE and after:
            strong = [c for c in winners if lose(c) <= TAKE_COST]
            if strong:
                return max(strong, key=lambda c: STRENGTH[c])
        return min(winners, key=lose)
    return min(losers, key=lose)


def _lead(obs: Observation, k: Knowledge, cand: list[Card], hope: bool) -> Card:
    trump = k.trump
    values = k.values
    mine = sorted((c for c in cand if SUIT_OF[c] == trump), key=lambda c: STRENGTH[c])
    others = [s for s in range(obs.seats) if s != obs.seat and obs.hand_sizes[s] > 0]
    outside = [c for c in k.unseen if SUIT_OF[c] == trump and any(k.may_hold(s, c) for s in others)]
    pull = bool(outside) and (k.declarer_side is True or hope)
    if mine and pull:
        top = mine[-1]
        if all(STRENGTH[c] < STRENGTH[top] for c in outside):
            return top
    plain = [c for c in cand if SUIT_OF[c] != trump]
    if plain:
        foes = [s for s in others if k.relation[s] != FRIEND]
        if not any(k.may_hold(s, c) for s in foes for c in outside):
            # no foe can trump: a card that is the highest left of its suit wins
            masters = [c for c in plain if not any(SUIT_OF[x] == SUIT_OF[c] and STRENGTH[x] > STRENGTH[c]
                                                   for x in k.unseen)]
            if masters:
                return max(masters, key=lambda c: (values[c], -STRENGTH[c]))
        cash = [c for c in plain if values[c] >= 3 and _safe_lead(obs, k, c, others)]
        if cash:
            return max(cash, key=lambda c: (values[c], -STRENGTH[c]))

        def suit_order(c: Card) -> tuple[int, int, int]:
            suit = SUIT_OF[c]
            held = [x for x in obs.hand if SUIT_OF[x] == suit]
            honours = sum(1 for x in held if VALUE[x] >= 4)
            return (honours, len(held), lose_cost(c, trump, hope, values))
        return min(plain, key=suit_order)
    return min(cand, key=lambda c: lose_cost(c, trump, hope, values))


def _safe_lead(obs: Observation, k: Knowledge, card: Card, others: Sequence[int]) -> bool:
    """A suit card that is the highest left of its suit and likely followed."""
    suit = SUIT_OF[card]
    rest = [c for c in k.unseen if SUIT_OF[c] == suit]
    if any(STRENGTH[c] > STRENGTH[card] for c in rest):
        return False
    if len(rest) < 4:
        return False
    return not any(suit in k.void[s] and k.trump not in k.void[s]
                   for s in others if k.relation[s] != FRIEND)
