"""Core's data rules: the hook answers that follow from the contracts' data.

Registered first in every table's plugin manager, so the variant and its
house rules (registered after it) are asked before it and may answer
differently, wrap it, or leave it be.  It answers trick play from the
contract's :class:`~core.contracts.TrickRules`, the first leader and the
callable cards from the contract, the hands laid open in an ouvert game
(the declarers', after the first trick), the table context's next value,
and "no opinion" on every rule decision.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarock.core.cards import TAROCK, Card, Suit
from tarock.core.context import TableContext, following
from tarock.core.contracts import ContractSpec
from tarock.core.facts import VariantFacts
from tarock.core.hookmarks import hookimpl
from tarock.core.state import HandResult, HandState, Reason, Trick, declarer_seats
from tarock.core.tricks import legal, refusal, winner

VERSION = "2"
"""The version of core's data rules (part of every rules hash)."""


def trump_suit(state: HandState) -> Suit:
    """The suit that trumps in this hand: the named suit of a ``suit`` game, else the tarocks."""
    contract = state.contract
    return TAROCK if contract is None else contract.suit


class DataRules:
    """The hook implementations every ruleset starts from."""

    name = "core"
    version = VERSION

    @hookimpl
    def tarock_variant_facts(self) -> VariantFacts:
        return VariantFacts()

    @hookimpl
    def tarock_first_leader(self, state: HandState) -> int | None:
        if state.contract is None:
            return None
        if state.contract.spec.leader == "declarer" and state.declarer is not None:
            return state.declarer
        return state.forehand

    @hookimpl
    def tarock_callable(self, state: HandState, seat: int, contract: ContractSpec) -> Sequence[Card] | None:
        rule = contract.call
        if rule is None:
            return None
        hand = state.hands[seat]
        missing = [c for c in rule.cards if c not in hand]
        return missing[:1] if rule.highest else missing

    @hookimpl
    def tarock_legal_plays(self, state: HandState, seat: int) -> Sequence[Card] | None:
        contract = state.contract
        if contract is None:
            return None
        trick = state.trick.cards if state.trick is not None else ()
        return legal(state.hands[seat], trick, contract.spec.tricks, contract.suit)

    @hookimpl
    def tarock_play_reason(self, state: HandState, seat: int, card: Card) -> Reason | None:
        contract = state.contract
        if contract is None or state.trick is None:
            return None
        return refusal(state.hands[seat], state.trick.cards, card, contract.spec.tricks, trump_suit(state))

    @hookimpl
    def tarock_trick_winner(self, state: HandState, trick: Trick) -> int | None:
        contract = state.contract
        if contract is None:
            return None
        return winner(trick.cards, contract.spec.tricks, contract.suit)

    @hookimpl
    def tarock_open_hands(self, state: HandState) -> Sequence[int] | None:
        contract = state.contract
        if contract is None or not contract.spec.ouvert or not state.tricks:
            return None
        return declarer_seats(contract, state.declarer)

    @hookimpl
    def tarock_partner_revealed(self, state: HandState, seat: int, card: Card) -> bool:
        return state.called is not None and card == state.called

    @hookimpl
    def tarock_next_context(self, context: TableContext, state: HandState,
                            result: HandResult) -> TableContext:
        return following(context, state.seats, result.passed_out, result.next_round_factor)
