"""Where the cards a seat cannot see may lie, by what its observation shows.

A :class:`Whereabouts` reads one observation and works out

- where unseen cards may lie now: each other hand (as many cards as it
  holds), the discards laid away face down, the talon piles nobody took or
  showed (each a :class:`Pool`);
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

Only the observation is read.  :mod:`client.bots.drawing` deals the unseen
cards by these bounds; :mod:`client.bots.worlds` replays the deals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tarock.client.bots.fastplay import TrickModel, bits
from tarock.core.actions import Call, Discard
from tarock.core.cards import KAKADU, MARABU, PAGAT, UHU, Card
from tarock.core.contracts import ContractSpec
from tarock.core.observation import Observation

BIRD_NAMES: dict[str, Card] = {"pagat": PAGAT, "pagat-ultimo": PAGAT, "uhu": UHU, "kakadu": KAKADU,
                               "marabu": MARABU}
"""Announcements (record vocabulary) that say the announcer holds a card."""


@dataclass(slots=True)
class Pool:
    """A place unseen cards may lie: a hand, hidden discards or a talon pile."""

    kind: str  # "hand" | "discard" | "talon"
    seat: int
    size: int
    cards: list[Card] = field(default_factory=list)


def tricks_of(obs: Observation) -> list[tuple[tuple[int, ...], tuple[Card, ...]]]:
    """The seats and cards of every trick played so far, the current one too."""
    out = [(t.seats, t.cards) for t in obs.tricks]
    if obs.trick is not None and obs.trick.cards:
        out.append((obs.trick.seats, obs.trick.cards))
    return out


class Whereabouts:
    """Where the unseen cards of one observation may lie (see the module docstring)."""

    def __init__(self, obs: Observation) -> None:
        rules = obs.rules
        assert rules is not None
        self.obs = obs
        self.facts = rules
        me = obs.seat
        self.me = me
        players = obs.active or tuple(range(obs.seats))
        self.players = players
        spec = obs.contract.spec if obs.contract is not None else None
        self.spec = spec
        tricks = tricks_of(obs)
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
        self.pools: list[Pool] = []
        for s in players:
            if s == me or s in open_hands:
                continue
            self.pools.append(Pool("hand", s, obs.hand_sizes[s]))
        if hidden_discards > 0 and declarer is not None:
            self.pools.append(Pool("discard", declarer, hidden_discards))
        for p, size in enumerate(piles):
            if p in taken:
                continue
            rest = size - len(shown[p])
            if rest > 0:
                self.pools.append(Pool("talon", p, rest))
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
        self.allowed: dict[Card, list[int]] = {}
        """Per unseen card, the indices of the pools it may lie in."""
        self.via_pile: dict[Card, tuple[list[int], list[int], int]] = {}
        """Cards the face-down talon taker did not hold when dealt: (his places,
        the other places, the pile's size), to decide per world whether the
        card came with the pile (as often as the pile's share of the places)."""
        self.must_init: dict[int, set[Card]] = {}
        """Per seat, cards it held when dealt (before any talon)."""
        self.not_init: dict[int, set[Card]] = {}
        """Per seat, cards it did not hold when dealt."""
        self.requires: dict[int, list[ContractSpec]] = {}
        if self.consistent:
            self._constrain()

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

    def hand_pools(self, seat: int) -> list[int]:
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
                places = [i for i in self.hand_pools(ann.seat) if self.pools[i].kind == "hand"]
                narrowed = [i for i in allowed[card] if i in places]
                if narrowed:
                    allowed[card] = narrowed
        if self.declarer is not None:
            places = self.hand_pools(self.declarer)
            for c in self.known_elsewhere:
                allowed[c] = [i for i in allowed[c] if i in places]
        for seat, cards in self.must_init.items():
            places = self.hand_pools(seat)
            for c in cards:
                if c in allowed:
                    narrowed = [i for i in allowed[c] if i in places]
                    if narrowed:
                        allowed[c] = narrowed
        for seat, cards in self.not_init.items():
            if seat == self.me:
                continue
            his = set(self.hand_pools(seat))
            face_down = [p for p in self.taken if self.known_pile[p] is None] if seat == self.declarer else []
            for c in cards:
                if c not in allowed:
                    continue
                outside = [i for i in allowed[c] if i not in his]
                if face_down:
                    inside = [i for i in allowed[c] if i in his]
                    if inside and outside:
                        size = sum(self.facts.talon_piles[p] for p in face_down)
                        self.via_pile[c] = (inside, outside, size)
                elif outside:
                    allowed[c] = outside
        self.allowed = allowed

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
        for seats, cards in tricks_of(self.obs):
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
