"""Bettel and Bettel ouvert for tarock54: alone, no talon, the declarer takes no trick.

From the Upper-Austrian rules (docs/rules.md §18.1), whose Rufer is worth 1 like tarock54's
Rufspiel: Bettel 2, Bettel ouvert 7; the declarer leads, Stichzwang, the Pagat only
as the last tarock (docs/rules.md §4.4, §4.7); tarock54's Kontra (its option) and no premium."""
from dataclasses import replace

from tarock.core.contracts import ContractSpec, Goal, TrickRules
from tarock.core.househooks import adding_contracts


def bettels(top: ContractSpec) -> list[ContractSpec]:
    """The two games above ``top``, tarock54's highest, with its Kontra."""
    bettel = ContractSpec("bettel", "Bettel", rank=top.rank + 1, value=2, kontra=top.kontra,
                          leader="declarer", goal=Goal("tricks", tricks=0), description="take no trick",
                          tricks=TrickRules(must_win=True, pagat_last=True))
    ouvert = replace(bettel, name="bettel-ouvert", title="Bettel ouvert", rank=top.rank + 2, value=7,
                     ouvert=True, description="a Bettel, your hand laid open after the first trick")
    return [bettel, ouvert]


class Bettel54:
    """Adds Bettel and Bettel ouvert above the Rufspiel; the rest is tarock54's."""

    name, version, applies_to = "bettel54", "1.1", ("tarock54",)
    tarock_contracts = adding_contracts(bettels)


PLUGIN = Bettel54
