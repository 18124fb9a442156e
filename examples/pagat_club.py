"""House rules of a club that plays ``tarock54``: the worked example of docs/plugins.md.

The club keeps the 54-card game of seed 000 and changes three things, each
behind an option (the defaults are the club's rules):

``pagat_ultimo`` (int, default 2)
    A Pagat Ultimo (the Pagat wins the last trick) is worth this many points
    instead of 1.
``pagat_lost`` (int, default 1)
    A Pagat played in the last trick that loses it costs its party this many
    points (``tarock54`` charges nothing, RULES.md decision 9); 0 turns it off.
``kaiserstich`` (bool, default true)
    When Pagat, Mond and Sküs fall in one trick, the Pagat wins it (the
    Kaiserstich of seed 000's 40-card game, borrowed for 54 cards).

The file lives outside the installed packages and is loaded by path from
plugins.toml; it changes behaviour only through hooks, never by editing
``core/`` or ``variants/``.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import replace
from typing import Any

from core.cards import PAGAT, TRULL
from core.hookspecs import hookimpl
from core.state import HandState, Premium, Trick

ULTIMO = "pagat-ultimo"
LOST = "pagat-lost"


class PagatClub:
    """Pagat Ultimo worth 2, a lost Pagat costs 1, Kaiserstich."""

    name = "pagat-club"
    version = "1.0"
    applies_to = ("tarock54",)

    @hookimpl
    def tarock_options(self) -> dict[str, Any]:
        return {"pagat_ultimo": 2, "pagat_lost": 1, "kaiserstich": True}

    @hookimpl(tryfirst=True)
    def tarock_trick_winner(self, state: HandState, trick: Trick) -> int | None:
        if state.options["kaiserstich"] and set(trick.cards) >= TRULL:
            return trick.cards.index(PAGAT)
        return None  # any other trick: the variant decides

    @hookimpl(wrapper=True)
    def tarock_premiums(self, state: HandState) -> Generator[None, Sequence[Premium] | None, list[Premium]]:
        premiums = yield  # the variant's answer: Pagat Ultimo is worth +-1 there
        factor = state.options["pagat_ultimo"]
        out = [replace(p, value=p.value * factor) if p.name == ULTIMO else p for p in premiums or ()]
        last = state.tricks[-1]
        cost = state.options["pagat_lost"]
        if cost and PAGAT in last.cards:
            seat = last.seats[last.cards.index(PAGAT)]
            if last.winner != seat:
                out.append(Premium(LOST, -cost if seat in state.declarer_party() else cost))
        return out


PLUGIN = PagatClub
