"""``tarock54``: the 54-card game of seed 000 ("54 Blatt").

Rufer and secret partner against two: a player calls the highest tarock
from the XX down that he does not hold; the first call ends the bidding; the
declarer takes the first talon pile and lays three cards away; opponents may
Kontra (option ``kontra``); twelve tricks with Farbzwang, Tarockzwang and
Stichzwang whenever a tarock lies in the trick; counting in groups of three.

Decisions where the text is silent (see also ../shared/RULES.md):
- a deal all four pass is dealt again by the same dealer and is not a round;
- the partnership becomes public when the called tarock is played;
- Valat (+12) and Pagat Ultimo (+1) are added to the game value of 1, and the
  Kontra factor multiplies the total; a Valat is not scored as a draw;
- the lone declarer's amount is the value from each of the three others.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from core.actions import Action, Call, Pass
from core.cards import DECK54, KING, PAGAT, SUIT_OF, TAROCK, TRULL, Card, format_card, rank_of, tarock
from core.hookspecs import hookimpl
from core.phases import DiscardPhase, KontraChain, Phase, TakeTalonPile, TrickPlay
from core.registry import Variant
from core.rules import Rules
from core.state import Contract, HandResult, HandState, Premium, Reason, Trick
from variants.common import follow_reason, follow_with_overtrump, settle, tarock_trick_winner, thirds

RUFSPIEL = "rufspiel"
CALLABLE = tuple(tarock(n) for n in range(20, 0, -1))  # XX down to I
WIN = 36 * 3  # thirds
DRAW = 35 * 3


def card_to_call(hand: Sequence[Card]) -> Card | None:
    """The highest tarock from the XX down that ``hand`` does not hold."""
    for card in CALLABLE:
        if card not in hand:
            return card
    return None


class CallBidding(Phase):
    """In turn from the forehand: pass, or call the tarock to call.

    The first call wins the bidding; passing is final; four passes void the deal.
    """

    name = "bidding"

    def start(self, state: HandState, rules: Rules) -> None:
        state.data["bidding"] = {"passes": 0}
        state.to_move = state.forehand

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        out: list[Action] = [Pass(seat)]
        card = card_to_call(state.hands[seat])
        if card is not None:
            out.append(Call(seat, card))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if isinstance(action, Pass):
            return None
        if not isinstance(action, Call):
            return Reason("wrong-phase", f"pass or call now, not {action.describe()}")
        want = card_to_call(state.hands[action.seat])
        if want is None:
            return Reason("cannot-call", "you hold every tarock that may be called")
        if action.card != want:
            return Reason("must-call-highest", f"you must call {format_card(want)}, "
                          "the highest tarock from the XX down you do not hold")
        return None

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        if isinstance(action, Call):
            state.declarer = action.seat
            state.called = action.card
            state.contract = Contract(RUFSPIEL, value=1)
            holder = state.holder(action.card)
            state.partner = holder if holder != action.seat else None
            state.to_move = None
            return
        info = state.data["bidding"]
        info["passes"] += 1
        if info["passes"] == len(state.players):
            state.data["passed_out"] = True
            state.to_move = None
        else:
            state.to_move = state.next_seat(action.seat)


class Tarock54:
    """The hook implementations of ``tarock54``."""

    name = "tarock54"

    def __init__(self) -> None:
        self.handlers: dict[str, Phase] = {
            "bidding": CallBidding(),
            "talon": TakeTalonPile(0),
            "discard": DiscardPhase(),
            "kontra": KontraChain(),
            "play": TrickPlay(),
        }

    @hookimpl
    def tarock_options(self) -> dict[str, Any]:
        return {"kontra": True}

    @hookimpl
    def tarock_deck(self, options: dict[str, Any]) -> Sequence[Card]:
        return DECK54

    @hookimpl
    def tarock_deal_layout(self, options: dict[str, Any]) -> tuple[int, tuple[int, ...]]:
        return 12, (3, 3)

    @hookimpl
    def tarock_phases(self, state: HandState) -> Sequence[str]:
        if state.data.get("passed_out"):
            return ("bidding",)
        if state.options.get("kontra"):
            return ("bidding", "talon", "discard", "kontra", "play")
        return ("bidding", "talon", "discard", "play")

    @hookimpl
    def tarock_phase(self, name: str) -> Phase | None:
        return self.handlers.get(name)

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
    def tarock_kontra_max_level(self, state: HandState) -> int:
        return 4

    @hookimpl
    def tarock_kontra_reason(self, state: HandState, seat: int) -> Reason | None:
        if state.kontra_level == 0 and seat == state.partner:
            return Reason("partner-cannot-kontra", "the called partner cannot Kontra the declarer")
        return None

    @hookimpl
    def tarock_first_leader(self, state: HandState) -> int:
        return state.forehand

    @hookimpl
    def tarock_legal_plays(self, state: HandState, seat: int) -> Sequence[Card]:
        trick = state.trick
        return follow_with_overtrump(state.hands[seat], trick.cards if trick else ())

    @hookimpl
    def tarock_play_reason(self, state: HandState, seat: int, card: Card) -> Reason | None:
        assert state.trick is not None
        return follow_reason(state.hands[seat], state.trick.cards, card)

    @hookimpl
    def tarock_trick_winner(self, state: HandState, trick: Trick) -> int:
        return tarock_trick_winner(trick.cards)

    @hookimpl
    def tarock_partner_revealed(self, state: HandState, seat: int, card: Card) -> bool:
        return card == state.called

    @hookimpl
    def tarock_count(self, state: HandState, cards: Sequence[Card]) -> int:
        return thirds(cards)

    @hookimpl
    def tarock_premiums(self, state: HandState) -> Sequence[Premium]:
        party = state.declarer_party()
        out: list[Premium] = []
        last = state.tricks[-1]
        if PAGAT in last.cards and last.winner == last.seats[last.cards.index(PAGAT)]:
            out.append(Premium("pagat-ultimo", 1 if last.winner in party else -1))
        winners = {t.winner in party for t in state.tricks}
        if len(winners) == 1:
            out.append(Premium("valat", 12 if True in winners else -12))
        return out

    @hookimpl
    def tarock_score(self, state: HandState, rules: Rules) -> HandResult:
        players = state.players
        if state.declarer is None:
            return HandResult((), (0, 0), 3, None, 0, (), 1, (0,) * state.seats, "passed out")
        party = state.declarer_party()
        ours: list[Card] = list(state.discards)
        theirs: list[Card] = [c for pile in state.talon for c in pile]
        for trick in state.tricks:
            (ours if trick.winner in party else theirs).extend(trick.cards)
        points = (rules.count(state, ours), rules.count(state, theirs))
        won: bool | None = True if points[0] >= WIN else None if points[0] == DRAW else False
        assert state.contract is not None
        game = 0 if won is None else state.contract.value * (1 if won else -1)
        premiums = tuple(rules.premiums(state))
        factor = 2 ** state.kontra_level
        amount = (game + sum(p.value for p in premiums)) * factor
        declarers = tuple(sorted(party))
        return HandResult(declarers, points, 3, won, game, premiums, factor,
                          settle(state.seats, players, declarers, amount))


VARIANT = Variant(
    name="tarock54",
    title="54 Blatt (Zwanzigerrufen)",
    plugins=lambda: [Tarock54()],
    description="54 cards, call the XX, talon 2x3, Kontra chain, 12 tricks (seed 000).",
    lobby_order=2,
)
