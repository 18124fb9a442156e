"""Ready-made hooks for the commonest house rules: one line each in a plugin class.

Adding games above the base's highest, taking a premium's values from options,
declaring options or new defaults for the base's, remembering something after
every hand played: each is the same few lines of a hook in every plugin that
does it.  These functions make that hook; assign it to the hook's name in the
class body::

    class MyHouseRule:
        name, version, applies_to = "my-house-rule", "1.0", ("the-base-variant",)
        tarock_contracts = adding_contracts(make_my_game)

Each returns a method marked with ``@hookimpl`` (``wrapper=True`` where it
changes the base's answer), exactly as if it were written out in the class
(docs/hooks.md shows the written-out form beside each).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from tarock.core.context import TableContext
from tarock.core.contracts import ContractSpec, PremiumSpec
from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec
from tarock.core.state import HandResult, HandState

Wrapper = Generator[None, Any, Any]


def declaring(*specs: OptionSpec) -> Callable[[Any], Sequence[OptionSpec]]:
    """A ``tarock_options`` that declares ``specs``."""

    @hookimpl
    def tarock_options(self: Any) -> Sequence[OptionSpec]:
        return list(specs)

    return tarock_options


def defaulting(**defaults: Any) -> Callable[[Any], Mapping[str, Any]]:
    """A ``tarock_option_defaults`` that gives options the base declares new defaults."""

    @hookimpl
    def tarock_option_defaults(self: Any) -> Mapping[str, Any]:
        return dict(defaults)

    return tarock_option_defaults


def adding_contracts(make: Callable[[ContractSpec], Sequence[ContractSpec]],
                     ) -> Callable[[Any, Mapping[str, Any]], Wrapper]:
    """A ``tarock_contracts`` wrapper that adds ``make(top)`` after the base's contracts, ``top``
    being the base's highest (rank them above ``top.rank``)."""

    @hookimpl(wrapper=True)
    def tarock_contracts(self: Any, options: Mapping[str, Any]) -> Generator[None, Any, list[ContractSpec]]:
        contracts = list((yield))
        return [*contracts, *make(contracts[-1])]

    return tarock_contracts


def premium_from_options(premium: str, **fields: str) -> Callable[[Any, Mapping[str, Any]], Wrapper]:
    """A ``tarock_premium_specs`` wrapper that sets fields of premium ``premium`` from options:
    ``premium_from_options("valat", silent="valat")`` makes the option ``valat`` its silent value."""

    @hookimpl(wrapper=True)
    def tarock_premium_specs(self: Any,
                             options: Mapping[str, Any]) -> Generator[None, Any, list[PremiumSpec]]:
        values = {name: options[option] for name, option in fields.items()}
        return [replace(p, **values) if p.name == premium else p for p in (yield)]

    return tarock_premium_specs


def remembering(plugin: str, memory: Callable[[TableContext, HandState], Any],
                ) -> Callable[[Any, TableContext, HandState, HandResult], Wrapper]:
    """A ``tarock_next_context`` wrapper that, after every hand played (a passed-out deal
    changes nothing), remembers ``memory(context, state)`` under ``plugin`` for the next deal
    (read it with ``state.context.recalled(plugin)``)."""

    @hookimpl(wrapper=True)
    def tarock_next_context(self: Any, context: TableContext, state: HandState,
                            result: HandResult) -> Generator[None, Any, TableContext]:
        following: TableContext = yield
        if result.passed_out:
            return following
        return following.remember(plugin, memory(context, state))

    return tarock_next_context
