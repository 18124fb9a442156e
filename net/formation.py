"""Which waiting nodes form a table, and when to pass over the one that should invite (sans-IO).

The rule (docs/protocol.md, "Forming a table"): of the waiting nodes a node sees with its
variant, rules hash and rounds, itself included, the one with the smallest node id opens a
table once that view has not changed for :data:`SETTLE` s, and invites the others of the
``seats`` smallest ids.  A node among those ``seats`` that has not been invited
:data:`PATIENCE` s after it first saw that leader *passes it over*: it leaves that node
(at that boot) out of its own view from then on, so the next smallest id leads.  A stale
advert (a node killed while waiting) or a node that never invites therefore delays a
table by :data:`PATIENCE` s, never stops it.  Each node decides alone; nothing is sent.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["PATIENCE", "SETTLE", "Form", "Formation", "Wait"]

SETTLE = 0.3
"""Seconds a leader's view of the waiting nodes must stay the same before it opens the table."""
PATIENCE = 5.0
"""Seconds a waiting node gives the leader it sees to invite it before passing it over."""
MAX_PASSED = 1024
"""Nodes remembered as passed over (the oldest forgotten first)."""


@dataclass(frozen=True)
class Form:
    """Open the table now and invite these node ids."""

    invite: tuple[str, ...]


@dataclass(frozen=True)
class Wait:
    """Nothing to do yet: ``leader`` should invite (None: too few waiting nodes);
    ``passed_over`` is the node id just passed over, if any."""

    leader: str | None
    passed_over: str | None = None


class Formation:
    """One waiting node's decisions; feed it the compatible waiting peers it sees."""

    def __init__(self, me: str, seats: int, *, settle: float = SETTLE, patience: float = PATIENCE) -> None:
        self.me = me
        self.seats = seats
        self.settle = settle
        self.patience = patience
        self.passed: collections.OrderedDict[str, str] = collections.OrderedDict()
        """The node ids passed over, each with the boot it had then (a restart gets a new chance)."""
        self._stable: tuple[str, ...] = ()
        self._since = 0.0
        self._leader: tuple[str, str] | None = None
        self._leader_since = 0.0

    def step(self, now: float, waiting: Iterable[tuple[str, str]]) -> Form | Wait:
        """What to do at ``now``, seeing ``waiting``: the (node id, boot) of each compatible waiting peer."""
        boots = {node: boot for node, boot in waiting if node != self.me and self.passed.get(node) != boot}
        ids = sorted([self.me, *boots])
        if len(ids) < self.seats:
            self._stable, self._leader = (), None
            return Wait(None)
        chosen = tuple(ids[:self.seats])
        leader = ids[0]
        if leader == self.me:
            self._leader = None
            if chosen != self._stable:
                self._stable, self._since = chosen, now
            elif now - self._since >= self.settle:
                return Form(chosen[1:])
            return Wait(leader)
        self._stable = ()
        if self.me not in chosen:  # the leader forms a table without this node: nothing to wait for
            self._leader = None
            return Wait(leader)
        if self._leader != (leader, boots[leader]):
            self._leader, self._leader_since = (leader, boots[leader]), now
        elif now - self._leader_since >= self.patience:
            self.passed[leader] = boots[leader]
            while len(self.passed) > MAX_PASSED:
                self.passed.popitem(last=False)
            self._leader = None
            return Wait(None, passed_over=leader)
        return Wait(leader)
