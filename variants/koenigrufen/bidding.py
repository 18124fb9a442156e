"""The auction's style per dialect, and the Besserrufer birds.

The auction itself is core's (:class:`core.auction.Auction`), driven by the
games' data.  Both texts: the forehand speaks first and cannot pass then
("Abgeben der Vorhand ist unzulässig", 002; "Er muss als erster ein Spiel
melden", 003); passing is final ("Wer ... einmal Weiter! gesagt hat, kann
kein Spiel mehr lizitieren"); a player whose bid was overbid may bid again;
the auction ends when all players still in hold the highest bid.  The club (docs/rules.md §16.2)
adds "Vorhand!", Bei-games whose values add up, and several Besserrufer who
then name their birds (:class:`BirdContest`).  The course (§17.2): forehand-only
games may be bid by the forehand at any of his turns.
"""

from __future__ import annotations

from typing import Any

from tarock.core.actions import Action, Announce, Bid, Pass
from tarock.core.auction import VORHAND, Auction, AuctionStyle, auction_info, declare
from tarock.core.cards import format_card
from tarock.core.contracts import ContractSpec
from tarock.core.phases import Phase
from tarock.core.rules import Rules
from tarock.core.state import Announcement, HandState, PhaseId, Reason
from tarock.variants.koenigrufen.context import kr
from tarock.variants.koenigrufen.games import BIRD_NAME, BIRDS, Dialect, is_bird_game

BIRDS_PHASE = PhaseId("birds")


def style(dialect: Dialect) -> AuctionStyle:
    """The auction of one rule text: the forehand must open; the others are asked
    to the end (nobody's bid ends it at once); the club's Vorhand! and Bei (docs/rules.md §16.2)."""
    return AuctionStyle(opening_pass=False, ends_at_top=False, vorhand=dialect.vorhand_call,
                        max_joiners=dialect.bei_max)


def opening_only(spec: ContractSpec) -> bool:
    """Whether ``spec`` is bid only as the forehand's very first word (``extra["forehand_bid"] ==
    "opening"``; docs/rules.md §18.2, the Sechserdreier), not chosen after Vorhand!."""
    return spec.extra.get("forehand_bid") == "opening"


class HoldingAuction(Auction):
    """Core's auction plus two rules of the Upper-Austrian text, both off by default:
    the option ``forehand_hold`` ("ich halte", docs/rules.md §18.2: the forehand takes the
    standing game of another player without outbidding it; the others must then bid
    higher) and forehand games bid as her opening word (:func:`opening_only`)."""

    _openers_of: tuple[Rules, frozenset[str]] | None = None

    def _hold(self, state: HandState, rules: Rules, seat: int, info: dict[str, Any]) -> str | None:
        """The game ``seat`` may hold now, if any."""
        if not state.options.get("forehand_hold") or seat != state.forehand or info["choosing"]:
            return None
        top = self.top(rules, info)
        if top is None or top[0] == VORHAND or seat in top[1]:
            return None
        spec = rules.contract(top[0])
        assert spec is not None
        return top[0] if self.refusal(state, rules, seat, spec) is None else None

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        out = super().legal(state, rules, seat)
        if seat != state.to_move:
            return out
        info = auction_info(state)
        openers = self._openers(rules)
        if openers:
            first = seat == state.forehand and not info["log"] and not info["choosing"]
            if not first:
                out = [a for a in out if not (isinstance(a, Bid) and a.contract in openers)]
            else:
                for spec in rules.contracts:
                    if spec.name in openers and self.refusal(state, rules, seat, spec) is None:
                        out.extend(b for b in self._bids(state, rules, seat, spec) if b not in out)
        held = self._hold(state, rules, seat, info)
        if held is not None:
            out.append(Bid(seat, held))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if (isinstance(action, Bid) and self._opening(rules, action.contract)
                and action not in self.legal(state, rules, action.seat)):
            return Reason("opening-game", f"{action.contract} is bid only as the forehand's first word")
        return super().check(state, rules, action)

    @staticmethod
    def _opening(rules: Rules, name: str) -> bool:
        spec = rules.contract(name)
        return spec is not None and opening_only(spec)

    def _openers(self, rules: Rules) -> frozenset[str]:
        """The names of the games bid only as the forehand's opening word
        (:func:`opening_only`; looked up once per rules)."""
        known = self._openers_of
        if known is None or known[0] is not rules:
            known = (rules, frozenset(c.name for c in rules.contracts if opening_only(c)))
            self._openers_of = known
        return known[1]

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = auction_info(state)
        if isinstance(action, Bid) and action.contract == self._hold(state, rules, action.seat, info):
            for other, name in list(info["bids"].items()):
                if name == action.contract:  # held: the bidder is outbid and may bid again
                    del info["bids"][other]
        super().apply(state, rules, action)


def contest_seats(state: HandState) -> list[int]:
    """The Besserrufer who bid together and name their birds (empty: none)."""
    info = state.data.get("auction", {})
    seats: list[int] = info.get("contest", [])
    return seats


class BirdContest(Phase):
    """Several Besserrufer (docs/rules.md §6.4): "sagen die Spieler ihre Vögel vor dem
    Rufen. Wer den höchsten Vogel ansagt, spielt."

    In bidding order each names a bird he holds, higher than the best so far,
    or passes (the first must name one).  The winner plays the Besserrufer
    with his bird announced.
    """

    name = BIRDS_PHASE

    def __init__(self, dialect: Dialect) -> None:
        self.d = dialect

    def start(self, state: HandState, rules: Rules) -> None:
        kr(state)["birds"] = {"i": 0, "best": None, "seat": None}
        state.to_move = contest_seats(state)[0]

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        info = kr(state)["birds"]
        best = -1 if info["best"] is None else info["best"]
        out: list[Action] = [] if info["best"] is None else [Pass(seat)]
        for name, (card, _) in BIRDS.items():
            if card in state.hands[seat] and card > best:
                out.append(Announce(seat, (name,)))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if action in self.legal(state, rules, action.seat):
            return None
        info = kr(state)["birds"]
        if isinstance(action, Announce) and info["best"] is not None:
            return Reason("bird-too-low", f"name a bird higher than {format_card(info['best'])} or pass")
        return Reason("must-name-bird", "name a bird you hold (or pass if one was named)")

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = kr(state)["birds"]
        order = contest_seats(state)
        if isinstance(action, Announce):
            info["best"] = BIRDS[action.announce[0]][0]
            info["seat"] = action.seat
        info["i"] += 1
        if info["i"] < len(order):
            state.to_move = order[info["i"]]
            return
        state.to_move = None
        seat = info["seat"]
        spec = next(g for g in rules.contracts if is_bird_game(g))
        declare(state, rules, spec, [seat])
        bird = BIRD_NAME[info["best"]]
        state.announcements.append(Announcement(bird, seat))
        kr(state)["bird_done"] = bird
