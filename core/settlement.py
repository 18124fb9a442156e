"""Settlement: line items and the one formula that turns them into amounts.

Scoring a hand yields :class:`Item`s: the game and each premium (and, where
each plays for himself, what one seat owes another).  Every item says its
party, its base value, whether it was announced and made, its own Kontra
level and the single-game scale.  The formula (docs/rules.md §10):

    amount  = base * scale * 2 ** kontra, signed: + when the item's party
              made it, - when it failed; 0 when nobody made it
    each seat of ``opposite`` pays ``amount`` to the ``side``,
    and the seats of ``side`` share ``len(opposite) * amount`` equally.

``side`` is the declarer party and ``opposite`` the other players for the
game and the premiums of an ordinary hand; ``for_side`` says whose item it
is (a premium the opponents made is an item of the declarer side's
settlement with ``for_side`` False).  So in 2 v 2 each loser pays one
winner, and a lone declarer receives from, or pays, each of the three
others.  Where a variant has one Kontra on everything, every item carries
that Kontra level; where each announcement has its own, each item carries
its own.  Every hand's amounts sum to zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tarock.core.announcement import Announcement
from tarock.core.contracts import ContractSpec, Outcome, PremiumSpec


class SettlementError(ValueError):
    """Items that do not settle (a share that does not divide)."""


@dataclass(frozen=True, slots=True)
class Item:
    """One line of a hand's settlement (see the module docstring for the formula)."""

    name: str
    """``game``, a premium's name, or a variant's word (``trischaken``)."""
    side: tuple[int, ...]
    """The seats the item is settled for: the declarer party in an ordinary hand."""
    opposite: tuple[int, ...]
    """The seats that settle with ``side``: each pays it ``amount``."""
    base: int
    """The value before ``scale`` and Kontra, in the variant's money unit."""
    for_side: bool = True
    """Whose item it is: the ``side``'s (True) or the ``opposite``'s (False)."""
    made: bool | None = True
    """Whether the item's party made it; None: nobody did (it counts nothing)."""
    announced: bool = False
    """Whether it was announced (``base`` is then the announced value)."""
    kontra: int = 0
    """The Kontra level that counts on this item; its factor is ``2 ** kontra``."""
    scale: int = 1
    """The single-game scale (2 where single games double the premiums)."""
    label: str = ""
    """A short note for the breakdown (``Valat``, ``seat 2's game``)."""

    @property
    def factor(self) -> int:
        return int(self.scale * 2 ** self.kontra)

    @property
    def amount(self) -> int:
        """What each seat of ``opposite`` pays the ``side`` (negative: receives)."""
        if self.made is None or self.base == 0:
            return 0
        sign = 1 if self.made == self.for_side else -1
        return sign * self.base * self.factor


def settle(items: Iterable[Item], seats: int) -> tuple[int, ...]:
    """Each seat's amount from ``items`` by the module's formula; sums to zero."""
    out = [0] * seats
    for item in items:
        amount = item.amount
        if not amount:
            continue
        total = amount * len(item.opposite)
        share, rest = divmod(total, len(item.side))
        if rest:
            raise SettlementError(f"item {item.name!r}: {total} does not divide among {len(item.side)} seats")
        for seat in item.opposite:
            out[seat] -= amount
        for seat in item.side:
            out[seat] += share
    return tuple(out)


def game_item(side: Sequence[int], opposite: Sequence[int], spec: ContractSpec, won: bool | None,
              kontra: int = 0, label: str = "") -> Item:
    """The game's item: its value when won, the lost value when lost, nothing on a draw."""
    base = spec.value if won or won is None else spec.lost_value()
    return Item("game", tuple(side), tuple(opposite), base, made=won, kontra=kontra, label=label)


def premium_items(specs: Mapping[str, PremiumSpec], contract: ContractSpec,
                  outcomes: Mapping[str, Outcome], announcements: Sequence[Announcement],
                  party: frozenset[int], players: Sequence[int], kontra_of: Mapping[str, int]) -> list[Item]:
    """The premiums of a finished hand as items (the generic premium model).

    For every premium that counts in ``contract``, in the order of ``specs``:
    an announced one is an item of the announcing party, made when that
    party achieved it, so its announced value goes to the announcer's party
    or to the other; a silent one is an item of the party that achieved (or
    attempted) it, worth ``silent`` (``silent_lost`` when the attempt
    failed).  ``kontra_of`` gives each premium's counting Kontra level.
    ``party`` is the declarer party; the side of every item is the declarer
    party, the opposite the other ``players``.
    """
    side = tuple(sorted(party))
    opposite = tuple(s for s in players if s not in party)
    announced = {a.name: a for a in announcements}
    out: list[Item] = []
    for name, spec in specs.items():
        if name not in contract.premiums:
            continue
        outcome = outcomes.get(name)
        ann = announced.get(name)
        kontra = kontra_of.get(name, 0)
        if ann is not None and spec.announced:
            ours = ann.seat in party
            made = outcome is not None and outcome.made and outcome.declarers == ours
            out.append(Item(name, side, opposite, spec.announced, for_side=ours, made=made, announced=True,
                            kontra=kontra, scale=contract.premium_scale))
        elif outcome is not None:
            base = spec.silent if outcome.made or spec.silent_lost is None else spec.silent_lost
            if base:
                out.append(Item(name, side, opposite, base, for_side=outcome.declarers, made=outcome.made,
                                kontra=kontra, scale=contract.premium_scale))
    return out
