"""Checks of a ruleset as its plugins declare it (options, contracts, premiums, what a
contract asks of the variant), and the plugin to blame for a wrong answer."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pluggy

from tarock.core.cards import Card
from tarock.core.contracts import ContractSpec, PremiumSpec, unplayable
from tarock.core.facts import VariantFacts
from tarock.core.options import Declared, OptionError, OptionSpec, collect
from tarock.core.rule_errors import RuleError

Culprit = Callable[[str, tuple[Any, ...], Callable[[Any], object]], str]
"""``(hook, args, bad) -> "plugin 'x'"``: :func:`culprit` for one ruleset."""


def _impl_plugin(plugin_names: Sequence[str], impl: Any) -> str:
    return plugin_names[int(str(impl.plugin_name).partition(":")[0])]


def declared_options(pm: pluggy.PluginManager, plugin_names: Sequence[str]) -> dict[str, Declared]:
    """The options every plugin declares, with the defaults plugins give them (plugins are
    registered as ``"<index>:<name>"``); OptionError names a plugin that answers wrongly."""
    declared: list[tuple[str, Sequence[OptionSpec]]] = []
    for impl in pm.hook.tarock_options.get_hookimpls():
        answer = impl.function()
        name = _impl_plugin(plugin_names, impl)
        if not isinstance(answer, Sequence) or isinstance(answer, str | Mapping):
            raise OptionError(f"plugin {name!r}: tarock_options must answer a list of OptionSpec, "
                              f"not {answer!r}")
        declared.append((name, answer))
    defaults: list[tuple[str, Mapping[str, Any]]] = []
    for impl in pm.hook.tarock_option_defaults.get_hookimpls():
        answer = impl.function()
        name = _impl_plugin(plugin_names, impl)
        if not isinstance(answer, Mapping):
            raise OptionError(f"plugin {name!r}: tarock_option_defaults must answer a mapping, "
                              f"not {answer!r}")
        defaults.append((name, answer))
    return collect(declared, defaults)


def culprit(pm: pluggy.PluginManager, plugin_names: Sequence[str], hook: str, args: tuple[Any, ...],
            bad: Callable[[Any], object]) -> str:
    """``plugin 'x'``: the plugin whose joining the ruleset makes ``hook``'s answer ``bad``.

    Asked only for a refusal: the hook is asked again of core's data rules
    alone, then with each plugin added in registration order.
    """
    caller = getattr(pm.hook, hook)
    plugins = [pm.get_plugin(f"{i}:{name}") for i, name in enumerate(plugin_names)]
    for k, name in enumerate(plugin_names):
        subset = pm.subset_hook_caller(hook, remove_plugins=plugins[k + 1:])
        try:
            answer = subset(**dict(zip(caller.spec.argnames, args, strict=True)))
        except Exception:
            return f"plugin {name!r}"
        if bad(answer):
            return f"plugin {name!r}"
    return "a plugin"


def checked_specs(variant: str, hook: str, answer: Any, options: Mapping[str, Any], kind: type[Any],
                  what: str, who: Culprit) -> list[Any]:
    """The answer of a data hook (contracts, premiums): specs of ``kind``,
    no two of one name; a refusal names the plugin that broke it."""
    if answer is None:
        return []
    for spec in answer:
        if not isinstance(spec, kind):
            blamed = who(hook, (options,), lambda a: a and any(not isinstance(x, kind) for x in a))
            raise RuleError(f"{variant}: {blamed}, hook {hook!r}: answered something that is not "
                            f"a {kind.__name__}: {spec!r}")
    names = [spec.name for spec in answer]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        blamed = who(hook, (options,), lambda a: a and [s.name for s in a].count(twice) > 1)
        raise RuleError(f"{variant}: {blamed}, hook {hook!r}: two {what} are called {twice!r}")
    return list(answer)


Deal = tuple[tuple[Card, ...], int, tuple[int, ...]]
"""The deck, the hand size and the talon's piles."""


def check_playable(variant: str, facts: VariantFacts, contracts: Sequence[ContractSpec],
                   premium_specs: Mapping[str, PremiumSpec], deal: Deal, options: Mapping[str, Any],
                   who: Culprit) -> None:
    """Refuse a contract asking for data the variant cannot play (``VariantFacts.playable``),
    naming the plugin whose answer made it so, the contract and the field; ``deal`` is the
    deck, the hand size and the talon's piles."""
    premiums = frozenset(premium_specs)
    deck, hand_size, talon_piles = deal

    def found(spec: ContractSpec, answer: Sequence[ContractSpec]) -> tuple[str, str] | None:
        refused = unplayable(spec, facts.playable, deck, hand_size, talon_piles, premiums)
        by_call = [c.name for c in answer if c.call is not None and c.call.when == "bid"]
        if refused is None and spec.name in by_call[1:]:
            return "call.when", (f"{by_call[0]!r} is bid by calling a card already, "
                                 "and a call names no contract")
        return refused
    for spec in contracts:
        refused = found(spec, contracts)
        if refused is None:
            continue
        field, why = refused

        def bad(answer: Any, name: str = spec.name, field: str = field) -> bool:
            specs = [c for c in answer or () if isinstance(c, ContractSpec)]
            mine = next((c for c in specs if c.name == name), None)
            return mine is not None and (found(mine, specs) or ("",))[0] == field
        blamed = who("tarock_contracts", (options,), bad)
        raise RuleError(f"{variant}: {blamed}, contract {spec.name!r}, field {field!r}: {why}")
