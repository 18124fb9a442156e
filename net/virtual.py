"""A hand followed on a virtual deal: what one node can run without the others' cards.

With a dealing scheme that keeps every hand from every other node (mental
poker), no node holds the whole deal while the hand is played.  Each node
runs the engine on a *virtual deal*: a permutation of the deck over the deal's
positions (the final deck's slots, laid out by ``core.deal.split``) in which
every card the node knows lies where it is, and the cards it does not know
fill the other positions.  Its own actions are checked by the engine as
usual; another seat's action is carried out unchecked (it is checked against
the real deal at the hand's end).  When a card becomes known that the virtual
deal has elsewhere, the two positions swap their cards and the hand is
replayed from the new deal, so every fact that follows from known cards is
right.

Actions travel in *positional* form: the codec's plain form, in which every
card the action takes out of the actor's hand is written ``"#p"`` (``p`` its
position), so a hidden discard names no card and every node materializes it
with the card its virtual deal has at ``p``.

What a seat may see (:meth:`VirtualHand.visible`) is read off the engine's
observation: the located cards (hand, talon taken, discards, tricks, talon
shown, open hands) and, once the partner is public, the called card.  The
observation a player gets (:meth:`VirtualHand.observation`) keeps only the
cards this node knows, so no filling card reaches it.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tarock.core.actions import Action, Discard
from tarock.core.cards import Card, CardError, format_card, parse_card
from tarock.core.codec import RecordError
from tarock.core.context import TableContext
from tarock.core.deal import split
from tarock.core.engine import Hand, IllegalAction
from tarock.core.observation import Observation, TrickView, observe
from tarock.core.rules import RuleError, Rules

REF = re.compile(r"#(\d{1,4})")
"""A card written as its position in a positional action."""


class VirtualError(ValueError):
    """Another seat's action that cannot be carried out: it names a card the seat does
    not hold, is malformed, or is not that seat's turn (the seat is at fault)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Layout:
    """Which positions of the final deck are dealt where (``core.deal.split`` on positions)."""

    hands: tuple[tuple[int, ...], ...]
    talon: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, rules: Rules, seats: int, active: tuple[int, ...]) -> Layout:
        hands, talon = split(rules, list(range(len(rules.deck))), seats, active)
        return cls(tuple(tuple(h) for h in hands), tuple(tuple(p) for p in talon))

    def owner(self, position: int) -> int | None:
        """The seat dealt ``position``; None for a talon position."""
        for seat, hand in enumerate(self.hands):
            if position in hand:
                return seat
        return None


def refs(plain: object) -> list[int]:
    """The positions a positional action names, in order."""
    out: list[int] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            m = REF.fullmatch(value)
            if m is not None:
                out.append(int(m.group(1)))
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, Mapping):
            for item in value.values():
                walk(item)
    walk(plain)
    return out


def materialize(plain: object, cards: Sequence[Card]) -> Any:
    """The plain action with every ``"#p"`` replaced by the name of ``cards[p]``."""
    if isinstance(plain, str):
        m = REF.fullmatch(plain)
        if m is None:
            return plain
        p = int(m.group(1))
        if not 0 <= p < len(cards):
            raise VirtualError(f"position {p} is not one of the deal")
        return format_card(cards[p])
    if isinstance(plain, list | tuple):
        return [materialize(item, cards) for item in plain]
    if isinstance(plain, Mapping):
        return {k: materialize(v, cards) for k, v in plain.items()}
    return plain


@dataclasses.dataclass(frozen=True, slots=True)
class Saved:
    """What an entry of the log may change in a :class:`VirtualHand` (:meth:`VirtualHand.save`)."""

    known: dict[int, Card]
    cards: tuple[Card, ...]
    log: int
    called: dict[int, Card]
    hand: Hand | None
    actions: int
    """The engine and how many actions it had carried out (kept if nothing changed)."""


