"""``tarock54``: the 54-card game of docs/rules.md §12 ("54 Blatt").

Rufer and secret partner against two: a player calls the highest tarock
from the XX down that he does not hold; the first call ends the bidding; the
declarer takes the first talon pile and lays three cards away; opponents may
Kontra (option ``kontra``); twelve tricks with Farbzwang, Tarockzwang and
Stichzwang whenever a tarock lies in the trick; counting in groups of three.

Decisions where the text is silent (docs/rules.md §12 states them all):
- a deal all four pass is dealt again by the same dealer and is not a round;
- the partnership becomes public when the called tarock is played;
- Valat (+12) and Pagat Ultimo (+1) are added to the game value of 1, and the
  Kontra factor multiplies the total; a Valat is not scored as a draw;
- the lone declarer's amount is the value from each of the three others.

Contracts a house rule adds are played from their data: a goal of card points
or of an exact number of tricks (a Bettel: none), alone or with a called
partner (the card called with the bid, set with it, at the auction's end or
after it), the tarocks, a named suit (chosen by the declarer once the auction
is won) or no trump (a colour game), the talon pile or none, ouvert.  Data
beyond that (another talon use, each for himself, joining) is refused when
the rules are built (``VariantFacts.playable``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, Final

from tarock.core import contracts
from tarock.core.auction import Auction
from tarock.core.cards import KING, PAGAT, SUIT_OF, TAROCK, TRULL, Card, rank_of, tarock
from tarock.core.facts import VariantFacts
from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec
from tarock.core.registry import Variant
from tarock.core.rules import Rules
from tarock.core.settlement import game_item
from tarock.core.state import HandState, Reason, Score, Verdict
from tarock.variants.common import ContractPhases, Deal54, thirds

VERSION: Final = "2.0"
CALLABLE: Final = tuple(tarock(n) for n in range(20, 0, -1))
"""XX down to I: the tarocks that may be called, the highest missing one first."""
WIN: Final = 36 * 3
"""Thirds the declarer party needs (docs/rules.md §12.4: "mindestens 36 Punkte")."""
DRAW: Final = 35 * 3


def rufspiel(kontra: bool) -> contracts.ContractSpec:
    """docs/rules.md §12.1: the declarer calls the highest tarock from the XX down he does not hold."""
    return contracts.ContractSpec(
        "rufspiel", "Rufspiel (XX rufen)", rank=1, value=1,
        description="call the highest tarock from the XX down you do not hold; its holder is your partner",
        partnership="called", call=contracts.CallRule(CALLABLE, highest=True, when="bid"),
        talon="pile", talon_pile=0, tricks=contracts.TrickRules(overtrump=True),
        goal=contracts.Goal("points", WIN, draw=DRAW),
        kontra=4 if kontra else 0, premiums=frozenset({"pagat-ultimo", "valat"}))


PREMIUMS: Final = (
    contracts.PremiumSpec("pagat-ultimo", "Pagat Ultimo", silent=1,
                          description="the Pagat is played in the last trick and wins it"),
    contracts.PremiumSpec("valat", "Valat", silent=12, description="one party makes all twelve tricks"),
)
PLAYABLE: Final = contracts.Playable(
    goals=contracts.goal_pairs(("points", "tricks"), ("alone", "called")),
    trumps=frozenset({"tarock", "colour", "suit"}), talon=frozenset({"none", "pile"}),
    calls=frozenset({"bid", "bid-auto", "end", "after"}))
"""What the phases and the scoring below play (house rules' contracts included)."""


class Tarock54(ContractPhases, Deal54):
    """The hook implementations of ``tarock54``."""

    name = "tarock54"
    version = VERSION

    def __init__(self) -> None:
        super().__init__(Auction(), talon=True)

    @hookimpl
    def tarock_options(self) -> Sequence[OptionSpec]:
        return [OptionSpec("kontra", True, "the opponents may say Kontra, Rekontra, Subkontra and Re-Sub")]

    @hookimpl
    def tarock_contracts(self, options: Mapping[str, Any]) -> Sequence[contracts.ContractSpec]:
        return [rufspiel(bool(options["kontra"]))]

    @hookimpl
    def tarock_premium_specs(self, options: Mapping[str, Any]) -> Sequence[contracts.PremiumSpec]:
        return PREMIUMS

    @hookimpl
    def tarock_variant_facts(self, options: Mapping[str, Any]) -> VariantFacts:
        return VariantFacts(unit=3, playable=PLAYABLE)

    @hookimpl
    def tarock_legal_discards(self, state: HandState, seat: int, count: int) -> Sequence[tuple[Card, ...]]:
        hand = sorted(state.hands[seat])
        plain = [c for c in hand if c >= 22 and rank_of(c) != KING]
        if len(plain) >= count:
            return list(combinations(plain, count))
        tarocks = [c for c in hand if c < 22 and c not in TRULL]
        return [tuple(sorted(plain + list(extra))) for extra in combinations(tarocks, count - len(plain))]

    @hookimpl
    def tarock_discard_reason(self, state: HandState, seat: int, cards: tuple[Card, ...]) -> Reason | None:
        kings = [c for c in cards if SUIT_OF[c] != TAROCK and rank_of(c) == KING]
        if kings:
            return Reason("discard-king", "Kings may not be laid away")
        if any(c in TRULL for c in cards):
            return Reason("discard-trull", "Pagat, Mond and Sküs may not be laid away")
        tarocks = sum(1 for c in cards if c < 22)
        if tarocks:
            plain = sum(1 for c in state.hands[seat] if c >= 22 and rank_of(c) != KING)
            if tarocks != len(cards) - plain or plain >= len(cards):
                return Reason("discard-tarock",
                              "tarocks may be laid away only when there are not enough suit cards")
        return None

    @hookimpl
    def tarock_kontra_verdict(self, state: HandState, seat: int) -> Verdict | None:
        if state.kontra_level == 0 and seat == state.partner:
            return Verdict.deny("partner-cannot-kontra", "the called partner cannot Kontra the declarer")
        return None

    @hookimpl
    def tarock_count(self, state: HandState, cards: Sequence[Card]) -> int:
        return thirds(cards)

    @hookimpl
    def tarock_premium_outcomes(self, state: HandState) -> Mapping[str, contracts.Outcome]:
        party = state.declarer_party()
        out: dict[str, contracts.Outcome] = {}
        last = state.tricks[-1]
        if PAGAT in last.cards and last.winner == last.seats[last.cards.index(PAGAT)]:
            out["pagat-ultimo"] = contracts.Outcome(last.winner in party)
        sides = {t.winner in party for t in state.tricks}
        if len(sides) == 1:
            out["valat"] = contracts.Outcome(sides.pop())
        return out

    @hookimpl
    def tarock_score(self, state: HandState, rules: Rules) -> Score:
        if state.declarer is None or state.contract is None:
            return Score((), (0, 0), 3, None, passed_out=True, note="passed out")
        party = state.declarer_party()
        ours: list[Card] = list(state.discards)
        theirs: list[Card] = [c for pile in state.talon for c in pile]
        for trick in state.tricks:
            (ours if trick.winner in party else theirs).extend(trick.cards)
        points = (rules.count(state, ours), rules.count(state, theirs))
        taken = sum(1 for trick in state.tricks if trick.winner in party)
        won = state.contract.spec.goal.won(points[0], taken)
        declarers = tuple(sorted(party))
        opponents = tuple(s for s in state.players if s not in party)
        items = [game_item(declarers, opponents, state.contract.spec, won, state.kontra_level),
                 *rules.premium_items(state)]
        return Score(declarers, points, 3, won, tuple(items))


VARIANT = Variant(
    name="tarock54",
    title="54 Blatt (Zwanzigerrufen)",
    plugins=lambda: [Tarock54()],
    description="54 cards, call the XX, talon 2x3, Kontra chain, 12 tricks (docs/rules.md §12).",
    lobby_order=2,
)
