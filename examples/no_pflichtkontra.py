"""No Pflichtkontra: the holder of Pagat, Mond and Sküs need not say Kontra on a Rufspiel.

The tournament rule of docs/rules.md §8.3 is a Kontra duty (the hook ``tarock_kontra_duty``); this one-line
plugin answers it first with "no duty".  (A table can also switch it off with the option
``pflichtkontra = false``.)
"""

from __future__ import annotations

from tarock.core.hookspecs import hookimpl
from tarock.core.state import HandState


class NoPflichtkontra:
    name = "no-pflichtkontra"
    version = "1.0"
    applies_to = ("tarock40",)

    @hookimpl(tryfirst=True)
    def tarock_kontra_duty(self, state: HandState, seat: int) -> bool:
        return False


PLUGIN = NoPflichtkontra