class VirtualHand:
    """One node's engine for one hand (``me``: its seat, None for the host or a watcher).

    *Facts* (:meth:`facts`, :meth:`vouch`) are what a seat's own cards decide
    beyond its actions, which it tells the others: the card the rules call for
    it as declarer (``called``).
    """

    def __init__(self, rules: Rules, seats: int, dealer: int, active: tuple[int, ...],
                 me: int | None, known: Mapping[int, Card] | None = None,
                 context: TableContext | None = None) -> None:
        self.table_rules = rules
        self.called: dict[int, Card] = {}
        """The card the rules call for a declarer, as he told it (or as this node's seat computed it)."""
        self.rules = rules.with_calls(self.called)
        self.seats = seats
        self.dealer = dealer
        self.active = active
        self.me = me
        self.context = context
        self.layout = Layout.of(rules, seats, active)
        deck = list(rules.deck)
        self.size = len(deck)
        self.known: dict[int, Card] = {}
        self.cards: list[Card] = [-1] * self.size
        """Position -> card of the virtual deal."""
        taken = set()
        for p, c in (known or {}).items():
            self.known[p] = c
            self.cards[p] = c
            taken.add(c)
        rest = iter(c for c in deck if c not in taken)
        for p in range(self.size):
            if self.cards[p] < 0:
                self.cards[p] = next(rest)
        self._at: dict[Card, int] = {c: p for p, c in enumerate(self.cards)}
        self.log: list[Any] = []
        """Every action so far, positional plain form."""
        self._hand: Hand | None = None
        self._seen: tuple[Hand, int, dict[int, frozenset[int]]] | None = None
        """(the engine, its actions, what each seat sees) of :meth:`visible_all`."""
        self._decoded: dict[int, tuple[object, tuple[int, ...], tuple[Card, ...], Action]] = {}
        """log index -> (its plain action, the positions it names, their cards, the action)."""

    def copy(self) -> VirtualHand:
        """A copy to try an action on: the engine copied, the rules' plugin manager shared."""
        out = copy.copy(self)
        out.known = dict(self.known)
        out.cards = list(self.cards)
        out._at = dict(self._at)
        out.log = list(self.log)
        out.called = dict(self.called)
        out.rules = self.table_rules.with_calls(out.called)
        out._hand = self._hand.copy(out.rules) if self._hand is not None else None
        out._seen = None
        out._decoded = dict(self._decoded)
        return out

    def save(self) -> Saved:
        """What :meth:`restore` needs to undo whatever follows (an entry refused half-way)."""
        hand = self._hand
        return Saved(dict(self.known), tuple(self.cards), len(self.log), dict(self.called), hand,
                     len(hand.state.actions) if hand is not None else 0)

    def restore(self, saved: Saved) -> None:
        same = (saved.hand is self._hand and saved.log == len(self.log) and saved.called == self.called
                and saved.known == self.known and saved.cards == tuple(self.cards)
                and (saved.hand is None or len(saved.hand.state.actions) == saved.actions))
        self.known = dict(saved.known)
        self.cards = list(saved.cards)
        self._at = {c: p for p, c in enumerate(self.cards)}
        del self.log[saved.log:]
        self.called.clear()
        self.called.update(saved.called)
        if not same:
            self._hand = None  # rebuilt from the log when next asked
        self._seen = None

    # -- the virtual deal -------------------------------------------------------------
    @property
    def position_of(self) -> Mapping[Card, int]:
        """Card -> its position in the virtual deal (do not change it)."""
        return self._at

    def learn(self, found: Mapping[int, Card]) -> None:
        """Cards now known at these positions; the virtual deal swaps cards to agree."""
        for p, c in found.items():
            if self.known.get(p) == c:
                continue
            if p in self.known:
                raise VirtualError(f"position {p} was known as {format_card(self.known[p])}, "
                                   f"now {format_card(c)}")
            if c in self.known.values():
                raise VirtualError(f"{format_card(c)} is known at two positions")
            self.known[p] = c
            if self.cards[p] != c:
                q = self._at[c]
                other = self.cards[p]
                self.cards[p], self.cards[q] = c, other
                self._at[c], self._at[other] = p, q
                # The engine is replayed on the new deal when next asked: a variant may have
                # drawn facts from where a card lay (who holds the Mond), so no in-place swap.
                self._hand = None

    @property
    def hand(self) -> Hand:
        """The engine on the current virtual deal with every action so far."""
        if self._hand is None:
            hands, talon = split(self.rules, self.cards, self.seats, self.active)
            hand = Hand(self.rules, self.dealer, hands, talon, self.seats, self.active, self.context)
            for i, plain in enumerate(self.log):
                hand.apply_unchecked(self._decode_at(i, plain))
            self._hand = hand
        return self._hand

    def _decode_at(self, i: int, plain: object) -> Action:
        """The ``i``-th action of the log, decoded again only when a card it names moved
        (the engine is rebuilt from the log whenever the virtual deal swaps two cards)."""
        hit = self._decoded.get(i)
        if hit is not None and hit[0] is plain and tuple(self.cards[p] for p in hit[1]) == hit[2]:
            return hit[3]
        action = self._decode(plain)
        named = tuple(refs(plain))
        self._decoded[i] = (plain, named, tuple(self.cards[p] for p in named), action)
        return action

    def _decode(self, plain: object) -> Action:
        try:
            action: Action = self.rules.codec.decode_action(materialize(plain, self.cards), self.seats)
        except RecordError as exc:
            raise VirtualError(f"malformed action: {exc}") from None
        return action

    def held(self, seat: int) -> set[int]:
        """The positions in ``seat``'s hand now."""
        at = self.position_of
        return {at[c] for c in self.hand.state.hands[seat]}

    # -- facts -------------------------------------------------------------------------
    def facts(self) -> dict[str, str]:
        """What this node's seat must tell the others now (its called card as declarer)."""
        state = self.hand.state
        if self.me is None or state.declarer != self.me or state.called is None \
                or self.called.get(self.me) is not None:
            return {}
        self.called[self.me] = state.called
        return {"called": format_card(state.called)}

    def vouch(self, seat: int, facts: Mapping[str, object]) -> None:
        """Facts another seat told (VirtualError if they cannot be its)."""
        if not facts:
            return
        if set(facts) != {"called"} or not isinstance(facts["called"], str):
            raise VirtualError(f"unknown facts {sorted(facts)}")
        if self.hand.state.declarer != seat:
            raise VirtualError(f"seat {seat} tells its called card but is no declarer")
        try:
            card = parse_card(facts["called"])
        except CardError:
            raise VirtualError(f"{facts['called']!r} is no card") from None
        if self.called.get(seat, card) != card:
            raise VirtualError(f"seat {seat} told two called cards")
        if seat not in self.called:
            self.called[seat] = card
            self._hand = None

    # -- actions ----------------------------------------------------------------------
    def play_own(self, action: Action) -> dict[str, Any]:
        """This node's own action, checked by the engine (IllegalAction) and carried out;
        returns its positional form."""
        hand = self.hand
        seat = action.seat
        before = set(hand.state.hands[seat])
        hand.apply(action)
        gone = before - set(hand.state.hands[seat])
        at = self.position_of
        names = {format_card(c): f"#{at[c]}" for c in gone}
        plain: dict[str, Any] = _replace(self.rules.codec.encode_action(action), names)
        self.log.append(plain)
        return plain

    def play_other(self, seat: int, plain: object) -> Action:
        """Another seat's action in positional form; VirtualError names what is wrong."""
        named = refs(plain)
        hand = self.hand
        if hand.done:
            raise VirtualError("the hand is over")
        if hand.state.to_move != seat:
            raise VirtualError(f"it is seat {hand.state.to_move}'s turn, not seat {seat}'s")
        holds = self.held(seat)
        if len(set(named)) != len(named):
            raise VirtualError("the action names a position twice")
        foreign = [p for p in named if p not in holds]
        if foreign:
            tricks = [*hand.state.tricks, *([hand.state.trick] if hand.state.trick is not None else [])]
            played = {self.position_of[c] for t in tricks for c in t.cards}
            if foreign[0] in played:
                raise VirtualError(f"seat {seat} plays again the card at position {foreign[0]}, "
                                   "already played in this hand")
            raise VirtualError(f"seat {seat} does not hold the card at position {foreign[0]}")
        action = self._decode(plain)
        if action.seat != seat:
            raise VirtualError(f"the action is seat {action.seat}'s, sent for seat {seat}")
        at = self.position_of
        before = set(hand.state.hands[seat])
        try:
            hand.apply_unchecked(action)
        except (IllegalAction, RuleError, ValueError) as exc:
            self._hand = None
            raise VirtualError(f"the action cannot be carried out: {exc}") from None
        gone = {at[c] for c in before - set(hand.state.hands[seat])}
        if gone != set(named):
            self._hand = None
            raise VirtualError("the action takes other cards out of the hand than it names")
        self.log.append(plain)
        return action

    # -- what is seen ---------------------------------------------------------------------
    def visible(self, seat: int) -> set[int]:
        """The positions whose card ``seat`` sees now (by the engine's observation)."""
        return set(self.visible_all()[seat])

    def visible_all(self) -> dict[int, frozenset[int]]:
        """What every seat sees now, worked out once per engine and action (every step asks;
        a swap of the virtual deal rebuilds the engine)."""
        hand = self.hand
        taken = len(hand.state.actions)
        seen = self._seen
        if seen is not None and seen[0] is hand and seen[1] == taken:
            return seen[2]
        at = self._at
        found = {s: frozenset(map(at.__getitem__, cards)) for s, cards in enumerate(seen_by_all(hand))}
        self._seen = (hand, taken, found)
        return found

    def observation(self) -> Observation:
        """What this node's player (or watcher) sees: the engine's observation with every
        card this node does not know left out."""
        hand = self.hand
        obs = observe(hand, self.me if self.me is not None else -1)
        if self.me is None:
            obs = dataclasses.replace(obs, hand=(), legal=())
        return dataclasses.replace(mask(obs, set(self.known.values()), self.me), rules=self.table_rules.facts)


