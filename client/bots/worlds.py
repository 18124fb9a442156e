"""Sampling deals consistent with what one seat knows (information-set sampling).

A search bot decides by playing the hand on in many *worlds*: deals of the
cards it cannot see that agree with everything public and with its own
hand.  A :class:`Sampler` reads one observation and works out

- where unseen cards may lie now: each other hand (as many cards as it
  holds), the discards laid away face down, the talon piles nobody took or
  showed;
- what the play so far rules out: each card a seat played must have been
  legal with the cards it still held; a card that would have made it
  illegal (a card of the led suit, a trump where none was played, a higher
  trump where the trick rules make trumps overtrump, a winning card under
  Stichzwang, another tarock where the Pagat goes last) cannot be in that
  hand now.  This is computed from the contract's trick rules
  (:mod:`client.bots.fastplay`), not from a list of cases;
- what the auction says: a declarer who calls the highest card of a list he
  does not hold (``CallRule.highest``) holds the cards above it; the called
  card is not in the caller's hand (it may lie in a talon pile he took);
  the seat known to be the partner holds it; a holding requirement of a
  bid contract (a bird for a Besserrufer) held before the talon;
  an announced bird or Pagat is held by its announcer (a strong reading of
  what bots and players announce, dropped when no deal meets it).

It deals the unseen cards at random to those places (the most constrained
cards first), rebuilds the deal (a talon pile taken face down is chosen
among the taker's cards), and replays the public history through the
engine with the sampled hidden cards (:class:`World`).  The engine is the
judge: a world in which any recorded action is illegal (a bid the hand may
not make, a discard of a King, a card play) is thrown away and another is
drawn.  So the worlds agree with the table's own rules, house rules
included, and the bot sees nothing hidden: only the observation is read.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from tarock.client.bots.fastplay import TrickModel, bits
from tarock.client.bots.rulebook import TableEngine
from tarock.core.actions import Action, Call, Discard, Play
from tarock.core.cards import KAKADU, MARABU, PAGAT, UHU, Card, sort_key
from tarock.core.contracts import ContractSpec
from tarock.core.engine import DealError, Hand, IllegalAction
from tarock.core.observation import Observation, observe
from tarock.core.rules import RuleError

TRIES = 40
"""Deals drawn per world before :meth:`Sampler.sample` gives up."""
MODEL_CACHE = 20_000
"""Model decisions a sampler remembers at most."""
REPAIRS = 12
"""Random choices tried to make a hidden discard legal (:meth:`Sampler._repair`)."""
BURN_IN = 4
"""Steps of the chain (:meth:`Sampler.worlds`) at least before its first world is kept."""
THIN = 2
"""Steps of the chain between two worlds kept."""
FRESH = 0.25
"""The share of the chain's steps that propose a fresh random assignment."""
CONDITIONED_TRIES = 16
"""Random deals drawn for one fresh proposal that meets the chain's conditions."""
MAX_CONDITIONS = 4
"""Decisions the chain makes conditions of at most."""
BURN_IN_MAX = 30
"""Steps the chain may take to come to agree with every decision."""

BIRD_NAMES: dict[str, Card] = {"pagat": PAGAT, "pagat-ultimo": PAGAT, "uhu": UHU, "kakadu": KAKADU,
                               "marabu": MARABU}
"""Announcements (record vocabulary) that say the announcer holds a card."""


@dataclass(slots=True)
class World:
    """One deal consistent with an observation, replayed to its decision point."""

    hand: Hand
    hands: list[list[Card]]
    talon: list[list[Card]]
    history: list[Action]
    """The observation's history with the sampled cards of hidden discards."""
    weight: float = 1.0
    """How plausible the others' public decisions are in this deal (:class:`Sampler`'s ``model``)."""
    used: bool = False
    """Whether ``hand`` has been played on (a fresh one is rebuilt from the deal)."""


@dataclass(frozen=True, slots=True)
class _Condition:
    """A decision of another seat, made with the hand it was dealt, that the
    chain's deals must explain: the seat, what it saw then, what it did."""

    seat: int
    obs: Observation
    action: Action


