"""House rules of a club that plays ``tarock54``: the worked example of docs/plugins.md.

The club keeps the 54-card game of docs/rules.md §12 and changes three things, each
behind an option (the defaults are the club's rules):

``pagat_ultimo`` (int, default 2)
    A Pagat Ultimo (the Pagat wins the last trick) is worth this many points
    instead of 1.
``pagat_lost`` (int, default 1)
    A Pagat played in the last trick that loses it costs its party this many
    points (``tarock54`` charges nothing, docs/rules.md §12.4); 0 turns it off.
``kaiserstich`` (bool, default true)
    When Pagat, Mond and Sküs fall in one trick, the Pagat wins it (the
    Kaiserstich of the 40-card game, docs/rules.md §4.8, borrowed for 54 cards).

The file lives outside the installed packages and is loaded by path from
plugins.toml; it changes the rules' data (a premium's values, the
contracts' trick rules) and one outcome through hooks, never by editing
``core/`` or ``variants/``, and never computes an amount itself: core's
settlement applies the Kontra to the new values as to the old.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import replace
from typing import Any

from tarock.core.cards import PAGAT
from tarock.core.contracts import ContractSpec, Outcome
from tarock.core.hookspecs import hookimpl
from tarock.core.househooks import declaring, premium_from_options
from tarock.core.options import OptionSpec
from tarock.core.state import HandState

ULTIMO = "pagat-ultimo"


class PagatClub:
    """Pagat Ultimo worth 2, a lost Pagat costs 1, Kaiserstich."""

    name = "pagat-club"
    version = "2.1"
    applies_to = ("tarock54",)

    tarock_options = declaring(
        OptionSpec("pagat_ultimo", 2, "points for a Pagat Ultimo (the Pagat wins the last trick)", minimum=0),
        OptionSpec("pagat_lost", 1, "points a Pagat played in the last trick and losing costs its party",
                   minimum=0),
        OptionSpec("kaiserstich", True, "the Pagat wins a trick holding Pagat, Mond and Sküs"),
    )
    # the variant's Pagat Ultimo is worth 1
    tarock_premium_specs = premium_from_options(ULTIMO, silent="pagat_ultimo", silent_lost="pagat_lost")

    @hookimpl(wrapper=True)
    def tarock_contracts(self, options: Mapping[str, Any]) -> Generator[None, Any, list[ContractSpec]]:
        contracts = yield
        if not options["kaiserstich"]:
            return list(contracts)
        return [replace(c, tricks=replace(c.tricks, trull_trick=True)) for c in contracts]

    @hookimpl(wrapper=True)
    def tarock_premium_outcomes(self, state: HandState) -> Generator[None, Any, dict[str, Outcome]]:
        made = dict((yield) or {})
        last = state.tricks[-1]
        if ULTIMO not in made and PAGAT in last.cards:
            seat = last.seats[last.cards.index(PAGAT)]
            made[ULTIMO] = Outcome(seat in state.declarer_party(), made=False)  # played last and lost
        return made


PLUGIN = PagatClub
