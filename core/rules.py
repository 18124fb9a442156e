"""A table's ruleset: its own plugin manager and a typed facade over it."""

from __future__ import annotations

import copy
import re
import sys
from collections.abc import Callable, Generator, Mapping, Sequence
from functools import cache
from importlib.metadata import PackageNotFoundError, packages_distributions, version
from types import MappingProxyType, ModuleType
from typing import Any

import pluggy

from tarock.core import hookspecs
from tarock.core.actions import CORE_ACTIONS, Action, KontraTarget
from tarock.core.cards import Card
from tarock.core.codec import Codec
from tarock.core.context import TableContext
from tarock.core.contracts import ContractSpec, Outcome, PremiumSpec, unplayable
from tarock.core.defaults import DataRules
from tarock.core.facts import RuleFacts, VariantFacts
from tarock.core.options import Declared, OptionError, OptionSpec, OptionValue, collect, resolve
from tarock.core.phases import Phase
from tarock.core.settlement import Item, SettlementError, premium_items, settle
from tarock.core.state import HandResult, HandState, PhaseId, Reason, Score, Trick, Verdict


class RuleError(RuntimeError):
    """A plugin did not answer a hook it must answer, or answered wrongly."""


class PluginFailure(RuleError):
    """A plugin's hook implementation raised: the one error a client, bot or node catches for it.

    Every hook the rules ask goes through one guard (:func:`_guarded`), which
    turns the plugin's exception (kept as ``__cause__``) into this error naming
    the plugin, the hook and the hand (round and deal, as the hook's state
    tells); the engine adds the action, which it did not take, and a session
    its seed.  ``str()`` is one line.
    """

    def __init__(self, plugin: str, hook: str, error: BaseException,
                 context: TableContext | None = None) -> None:
        super().__init__()
        self.plugin = plugin
        self.hook = hook
        self.error = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        self.round: int | None = context.round if context is not None else None
        self.deal: int | None = context.deal if context is not None else None
        self.seed: int | str | None = None
        self.action: str | None = None

    def at(self, round_no: int, deal_no: int, seed: int | str | None = None) -> PluginFailure:
        """Fill in the hand where the hook did not see it, and the seed of the deals."""
        if self.round is None:
            self.round, self.deal = round_no, deal_no
        if self.seed is None:
            self.seed = seed
        return self

    def __str__(self) -> str:
        where = [f"round {self.round}, deal {self.deal}"] if self.round is not None else []
        if self.seed is not None:
            where.append(f"seed {self.seed}")
        if self.action is not None:
            where.append(f"on {self.action}, which was not taken")
        hand = f" ({'; '.join(where)})" if where else ""
        return f"plugin {self.plugin!r} failed in hook {self.hook}{hand}: {self.error}"


def _plugin_name(plugin: object) -> str:
    return getattr(plugin, "name", None) or getattr(plugin, "__name__", None) or type(plugin).__name__


@cache
def _distributions() -> Mapping[str, list[str]]:
    return packages_distributions()


def plugin_version(plugin: object) -> str:
    """The plugin's ``version``; else that of the package providing its module."""
    ver = getattr(plugin, "version", None)
    if isinstance(ver, str) and ver:
        return ver
    module = plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__
    for dist in _distributions().get(module.partition(".")[0], []):
        try:
            return f"{dist}=={version(dist)}"
        except PackageNotFoundError:
            continue
    return "unversioned"


SOURCE_DIGEST = "__tarock_source_sha256__"
"""The attribute :func:`core.plugins.load_plugin_file` sets on a plugin file's
module: the sha256 of the file's bytes as imported."""


def plugin_source(plugin: object) -> tuple[str, str] | None:
    """``(sha256 of its file, the file)`` for a plugin loaded from a file by path, else None.

    Installed plugins are identified by their version; a club's own file by
    its content too, so that a file changed without a new version is noticed.
    """
    module_name = plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__
    module = sys.modules.get(module_name)
    digest = getattr(module, SOURCE_DIGEST, None)
    if not isinstance(digest, str):
        return None
    return digest, str(getattr(module, "__file__", "") or module_name)


def blame(pm: pluggy.PluginManager, exc: BaseException) -> str | None:
    """``plugin 'x', hook 'tarock_y'`` for the hook implementation that raised ``exc``.

    The innermost frame of the traceback that runs an implementation
    registered with ``pm`` decides; None when no plugin code is in it.
    """
    culprits: dict[object, str] = {}
    for caller in vars(pm.hook).values():
        if isinstance(caller, pluggy.HookCaller):
            for impl in caller.get_hookimpls():
                function = getattr(impl.function, "__func__", impl.function)
                code = getattr(function, "__code__", None)
                if code is not None:
                    culprits[code] = f"plugin {_plugin_name(impl.plugin)!r}, hook {caller.name!r}"
    found: str | None = None
    tb = exc.__traceback__
    while tb is not None:
        found = culprits.get(tb.tb_frame.f_code, found)
        tb = tb.tb_next
    return found


