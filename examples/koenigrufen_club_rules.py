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

from collections.abc import Generator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from tarock.core.contracts import PremiumSpec
from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionSpec

TRULL = "trull"


class KoenigrufenClubRules:
    """Mondfang among partners; Trull worth 15 silent, 30 announced."""

    name = "mondfang-trull-club"
    version = "2.0"
    applies_to = ("koenigrufen-club",)

    @hookimpl
    def tarock_options(self) -> Sequence[OptionSpec]:
        return [OptionSpec("trull", 15, "cents for a silent Trull", minimum=0),
                OptionSpec("trull_announced", 30, "cents for an announced Trull", minimum=0)]

    @hookimpl
    def tarock_option_defaults(self) -> Mapping[str, Any]:
        return {"mondfang_partners": True}

    @hookimpl(wrapper=True)
    def tarock_premium_specs(self, options: Mapping[str, Any]) -> Generator[None, Any, list[PremiumSpec]]:
        premiums = yield  # the rulebook's values
        return [replace(p, silent=options["trull"], announced=options["trull_announced"]) if p.name == TRULL
                else p for p in premiums]


PLUGIN = KoenigrufenClubRules
