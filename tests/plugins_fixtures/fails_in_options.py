"""Broken: its option hook raises while a table's rules are built."""

from collections.abc import Sequence

from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec


class FailsEarly:
    name = "fails-early"
    version = "1.0"

    @hookimpl
    def tarock_options(self) -> Sequence[OptionSpec]:
        return [OptionSpec("rate", 1 // 0, "a rate computed wrongly")]


PLUGIN = FailsEarly
