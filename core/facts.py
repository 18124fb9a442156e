"""Rule facts: the public, read-only description of a table's rules.

Bots, the client and network peers read what they need from a
:class:`RuleFacts` value (which contracts exist and what they are worth, the
trick rules of each, the premiums, how points are counted, how amounts and
Kontra levels are written), never from a variant's name.  A house-rule
variant thereby gets the bots and the client of its base, with its own
changes known to them.  Every observation carries its table's facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from tarock.core.cards import VALUE, Card
from tarock.core.contracts import ContractSpec, Playable, PremiumSpec, contract_named

KONTRA_WORDS: tuple[str, ...] = ("Kontra", "Rekontra", "Subkontra", "Re-Sub")
"""The names of the Kontra levels 1..4 where a variant names none (docs/rules.md §8.1)."""


@dataclass(frozen=True, slots=True)
class VariantFacts:
    """What a variant says about itself beyond contracts and premiums.

    ``unit``: how many counting units make one card point (3 where points
    are counted in thirds).  ``card_values``: each card's points as this
    variant counts them card by card (per card id; a 40-card pip counts 0).
    ``kontra_scope``: ``game`` when one Kontra chain doubles the game with
    all its premiums, ``each`` when the game and every announcement carry a
    chain of their own.  ``money``: the unit of amounts (``""``: points,
    ``"ct"``: cents).  ``kontra_words``: the names of the Kontra levels.
    ``direction``: how play goes round the table, for drawing it (the next
    seat is always seat + 1).  ``playable``: the contract data its phases and
    scoring honour; a contract asking for more is refused when the rules are built.
    """

    unit: int = 1
    card_values: tuple[int, ...] = VALUE
    kontra_scope: Literal["game", "each"] = "game"
    money: str = ""
    kontra_words: tuple[str, ...] = KONTRA_WORDS
    direction: Literal["counterclockwise", "clockwise"] = "counterclockwise"
    playable: Playable = field(default_factory=Playable)


@dataclass(frozen=True, slots=True)
class RuleFacts:
    """A table's rules as data (see the module docstring)."""

    variant: str
    """The variant's name."""
    title: str
    """Its name for players."""
    deck: tuple[Card, ...]
    """The cards dealt, in deck order."""
    hand_size: int
    """Cards per hand."""
    talon_piles: tuple[int, ...]
    """The size of each talon pile (empty: no talon)."""
    players: int
    """How many seats play one hand."""
    contracts: tuple[ContractSpec, ...]
    """The contracts, lowest rank first."""
    premiums: tuple[PremiumSpec, ...]
    facts: VariantFacts
    options: Mapping[str, object] = field(default_factory=dict)
    """The table's option values, by option name."""
    plugins: tuple[tuple[str, str], ...] = ()
    """``(name, version)`` of every plugin of the ruleset, in registration order."""

    def contract(self, name: str) -> ContractSpec | None:
        """The contract called ``name``, or None."""
        return contract_named(self.contracts, name)

    def premium(self, name: str) -> PremiumSpec | None:
        """The premium called ``name``, or None."""
        return next((p for p in self.premiums if p.name == name), None)
