"""What a seat measures of its own actions: their round trips, the first card, frames and bytes."""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field

from tarock.net.effects import FirstCard
from tarock.net.protocol.messages import Act, Signed

RTT_KEPT = 4096
"""How many of a seat's latest action round trips :class:`Stats` keeps (a fixed amount of memory
however long the table plays)."""


@dataclass
class Stats:
    """What a seat measured: round trips of its actions (the latest :data:`RTT_KEPT`; ``actions``
    counts them all), messages and bytes."""

    rtt: deque[float] = field(default_factory=lambda: deque(maxlen=RTT_KEPT))
    actions: int = 0
    frames: int = 0
    bytes: int = 0
    first_card: float | None = None
    hands: int = 0


class Questions:
    """The questions a seat's player was asked and when its answers left (of this deal and the
    last one only, so these stay the size of a deal or two)."""

    def __init__(self, me: str, stats: Stats) -> None:
        self.me = me
        self.stats = stats
        self.decided: set[tuple[int, int]] = set()
        """(deal, index) of the questions this seat's player was asked."""
        self._deal = 0
        self._asked: dict[tuple[int, int], float] = {}

    def ask(self, deal: int, index: int) -> bool:
        """Whether the player is to be asked ``(deal, index)`` (not if it was already)."""
        key = (deal, index)
        if key in self.decided:
            return False
        self._new_deal(deal)
        self.decided.add(key)
        return True

    def sent(self, body: Signed) -> None:
        """``body`` leaves for the host: an action's round trip starts."""
        inner = body.body
        if isinstance(inner, dict) and inner.get("t") == Act.tag and isinstance(inner.get("index"), int):
            self._new_deal(body.deal)
            self._asked[(body.deal, int(inner["index"]))] = time.perf_counter()

    def back(self, msg: object) -> FirstCard | None:
        """An entry of the log came back: the round trip of this seat's action, and the table's
        first card (returned, for the screen)."""
        if not isinstance(msg, Signed) or not isinstance(msg.body, dict) or msg.body.get("t") != Act.tag:
            return None
        index = msg.body.get("index")
        action = msg.body.get("action")
        if not isinstance(index, int):
            return None
        sent = self._asked.pop((msg.deal, index), None) if msg.author == self.me else None
        if sent is not None:
            self.stats.rtt.append(time.perf_counter() - sent)
            self.stats.actions += 1
        if self.stats.first_card is None and isinstance(action, dict) and action.get("type") == "play":
            self.stats.first_card = time.time()
            return FirstCard(msg.deal, index)
        return None

    def _new_deal(self, deal: int) -> None:
        """A later deal began: forget what this seat decided and asked in deals before the last
        one (their answers no longer matter)."""
        if deal <= self._deal:
            return
        self._deal = deal
        self.decided = {k for k in self.decided if k[0] >= deal - 1}
        self._asked = {k: t for k, t in self._asked.items() if k[0] >= deal - 1}


def percentile(values: Collection[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank method; nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]
