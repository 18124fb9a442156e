"""Incompatible over tarock54: written for the 40-card game."""

from tarock.core.househooks import declaring
from tarock.core.options import OptionSpec


class Forty:
    name = "forty-only"
    version = "1.0"
    applies_to = ("tarock40",)

    tarock_options = declaring(OptionSpec("forty_rule", True, "a rule of the 40-card game"))


PLUGIN = Forty
