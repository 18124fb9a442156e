"""Incompatible over tarock54: written for the 40-card game."""

from collections.abc import Sequence

from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec


class Forty:
    name = "forty-only"
    version = "1.0"
    applies_to = ("tarock40",)

    @hookimpl
    def tarock_options(self) -> Sequence[OptionSpec]:
        return [OptionSpec("forty_rule", True, "a rule of the 40-card game")]


PLUGIN = Forty
