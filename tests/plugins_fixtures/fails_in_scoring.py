"""Broken at play time: reads an option it never declared when a hand is scored."""

from collections.abc import Generator, Sequence

from core.hookspecs import hookimpl
from core.state import HandState, Premium


class FailsLate:
    name = "fails-late"
    version = "1.0"

    @hookimpl(wrapper=True)
    def tarock_premiums(self, state: HandState) -> Generator[None, Sequence[Premium] | None, list[Premium]]:
        premiums = yield
        bonus = state.options["bonus"]  # KeyError: no plugin declares "bonus"
        return [*(premiums or ()), Premium("bonus", bonus)]


PLUGIN = FailsLate
