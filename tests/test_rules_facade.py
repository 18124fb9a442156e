"""The per-table Rules facade: plugin order, options, errors, fast callers."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

import pytest
from helpers54 import random_hand, to_play

from tarock.core.cards import Card, parse_card
from tarock.core.hookcall import after_answer
from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec
from tarock.core.rules import PluginFailure, RuleError
from tarock.core.state import HandState, Trick
from tarock.variants.tarock54 import Tarock54


class LowestWins:
    """A house rule: the lowest card wins every trick (answers first)."""

    name = "lowest-wins"

    @hookimpl
    def tarock_trick_winner(self, trick: Trick) -> int:
        return trick.cards.index(min(trick.cards))


class Abstains:
    name = "abstains"

    @hookimpl(tryfirst=True)
    def tarock_trick_winner(self, state: object, trick: Trick) -> int | None:
        return None


class DoublesIndex:
    name = "wrapper"

    @hookimpl(wrapper=True)
    def tarock_trick_winner(self, state: object, trick: Trick) -> Generator[None, int, int]:
        index = yield
        return (index + 1) % len(trick.cards)


class AfterShifts:
    """A wrapper written as a plain function (``after_answer``), of the trick alone."""

    name = "after-shifts"

    @hookimpl(wrapper=True)
    @after_answer
    def tarock_trick_winner(self, trick: Trick, *, answer: int) -> int:
        return (answer + 2) % len(trick.cards)


class AfterFull:
    """The same of every argument; ``fails``: it raises instead."""

    def __init__(self, fails: bool = False) -> None:
        self.fails = fails
        self.name = "after-fails" if fails else "after-full"

    @hookimpl(wrapper=True)
    @after_answer
    def tarock_trick_winner(self, state: object, trick: Trick, *, answer: int) -> int:
        if self.fails:
            raise ValueError("no winner today")
        return (answer + 3) % len(trick.cards)


def _rules(*plugins: object, options: dict[str, Any] | None = None) -> Any:
    from tarock.core.rules import Rules
    return Rules("test", [Tarock54(), *plugins], options)


def _trick(*names: str) -> Trick:
    cards: list[Card] = [parse_card(n) for n in names]
    return Trick(0, [0, 1, 2, 3], cards)


def _playing(rules: Any) -> HandState:
    """The state of a hand of ``rules`` whose Rufspiel is in the trick play
    (the trick winner follows from the contract's trick rules)."""
    from tarock.core.engine import Hand

    dealt = random_hand(5)
    hand = to_play(Hand(rules, dealt.state.dealer, *dealt.deal))
    assert hand.state.phase == "play"
    return hand.state


def _hook_answer(rules: Any, state: HandState, trick: Trick) -> Any:
    return rules.hook.tarock_trick_winner(state=state, trick=trick)


@pytest.mark.parametrize("plugins", [(), (LowestWins(),), (Abstains(),), (LowestWins(), Abstains()),
                                     (DoublesIndex(),), (LowestWins(), DoublesIndex()),
                                     (AfterShifts(),), (AfterFull(),), (LowestWins(), AfterFull()),
                                     (DoublesIndex(), AfterShifts(), AfterFull()),
                                     (AfterFull(), DoublesIndex(), LowestWins())])
def test_fast_caller_answers_as_pluggy(plugins: Sequence[object]) -> None:
    rules = _rules(*plugins)
    state = _playing(rules)
    for names in (("hK", "h1", "XX", "II"), ("c7", "cK", "s10", "d1"), ("I", "XXI", "Sküs", "hQ")):
        trick = _trick(*names)
        assert rules.trick_winner(state, trick) == _hook_answer(rules, state, trick)


def test_a_plain_wrapper_that_fails_is_named() -> None:
    rules = _rules(AfterFull(fails=True))
    with pytest.raises(PluginFailure, match=r"^plugin 'after-fails' failed in hook tarock_trick_winner"):
        rules.trick_winner(_playing(rules), _trick("hK", "h1", "XX", "II"))


def test_house_rule_registered_later_answers_first() -> None:
    rules = _rules(LowestWins())
    trick = _trick("hK", "h1", "XX", "II")
    assert rules.trick_winner(_playing(rules), trick) == 3  # the II, lowest id... of tarocks
    base = _rules()
    assert base.trick_winner(_playing(base), trick) == 2  # the XX trumps


def test_unknown_option_is_refused_with_the_known_ones() -> None:
    with pytest.raises(RuleError, match=r"unknown option.*nonsense.*known: kontra"):
        _rules(options={"nonsense": 1})


def test_plugin_with_unknown_hook_is_refused_naming_it() -> None:
    class Broken:
        name = "broken-plugin"

        @hookimpl
        def tarock_no_such_hook(self) -> None:
            return None

    with pytest.raises(RuleError, match="broken-plugin"):
        _rules(Broken())


def test_missing_answer_names_the_hook() -> None:
    from tarock.core.rules import Rules

    class Empty:
        name = "empty"

        @hookimpl
        def tarock_options(self) -> Sequence[OptionSpec]:
            return []

    with pytest.raises(RuleError, match="tarock_deck"):
        Rules("empty", [Empty()])
