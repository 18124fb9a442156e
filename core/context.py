"""The table context: what carries from one hand to the next.

A :class:`TableContext` is an immutable value: the round and deal being
played, the dealer, the multiplier of a raised round (docs/rules.md §3.6: after a
Fahrer "die nächste Spielrunde ... zählt doppelt"), and a memory in which
house rules keep what they need across hands (keyed by plugin name, plain
data only).  Each hand is played under one context, which the hand's state
holds (``HandState.context``) so rules can read it; after the hand the
``tarock_next_context`` hook computes the next one.  Every record carries
the context of its hand, the rules hash covers it, and replay honours it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tarock.core.codec import RecordError, check_plain


@dataclass(frozen=True, slots=True)
class TableContext:
    """The state of a table between hands that the rules may depend on.

    ``round`` counts the table's rounds from 1; ``deal`` the deals within
    the round (a passed-out deal is dealt again and is no round); ``dealer``
    deals this hand.  The hand's amounts count ``factor`` times while
    ``raised`` > 0 (``raised`` counts the raised rounds left, this one
    included).  ``memory`` is the house rules' memory, by plugin name.
    """

    round: int = 1
    deal: int = 1
    dealer: int = 0
    factor: int = 1
    raised: int = 0
    memory: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.round < 1 or self.deal < 1 or self.dealer < 0 or self.factor < 1 or self.raised < 0:
            raise ValueError(f"not a table context: round {self.round}, deal {self.deal}, dealer "
                             f"{self.dealer}, factor {self.factor}, raised {self.raised}")
        try:
            check_plain(dict(self.memory), "memory")
        except RecordError as exc:
            raise ValueError(str(exc)) from None

    @property
    def multiplier(self) -> int:
        """How many times this hand's amounts count on the score sheet."""
        return self.factor if self.raised > 0 else 1

    def remember(self, plugin: str, value: Any) -> TableContext:
        """A copy whose memory holds ``value`` (plain data) for ``plugin``."""
        return replace(self, memory={**self.memory, plugin: value})

    def recalled(self, plugin: str, default: Any = None) -> Any:
        """What ``plugin`` remembered, or ``default``."""
        return self.memory.get(plugin, default)


def following(context: TableContext, seats: int, passed_out: bool, next_round_factor: int) -> TableContext:
    """The context of the next deal, before house rules add to it.

    A passed-out deal is dealt again by the same dealer in the same round;
    otherwise the round counts, the deal passes to the next seat, a raised
    series counts down, and a hand whose result raises the next round
    (``next_round_factor`` > 1) starts a new series of ``seats`` rounds.
    """
    if passed_out:
        return replace(context, deal=context.deal + 1)
    raised = max(0, context.raised - 1)
    factor = context.factor if raised else 1
    if next_round_factor > 1:
        factor, raised = next_round_factor, seats
    return replace(context, round=context.round + 1, deal=1, dealer=(context.dealer + 1) % seats,
                   factor=factor, raised=raised)
