"""House rules of a Königrufen club: Mondfang among partners, Trull at 15/30.

A second worked example of docs/plugins.md, over ``koenigrufen-club`` (seed
002).  The club changes two things, each behind an option:

``mondfang_partners`` (bool, default true here)
    The rulebook's own option, whose default the club flips: a Mond captured
    by one's own partner's Sküs counts as a Mondfang against the Mond's party
    (the remarks after the rulebook, docs/rules.md §16.8: "Mondfang unter Partnern").  A house rule changes
    a base option's default through ``tarock_option_defaults``.
``trull`` / ``trull_announced`` (int, cents, defaults 15 and 30)
    The Trull premium is worth this many cents silent / announced instead of
    the rulebook's 10 / 20.  The plugin changes the premium's values (data);
    Kontra and solo doubling apply to the new values exactly as to the old.

The file lives outside the installed packages and is loaded by path from
plugins.toml; it changes behaviour only through hooks.
"""

from __future__ import annotations

from tarock.core.househooks import declaring, defaulting, premium_from_options
from tarock.core.options import OptionSpec


class KoenigrufenClubRules:
    """Mondfang among partners; Trull worth 15 silent, 30 announced."""

    name = "mondfang-trull-club"
    version = "2.1"
    applies_to = ("koenigrufen-club",)

    tarock_option_defaults = defaulting(mondfang_partners=True)
    tarock_options = declaring(OptionSpec("trull", 15, "cents for a silent Trull", minimum=0),
                               OptionSpec("trull_announced", 30, "cents for an announced Trull", minimum=0))
    # the rulebook's values replaced by the options'
    tarock_premium_specs = premium_from_options("trull", silent="trull", announced="trull_announced")


PLUGIN = KoenigrufenClubRules
