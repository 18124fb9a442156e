"""Counting members: quorums with a tie-breaker, the votes of one campaign and a leader's
progress of every follower (etcd-io/raft's ``quorum`` and ``tracker``).

Quorums and the tie-breaker. With an even number of voters a 2–2 split would
leave nobody in charge, so one member may be named tie-breaker. This is
weighted voting: every member weighs 2, the tie-breaker 3, so the total weight
``W = 2n + 1`` is odd and a quorum is any set weighing more than ``W / 2``; a
set of ``k`` members qualifies iff ``2k > n``, or ``2k == n`` and it holds the
tie-breaker (:func:`quorum`). Two quorums weigh more than ``W`` together, so
they share a member: every pair of election quorums, and every election
quorum with every commit quorum, intersect, which is all Raft's safety
argument (one leader per term, leader completeness) needs.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence


def quorum(members: Sequence[str], have: Collection[str], tie_breaker: str | None) -> bool:
    """True when `have` (a subset of members) is a majority of `members`: more than half, or exactly half
    including `tie_breaker`."""
    k = sum(1 for m in members if m in have)
    n = len(members)
    return 2 * k > n or (2 * k == n and tie_breaker is not None and tie_breaker in have
                         and tie_breaker in members)


class Tally:
    """The answers to one campaign's requests (pre-votes or votes); the candidate grants itself."""

    def __init__(self, members: Sequence[str], tie_breaker: str | None, granted: Iterable[str]) -> None:
        self.members = members
        self.tie_breaker = tie_breaker
        self.granted = set(granted)
        self.rejected: set[str] = set()

    def record(self, frm: str, granted: bool) -> None:
        (self.granted if granted else self.rejected).add(frm)

    def won(self) -> bool:
        """A quorum granted."""
        return quorum(self.members, self.granted, self.tie_breaker)

    def lost(self) -> bool:
        """So many rejected that no quorum can grant any more."""
        return not quorum(self.members, set(self.members) - self.rejected, self.tie_breaker)


class Progress:
    """(Leader) each follower's replication: the next index to send it, the last index known to
    be stored there (``match``), and when (in ticks) the leader last heard from it."""

    def __init__(self, peers: Iterable[str] = (), last_index: int = 0, heard: Iterable[str] = (),
                 now: int = 0) -> None:
        peers = list(peers)
        self.next = {p: last_index + 1 for p in peers}
        self.match = {p: 0 for p in peers}
        self.heard = {p: now for p in heard}

    def reachable(self, now: int, window: int) -> set[str]:
        """The followers heard from within the last ``window`` ticks."""
        return {p for p, t in self.heard.items() if now - t < window}

    def holding(self, index: int) -> set[str]:
        """The followers known to store the entry at ``index``."""
        return {p for p, i in self.match.items() if i >= index}

    def acknowledged(self, peer: str, index: int) -> None:
        """``peer`` stores the log up to ``index``."""
        self.match[peer] = max(self.match[peer], index)
        self.next[peer] = max(self.next[peer], index + 1)

    def refused(self, peer: str, hint: int) -> bool:
        """``peer`` lacks the entries before the last append (``hint``: its hint where to resume);
        True when its log is shorter than what it acknowledged: its store lost entries, and its
        acknowledgements no longer count."""
        forgot = hint < self.match[peer]
        if forgot:
            self.match[peer] = hint
        self.next[peer] = max(self.match[peer] + 1, min(self.next[peer] - 1, hint + 1))
        return forgot