def seen_by(hand: Hand, seat: int) -> set[Card]:
    """The cards whose place ``seat``'s observation shows (:func:`seen_by_all`)."""
    return seen_by_all(hand)[seat]


def seen_by_all(hand: Hand) -> list[set[Card]]:
    """For each seat, the cards whose place its observation shows: its hand, the talon it
    took, the discards it sees, the tricks, the talon shown, the open hands, and, once the
    partnership is public, the called card in its holder's hand.

    Read off the state as :func:`core.observation.observe` reads it (a test keeps
    the two alike), without the rest of the observation: the legal actions, the
    history and the rule facts are not needed here, and this runs after every
    action.  What every seat sees alike (the tricks, the talon shown, the open hands)
    and the rules' answers are worked out once for all seats."""
    s = hand.state
    rules = hand.rules
    over = hand.done
    public: set[Card] = set()
    for trick in s.tricks:
        public.update(trick.cards)
    if s.trick is not None:
        public.update(s.trick.cards)
    for pile in (hand.deal[1] if over else rules.talon_shown(s)):
        public.update(pile)
    open_seats = set(range(s.seats) if over else rules.open_hands(s))
    for other in open_seats:
        public.update(s.hands[other])
    if over:
        public.update(s.talon_taken)
        public.update(s.discards)
        shown_discards: set[Card] = set()
    else:
        shown = frozenset(rules.discards_shown(s))
        shown_discards = {c for c in s.discards if c in shown}
    called = s.called
    holder = s.partner if s.partner is not None and called is not None and called in s.hands[s.partner] \
        else None
    out: list[set[Card]] = []
    for seat in range(s.seats):
        cards = set(public)
        cards.update(s.hands[seat])
        if seat == s.declarer and not over:
            cards.update(s.talon_taken)
            cards.update(s.discards)
        else:
            cards.update(shown_discards)
        if holder is not None and called is not None and (over or s.partner_known or seat == holder):
            cards.add(called)
        out.append(cards)
    return out


