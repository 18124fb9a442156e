"""Calling a hook: a first-result hook's implementations called directly, in pluggy's
order, and an exception of a plugin's code turned into a :class:`PluginFailure` naming
the plugin, the hook and the hand."""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator
from types import MethodType
from typing import Any, TypeVar

import pluggy

from tarock.core.context import TableContext
from tarock.core.defaults import DataRules
from tarock.core.plugin_ids import plugin_name
from tarock.core.rule_errors import PluginFailure
from tarock.core.state import HandState

T = TypeVar("T")

AFTER = "tarock_after"
"""The attribute naming the plain function of a wrapper made by :func:`after_answer`."""


def after_answer(after: Callable[..., T]) -> Callable[..., Generator[None, Any, T]]:
    """A new-style hook wrapper written as a plain function: ``after`` takes the hook's
    arguments and, keyword-only, ``answer`` (what the implementations it wraps
    answered) and returns the hook's answer; an exception of those implementations
    passes it by.  Mark the result ``@hookimpl(wrapper=True)``: pluggy runs it as the
    generator it is, :func:`first_result_caller` calls ``after`` directly (a wrapper
    asked for every card played costs no generator then)."""
    @functools.wraps(after)  # pluggy reads the hook's arguments from ``after``
    def wrapper(*args: Any) -> Generator[None, Any, T]:
        answer = yield
        return after(*args, answer=answer)
    setattr(wrapper, AFTER, after)
    return wrapper


def _after_of(function: Callable[..., Any]) -> Callable[..., Any] | None:
    """The plain function of a wrapper made by :func:`after_answer` (bound where
    ``function`` is a plugin's method), or None."""
    after: Callable[..., Any] | None = getattr(getattr(function, "__func__", function), AFTER, None)
    owner = getattr(function, "__self__", None)
    return after if after is None or owner is None else MethodType(after, owner)


def _code_of(function: Callable[..., Any]) -> object:
    """The code that runs for ``function``: an :func:`after_answer` wrapper's own."""
    plain = getattr(function, "__func__", function)
    plain = getattr(plain, AFTER, plain)
    return getattr(plain, "__code__", None)


def guarded(caller: pluggy.HookCaller, call: Callable[..., Any]) -> Callable[..., Any]:
    """``call`` (a caller of the hook ``caller``), an exception of a plugin's code
    turned into a :class:`PluginFailure` naming the plugin, the hook and the hand.

    The one place where plugin code is called at play: every hook the facade
    asks comes through here.  A :class:`PluginFailure` of a hook asked inside
    (a scorer asking ``rules.count``) names the innermost plugin and passes.
    """
    culprits: dict[object, str] = {}
    for impl in caller.get_hookimpls():
        code = _code_of(impl.function)
        if code is not None:
            culprits[code] = plugin_name(impl.plugin)
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


def first_result_caller(caller: pluggy.HookCaller, argnames: tuple[str, ...]) -> Callable[..., Any]:
    """A positional caller for a first-result hook, same answers as ``caller``,
    an exception of a plugin a :class:`PluginFailure` (:func:`guarded`).

    The implementations are called directly in pluggy's order (wrappers
    first, then the last registered and ``tryfirst`` first), skipping
    pluggy's per-call bookkeeping on the hot path.  New-style wrappers
    (``wrapper=True``) are run as pluggy runs them: up to their ``yield``,
    then sent the result (or thrown the exception) in reverse order; a
    wrapper's return value replaces the result.  Old-style hookwrappers go
    through pluggy itself.  Where core's data rules alone answer, their
    method is the caller: it runs no plugin's code.
    """
    impls = list(reversed(caller.get_hookimpls()))
    if any(i.hookwrapper for i in impls):
        def through_pluggy(*args: Any) -> Any:
            return caller(**dict(zip(argnames, args, strict=True)))
        return guarded(caller, through_pluggy)
    Plan = list[tuple[Callable[..., Any], tuple[int, ...] | None]]
    everything = tuple(range(len(argnames)))

    def positions(impl: pluggy.HookImpl) -> tuple[int, ...] | None:
        """Which arguments ``impl`` takes (None: all, in order)."""
        taken = tuple(argnames.index(a) for a in impl.argnames)
        return None if taken == everything else taken
    wrappers: Plan = [(i.function, positions(i)) for i in impls if i.wrapper]
    plan: Plan = [(i.function, positions(i)) for i in impls if not i.wrapper]
    if not wrappers and len(plan) == 1 and plan[0][1] is None:
        if type(impls[0].plugin) is DataRules:  # core's data rules alone: no plugin code to name
            return plan[0][0]
        return guarded(caller, plan[0][0])

    def direct(*args: Any) -> Any:
        for function, taken in plan:
            result = function(*args) if taken is None else function(*[args[p] for p in taken])
            if result is not None:
                return result
        return None
    if not wrappers:
        return guarded(caller, direct)
    if len(wrappers) == 1 and wrappers[0][1] is None and len(plan) == 1 and plan[0][1] is None:
        after = _after_of(wrappers[0][0])
        if after is not None:
            return guarded(caller, _one_after(after, plan[0][0]))
        return guarded(caller, _one_wrapper(wrappers[0][0], plan[0][0]))
    afters = [_after_of(function) for function, _ in wrappers]

    def wrapped(*args: Any) -> Any:
        running: list[tuple[Generator[Any, Any, Any] | None, Callable[..., Any] | None, tuple[Any, ...]]] = []
        for (function, taken), after in zip(wrappers, afters, strict=True):
            given = args if taken is None else tuple(args[p] for p in taken)
            if after is not None:  # runs nothing before the answer
                running.append((None, after, given))
                continue
            gen = function(*given)
            next(gen)
            running.append((gen, None, given))
        error: BaseException | None = None
        result: Any = None
        try:
            result = direct(*args)
        except BaseException as exc:
            error = exc
        for gen, after, given in reversed(running):
            if gen is None:
                if error is None:
                    try:
                        result = after(*given, answer=result)
                    except BaseException as exc:
                        error = exc
                continue
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
    return guarded(caller, wrapped)


def _one_after(after: Callable[..., Any], function: Callable[..., Any]) -> Callable[..., Any]:
    """The run of :func:`first_result_caller` for one :func:`after_answer` wrapper
    around one implementation, both taking every argument."""
    def wrapped(*args: Any) -> Any:
        return after(*args, answer=function(*args))
    return wrapped


def _one_wrapper(wrapper: Callable[..., Any], function: Callable[..., Any]) -> Callable[..., Any]:
    """The run of :func:`first_result_caller` for one new-style wrapper around one
    implementation, both taking every argument: the same steps without the loops."""
    def wrapped(*args: Any) -> Any:
        gen: Generator[Any, Any, Any] = wrapper(*args)
        next(gen)
        try:
            result = function(*args)
        except BaseException as exc:
            try:
                gen.throw(exc)
            except StopIteration as stop:
                return stop.value
            raise RuntimeError("a hook wrapper yielded twice") from None
        try:
            gen.send(result)
        except StopIteration as stop:
            return stop.value
        raise RuntimeError("a hook wrapper yielded twice")
    return wrapped


def other_than(kind: type[Any]) -> Callable[[Any], bool]:
    """Whether a hook's answer is something, but not a ``kind``."""
    return lambda answer: answer is not None and not isinstance(answer, kind)