def _registration_error(pm: pluggy.PluginManager, name: str, exc: Exception) -> str:
    """A message naming the plugin and the hook pluggy refused to register."""
    text = str(exc)
    match = re.search(r"for hook '(\w+)'", text)
    if match is None:
        return f"plugin {name!r} cannot be loaded: {text}"
    hook = match.group(1)
    caller = getattr(pm.hook, hook, None)
    spec = caller.spec if isinstance(caller, pluggy.HookCaller) else None
    takes = f"; the hook takes ({', '.join(spec.argnames)})" if spec is not None else ""
    return (f"plugin {name!r}, hook {hook!r}: {text.strip().splitlines()[-1]}{takes}"
            " (see docs/hooks.md)")


def _guarded(caller: pluggy.HookCaller, call: Callable[..., Any]) -> Callable[..., Any]:
    """``call`` (a caller of the hook ``caller``), an exception of a plugin's code
    turned into a :class:`PluginFailure` naming the plugin, the hook and the hand.

    The one place where plugin code is called at play: every hook the facade
    asks comes through here.  A :class:`PluginFailure` of a hook asked inside
    (a scorer asking ``rules.count``) names the innermost plugin and passes.
    """
    culprits: dict[object, str] = {}
    for impl in caller.get_hookimpls():
        function = getattr(impl.function, "__func__", impl.function)
        code = getattr(function, "__code__", None)
        if code is not None:
            culprits[code] = _plugin_name(impl.plugin)
    hook = caller.name

    def guarded(*args: Any) -> Any:
        try:
            return call(*args)
        except PluginFailure:
            raise
        except Exception as exc:
            plugin: str | None = None
            tb = exc.__traceback__
            while tb is not None:
                plugin = culprits.get(tb.tb_frame.f_code, plugin)
                tb = tb.tb_next
            if plugin is None:  # raised by core around the plugins, not in them
                raise
            context = next((a.context if isinstance(a, HandState) else a for a in args
                            if isinstance(a, HandState | TableContext)), None)
            raise PluginFailure(plugin, hook, exc, context) from exc
    return guarded


def _first_result_caller(caller: pluggy.HookCaller, argnames: tuple[str, ...]) -> Callable[..., Any]:
    """A positional caller for a first-result hook, same answers as ``caller``,
    an exception of a plugin a :class:`PluginFailure` (:func:`_guarded`).

    The implementations are called directly in pluggy's order (wrappers
    first, then the last registered and ``tryfirst`` first), skipping
    pluggy's per-call bookkeeping on the hot path.  New-style wrappers
    (``wrapper=True``) are run as pluggy runs them: up to their ``yield``,
    then sent the result (or thrown the exception) in reverse order; a
    wrapper's return value replaces the result.  Old-style hookwrappers go
    through pluggy itself.
    """
    impls = list(reversed(caller.get_hookimpls()))
    if any(i.hookwrapper for i in impls):
        def through_pluggy(*args: Any) -> Any:
            return caller(**dict(zip(argnames, args, strict=True)))
        return _guarded(caller, through_pluggy)
    Plan = list[tuple[Callable[..., Any], tuple[int, ...] | None]]
    everything = tuple(range(len(argnames)))

    def positions(impl: pluggy.HookImpl) -> tuple[int, ...] | None:
        """Which arguments ``impl`` takes (None: all, in order)."""
        taken = tuple(argnames.index(a) for a in impl.argnames)
        return None if taken == everything else taken
    wrappers: Plan = [(i.function, positions(i)) for i in impls if i.wrapper]
    plan: Plan = [(i.function, positions(i)) for i in impls if not i.wrapper]
    if not wrappers and len(plan) == 1 and plan[0][1] is None:
        return _guarded(caller, plan[0][0])

    def direct(*args: Any) -> Any:
        for function, taken in plan:
            result = function(*args) if taken is None else function(*[args[p] for p in taken])
            if result is not None:
                return result
        return None
    if not wrappers:
        return _guarded(caller, direct)

    def wrapped(*args: Any) -> Any:
        running: list[Generator[Any, Any, Any]] = []
        for function, taken in wrappers:
            gen = function(*args) if taken is None else function(*[args[p] for p in taken])
            next(gen)
            running.append(gen)
        error: BaseException | None = None
        result: Any = None
        try:
            result = direct(*args)
        except BaseException as exc:
            error = exc
        for gen in reversed(running):
            try:
                if error is not None:
                    gen.throw(error)
                else:
                    gen.send(result)
                raise RuntimeError("a hook wrapper yielded twice")
            except StopIteration as stop:
                result, error = stop.value, None
            except BaseException as exc:
                error = exc
        if error is not None:
            raise error
        return result
    return _guarded(caller, wrapped)


