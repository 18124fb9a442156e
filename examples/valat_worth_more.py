"""A premium worth more: in this club the 40-card Valat is worth 10 silent and 20 announced
(docs/rules.md §13.6 says 6 and 12).

Only the values change: core's settlement still doubles them in single games and applies
the Kontra chain to them, as it did to the old ones.
"""

from __future__ import annotations

from tarock.core.househooks import declaring, premium_from_options
from tarock.core.options import OptionSpec


class ValatWorthMore:
    """The Valat's values from two options."""

    name = "valat-worth-more"
    version = "1.1"
    applies_to = ("tarock40",)

    tarock_options = declaring(OptionSpec("valat", 10, "points for a silent Valat", minimum=0),
                               OptionSpec("valat_announced", 20, "points for an announced Valat", minimum=0))
    tarock_premium_specs = premium_from_options("valat", silent="valat", announced="valat_announced")


PLUGIN = ValatWorthMore
