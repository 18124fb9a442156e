"""Each node follows a hand on its virtual deal (net/virtual.py).

Random legal hands of every variant plugins.toml defines, played on a true
engine; beside it one virtual hand per seat and one for a watcher, fed only
what the reveal rule of mental poker gives them: a seat contributes its share
of a position when its own engine says another seat sees it now.  After every
step each node knows exactly the positions the true observation shows its seat,
its observation is the true one card for card, and every engine agrees on
whose turn it is and when the hand is over.
"""

from __future__ import annotations

import random

import pytest
from net_pump import CATALOGUE

from tarock.core.deal import active_seats, deal, split
from tarock.core.engine import Hand
from tarock.core.observation import observe, observe_public
from tarock.net.virtual import Layout, VirtualError, VirtualHand, materialize, refs, seen_by

VARIANTS = sorted(CATALOGUE.variants)
SEATS = 4


def _positions(layout: Layout, hands: list[list[int]], talon: list[list[int]]) -> dict[int, int]:
    """Position -> card of a deal laid out as ``layout`` says."""
    out: dict[int, int] = {}
    for where, cards in zip((*layout.hands, *layout.talon), (*hands, *talon), strict=True):
        out.update(zip(where, cards, strict=True))
    return out


def _true_visible(hand: Hand, seat: int, at: dict[int, int]) -> set[int]:
    obs = observe(hand, seat)
    cards = set(obs.hand) | set(obs.talon_seen) | set(obs.discards)
    for t in (*obs.tricks, *((obs.trick,) if obs.trick else ())):
        cards |= set(t.cards)
    for pile in obs.talon_shown:
        cards |= set(pile)
    for _, cs in obs.open_hands:
        cards |= set(cs)
    if obs.partner is not None and obs.called is not None and obs.called in hand.state.hands[obs.partner]:
        cards.add(obs.called)
    return {at[c] for c in cards}


def _replayed(node: VirtualHand) -> Hand:
    """A fresh engine on the node's virtual deal with every action of its log."""
    hands, talon = split(node.rules, node.cards, SEATS, node.active)
    fresh = Hand(node.rules, node.dealer, hands, talon, SEATS, node.active)
    for plain in node.log:
        fresh.apply_unchecked(node.rules.codec.decode_action(materialize(plain, node.cards), SEATS))
    return fresh