def _other_than(kind: type[Any]) -> Callable[[Any], bool]:
    """Whether a hook's answer is something, but not a ``kind``."""
    return lambda answer: answer is not None and not isinstance(answer, kind)


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
            name = _plugin_name(plugin)
            try:
                self.pm.register(plugin, name=f"{len(self.plugin_names)}:{name}")
            except (ValueError, pluggy.PluginValidationError) as exc:
                raise RuleError(_registration_error(self.pm, name, exc)) from exc
            self.plugin_names.append(name)
            self.plugin_versions.append(plugin_version(plugin))
            if (source := plugin_source(plugin)) is not None:
                self.sources[name] = source
        for hook_name, caller in vars(self.pm.hook).items():
            if isinstance(caller, pluggy.HookCaller) and caller.spec is None:
                for impl in caller.get_hookimpls():
                    raise RuleError(f"plugin {_plugin_name(impl.plugin)!r} implements the hook "
                                    f"{hook_name!r}, which does not exist (a typo, or a plugin "
                                    "written for another version of tarock?)")
        self.hook = self.pm.hook
        self.calls: Mapping[int, Card] = MappingProxyType({})
        """Called cards told from elsewhere (:meth:`with_calls`); none in a table's own rules."""
        self._callers: dict[str, Callable[..., Any]] = {}
        self._sole: dict[str, Callable[..., Any] | None] = {}
        try:
            self.option_specs = self._declared_options()
            self.options: Mapping[str, OptionValue] = MappingProxyType(
                resolve(self.option_specs, options or {}, variant))
        except OptionError as exc:
            raise RuleError(str(exc)) from None
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
        self.contracts: tuple[ContractSpec, ...] = self._contracts()
        self._by_name = {c.name: c for c in self.contracts}
        self.premium_specs: dict[str, PremiumSpec] = self._premium_specs()
        facts = self._need("tarock_variant_facts", self.options)
        if not isinstance(facts, VariantFacts):
            who = self._culprit("tarock_variant_facts", (self.options,), _other_than(VariantFacts))
            raise RuleError(f"{variant}: {who}, hook 'tarock_variant_facts': must answer a VariantFacts, "
                            f"not {facts!r}")
        self.variant_facts: VariantFacts = facts
        self._check_playable(facts)
        self.facts = RuleFacts(
            variant=variant, title=title or variant, deck=self.deck, hand_size=self.hand_size,
            talon_piles=tuple(self.talon_piles), players=self.players_per_hand, contracts=self.contracts,
            premiums=tuple(self.premium_specs.values()), facts=facts, options=self.options,
            plugins=tuple(zip(self.plugin_names, self.plugin_versions, strict=True)))
        self._phases: dict[str, Phase] = {}
        # Hot-path hooks are resolved once: the plugin set of a table is fixed.
        self._legal_plays = _first_result_caller(self.hook.tarock_legal_plays, ("state", "seat"))
        self.legal_plays_direct: Callable[[HandState, int], Sequence[Card] | None] = self._legal_plays
        """``tarock_legal_plays`` resolved for this table (None when nobody answers)."""
        self._trick_winner = _first_result_caller(self.hook.tarock_trick_winner, ("state", "trick"))
        self._partner_revealed = _first_result_caller(
            self.hook.tarock_partner_revealed, ("state", "seat", "card"))
        self._legal_discards = _first_result_caller(
            self.hook.tarock_legal_discards, ("state", "seat", "count"))

    # -- building ------------------------------------------------------------
    def _declared_options(self) -> dict[str, Declared]:
        declared: list[tuple[str, Sequence[OptionSpec]]] = []
        for impl in self.hook.tarock_options.get_hookimpls():
            answer = impl.function()
            name = self._impl_plugin(impl)
            if not isinstance(answer, Sequence) or isinstance(answer, str | Mapping):
                raise OptionError(f"plugin {name!r}: tarock_options must answer a list of OptionSpec, "
                                  f"not {answer!r}")
            declared.append((name, answer))
        defaults: list[tuple[str, Mapping[str, Any]]] = []
        for impl in self.hook.tarock_option_defaults.get_hookimpls():
            answer = impl.function()
            name = self._impl_plugin(impl)
            if not isinstance(answer, Mapping):
                raise OptionError(f"plugin {name!r}: tarock_option_defaults must answer a mapping, "
                                  f"not {answer!r}")
            defaults.append((name, answer))
        return collect(declared, defaults)

    def _impl_plugin(self, impl: Any) -> str:
        return self.plugin_names[int(str(impl.plugin_name).partition(":")[0])]

    def _culprit(self, hook: str, args: tuple[Any, ...], bad: Callable[[Any], object]) -> str:
        """``plugin 'x'``: the plugin whose joining the ruleset makes ``hook``'s answer ``bad``.

        Asked only for a refusal: the hook is asked again of core's data rules
        alone, then with each plugin added in registration order.
        """
        caller = getattr(self.hook, hook)
        plugins = [self.pm.get_plugin(f"{i}:{name}") for i, name in enumerate(self.plugin_names)]
        for k, name in enumerate(self.plugin_names):
            subset = self.pm.subset_hook_caller(hook, remove_plugins=plugins[k + 1:])
            try:
                answer = subset(**dict(zip(caller.spec.argnames, args, strict=True)))
            except Exception:
                return f"plugin {name!r}"
            if bad(answer):
                return f"plugin {name!r}"
        return "a plugin"

    def _checked_specs(self, hook: str, kind: type[Any], what: str) -> list[Any]:
        """The answer of a data hook (contracts, premiums): specs of ``kind``,
        no two of one name; a refusal names the plugin that broke it."""
        answer = self._ask(hook, self.options)
        if answer is None:
            return []
        for spec in answer:
            if not isinstance(spec, kind):
                who = self._culprit(hook, (self.options,), lambda a: a and any(
                    not isinstance(x, kind) for x in a))
                raise RuleError(f"{self.variant}: {who}, hook {hook!r}: answered something that is not "
                                f"a {kind.__name__}: {spec!r}")
        names = [spec.name for spec in answer]
        twice = next((n for n in names if names.count(n) > 1), None)
        if twice is not None:
            who = self._culprit(hook, (self.options,),
                                lambda a: a and [s.name for s in a].count(twice) > 1)
            raise RuleError(f"{self.variant}: {who}, hook {hook!r}: two {what} are called {twice!r}")
        return list(answer)

    def _contracts(self) -> tuple[ContractSpec, ...]:
        specs: list[ContractSpec] = self._checked_specs("tarock_contracts", ContractSpec, "contracts")
        return tuple(sorted(specs, key=lambda c: c.rank))

    def _check_playable(self, facts: VariantFacts) -> None:
        """Refuse a contract asking for data the variant cannot play (``VariantFacts.playable``),
        naming the plugin whose answer made it so, the contract and the field."""
        premiums = frozenset(self.premium_specs)

        def found(spec: ContractSpec, answer: Sequence[ContractSpec]) -> tuple[str, str] | None:
            refused = unplayable(spec, facts.playable, self.deck, self.hand_size, tuple(self.talon_piles),
                                 premiums)
            by_call = [c.name for c in answer if c.call is not None and c.call.when == "bid"]
            if refused is None and spec.name in by_call[1:]:
                return "call.when", (f"{by_call[0]!r} is bid by calling a card already, "
                                     "and a call names no contract")
            return refused
        for spec in self.contracts:
            refused = found(spec, self.contracts)
            if refused is None:
                continue
            field, why = refused

            def bad(answer: Any, name: str = spec.name, field: str = field) -> bool:
                specs = [c for c in answer or () if isinstance(c, ContractSpec)]
                mine = next((c for c in specs if c.name == name), None)
                return mine is not None and (found(mine, specs) or ("",))[0] == field
            who = self._culprit("tarock_contracts", (self.options,), bad)
            raise RuleError(f"{self.variant}: {who}, contract {spec.name!r}, field {field!r}: {why}")

    def _premium_specs(self) -> dict[str, PremiumSpec]:
        specs: list[PremiumSpec] = self._checked_specs("tarock_premium_specs", PremiumSpec, "premiums")
        return {spec.name: spec for spec in specs}

    def _ask(self, hook: str, *args: Any) -> Any:
        """A first-result hook's answer, the arguments in the hookspec's order.

        The callers are resolved once per hook: the plugin set of a table is
        fixed, so pluggy's per-call bookkeeping is skipped where no wrapper
        needs it (:func:`_first_result_caller`).
        """
        call = self._callers.get(hook)
        if call is None:
            caller = getattr(self.hook, hook)
            call = _first_result_caller(caller, tuple(caller.spec.argnames))
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
                who = self._culprit("tarock_phase", (name,), _other_than(Phase))
                raise RuleError(f"{who}, hook 'tarock_phase': the handler for phase {name!r} is not a Phase: "
                                f"{handler!r}")
            self._phases[name] = handler
        return handler

    # auction, announcements, Kontra
    def bid_verdict(self, state: HandState, seat: int, contract: ContractSpec) -> Verdict | None:
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
            who = self._culprit("tarock_score", (state, self), _other_than(Score))
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
                                _other_than(TableContext))
            raise RuleError(f"{self.variant}: {who}, hook 'tarock_next_context': must answer a "
                            f"TableContext, not {context!r}")
        return context
