"""The engine's rules behind an observation, for the search to play by.

A search bot simulates the rest of a hand in sampled deals, and it must
simulate the table's own rules: legal plays, trick winners, the phases
after the auction, scoring and settlement, with every house rule the table
plays.  The observation carries the table's :class:`~core.facts.RuleFacts`;
:func:`engine_for` finds the :class:`~core.rules.Rules` whose facts they
are.  Nothing is looked up by a variant's name: a ruleset handed over with
:func:`register` (the arena, a session that has the table's rules) is
recognised by its facts object or their equal value; otherwise every
variant the installation's ``plugins.toml`` defines is built once with the
observed options and the one whose facts equal the observed facts, field by
field (contracts, premiums, plugins with their versions, options), is
taken.  A table whose rules cannot be found this way has no engine (None)
and the search bots decide it by the heuristic (:mod:`client.bots.levels`).

:class:`TableEngine` also says where the search may use its fast path
(:mod:`client.bots.fastplay`): where no plugin but core's data rules
answers the legal-play and trick-winner hooks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from tarock.core.defaults import DataRules
from tarock.core.facts import RuleFacts
from tarock.core.plugins import load_plugins
from tarock.core.rules import RuleError, Rules


@dataclass(frozen=True, slots=True)
class TableEngine:
    """A table's engine rules and what the search may shortcut."""

    rules: Rules
    fast_legal: bool
    """Only core's data rules answer ``tarock_legal_plays``: legal plays follow
    from the contract's trick rules alone (the fast path is exact)."""
    fast_winner: bool
    """Only core's data rules answer ``tarock_trick_winner``."""


def _only_core(rules: Rules, hook: str) -> bool:
    caller = getattr(rules.hook, hook)
    return all(isinstance(impl.plugin, DataRules) for impl in caller.get_hookimpls())


def _engine(rules: Rules) -> TableEngine:
    return TableEngine(rules, _only_core(rules, "tarock_legal_plays"),
                       _only_core(rules, "tarock_trick_winner"))


def _plain(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else value


def same_facts(a: RuleFacts, b: RuleFacts) -> bool:
    """Whether two rule facts describe the same rules (every field; options as mappings)."""
    return all(_plain(getattr(a, f.name)) == _plain(getattr(b, f.name)) for f in fields(RuleFacts))


_KNOWN: list[TableEngine] = []
"""Rulesets handed over or found so far (few: one per table kind in a process)."""
_BY_ID: dict[int, tuple[RuleFacts, TableEngine | None]] = {}
_MAX_KNOWN = 64


def register(rules: Rules) -> TableEngine:
    """Make ``rules`` known to the search (a caller that has the table's rules)."""
    for known in _KNOWN:
        if known.rules is rules:
            return known
    engine = _engine(rules)
    _KNOWN.append(engine)
    del _KNOWN[:-_MAX_KNOWN]
    return engine


def _find(facts: RuleFacts) -> TableEngine | None:
    for known in reversed(_KNOWN):
        if known.rules.facts is facts or same_facts(known.rules.facts, facts):
            return known
    try:
        catalogue = load_plugins(None)
    except RuleError:
        return None
    for variant in catalogue.variants.values():
        try:
            rules = variant.rules(dict(facts.options))
        except RuleError:
            continue
        if same_facts(rules.facts, facts):
            return register(rules)
    return None


def engine_for(facts: RuleFacts | None) -> TableEngine | None:
    """The engine rules whose facts are ``facts`` (see the module docstring), or None."""
    if facts is None:
        return None
    cached = _BY_ID.get(id(facts))
    if cached is not None and cached[0] is facts:
        return cached[1]
    found = _find(facts)
    if len(_BY_ID) >= _MAX_KNOWN:
        _BY_ID.clear()
    _BY_ID[id(facts)] = (facts, found)  # holds ``facts``: its id is not reused while cached
    return found
