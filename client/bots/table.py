"""What the bots read off a table's rules, once per table.

Every observation carries the table's :class:`~core.facts.RuleFacts` (the
same value for the whole table); the bots work out here, once, what they
need from it that no single contract says: the deck as a set, the card
values, and which of the heuristic's strategies fits the table.  Nothing
here knows a variant by name: a house rule over a variant gets what its
rules' data say, so it gets the bots of its base with its own changes.

Strategies (:attr:`TableFacts.strategy`):

- ``forty``: the 40-card ladder (:mod:`client.bots.forty`): a deck of 40
  cards dealt out completely (no talon) with contracts of the ladder's
  shapes (played for points, the tarocks or a named suit trumping; see
  :func:`client.bots.forty.ladder_game`).
- ``koenig``: Königrufen (:mod:`client.bots.koenig`): a contract whose
  partner is found by calling a King (a :class:`~core.contracts.CallRule`
  over Kings).
- ``generic``: everything else (the 54-card Rufspiel that calls the XX, and
  any game the other two do not recognise).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from tarock.client.bots.forty import ladder_game
from tarock.core.cards import Card, is_king
from tarock.core.contracts import ContractSpec
from tarock.core.facts import RuleFacts
from tarock.core.observation import Observation

Strategy: TypeAlias = Literal["forty", "koenig", "generic"]

FORTY_DECK = 40


@dataclass(frozen=True, slots=True)
class TableFacts:
    """The bots' reading of one table's rules (module docstring)."""

    rules: RuleFacts
    deck: frozenset[Card]
    values: tuple[int, ...]
    """Card points per card id as the variant counts them card by card."""
    strategy: Strategy


def calls_a_king(spec: ContractSpec) -> bool:
    """Whether the declarer of ``spec`` calls a King for a partner (docs/rules.md §15.3)."""
    return spec.call is not None and bool(spec.call.cards) and all(is_king(c) for c in spec.call.cards)


def _strategy(rules: RuleFacts) -> Strategy:
    if len(rules.deck) == FORTY_DECK and not any(rules.talon_piles) and \
            any(ladder_game(spec) is not None for spec in rules.contracts):
        return "forty"
    if any(calls_a_king(spec) for spec in rules.contracts):
        return "koenig"
    return "generic"


_CACHE: dict[int, TableFacts] = {}
_CACHE_SIZE = 64


def table_facts(obs: Observation) -> TableFacts:
    """The :class:`TableFacts` of the table ``obs`` was made at (worked out once
    per table: the observation's rules are one value for the whole table)."""
    rules = obs.rules
    if rules is None:
        raise ValueError("the observation carries no rule facts (Observation.rules): a bot needs them")
    found = _CACHE.get(id(rules))
    if found is not None and found.rules is rules:
        return found
    facts = TableFacts(rules, frozenset(rules.deck), tuple(rules.facts.card_values), _strategy(rules))
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[id(rules)] = facts  # holds ``rules``, so its id is not reused while cached
    return facts
