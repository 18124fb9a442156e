"""The settlement's line items in a compact form, for scenario tests.

``lines(result)`` writes each item of a hand's result as a :class:`Line`:
its name, whose item it is (``"declarers"`` or ``"opponents"``), whether
that party made it, the amount each opponent of the declarer party pays
the declarer party (negative: receives), and whether it was announced, its
Kontra level and its single-game scale.  For an ordinary hand it also
checks that every item settles between the declarer party and the others.
"""

from __future__ import annotations

from typing import NamedTuple

from tarock.core.settlement import Item
from tarock.core.state import HandResult


class Line(NamedTuple):
    name: str
    party: str
    """``"declarers"``: the declarer party's item; ``"opponents"``: theirs."""
    made: bool | None
    amount: int
    announced: bool = False
    kontra: int = 0
    scale: int = 1


def line(item: Item) -> Line:
    return Line(item.name, "declarers" if item.for_side else "opponents", item.made, item.amount,
                item.announced, item.kontra, item.scale)


def lines(result: HandResult | None, players: tuple[int, ...] = (0, 1, 2, 3)) -> list[Line]:
    """The items of ``result`` as lines, each checked to settle between the
    declarer party (``result.declarers``) and the other ``players``."""
    assert result is not None, "the hand is not over"
    opponents = tuple(s for s in players if s not in result.declarers)
    for item in result.items:
        assert item.side == result.declarers, item
        assert item.opposite == opponents, item
    return [line(i) for i in result.items]
