"""A table's ruleset: its own plugin manager and a typed facade over it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import pluggy

from core import hookspecs
from core.actions import CORE_ACTIONS, Action
from core.cards import Card
from core.codec import Codec
from core.phases import Phase
from core.state import HandResult, HandState, Premium, Reason, Trick


class RuleError(RuntimeError):
    """A plugin did not answer a hook it must answer, or answered wrongly."""


def _plugin_name(plugin: object) -> str:
    return getattr(plugin, "name", None) or getattr(plugin, "__name__", None) or type(plugin).__name__


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


def _first_result_caller(caller: pluggy.HookCaller, argnames: tuple[str, ...]) -> Callable[..., Any]:
    """A positional caller for a first-result hook, same answers as ``caller``.

    When no implementation is a wrapper, the implementations are called
    directly in pluggy's order (last registered and ``tryfirst`` first),
    skipping pluggy's per-call bookkeeping on the hot path; otherwise the
    hook caller itself is used.
    """
    impls = list(reversed(caller.get_hookimpls()))
    if any(i.hookwrapper or i.wrapper for i in impls):
        def through_pluggy(*args: Any) -> Any:
            return caller(**dict(zip(argnames, args, strict=True)))
        return through_pluggy
    plan = [(i.function, tuple(argnames.index(a) for a in i.argnames)) for i in impls]
    if len(plan) == 1 and plan[0][1] == tuple(range(len(argnames))):
        return plan[0][0]

    def direct(*args: Any) -> Any:
        for function, positions in plan:
            result = function(*(args[p] for p in positions))
            if result is not None:
                return result
        return None
    return direct


class Rules:
    """The rules of one table: a base variant and house rules, in order.

    ``plugins`` are registered in order, so later ones (house rules) are asked
    first by first-result hooks.  ``options`` override the plugins' defaults;
    an option no plugin declares is an error.
    """

    def __init__(self, variant: str, plugins: Sequence[object],
                 options: dict[str, Any] | None = None) -> None:
        self.variant = variant
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.plugin_names: list[str] = []
        for plugin in plugins:
            name = _plugin_name(plugin)
            try:
                self.pm.register(plugin, name=f"{len(self.plugin_names)}:{name}")
            except (ValueError, pluggy.PluginValidationError) as exc:
                raise RuleError(_registration_error(self.pm, name, exc)) from exc
            self.plugin_names.append(name)
        for hook_name, caller in vars(self.pm.hook).items():
            if isinstance(caller, pluggy.HookCaller) and caller.spec is None:
                for impl in caller.get_hookimpls():
                    raise RuleError(f"plugin {_plugin_name(impl.plugin)!r} implements the hook "
                                    f"{hook_name!r}, which does not exist (a typo, or a plugin "
                                    "written for another version of tarock?)")
        self.hook = self.pm.hook
        defaults: dict[str, Any] = {}
        for part in reversed(self.hook.tarock_options()):
            defaults.update(part)
        unknown = set(options or {}) - set(defaults)
        if unknown:
            raise RuleError(f"unknown option(s) for {variant}: {', '.join(sorted(unknown))}"
                            f" (known: {', '.join(sorted(defaults)) or 'none'})")
        self.options: dict[str, Any] = {**defaults, **(options or {})}
        actions: list[type[Action]] = list(CORE_ACTIONS)
        for part in reversed(self.hook.tarock_action_types()):
            actions.extend(part)
        self.codec = Codec(actions)
        self.deck: tuple[Card, ...] = tuple(self._need("tarock_deck", options=self.options))
        self.hand_size, self.talon_piles = self._need("tarock_deal_layout", options=self.options)
        self._phases: dict[str, Phase] = {}
        dealt = len(self.deck) - sum(self.talon_piles)
        if self.hand_size < 1 or dealt % self.hand_size:
            raise RuleError(f"{variant}: {len(self.deck)} cards do not deal into hands of "
                            f"{self.hand_size} and a talon of {list(self.talon_piles)}")
        self.players_per_hand = dealt // self.hand_size
        """How many seats play one hand (4 in every tarock game)."""
        # Hot-path hooks are resolved once: the plugin set of a table is fixed.
        self._legal_plays = _first_result_caller(self.hook.tarock_legal_plays, ("state", "seat"))
        self._trick_winner = _first_result_caller(self.hook.tarock_trick_winner, ("state", "trick"))
        self._partner_revealed = _first_result_caller(
            self.hook.tarock_partner_revealed, ("state", "seat", "card"))

    def _need(self, hook: str, **kwargs: Any) -> Any:
        result = getattr(self.hook, hook)(**kwargs)
        if result is None:
            raise RuleError(f"no plugin of {self.variant} answers the hook {hook}")
        return result

    # setup
    def redeal_reason(self, hands: Sequence[Sequence[Card]]) -> str | None:
        reason: str | None = self.hook.tarock_redeal_reason(hands=hands, options=self.options)
        return reason

    # flow
    def phases(self, state: HandState) -> Sequence[str]:
        result: Sequence[str] = self._need("tarock_phases", state=state)
        return result

    def phase(self, name: str) -> Phase:
        handler = self._phases.get(name)
        if handler is None:
            handler = self._need("tarock_phase", name=name)
            if not isinstance(handler, Phase):
                raise RuleError(f"the handler for phase {name!r} is not a Phase: {handler!r}")
            self._phases[name] = handler
        return handler

    # talon and Kontra
    def legal_discards(self, state: HandState, seat: int, count: int) -> Sequence[tuple[Card, ...]]:
        result: Sequence[tuple[Card, ...]] = self._need(
            "tarock_legal_discards", state=state, seat=seat, count=count)
        return result

    def discard_reason(self, state: HandState, seat: int, cards: tuple[Card, ...]) -> Reason | None:
        reason: Reason | None = self.hook.tarock_discard_reason(state=state, seat=seat, cards=cards)
        return reason

    def kontra_max_level(self, state: HandState) -> int:
        level: int = self._need("tarock_kontra_max_level", state=state)
        return level

    def kontra_reason(self, state: HandState, seat: int) -> Reason | None:
        reason: Reason | None = self.hook.tarock_kontra_reason(state=state, seat=seat)
        return reason

    # play
    def first_leader(self, state: HandState) -> int:
        seat: int = self._need("tarock_first_leader", state=state)
        return seat

    def legal_plays(self, state: HandState, seat: int) -> Sequence[Card]:
        cards: Sequence[Card] | None = self._legal_plays(state, seat)
        if cards is None:
            raise RuleError(f"no plugin of {self.variant} answers the hook tarock_legal_plays")
        return cards

    def play_reason(self, state: HandState, seat: int, card: Card) -> Reason | None:
        reason: Reason | None = self.hook.tarock_play_reason(state=state, seat=seat, card=card)
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
        piles: Sequence[Sequence[Card]] = self.hook.tarock_talon_shown(state=state) or ()
        return piles

    def discards_shown(self, state: HandState) -> Sequence[Card]:
        cards: Sequence[Card] = self.hook.tarock_discards_shown(state=state) or ()
        return cards

    def open_hands(self, state: HandState) -> Sequence[int]:
        seats: Sequence[int] = self.hook.tarock_open_hands(state=state) or ()
        return seats

    # counting
    def count(self, state: HandState, cards: Sequence[Card]) -> int:
        points: int = self._need("tarock_count", state=state, cards=cards)
        return points

    def premiums(self, state: HandState) -> Sequence[Premium]:
        result: Sequence[Premium] = self.hook.tarock_premiums(state=state) or ()
        return result

    def score(self, state: HandState) -> HandResult:
        result: HandResult = self._need("tarock_score", state=state, rules=self)
        if sum(result.settlement) != 0:
            raise RuleError(f"{self.variant}: settlement {result.settlement} does not sum to zero")
        return result