class Flow:
    """The ideal reveal flow: who has contributed its share of which position."""

    def __init__(self, variant: str, seed: int) -> None:
        rng = random.Random(seed)
        self.rng = rng
        rules = CATALOGUE.variants[variant].rules({})
        self.rules = rules
        active = active_seats(SEATS, 0, rules.players_per_hand)
        self.true = Hand(rules, 0, *deal(rules, rng, SEATS, active), SEATS, active)
        self.layout = Layout.of(rules, SEATS, active)
        self.card_at = _positions(self.layout, *self.true.deal)
        self.pos_of = {c: p for p, c in self.card_at.items()}
        self.given: dict[int, set[int]] = {p: set() for p in self.card_at}
        for seat, where in enumerate(self.layout.hands):
            for p in where:
                self.given[p] = set(range(SEATS)) - {seat}
        self.nodes = [VirtualHand(rules, SEATS, 0, active, s, self._known(s)) for s in range(SEATS)]
        self.watcher = VirtualHand(rules, SEATS, 0, active, None, self._known(None))

    def _known(self, seat: int | None) -> dict[int, int]:
        everyone = set(range(SEATS))
        return {p: c for p, c in self.card_at.items()
                if self.given[p] >= everyone - ({seat} if seat is not None else set())}

    def tell(self, seat: int) -> None:
        """The facts of ``seat``'s cards it tells the others (after its action is carried out)."""
        facts = self.nodes[seat].facts()
        for other, peer in enumerate([*self.nodes, self.watcher]):
            if other != seat:
                peer.vouch(seat, facts)

    def contribute(self, seat: int) -> None:
        node = self.nodes[seat]
        for other in range(SEATS):
            if other != seat:
                for p in node.visible(other):
                    self.given[p].add(seat)

    def share(self) -> None:
        for s, node in enumerate(self.nodes):
            node.learn(self._known(s))
        self.watcher.learn(self._known(None))

    def check(self) -> None:
        for node in (self.nodes[0], self.watcher):
            # What each seat sees, kept per engine and action, is what a replay on the deal gives.
            fresh = _replayed(node)
            assert node.hand.state == fresh.state and node.hand.deal == fresh.deal
            at = node.position_of
            assert node.visible_all() == {s: frozenset(at[c] for c in seen_by(fresh, s))
                                          for s in range(SEATS)}
        for s, node in enumerate(self.nodes):
            want = _true_visible(self.true, s, self.pos_of)
            assert set(node.known) == want, (s, sorted(set(node.known) ^ want))
            assert node.observation() == observe(self.true, s)
            assert node.hand.state.to_move == self.true.state.to_move
        public = observe_public(self.true)
        assert self.watcher.observation() == public
        assert self.watcher.hand.done == self.true.done

    def step(self) -> None:
        seat = self.true.state.to_move
        assert seat is not None
        action = self.rng.choice(self.true.legal(seat))
        plain = self.nodes[seat].play_own(action)
        self.true.apply(action)
        self.contribute(seat)  # the actor's shares travel with its action
        self.share()
        for s, node in enumerate(self.nodes):
            if s != seat:
                assert node.play_other(seat, plain) is not None
        self.watcher.play_other(seat, plain)
        self.tell(seat)
        for s in range(SEATS):
            if s != seat:
                self.contribute(s)
                self.tell(s)
        self.share()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_node_sees_exactly_its_seat_s_observation(variant: str) -> None:
    for seed in range(12):
        flow = Flow(variant, seed)
        for s in range(SEATS):
            flow.contribute(s)
        flow.share()
        flow.check()
        while not flow.true.done:
            flow.step()
            if not flow.true.done:
                flow.check()
        assert all(node.hand.done for node in flow.nodes)


def test_another_seat_cannot_play_a_card_it_does_not_hold() -> None:
    flow = Flow("tarock54", 3)
    for s in range(SEATS):
        flow.contribute(s)
    flow.share()
    seat = flow.true.state.to_move
    assert seat is not None
    other = (seat + 1) % SEATS
    node = flow.nodes[other]
    foreign = min(flow.layout.hands[other])
    with pytest.raises(VirtualError, match="does not hold"):
        node.play_other(seat, {"type": "pass", "seat": seat, "x": f"#{foreign}"})
    with pytest.raises(VirtualError, match="turn"):
        node.play_other(other, {"type": "pass", "seat": other})
    with pytest.raises(VirtualError, match="malformed"):
        node.play_other(seat, {"type": "no-such-action", "seat": seat})
    assert refs({"cards": ["#1", "#22", "XV"]}) == [1, 22]


@pytest.mark.parametrize("variant", VARIANTS)
def test_what_a_seat_sees_is_what_its_observation_shows(variant: str) -> None:
    """seen_by reads the state without building the observation: at every step of random
    hands, for every seat, it gives exactly the cards the observation locates."""
    rules = CATALOGUE.variants[variant].rules({})
    for seed in range(8):
        rng = random.Random(seed)
        active = active_seats(SEATS, seed % SEATS, rules.players_per_hand)
        hand = Hand(rules, seed % SEATS, *deal(rules, rng, SEATS, active), SEATS, active)
        while True:
            for s in range(SEATS):
                cards = {c: c for c in rules.deck}
                assert seen_by(hand, s) == _true_visible(hand, s, cards), (variant, seed, s)
            if hand.done:
                break
            seat = hand.state.to_move
            assert seat is not None
            hand.apply(rng.choice(hand.legal(seat)))
