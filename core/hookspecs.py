"""The hooks through which variants and house rules decide the rules.

Every hook is documented in ``docs/hooks.md``; a test fails when one is not.
A table gets its own plugin manager holding its ruleset (a base variant and
its house rules, in order), so no hook needs to ask which variant is in play.
Hooks marked *first result* stop at the first implementation that returns
something other than ``None``; house rules registered after the variant are
asked first, and may also wrap (``wrapper=True``) the variant's answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from core.actions import Action
    from core.cards import Card
    from core.phases import Phase
    from core.rules import Rules
    from core.state import HandResult, HandState, Premium, Reason, Trick

PROJECT = "tarock"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# -- setup -------------------------------------------------------------------

@hookspec
def tarock_options() -> dict[str, Any]:
    """All results: each plugin's option defaults, merged in registration order."""


@hookspec
def tarock_action_types() -> Sequence[type[Action]]:
    """All results: action classes a plugin adds to the record vocabulary."""


@hookspec(firstresult=True)
def tarock_deck(options: dict[str, Any]) -> Sequence[Card] | None:
    """First result: the cards of the deck."""


@hookspec(firstresult=True)
def tarock_deal_layout(options: dict[str, Any]) -> tuple[int, tuple[int, ...]] | None:
    """First result: ``(cards per hand, talon pile sizes)``, e.g. ``(12, (3, 3))``."""


@hookspec(firstresult=True)
def tarock_redeal_reason(hands: Sequence[Sequence[Card]], options: dict[str, Any]) -> str | None:
    """First result: why this deal must be dealt again, or None if it stands."""


# -- the flow of a hand ------------------------------------------------------

@hookspec(firstresult=True)
def tarock_phases(state: HandState) -> Sequence[str] | None:
    """First result: the names of the phases of this hand, in order.

    Asked at the start and whenever a phase ends, so the sequence may depend
    on the contract.  The hand is over after the last phase.
    """


@hookspec(firstresult=True)
def tarock_phase(name: str) -> Phase | None:
    """First result: the handler of the phase called ``name``."""


# -- bidding and talon -------------------------------------------------------

@hookspec(firstresult=True)
def tarock_legal_discards(state: HandState, seat: int, count: int) -> Sequence[tuple[Card, ...]] | None:
    """First result: every set of ``count`` cards ``seat`` may lay away, each sorted."""


@hookspec(firstresult=True)
def tarock_discard_reason(state: HandState, seat: int, cards: tuple[Card, ...]) -> Reason | None:
    """First result: why ``cards`` are not among the legal discards (for messages)."""


@hookspec(firstresult=True)
def tarock_kontra_max_level(state: HandState) -> int | None:
    """First result: the highest Kontra level of this contract (2 = Rekontra)."""


@hookspec(firstresult=True)
def tarock_kontra_reason(state: HandState, seat: int) -> Reason | None:
    """First result: why ``seat`` may not raise the Kontra chain now, or None.

    Implementations that allow must return None (see tarock_discard_reason).
    """


# -- play --------------------------------------------------------------------

@hookspec(firstresult=True)
def tarock_first_leader(state: HandState) -> int | None:
    """First result: the seat that leads the first trick."""


@hookspec(firstresult=True)
def tarock_legal_plays(state: HandState, seat: int) -> Sequence[Card] | None:
    """First result: the cards ``seat`` may play to the current trick."""


@hookspec(firstresult=True)
def tarock_play_reason(state: HandState, seat: int, card: Card) -> Reason | None:
    """First result: why ``card`` is not among the legal plays (for messages)."""


@hookspec(firstresult=True)
def tarock_trick_winner(state: HandState, trick: Trick) -> int | None:
    """First result: the index (in play order) of the card that wins ``trick``."""


@hookspec(firstresult=True)
def tarock_partner_revealed(state: HandState, seat: int, card: Card) -> bool | None:
    """First result: whether playing ``card`` makes the partnership public."""


# -- what every seat sees ----------------------------------------------------

@hookspec(firstresult=True)
def tarock_talon_shown(state: HandState) -> Sequence[Sequence[Card]] | None:
    """First result: per talon pile (as dealt), the cards turned up for all to see so far."""


@hookspec(firstresult=True)
def tarock_discards_shown(state: HandState) -> Sequence[Card] | None:
    """First result: the discarded cards that were laid away openly."""


@hookspec(firstresult=True)
def tarock_open_hands(state: HandState) -> Sequence[int] | None:
    """First result: the seats whose hands lie open on the table (ouvert games)."""


# -- counting and settlement -------------------------------------------------

@hookspec(firstresult=True)
def tarock_count(state: HandState, cards: Sequence[Card]) -> int | None:
    """First result: the card points of one party's cards, in the variant's unit."""


@hookspec(firstresult=True)
def tarock_premiums(state: HandState) -> Sequence[Premium] | None:
    """First result: the premiums of the finished hand (declarer party's view)."""


@hookspec(firstresult=True)
def tarock_score(state: HandState, rules: Rules) -> HandResult | None:
    """First result: the result of the finished hand, with its settlement.

    ``rules`` is the table's facade: ask ``rules.count`` and ``rules.premiums``
    through it, so that house rules wrapping those hooks take effect.
    """
