"""A table's ruleset: its own plugin manager and a typed facade over it.

The errors it raises are in :mod:`core.rule_errors`, who a plugin is in
:mod:`core.plugin_ids`, how its hooks are called in :mod:`core.hookcall` and the
checks of what the plugins declare in :mod:`core.rulecheck`; the names used with
the rules are importable from here too.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import pluggy

from tarock.core import hookspecs
from tarock.core.actions import CORE_ACTIONS, Action, KontraTarget
from tarock.core.cards import Card
from tarock.core.codec import Codec
from tarock.core.context import TableContext
from tarock.core.contracts import ContractSpec, Outcome, PremiumSpec
from tarock.core.defaults import DataRules
from tarock.core.facts import RuleFacts, VariantFacts
from tarock.core.hookcall import first_result_caller, other_than
from tarock.core.options import OptionError, OptionValue, resolve
from tarock.core.phases import Phase
from tarock.core.plugin_ids import (
    SOURCE_DIGEST,
    blame,
    plugin_name,
    plugin_source,
    plugin_version,
    registration_error,
)
from tarock.core.rule_errors import PluginFailure, RuleError
from tarock.core.rulecheck import check_playable, checked_specs, culprit, declared_options
from tarock.core.settlement import Item, SettlementError, premium_items, settle
from tarock.core.state import HandResult, HandState, PhaseId, Reason, Score, Trick, Verdict

__all__ = ["SOURCE_DIGEST", "PluginFailure", "RuleError", "Rules", "blame", "plugin_source", "plugin_version"]


class Rules:
    """The rules of one table: core's data rules, a base variant and house rules, in order.

    ``plugins`` are registered in order after core's :class:`~core.defaults.DataRules`,
    so later ones (house rules) are asked first by first-result hooks.
    ``options`` override the declared defaults; an unknown option or a
    value of the wrong kind is a :class:`RuleError` naming the option.
    """

    def __init__(self, variant: str, plugins: Sequence[object],
                 options: Mapping[str, Any] | None = None, title: str = "") -> None:
        self.variant = variant
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.plugin_names: list[str] = []
        self.plugin_versions: list[str] = []
        self.sources: dict[str, tuple[str, str]] = {}
        """Per plugin loaded from a file by path: the sha256 of the file and the file
        (:func:`plugin_source`); the rules hash covers the digests."""
        for plugin in [DataRules(), *plugins]:
            name = plugin_name(plugin)
            try:
                self.pm.register(plugin, name=f"{len(self.plugin_names)}:{name}")
            except (ValueError, pluggy.PluginValidationError) as exc:
                raise RuleError(registration_error(self.pm, name, exc)) from exc
            self.plugin_names.append(name)
            self.plugin_versions.append(plugin_version(plugin))
            if (source := plugin_source(plugin)) is not None:
                self.sources[name] = source
        for hook_name, caller in vars(self.pm.hook).items():
            if isinstance(caller, pluggy.HookCaller) and caller.spec is None:
                for impl in caller.get_hookimpls():
                    raise RuleError(f"plugin {plugin_name(impl.plugin)!r} implements the hook "
                                    f"{hook_name!r}, which does not exist (a typo, or a plugin "
                                    "written for another version of tarock?)")
        self.hook = self.pm.hook
        self.calls: Mapping[int, Card] = MappingProxyType({})
        """Called cards told from elsewhere (:meth:`with_calls`); none in a table's own rules."""
        self._callers: dict[str, Callable[..., Any]] = {}
        self._sole: dict[str, Callable[..., Any] | None] = {}
        try:
            self.option_specs = declared_options(self.pm, self.plugin_names)
            self.options: Mapping[str, OptionValue] = MappingProxyType(
                resolve(self.option_specs, options or {}, variant))
        except OptionError as exc:
            raise RuleError(str(exc), code=exc.code, params=exc.params) from None
        actions: list[type[Action]] = list(CORE_ACTIONS)
        for part in reversed(self.hook.tarock_action_types()):
            actions.extend(part)
        try:
            self.codec = Codec(actions)
        except TypeError as exc:
            raise RuleError(f"{variant}: {exc}") from None
        self.deck: tuple[Card, ...] = tuple(self._need("tarock_deck", self.options))
        self.hand_size, self.talon_piles = self._need("tarock_deal_layout", self.options)
        dealt = len(self.deck) - sum(self.talon_piles)
        if self.hand_size < 1 or dealt % self.hand_size:
            raise RuleError(f"{variant}: {len(self.deck)} cards do not deal into hands of "
                            f"{self.hand_size} and a talon of {list(self.talon_piles)}")
        self.players_per_hand = dealt // self.hand_size
        """How many seats play one hand (4 in every tarock game)."""
        self.contracts: tuple[ContractSpec, ...] = tuple(sorted(
            self._specs("tarock_contracts", ContractSpec, "contracts"), key=lambda c: c.rank))
        self._by_name = {c.name: c for c in self.contracts}
        self.premium_specs: dict[str, PremiumSpec] = {
            spec.name: spec for spec in self._specs("tarock_premium_specs", PremiumSpec, "premiums")}
        facts = self._need("tarock_variant_facts", self.options)
        if not isinstance(facts, VariantFacts):
            who = self._culprit("tarock_variant_facts", (self.options,), other_than(VariantFacts))
            raise RuleError(f"{variant}: {who}, hook 'tarock_variant_facts': must answer a VariantFacts, "
                            f"not {facts!r}")
        self.variant_facts: VariantFacts = facts
        check_playable(variant, facts, self.contracts, self.premium_specs,
                       (self.deck, self.hand_size, tuple(self.talon_piles)), self.options, self._culprit)
        self.facts = RuleFacts(
            variant=variant, title=title or variant, deck=self.deck, hand_size=self.hand_size,
            talon_piles=tuple(self.talon_piles), players=self.players_per_hand, contracts=self.contracts,
            premiums=tuple(self.premium_specs.values()), facts=facts, options=self.options,
            plugins=tuple(zip(self.plugin_names, self.plugin_versions, strict=True)))
        self._phases: dict[str, Phase] = {}
        # Hot-path hooks are resolved once: the plugin set of a table is fixed.
        self._legal_plays = first_result_caller(self.hook.tarock_legal_plays, ("state", "seat"))
        self.legal_plays_direct: Callable[[HandState, int], Sequence[Card] | None] = self._legal_plays
        """``tarock_legal_plays`` resolved for this table (None when nobody answers)."""
        self._trick_winner = first_result_caller(self.hook.tarock_trick_winner, ("state", "trick"))
        self._partner_revealed = first_result_caller(
            self.hook.tarock_partner_revealed, ("state", "seat", "card"))
        self._bids_judged = bool(self.hook.tarock_bid_verdict.get_hookimpls())
        """Whether any plugin answers ``tarock_bid_verdict``."""
        self._redeals = bool(self.hook.tarock_redeal_reason.get_hookimpls())
        """Whether any plugin answers ``tarock_redeal_reason``."""
        self._legal_discards = first_result_caller(
            self.hook.tarock_legal_discards, ("state", "seat", "count"))

    # -- building ------------------------------------------------------------
    def _culprit(self, hook: str, args: tuple[Any, ...], bad: Callable[[Any], object]) -> str:
        """``plugin 'x'``: the plugin whose joining the ruleset makes ``hook``'s answer ``bad``
        (:func:`core.rulecheck.culprit`)."""
        return culprit(self.pm, self.plugin_names, hook, args, bad)

    def _specs(self, hook: str, kind: type[Any], what: str) -> list[Any]:
        """A data hook's specs, checked (:func:`core.rulecheck.checked_specs`)."""
        return checked_specs(self.variant, hook, self._ask(hook, self.options), self.options, kind, what,
                             self._culprit)

    def _ask(self, hook: str, *args: Any) -> Any:
        """A first-result hook's answer, the arguments in the hookspec's order.

        The callers are resolved once per hook: the plugin set of a table is
        fixed, so pluggy's per-call bookkeeping is skipped where no wrapper
        needs it (:func:`core.hookcall.first_result_caller`).
        """
        call = self._callers.get(hook)
        if call is None:
            caller = getattr(self.hook, hook)
            call = first_result_caller(caller, tuple(caller.spec.argnames))
            self._callers[hook] = call
        return call(*args)

    def sole_answer(self, hook: str) -> Callable[..., Any] | None:
        """The one implementation of the first-result hook ``hook`` (its function
        as registered, a bound method for a plugin object), or None where
        several plugins, or a wrapper, take part in the answer.

        A phase that asks a hook of its own plugin for many candidates may
        answer them itself when its plugin answers alone: no house rule can
        change the answer then.  The plugin set of a table is fixed, so this
        is looked up once per hook.
        """
        if hook not in self._sole:
            impls = getattr(self.hook, hook).get_hookimpls()
            alone = len(impls) == 1 and not (impls[0].wrapper or impls[0].hookwrapper)
            self._sole[hook] = impls[0].function if alone else None
        return self._sole[hook]

    def _need(self, hook: str, *args: Any) -> Any:
        result = self._ask(hook, *args)
        if result is None:
            raise RuleError(f"no plugin of {self.variant} answers the hook {hook}")
        return result

    # -- data ----------------------------------------------------------------
    def contract(self, name: str) -> ContractSpec | None:
        """The contract called ``name``, or None."""
        return self._by_name.get(name)

    # setup
    def redeal_reason(self, hands: Sequence[Sequence[Card]]) -> str | None:
        if not self._redeals:  # asked for every deal
            return None
        reason: str | None = self._ask("tarock_redeal_reason", hands, self.options)
        return reason

    # flow
    def phases(self, state: HandState) -> Sequence[PhaseId]:
        result: Sequence[PhaseId] = self._need("tarock_phases", state)
        return result

    def phase(self, name: str) -> Phase:
        handler = self._phases.get(name)
        if handler is None:
            handler = self._need("tarock_phase", name)
            if not isinstance(handler, Phase):
                who = self._culprit("tarock_phase", (name,), other_than(Phase))
                raise RuleError(f"{who}, hook 'tarock_phase': the handler for phase {name!r} is not a Phase: "
                                f"{handler!r}")
            self._phases[name] = handler
        return handler

    # auction, announcements, Kontra
    def bid_verdict(self, state: HandState, seat: int, contract: ContractSpec) -> Verdict | None:
        if not self._bids_judged:  # asked for every game in every turn of the auction
            return None
        verdict: Verdict | None = self._ask("tarock_bid_verdict", state, seat, contract)
        return verdict

    def callable(self, state: HandState, seat: int, contract: ContractSpec) -> Sequence[Card]:
        told = self.calls.get(seat)
        if told is not None:
            return [told]
        cards: Sequence[Card] = self._ask("tarock_callable", state, seat, contract) or ()
        return cards

    def with_calls(self, calls: Mapping[int, Card]) -> Rules:
        """These rules (the plugin manager and every cache shared) with the card each seat of
        ``calls`` calls, read when asked: a node that follows a hand without a declarer's cards
        is told the card the rules call from them (net.virtual)."""
        out = copy.copy(self)
        out.calls = calls
        return out

    def announce_verdict(self, state: HandState, seat: int, name: str,
                         contract: ContractSpec | None = None) -> Verdict | None:
        if contract is None:
            assert state.contract is not None, "an announcement needs a contract"
            contract = state.contract.spec
        verdict: Verdict | None = self._ask("tarock_announce_verdict", state, seat, name, contract)
        return verdict

    def kontra_verdict(self, state: HandState, seat: int, target: KontraTarget) -> Verdict | None:
        verdict: Verdict | None = self._ask("tarock_kontra_verdict", state, seat, target)
        return verdict

    def kontra_duty(self, state: HandState, seat: int) -> bool:
        return bool(self._ask("tarock_kontra_duty", state, seat))

    # talon
    def legal_discards(self, state: HandState, seat: int, count: int) -> Sequence[tuple[Card, ...]]:
        result: Sequence[tuple[Card, ...]] | None = self._legal_discards(state, seat, count)
        if result is None:
            raise RuleError(f"no plugin of {self.variant} answers the hook tarock_legal_discards")
        return result

    def discard_reason(self, state: HandState, seat: int, cards: tuple[Card, ...]) -> Reason | None:
        reason: Reason | None = self._ask("tarock_discard_reason", state, seat, cards)
        return reason

    # play
    def first_leader(self, state: HandState) -> int:
        seat: int = self._need("tarock_first_leader", state)
        return seat

    def legal_plays(self, state: HandState, seat: int) -> Sequence[Card]:
        cards: Sequence[Card] | None = self._legal_plays(state, seat)
        if cards is None:
            raise RuleError(f"no plugin of {self.variant} answers the hook tarock_legal_plays")
        return cards

    def play_reason(self, state: HandState, seat: int, card: Card) -> Reason | None:
        reason: Reason | None = self._ask("tarock_play_reason", state, seat, card)
        return reason

    def trick_winner(self, state: HandState, trick: Trick) -> int:
        index: int | None = self._trick_winner(state, trick)
        if index is None:
            raise RuleError(f"no plugin of {self.variant} answers the hook tarock_trick_winner")
        return index

    def partner_revealed(self, state: HandState, seat: int, card: Card) -> bool:
        return bool(self._partner_revealed(state, seat, card))

    # what every seat sees
    def talon_shown(self, state: HandState) -> Sequence[Sequence[Card]]:
        piles: Sequence[Sequence[Card]] = self._ask("tarock_talon_shown", state) or ()
        return piles

    def discards_shown(self, state: HandState) -> Sequence[Card]:
        cards: Sequence[Card] = self._ask("tarock_discards_shown", state) or ()
        return cards

    def open_hands(self, state: HandState) -> Sequence[int]:
        seats: Sequence[int] = self._ask("tarock_open_hands", state) or ()
        return seats

    # counting and settlement
    def count(self, state: HandState, cards: Sequence[Card]) -> int:
        points: int = self._need("tarock_count", state, cards)
        return points

    def premium_outcomes(self, state: HandState) -> Mapping[str, Outcome]:
        result: Mapping[str, Outcome] = self._ask("tarock_premium_outcomes", state) or {}
        return result

    def premium_items(self, state: HandState, kontra_of: Mapping[str, int] | None = None) -> list[Item]:
        """The premiums of the finished hand as settlement items, by the generic
        premium model (:func:`core.settlement.premium_items`).

        Without ``kontra_of`` the Kontra levels follow the variant's scope:
        one chain on everything (each item at the game's level), or each
        announcement's own chain (silent premiums without Kontra).
        """
        assert state.contract is not None
        if kontra_of is None:
            if self.variant_facts.kontra_scope == "game":
                kontra_of = dict.fromkeys(self.premium_specs, state.kontra_level)
            else:
                kontra_of = {a.name: a.kontra for a in state.announcements}
        return premium_items(self.premium_specs, state.contract.spec, self.premium_outcomes(state),
                             state.announcements, state.declarer_party(), state.players, kontra_of)

    def score(self, state: HandState) -> HandResult:
        score = self._need("tarock_score", state, self)
        if not isinstance(score, Score):
            who = self._culprit("tarock_score", (state, self), other_than(Score))
            raise RuleError(f"{self.variant}: {who}, hook 'tarock_score': must answer a Score, not {score!r}")
        try:
            settlement = settle(score.items, state.seats)
        except SettlementError as exc:
            raise RuleError(f"{self.variant}: {exc}") from None
        return HandResult.of(score, settlement)

    def next_context(self, state: HandState, result: HandResult) -> TableContext:
        """The table context of the deal after the finished ``state``."""
        context = self._need("tarock_next_context", state.context, state, result)
        if not isinstance(context, TableContext):
            who = self._culprit("tarock_next_context", (state.context, state, result),
                                other_than(TableContext))
            raise RuleError(f"{self.variant}: {who}, hook 'tarock_next_context': must answer a "
                            f"TableContext, not {context!r}")
        return context
