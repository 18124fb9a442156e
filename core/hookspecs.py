"""The hooks through which variants and house rules decide the rules.

Every hook is documented in ``docs/hooks.md``; a test fails when one is not.
A table gets its own plugin manager holding its ruleset: core's data rules
(:mod:`core.defaults`) first, then the base variant and its house rules, in
order, so no hook needs to ask which variant is in play.  Hooks marked
*first result* stop at the first implementation that returns something
other than ``None``; house rules registered after the variant are asked
first, and may also wrap (``wrapper=True``) the variant's answer.

Most rules are data: contracts (``tarock_contracts``), premiums
(``tarock_premium_specs``), options (``tarock_options``) and facts
(``tarock_variant_facts``) are values that core's generic mechanisms read.
The other hooks carry what data cannot say; rule decisions answer a
:class:`~core.state.Verdict` (allow or deny with a reason) or None for no
opinion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

from tarock.core.hookmarks import PROJECT as PROJECT
from tarock.core.hookmarks import hookimpl as hookimpl  # where plugins have always found it

if TYPE_CHECKING:
    from tarock.core.actions import Action, KontraTarget
    from tarock.core.cards import Card
    from tarock.core.context import TableContext
    from tarock.core.contracts import ContractSpec, Outcome, PremiumSpec
    from tarock.core.facts import VariantFacts
    from tarock.core.options import OptionSpec
    from tarock.core.phases import Phase
    from tarock.core.rules import Rules
    from tarock.core.state import HandResult, HandState, PhaseId, Reason, Score, Trick, Verdict

hookspec = pluggy.HookspecMarker(PROJECT)


# -- setup: the rules as data ------------------------------------------------

@hookspec
def tarock_options() -> Sequence[OptionSpec]:
    """All results: the options each plugin declares (a name declared twice is an error)."""


@hookspec
def tarock_option_defaults() -> Mapping[str, Any]:
    """All results: new defaults for options other plugins declare, later plugins winning."""


@hookspec
def tarock_action_types() -> Sequence[type[Action]]:
    """All results: action classes a plugin adds to the record vocabulary."""


@hookspec(firstresult=True)
def tarock_deck(options: Mapping[str, Any]) -> Sequence[Card] | None:
    """First result: the cards of the deck."""


@hookspec(firstresult=True)
def tarock_deal_layout(options: Mapping[str, Any]) -> tuple[int, tuple[int, ...]] | None:
    """First result: ``(cards per hand, talon pile sizes)``, e.g. ``(12, (3, 3))``."""


@hookspec(firstresult=True)
def tarock_redeal_reason(hands: Sequence[Sequence[Card]], options: Mapping[str, Any]) -> str | None:
    """First result: why this deal must be dealt again, or None if it stands."""


@hookspec(firstresult=True)
def tarock_contracts(options: Mapping[str, Any]) -> Sequence[ContractSpec] | None:
    """First result: the contracts of the variant (wrap it to add, remove or change one)."""


@hookspec(firstresult=True)
def tarock_premium_specs(options: Mapping[str, Any]) -> Sequence[PremiumSpec] | None:
    """First result: the premiums and their values (wrap it to change a value)."""


@hookspec(firstresult=True)
def tarock_variant_facts(options: Mapping[str, Any]) -> VariantFacts | None:
    """First result: counting unit, card values, Kontra scope and words, money unit, direction."""


# -- the flow of a hand ------------------------------------------------------

@hookspec(firstresult=True)
def tarock_phases(state: HandState) -> Sequence[PhaseId] | None:
    """First result: the names of the phases of this hand, in order.

    Asked at the start and whenever a phase ends, so the sequence may depend
    on the contract.  The hand is over after the last phase.
    """


@hookspec(firstresult=True)
def tarock_phase(name: PhaseId) -> Phase | None:
    """First result: the handler of the phase called ``name``."""


# -- auction, announcements, Kontra ------------------------------------------

@hookspec(firstresult=True)
def tarock_bid_verdict(state: HandState, seat: int, contract: ContractSpec) -> Verdict | None:
    """First result: whether ``seat`` may bid ``contract`` now beyond the contract's own data."""


@hookspec(firstresult=True)
def tarock_callable(state: HandState, seat: int, contract: ContractSpec) -> Sequence[Card] | None:
    """First result: the cards the declarer ``seat`` may call for a partner in ``contract``."""


@hookspec(firstresult=True)
def tarock_announce_verdict(state: HandState, seat: int, name: str, contract: ContractSpec) -> Verdict | None:
    """First result: whether ``seat`` may announce the premium ``name`` for ``contract`` now.

    ``contract`` is the game being bid (announcements made with a bid) or the
    game in play.
    """


@hookspec(firstresult=True)
def tarock_kontra_verdict(state: HandState, seat: int, target: KontraTarget) -> Verdict | None:
    """First result: whether ``seat`` may raise the Kontra chain on ``target`` now."""


@hookspec(firstresult=True)
def tarock_kontra_duty(state: HandState, seat: int) -> bool | None:
    """First result: whether ``seat`` must say Kontra on the game now (Pflichtkontra)."""


# -- talon -------------------------------------------------------------------

@hookspec(firstresult=True)
def tarock_legal_discards(state: HandState, seat: int, count: int) -> Sequence[tuple[Card, ...]] | None:
    """First result: every set of ``count`` cards ``seat`` may lay away, each sorted."""


@hookspec(firstresult=True)
def tarock_discard_reason(state: HandState, seat: int, cards: tuple[Card, ...]) -> Reason | None:
    """First result: why ``cards`` are not among the legal discards (for messages)."""


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


# -- counting, settlement, the table -----------------------------------------

@hookspec(firstresult=True)
def tarock_count(state: HandState, cards: Sequence[Card]) -> int | None:
    """First result: the card points of one party's cards, in the variant's unit."""


@hookspec(firstresult=True)
def tarock_premium_outcomes(state: HandState) -> Mapping[str, Outcome] | None:
    """First result: which party made (or attempted and failed) each premium of the finished hand."""


@hookspec(firstresult=True)
def tarock_score(state: HandState, rules: Rules) -> Score | None:
    """First result: the score of the finished hand: points, outcome and settlement items.

    ``rules`` is the table's facade: ask ``rules.count`` and
    ``rules.premium_items`` through it, so that house rules wrapping those
    hooks take effect.  Core turns the items into the settlement.
    """


@hookspec(firstresult=True)
def tarock_next_context(context: TableContext, state: HandState, result: HandResult) -> TableContext | None:
    """First result: the table context of the next deal (wrap it to remember something)."""
