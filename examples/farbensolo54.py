"""A Farbensolo for tarock54: alone, the talon untouched, the tarocks beat no suit card.

From the Upper-Austrian rules: worth 6 where its Rufer is 1 (docs/rules.md §18.1); the
Farbenspiele's trick rules (§4.6): a suit lead goes to the highest card of that suit, Tarockzwang
holds, nobody leads a tarock holding a suit card; the forehand leads; tarock54's goal (§12),
Kontra, and of its premiums the Valat, doubled as in the solo games."""
from tarock.core.contracts import ContractSpec, TrickRules
from tarock.core.househooks import adding_contracts


def farbensolo(top: ContractSpec) -> list[ContractSpec]:
    """The game above ``top``, tarock54's highest, with its goal and Kontra."""
    return [ContractSpec("farbensolo", "Farbensolo", rank=top.rank + 1, value=6, kontra=top.kontra,
                         goal=top.goal, tricks=TrickRules("colour"), premiums=frozenset({"valat"}),
                         premium_scale=2,
                         description="alone, the talon untouched: the tarocks beat no suit card")]


class Farbensolo54:
    """Adds the Farbensolo above the Rufspiel; the rest is tarock54's."""

    name, version, applies_to = "farbensolo54", "1.2", ("tarock54",)
    tarock_contracts = adding_contracts(farbensolo)


PLUGIN = Farbensolo54