def mask(obs: Observation, known: set[Card], me: int | None) -> Observation:
    """``obs`` without the cards not in ``known`` (a virtual deal's fillers)."""
    def keep(cards: Iterable[Card]) -> tuple[Card, ...]:
        return tuple(c for c in cards if c in known)

    def trick(t: TrickView) -> TrickView:
        return dataclasses.replace(t, cards=keep(t.cards)) if any(c not in known for c in t.cards) else t

    history = tuple(dataclasses.replace(a, cards=keep(a.cards)) if isinstance(a, Discard) else a
                    for a in obs.history)
    partner = obs.partner
    if partner is not None and partner != me and (obs.called is None or obs.called not in known):
        partner = None  # only a known card says who holds the called card
    return dataclasses.replace(
        obs, hand=keep(obs.hand), talon_seen=keep(obs.talon_seen), discards=keep(obs.discards),
        tricks=tuple(trick(t) for t in obs.tricks), trick=trick(obs.trick) if obs.trick is not None else None,
        history=history, talon_shown=tuple(keep(p) for p in obs.talon_shown),
        open_hands=tuple((s, keep(cs)) for s, cs in obs.open_hands), partner=partner)


def _replace(plain: Any, names: Mapping[str, str]) -> Any:
    """Card names of ``names`` in a plain action replaced by their positions (each once)."""
    left = dict(names)

    def walk(value: Any) -> Any:
        if isinstance(value, str) and value in left:
            return left.pop(value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) if k not in ("type", "seat") else v for k, v in value.items()}
        return value
    out = walk(plain)
    if left:
        raise VirtualError(f"the action takes cards out of the hand it does not name: {sorted(left)}")
    return out
