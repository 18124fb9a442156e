"""Broken at play time: reads an option it never declared when a hand is scored."""

from collections.abc import Generator, Mapping
from typing import Any

from tarock.core.contracts import Outcome
from tarock.core.hookspecs import hookimpl
from tarock.core.state import HandState


class FailsLate:
    name = "fails-late"
    version = "1.0"

    @hookimpl(wrapper=True)
    def tarock_premium_outcomes(self, state: HandState) -> Generator[None, Any, Mapping[str, Outcome]]:
        made = dict((yield) or {})
        if state.options["bonus"]:  # KeyError: no plugin declares "bonus"
            made["valat"] = Outcome(True)
        return made


PLUGIN = FailsLate
