"""House rules of a Königrufen club: Mondfang among partners, Trull at 15/30.

A second worked example of docs/plugins.md, over ``koenigrufen-club`` (seed
002).  The club changes two things, each behind an option:

``mondfang_partners`` (bool, default true here)
    The rulebook's own option, whose default the club flips: a Mond captured
    by one's own partner's Sküs counts as a Mondfang against the Mond's party
    (seed 002's discussion: "Mondfang unter Partnern").  A house rule changes
    a base option's default simply by declaring it again.
``trull`` / ``trull_announced`` (int, cents, defaults 15 and 30)
    The Trull premium is worth this many cents silent / announced instead of
    the rulebook's 10 / 20.  Kontra and solo doubling apply to the new value
    exactly as they did to the old one.

The file lives outside the installed packages and is loaded by path from
plugins.toml; it changes behaviour only through hooks.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from core.hookspecs import hookimpl
from core.state import HandState, Premium
from variants.koenigrufen.club import CLUB

TRULL = "trull"
BASE_SILENT, BASE_ANNOUNCED = CLUB.premium_values[TRULL]


class KoenigrufenClubRules:
    """Mondfang among partners; Trull worth 15 silent, 30 announced."""

    name = "mondfang-trull-club"
    version = "1.0"
    applies_to = ("koenigrufen-club",)

    @hookimpl
    def tarock_options(self) -> dict[str, Any]:
        return {"mondfang_partners": True, "trull": 15, "trull_announced": 30}

    @hookimpl(wrapper=True)
    def tarock_premiums(self, state: HandState) -> Generator[None, Sequence[Premium] | None, list[Premium]]:
        premiums = yield  # the rulebook's premiums, Kontra and doubling applied
        out = []
        for p in premiums or ():
            if p.name == TRULL:
                scale = (Fraction(state.options["trull_announced"], BASE_ANNOUNCED) if p.announced
                         else Fraction(state.options["trull"], BASE_SILENT))
                p = replace(p, value=int(p.value * scale))
            out.append(p)
        return out


PLUGIN = KoenigrufenClubRules