@dataclass(frozen=True, slots=True)
class _Scored:
    """An assignment of the unseen cards, its log plausibility, its deal and
    the first decision it does not explain (if one made with the dealt hand)."""

    placed: list[list[Card]]
    score: float
    dealt: tuple[list[list[Card]], list[list[Card]], dict[int, list[Card]]]
    miss: _Condition | None


class Model(Protocol):
    """A player the sampler takes the others for, to weigh their decisions."""

    def decide(self, obs: Observation) -> Action: ...


UNLIKELY = 0.05
"""The weight a world loses for each public decision the model would not have taken."""
_LOG_UNLIKELY = math.log(UNLIKELY)


@dataclass(slots=True)
class _Pool:
    """A place unseen cards may lie: a hand, hidden discards or a talon pile."""

    kind: str  # "hand" | "discard" | "talon"
    seat: int
    size: int
    cards: list[Card] = field(default_factory=list)


def _tricks(obs: Observation) -> list[tuple[tuple[int, ...], tuple[Card, ...]]]:
    out = [(t.seats, t.cards) for t in obs.tricks]
    if obs.trick is not None and obs.trick.cards:
        out.append((obs.trick.seats, obs.trick.cards))
    return out


class Sampler:
    """Worlds for one observation (see the module docstring)."""

    def __init__(self, obs: Observation, table: TableEngine, model: Model | None = None) -> None:
        rules = obs.rules
        self.model = model
        self._decided: dict[object, Action] = {}
        assert rules is not None
        self.obs = obs
        self._legal = set(obs.legal)
        self.table = table
        self.facts = rules
        me = obs.seat
        self.me = me
        players = obs.active or tuple(range(obs.seats))
        self.players = players
        spec = obs.contract.spec if obs.contract is not None else None
        self.spec = spec
        tricks = _tricks(obs)
        played: dict[int, list[Card]] = {s: [] for s in range(obs.seats)}
        for seats, cards in tricks:
            for s, c in zip(seats, cards, strict=True):
                played[s].append(c)
        self.played = played
        open_hands = dict(obs.open_hands)
        self.open_hands = open_hands
        declarer = obs.declarer
        self.declarer = declarer
        # talon: which piles the declarer took, and what is known of every pile
        piles = rules.talon_piles
        shown = [list(p) for p in obs.talon_shown] + [[] for _ in range(len(piles) - len(obs.talon_shown))]
        taken = self._taken_piles(obs, spec, played)
        self.taken = taken
        known_pile: list[list[Card] | None] = []
        seen_taken = list(obs.talon_seen) if declarer == me else []
        cursor = 0
        for p, size in enumerate(piles):
            if len(shown[p]) == size:
                known_pile.append(list(shown[p]))
            elif p in taken and declarer == me and len(seen_taken) >= cursor + size:
                known_pile.append(seen_taken[cursor:cursor + size])
            else:
                known_pile.append(None)
            if p in taken:
                cursor += size
        self.known_pile = known_pile
        self.shown = shown
        # discards: what each seat laid away openly; how many are hidden
        shown_discards: dict[int, list[Card]] = {}
        for action in obs.history:
            if isinstance(action, Discard):
                shown_discards.setdefault(action.seat, []).extend(action.cards)
        self.shown_discards = shown_discards
        hidden_discards = 0
        if declarer is not None and declarer != me and taken:
            taken_count = sum(piles[p] for p in taken)
            if any(isinstance(a, Discard) and a.seat == declarer for a in obs.history):
                hidden_discards = taken_count - len(shown_discards.get(declarer, []))
        self.hidden_discards = hidden_discards
        # the cards whose place is unknown
        known: set[Card] = set(obs.hand) | set(obs.talon_seen)
        if declarer == me:
            known |= set(obs.discards)
        for s in range(obs.seats):
            known |= set(played[s])
            known |= set(shown_discards.get(s, []))
        for cards in open_hands.values():
            known |= set(cards)
        for p, pile in enumerate(known_pile):
            if pile is not None and p not in taken:
                known |= set(pile)
            known |= set(shown[p])
        # known taken pile cards are the declarer's: they are in his hand, discards or tricks
        self.pools: list[_Pool] = []
        for s in players:
            if s == me or s in open_hands:
                continue
            self.pools.append(_Pool("hand", s, obs.hand_sizes[s]))
        if hidden_discards > 0 and declarer is not None:
            self.pools.append(_Pool("discard", declarer, hidden_discards))
        for p, size in enumerate(piles):
            if p in taken:
                continue
            rest = size - len(shown[p])
            if rest > 0:
                self.pools.append(_Pool("talon", p, rest))
        # a known taken pile with cards the declarer (not me) still holds or laid away hidden
        self.known_elsewhere: set[Card] = set()
        if declarer is not None and declarer != me:
            for p in taken:
                pile = known_pile[p]
                if pile is not None:
                    self.known_elsewhere |= set(pile) - set(played[declarer]) - set(
                        shown_discards.get(declarer, []))
        unseen = [c for c in rules.deck if c not in known or c in self.known_elsewhere]
        self.unseen = unseen
        self.consistent = sum(p.size for p in self.pools) == len(unseen)
        self._allowed: dict[Card, list[int]] = {}
        self.must_init: dict[int, set[Card]] = {}
        """Per seat, cards it held when dealt (before any talon)."""
        self.not_init: dict[int, set[Card]] = {}
        """Per seat, cards it did not hold when dealt."""
        self.requires: dict[int, list[ContractSpec]] = {}
        if self.consistent:
            self._constrain()

    # -- what is public ------------------------------------------------------
    @staticmethod
    def _taken_piles(obs: Observation, spec: ContractSpec | None, played: dict[int, list[Card]]) -> list[int]:
        """The talon piles the declarer took into his hand so far."""
        declarer = obs.declarer
        rules = obs.rules
        if spec is None or declarer is None or rules is None:
            return []
        piles = rules.talon_piles
        discarded = any(isinstance(a, Discard) and a.seat == declarer for a in obs.history)
        extra = obs.hand_sizes[declarer] + len(played[declarer]) > rules.hand_size
        if not (discarded or extra or (declarer == obs.seat and obs.talon_seen)):
            return []
        if spec.talon == "pile":
            return [spec.talon_pile]
        if spec.talon == "all":
            return list(range(len(piles)))
        if spec.talon == "half":
            for action in reversed(obs.history):
                pile = getattr(action, "pile", None)
                if action.seat == declarer and isinstance(pile, int) and 0 <= pile < len(piles):
                    return [pile]
        return []

    def _hand_pools(self, seat: int) -> list[int]:
        return [i for i, p in enumerate(self.pools) if p.seat == seat and p.kind in ("hand", "discard")]

    def _constrain(self) -> None:
        obs, spec = self.obs, self.spec
        allowed = {c: list(range(len(self.pools))) for c in self.unseen}
        hand_pool = {p.seat: i for i, p in enumerate(self.pools) if p.kind == "hand"}
        # the play so far: a card that would have made a played card illegal is not held
        if spec is not None and obs.contract is not None:
            model = TrickModel(spec.tricks, obs.contract.suit)
            for seat, ruled_out in self._play_exclusions(model).items():
                index = hand_pool.get(seat)
                if index is None:
                    continue
                for c in ruled_out:
                    if c in allowed and index in allowed[c]:
                        allowed[c].remove(index)
        # the auction: bids, calls, announcements
        for action in obs.history:
            if isinstance(action, Call):
                self._call(action)
            contract = getattr(action, "contract", None)
            if isinstance(contract, str) and self.facts.contract(contract) is not None:
                found = self.facts.contract(contract)
                assert found is not None
                self.requires.setdefault(action.seat, []).append(found)
        if obs.called is not None and obs.declarer is not None and obs.called not in obs.hand:
            self.not_init.setdefault(obs.declarer, set()).add(obs.called)
            if obs.partner is not None and obs.partner != obs.declarer and obs.called in allowed:
                index = hand_pool.get(obs.partner)
                if index is not None:
                    allowed[obs.called] = [index]
        for ann in obs.announcements:
            card = BIRD_NAMES.get(ann.name)
            if card is not None and card in allowed and ann.seat != self.me:
                places = [i for i in self._hand_pools(ann.seat) if self.pools[i].kind == "hand"]
                narrowed = [i for i in allowed[card] if i in places]
                if narrowed:
                    allowed[card] = narrowed
        if self.declarer is not None:
            places = self._hand_pools(self.declarer)
            for c in self.known_elsewhere:
                allowed[c] = [i for i in allowed[c] if i in places]
        for seat, cards in self.must_init.items():
            places = self._hand_pools(seat)
            for c in cards:
                if c in allowed:
                    narrowed = [i for i in allowed[c] if i in places]
                    if narrowed:
                        allowed[c] = narrowed
        self._via_pile: dict[Card, tuple[list[int], list[int], int]] = {}
        """Cards the face-down talon taker did not hold when dealt: (his places,
        the other places, the pile's size), to decide per world whether the
        card came with the pile (as often as the pile's share of the places)."""
        for seat, cards in self.not_init.items():
            if seat == self.me:
                continue
            his = set(self._hand_pools(seat))
            face_down = [p for p in self.taken if self.known_pile[p] is None] if seat == self.declarer else []
            for c in cards:
                if c not in allowed:
                    continue
                outside = [i for i in allowed[c] if i not in his]
                if face_down:
                    inside = [i for i in allowed[c] if i in his]
                    if inside and outside:
                        size = sum(self.facts.talon_piles[p] for p in face_down)
                        self._via_pile[c] = (inside, outside, size)
                elif outside:
                    allowed[c] = outside
        self._allowed = allowed

    def _call(self, action: Call) -> None:
        """Data rules' calls: the highest missing card of the list is called."""
        spec = self.spec
        rule = spec.call if spec is not None else None
        if rule is None:
            for contract in self.facts.contracts:
                if contract.call is not None and action.card in contract.call.cards:
                    rule = contract.call
                    break
        if rule is None or action.card not in rule.cards:
            return
        self.not_init.setdefault(action.seat, set()).add(action.card)
        if rule.highest:
            above = rule.cards[:rule.cards.index(action.card)]
            self.must_init.setdefault(action.seat, set()).update(above)

    def _play_exclusions(self, model: TrickModel) -> dict[int, set[Card]]:
        """Per seat, the unseen cards its plays so far show it cannot hold."""
        out: dict[int, set[Card]] = {}
        later: dict[int, int] = {s: 0 for s in range(self.obs.seats)}
        events: list[tuple[int, Card, tuple[Card, ...]]] = []
        for seats, cards in _tricks(self.obs):
            for k, (s, c) in enumerate(zip(seats, cards, strict=True)):
                events.append((s, c, cards[:k]))
        unseen = bits(self.unseen)
        for seat, card, prefix in reversed(events):
            if seat == self.me:
                later[seat] |= 1 << card
                continue
            held = later[seat] | (1 << card)
            base = model.legal(held, prefix)
            if base & (1 << card):
                excluded = out.setdefault(seat, set())
                m = unseen
                while m:
                    low = m & -m
                    c = low.bit_length() - 1
                    m ^= low
                    if c not in excluded and not model.legal(held | low, prefix) & (1 << card):
                        excluded.add(c)
            later[seat] |= 1 << card
        return out

    # -- drawing -------------------------------------------------------------
    def _assign(self, rng: random.Random) -> list[list[Card]] | None:
        pools = self.pools
        room = [p.size for p in pools]
        out: list[list[Card]] = [[] for _ in pools]
        allowed = self._allowed
        if self._via_pile:
            allowed = dict(allowed)
            for c, (inside, outside, pile) in self._via_pile.items():
                elsewhere = sum(pools[i].size for i in outside)
                allowed[c] = inside if rng.randrange(pile + elsewhere) < pile else outside
        cards = list(self.unseen)
        rng.shuffle(cards)
        cards.sort(key=lambda c: len(allowed[c]))
        for c in cards:
            options = [i for i in allowed[c] if room[i] > 0]
            if not options:
                return None
            total = sum(room[i] for i in options)
            pick = rng.randrange(total)
            for i in options:
                pick -= room[i]
                if pick < 0:
                    break
            out[i].append(c)
            room[i] -= 1
        return out

    def _deal(self, placed: list[list[Card]], rng: random.Random) -> tuple[list[list[Card]], list[list[Card]],
                                                                        dict[int, list[Card]]] | None:
        """The deal (hands, talon) and the hidden discards per seat, or None."""
        obs = self.obs
        piles = self.facts.talon_piles
        now: dict[int, list[Card]] = {s: [] for s in range(obs.seats)}
        hidden: dict[int, list[Card]] = {}
        talon: list[list[Card]] = [list(self.shown[p]) for p in range(len(piles))]
        for pool, cards in zip(self.pools, placed, strict=True):
            if pool.kind == "hand":
                now[pool.seat].extend(cards)
            elif pool.kind == "discard":
                hidden.setdefault(pool.seat, []).extend(cards)
            else:
                rest = list(cards)
                rng.shuffle(rest)
                talon[pool.seat].extend(rest)
        now[self.me] = list(obs.hand)
        for s, open_cards in self.open_hands.items():
            now[s] = list(open_cards)
        hands: list[list[Card]] = []
        for s in range(obs.seats):
            if s not in self.players:
                hands.append([])
                continue
            total = now[s] + self.played[s] + self.shown_discards.get(s, []) + hidden.get(s, [])
            if s == self.me and self.declarer == self.me:
                total = now[s] + self.played[s] + list(obs.discards)
            if s == self.declarer:
                for p in self.taken:
                    pile = self.known_pile[p]
                    if pile is None:
                        pile = self._face_down_pile(s, total, piles[p], rng)
                        if pile is None:
                            return None
                    for c in pile:
                        if c not in total:
                            return None
                        total.remove(c)
                    talon[p] = list(pile)
            hands.append(total)
        for s in self.players:
            if len(hands[s]) != self.facts.hand_size:
                return None
            held = set(hands[s])
            if self.must_init.get(s, set()) - held or self.not_init.get(s, set()) & held:
                return None
            for spec in self.requires.get(s, []):
                if not all(h.met(held) for h in spec.requires):
                    return None
        return hands, talon, hidden

    def _face_down_pile(self, seat: int, total: list[Card], size: int,
                        rng: random.Random) -> list[Card] | None:
        """A talon pile taken face down: ``size`` of the taker's cards that he
        need not have held before (the called card first, if it is his)."""
        keep = self.must_init.get(seat, set())
        forced = [c for c in total if c in self.not_init.get(seat, set())]
        free = [c for c in total if c not in keep and c not in forced]
        need = size - len(forced)
        if need < 0 or len(free) < need:
            return None
        return forced + rng.sample(free, need)

    def _history(self, hidden: dict[int, list[Card]]) -> list[Action]:
        out: list[Action] = []
        for action in self.obs.history:
            if isinstance(action, Discard) and action.seat != self.me and action.seat in hidden:
                out.append(Discard(action.seat, tuple(sorted((*action.cards, *hidden[action.seat])))))
            else:
                out.append(action)
        return out

    def _repair(self, hand: Hand, action: Discard, rng: random.Random) -> Discard | None:
        """A legal discard for a hidden one the sampled cards made illegal: the
        declarer's cards stay his, only which of them were laid away changes,
        keeping the shown ones, the cards he played since and a hand that
        agrees with his plays."""
        seat = action.seat
        shown = set(self.shown_discards.get(seat, []))
        later = set(self.played[seat])
        index = next((i for i, p in enumerate(self.pools) if p.kind == "hand" and p.seat == seat), None)
        allowed = self._allowed

        held = hand.state.hands[seat]
        count = len(action.cards)
        # cards that cannot stay in the hand (its plays rule them out) must go
        forced = shown | {c for c in held if c not in later and c in allowed and index is not None
                          and index not in allowed[c]}
        free = [c for c in held if c not in forced and c not in later]
        need = count - len(forced)
        if need < 0 or len(free) < need or not forced <= set(held):
            return None
        for _ in range(REPAIRS):
            cards = tuple(sorted((*forced, *rng.sample(free, need))))
            candidate = Discard(seat, cards)
            if hand.why_not(candidate) is None:
                return candidate
        return None

    def replay(self, hands: list[list[Card]], talon: list[list[Card]], history: Sequence[Action],
               rng: random.Random | None = None, accept: float = 0.0,
               weigh_from: int = 0) -> tuple[Hand, list[Action], float] | None:
        """The engine's hand of this deal after ``history``, the history as
        replayed and the world's plausibility, or None if the deal cannot have
        produced it.  With ``rng`` a hidden discard the deal makes illegal is
        chosen again (:meth:`_repair`).  With a ``model`` each public decision
        of another seat outside card play that the model, in that seat's
        place, would have taken otherwise costs the plausibility a factor
        ``UNLIKELY`` (from action ``weigh_from`` on); the replay stops (None)
        as soon as it falls below ``accept``."""
        obs = self.obs
        rules = self.table.rules
        if rules.redeal_reason(hands) is not None:
            return None
        done: list[Action] = []
        weight = 1.0
        model = self.model
        try:
            hand = Hand(rules, obs.dealer, hands, talon, obs.seats, obs.active, obs.context)
            for index, action in enumerate(history):
                if isinstance(action, Discard) and action.seat != self.me:
                    if rng is not None and hand.why_not(action) is not None:
                        repaired = self._repair(hand, action, rng)
                        if repaired is None:
                            return None
                        action = repaired
                elif model is not None and index >= weigh_from and action.seat != self.me \
                        and not isinstance(action, Play) \
                        and len(hand.legal(action.seat)) > 1 \
                        and self._model_decides(observe(hand, action.seat)) != action:
                    weight *= UNLIKELY
                    if weight < accept:
                        return None
                hand.apply(action)
                done.append(action)
        except (IllegalAction, DealError, RuleError):
            return None
        if hand.state.to_move != obs.seat or set(hand.legal(obs.seat)) != self._legal:
            return None
        return hand, done, weight

    def _prefix_end(self) -> int:
        """The number of actions the chain replays to score a deal: those
        before the first card played or the first discard laid away hidden
        (the engine's check of a discard can be dear: every legal discard)."""
        for i, action in enumerate(self.obs.history):
            if isinstance(action, Play) or (isinstance(action, Discard) and action.seat != self.me):
                return i
        return len(self.obs.history)

    def _score(self, placed: list[list[Card]], rng: random.Random,
               floor: float = -math.inf) -> _Scored | None:
        """The log plausibility of an assignment (its deal replayed up to the
        first card, the model asked at every decision of the others) and its
        deal; None when the deal cannot have produced the history, or as soon
        as the plausibility is known to fall below ``floor``."""
        dealt = self._deal(placed, rng)
        if dealt is None:
            return None
        hands, talon, hidden = dealt
        rules = self.table.rules
        if rules.redeal_reason(hands) is not None:
            return None
        model = self.model
        misses = 0
        miss: _Condition | None = None
        prior = 0.0
        for c, (inside, _, pile) in self._via_pile.items():
            for i in inside:
                if c in placed[i]:
                    prior += math.log(pile / sum(self.pools[j].size for j in inside))
                    break
        if prior < floor:
            return None
        try:
            obs = self.obs
            hand = Hand(rules, obs.dealer, hands, talon, obs.seats, obs.active, obs.context)
            for action in self._history(hidden)[:self._prefix_end()]:
                if isinstance(action, Discard) and action.seat != self.me:
                    if hand.why_not(action) is not None:
                        repaired = self._repair(hand, action, rng)
                        if repaired is None:
                            return None
                        action = repaired
                elif model is not None and action.seat != self.me and len(hand.legal(action.seat)) > 1:
                    seen = observe(hand, action.seat)
                    if self._model_decides(seen) != action:
                        misses += 1
                        if prior + misses * _LOG_UNLIKELY < floor:
                            return None
                        dealt_hand = sorted(hands[action.seat])
                        if miss is None and sorted(hand.state.hands[action.seat]) == dealt_hand:
                            miss = _Condition(action.seat, seen, action)
                hand.apply(action)
        except (IllegalAction, DealError, RuleError):
            return None
        return _Scored(placed, prior + misses * _LOG_UNLIKELY, dealt, miss)

    def _model_decides(self, seen: Observation) -> Action:
        """The model's decision in ``seen``, remembered by everything the
        observation says (the chain asks about the same hands again and again)."""
        model = self.model
        assert model is not None
        contract = seen.contract
        key = (seen.seat, seen.phase, seen.hand, seen.history, seen.legal, seen.talon_seen,
               seen.talon_shown, seen.discards, seen.announcements, seen.kontra_level, seen.called,
               seen.partner, seen.declarer, seen.hand_sizes,
               None if contract is None else (contract.name, contract.trump, contract.declarers))
        found = self._decided.get(key)
        if found is None:
            found = model.decide(seen)
            if len(self._decided) > MODEL_CACHE:
                self._decided.clear()
            self._decided[key] = found
        return found

    def _meets(self, hands: list[list[Card]], conditions: Sequence[_Condition]) -> bool:
        """Whether the model, given these dealt hands, decides as each condition says."""
        model = self.model
        assert model is not None
        for cond in conditions:
            seen = replace(cond.obs, hand=tuple(sorted(hands[cond.seat], key=sort_key)))
            if self._model_decides(seen) != cond.action:
                return False
        return True

    def _fresh(self, rng: random.Random, conditions: Sequence[_Condition], tries: int) -> _Scored | None:
        """A fresh random assignment meeting ``conditions`` (None after ``tries`` draws), scored."""
        for _ in range(tries):
            placed = self._assign(rng)
            if placed is None:
                continue
            dealt = self._deal(placed, rng)
            if dealt is None or (conditions and not self._meets(dealt[0], conditions)):
                continue
            scored = self._score(placed, rng)
            if scored is not None:
                return scored
        return None

    def _propose(self, placed: list[list[Card]], rng: random.Random) -> list[list[Card]] | None:
        """A neighbour of an assignment: two cards of two places swapped, or the
        cards of two places dealt between them again."""
        sizes = [len(p) for p in placed]
        filled = [i for i, n in enumerate(sizes) if n]
        if len(filled) < 2:
            return None
        i, j = rng.sample(filled, 2)
        allowed = self._allowed
        out = [list(p) for p in placed]
        if rng.random() < 0.5:
            for _ in range(6):
                a = rng.choice(out[i])
                b = rng.choice(out[j])
                if j in allowed[a] and i in allowed[b]:
                    out[i][out[i].index(a)] = b
                    out[j][out[j].index(b)] = a
                    return out
            return None
        cards = out[i] + out[j]
        for _ in range(6):
            rng.shuffle(cards)
            room = {i: sizes[i], j: sizes[j]}
            new: dict[int, list[Card]] = {i: [], j: []}
            for c in sorted(cards, key=lambda c: len(allowed[c])):
                options = [k for k in (i, j) if room[k] > 0 and k in allowed[c]]
                if not options:
                    break
                k = options[0] if len(options) == 1 else \
                    (i if rng.randrange(room[i] + room[j]) < room[i] else j)
                new[k].append(c)
                room[k] -= 1
            else:
                out[i], out[j] = new[i], new[j]
                return out
        return None

    def worlds(self, rng: random.Random, count: int) -> list[World]:
        """``count`` worlds (fewer if the deals run out of agreement).

        Without a ``model`` each is drawn on its own (:meth:`sample`).  With
        one they are read off a Metropolis chain over the assignments of the
        unseen cards whose target weighs each deal by the model's agreement
        with the others' decisions (``UNLIKELY`` per decision it would have
        taken otherwise), so a strong bid is explained by a strong hand even
        when such hands are rare among random deals.

        A decision the chain's deal does not explain and that was made with
        the hand as dealt (a bid) becomes a condition: from then on every
        deal the chain moves to must explain it, checked cheaply by asking
        the model with that hand in what the seat saw then.  A step proposes
        either a fresh random deal meeting the conditions (``FRESH`` of the
        steps; up to ``CONDITIONED_TRIES`` draws) or a small change (two
        cards swapped, or two places dealt again) that meets them, accepted
        by the ratio of the plausibilities.  After at least ``BURN_IN``
        steps, and until the deal explains every decision or
        ``BURN_IN_MAX`` steps, every ``THIN``-th state that replays through
        the whole history is kept."""
        if not self.consistent:
            return []
        if self.model is None:
            found = (self.sample(rng) for _ in range(count))
            return [w for w in found if w is not None]
        current = self._fresh(rng, (), TRIES)
        if current is None:
            return []
        conditions: list[_Condition] = []

        def step(state: _Scored) -> _Scored:
            miss = state.miss
            if miss is not None and len(conditions) < MAX_CONDITIONS and \
                    all(c.seat != miss.seat or c.action != miss.action for c in conditions):
                conditions.append(miss)
            if rng.random() < FRESH:
                proposal = self._fresh(rng, conditions, CONDITIONED_TRIES)
                if proposal is None:
                    return state
            else:
                placed = self._propose(state.placed, rng)
                if placed is None:
                    return state
                dealt = self._deal(placed, rng)
                if dealt is None or (conditions and not self._meets(dealt[0], conditions)):
                    return state
                floor = state.score + math.log(1.0 - rng.random())
                found = self._score(placed, rng, floor)
                if found is None or found.score < floor:
                    return state
                return found
            if proposal.score >= state.score or rng.random() < math.exp(proposal.score - state.score):
                return proposal
            return state
        steps = 0
        while steps < BURN_IN or (current.score < -1e-9 and steps < BURN_IN_MAX):
            current = step(current)
            steps += 1
        out: list[World] = []
        for _ in range(count * 2):
            if len(out) >= count:
                break
            for _ in range(THIN):
                current = step(current)
            hands, talon, hidden = current.dealt
            replayed = self.replay(hands, talon, self._history(hidden), rng, weigh_from=self._prefix_end())
            if replayed is not None:
                # the decisions after the chain's part weigh the world
                out.append(World(replayed[0], hands, talon, replayed[1], replayed[2]))
        return out

    def rebuild(self, world: World) -> Hand:
        """A fresh engine hand of ``world`` at the decision point (replayed again)."""
        hand = Hand(self.table.rules, self.obs.dealer, world.hands, world.talon, self.obs.seats,
                    self.obs.active, self.obs.context)
        for action in world.history:
            hand.apply(action)
        return hand

    def sample(self, rng: random.Random, tries: int = TRIES) -> World | None:
        """One world (see the module docstring), or None after ``tries`` deals.

        With a ``model`` a consistent deal is kept with probability equal to
        its plausibility (rejection sampling), so the worlds drawn follow the
        model's reading of the others' decisions and weigh the same; if none
        is kept in ``tries`` deals, the most plausible consistent one is taken."""
        if not self.consistent:
            return None
        fallback: World | None = None
        for _ in range(tries):
            placed = self._assign(rng)
            if placed is None:
                continue
            dealt = self._deal(placed, rng)
            if dealt is None:
                continue
            hands, talon, hidden = dealt
            accept = rng.random() if self.model is not None else 0.0
            stop = 0.0 if fallback is None else min(accept, fallback.weight)
            replayed = self.replay(hands, talon, self._history(hidden), rng, stop)
            if replayed is None:
                continue
            world = World(replayed[0], hands, talon, replayed[1], replayed[2])
            if world.weight >= accept:
                world.weight = 1.0
                return world
            if fallback is None or world.weight > fallback.weight:
                fallback = world
        if fallback is not None:
            fallback.weight = 1.0
        return fallback
