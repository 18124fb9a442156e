"""``tarock40``'s auction: the generic one (:class:`core.auction.Auction`), the
announcements allowed with a bid asked of the plugin's own verdict directly.

The legal list of every turn offers each game that outranks the highest bid with
every set of the announcements allowed with it (docs/rules.md §13.2): per game and
turn the rules are asked about Pagat, Trull, Absolut and Valat.  Where ``tarock40``'s
own ``tarock_announce_verdict`` answers that hook alone, no house rule can change its
answer, so it is not asked through the hook per name: its two parts are called as
functions, the part the hand does not matter to once per game (which names a game
may carry, which it always may), the part the hand decides (a Pagat held, a Valat on
one's own strength) per turn for the names left.  An exception in them is raised
again through the hook, which names the plugin and the hand.  Where a house rule
answers too, every turn asks the hook as the generic auction does.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from itertools import combinations
from typing import TYPE_CHECKING, Any

from tarock.core.actions import Action
from tarock.core.auction import Auction, AuctionStyle, bid_action
from tarock.core.contracts import ContractSpec
from tarock.core.state import HandState, Verdict

if TYPE_CHECKING:
    from tarock.core.rules import Rules

Rule = Callable[[str, ContractSpec], tuple[bool, Verdict | None]]
"""The verdict where the hand does not matter: (True, the verdict), or (False, None)."""
ByHand = Callable[[HandState, int, str, ContractSpec], Verdict | None]
"""The verdict the hand decides, for a name :data:`Rule` leaves open."""
Names = tuple[ContractSpec, tuple[tuple[str, bool], ...]]
"""A game and the names announceable with it that it may carry: each with whether the hand decides."""
HandKey = Callable[[str, ContractSpec], Hashable]
"""What :data:`ByHand`'s verdict depends on of a name and a game (the state and seat the same):
names and games of equal keys are answered alike."""


def position(state: HandState, seat: int) -> int:
    """The seat's place in the first trick (0 = leads): the forehand leads."""
    players = state.players
    return (players.index(seat) - players.index(state.forehand)) % len(players)


class Auction40(Auction):
    """The generic auction that asks ``own_hook``'s parts (the plugin's
    ``tarock_announce_verdict`` is ``rule`` where that answers, else ``by_hand``)
    directly while the hook has no other answer."""

    def __init__(self, style: AuctionStyle, own_hook: Callable[..., Any], rule: Rule,
                 by_hand: ByHand, hand_key: HandKey) -> None:
        super().__init__(style)
        self.own_hook = own_hook
        self.rule = rule
        self.by_hand = by_hand
        self.hand_key = hand_key
        self._turn: dict[Hashable, Verdict | None] | None = None
        """While :meth:`legal` lists a turn's bids: ``by_hand``'s verdicts by ``hand_key``
        (a Solo, a Solo Absolut and a Solo with the Pagat ask the same Valat check)."""
        self._direct_of: tuple[Rules, bool] | None = None
        self._names: dict[int, Names] = {}
        """Per game (by id, the game kept to tell a reused id): the premiums that may be
        announced with it, in the rules' order, but those ``rule`` refuses."""
        self._bid_lists: dict[tuple[int, str, tuple[str, ...]], tuple[Action, ...]] = {}
        """The bids of a seat, a game and the announcements allowed with it, each set of
        them, as :meth:`Auction._bids` lists them."""

    def _direct(self, rules: Rules) -> tuple[Rules, bool]:
        """``rules`` and whether ``own_hook`` answers ``tarock_announce_verdict`` alone in
        them (looked up once per rules)."""
        known = self._direct_of
        if known is None or known[0] is not rules:
            sole = rules.sole_answer("tarock_announce_verdict")
            alone = sole is not None and getattr(sole, "__func__", None) is self.own_hook
            known = self._direct_of = (rules, alone)
            self._names.clear()
        return known

    def _announceable(self, rules: Rules, spec: ContractSpec) -> Names:
        """``spec`` and the premiums :meth:`Auction._additions` asks about for it, but those
        ``rule`` refuses, each with whether the hand decides (False: ``rule`` allows it)."""
        specs = rules.premium_specs
        names = []
        for name in specs:
            if name in spec.premiums and name not in spec.announces and specs[name].announced:
                known, verdict = self.rule(name, spec)
                if not known:
                    names.append((name, True))
                elif verdict is None or verdict.allowed:
                    names.append((name, False))
        known_names = self._names[id(spec)] = (spec, tuple(names))
        return known_names

    def _additions(self, state: HandState, rules: Rules, seat: int, spec: ContractSpec) -> list[str]:
        names = self._allowed(state, rules, seat, spec)
        return super()._additions(state, rules, seat, spec) if names is None else list(names)

    def _allowed(self, state: HandState, rules: Rules, seat: int,
                 spec: ContractSpec) -> tuple[str, ...] | None:
        """:meth:`_additions` asked of ``own_hook``'s parts; None where they do not answer
        (a house rule answers the hook too, or they failed: ask the hook)."""
        known = self._direct_of
        if known is None or known[0] is not rules:
            known = self._direct(rules)
        if not known[1] or not self.style.additions:
            return None
        try:
            names = self._names.get(id(spec))
            if names is None or names[0] is not spec:
                names = self._announceable(rules, spec)
            by_hand, turn = self.by_hand, self._turn
            out = []
            for name, asked in names[1]:
                if asked:
                    if turn is None:
                        verdict = by_hand(state, seat, name, spec)
                    else:
                        key = self.hand_key(name, spec)
                        if key in turn:
                            verdict = turn[key]
                        else:
                            verdict = turn[key] = by_hand(state, seat, name, spec)
                    if verdict is not None and not verdict.allowed:
                        continue
                out.append(name)
        except Exception:  # asked again through the hook, which names the plugin
            return None
        return tuple(out)

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        """:meth:`Auction.legal`, ``by_hand`` asked once per key in the turn."""
        self._turn = {}
        try:
            return super().legal(state, rules, seat)
        finally:
            self._turn = None

    def _bids(self, state: HandState, rules: Rules, seat: int, spec: ContractSpec) -> list[Action]:
        call = spec.call
        if call is not None and call.when == "bid":
            return super()._bids(state, rules, seat, spec)
        allowed = self._allowed(state, rules, seat, spec)
        names = tuple(super()._additions(state, rules, seat, spec)) if allowed is None else allowed
        key = (seat, spec.name, names)
        bids = self._bid_lists.get(key)
        if bids is None:
            if len(self._bid_lists) >= 1024:
                self._bid_lists.clear()
            bids = self._bid_lists[key] = tuple(bid_action(seat, spec.name, combo)
                                                for k in range(len(names) + 1)
                                                for combo in combinations(names, k))
        return list(bids)
