"""A sans-IO Raft core: who hosts the table, and a replicated log of deal outcomes.

Modelled on etcd-io/raft and the Raft paper (Ongaro & Ousterhout 2014): leader
election (§5.2) with the election restriction (§5.4.1), log replication (§5.3),
commitment only of current-term entries counted on a quorum (§5.4.2), a no-op
entry from every new leader (§8), PreVote (Ongaro's thesis §9.6) and
CheckQuorum with etcd's leader lease. The core is a pure state machine: no
sockets, clock, threads or I/O; time is :meth:`Raft.tick`, randomness comes
from the injected ``random.Random``.

The driver loop: feed :meth:`Raft.tick`, :meth:`Raft.step` and
:meth:`Raft.propose`, then take :meth:`Raft.ready` and, in this order,
persist its hard state and entries (drop stored entries from
``truncate_from`` first), send its messages, and apply its committed entries.
A restarted node is rebuilt from exactly what was persisted.

The log lives in the node's :class:`Storage`, as in etcd-io/raft: the core holds in memory
only the entries it has not handed over by :meth:`Raft.ready` yet (etcd's ``unstable``) and
the term of every entry as runs (the first index of each term: a few integers per election),
and reads an entry's data from the storage when it must send it to a follower that lacks
it or hand it over to be applied.  A node's memory so stays the same however long its log
grows (docs/architecture.md, "Memory").  :class:`MemoryStorage` is the storage of the
tests; a node's is its store (:class:`net.agreement.persist.RaftStore`).

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

import random
from bisect import bisect_right
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, ClassVar, Literal, Protocol

import msgpack

Role = Literal["follower", "pre-candidate", "candidate", "leader"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One log entry: ``data`` is plain msgpack-able data, ``None`` for a leader's no-op."""

    term: int
    index: int
    data: Any


@dataclass(frozen=True, slots=True)
class HardState:
    """What must be on disk before any message of the same :class:`Ready` is sent."""

    term: int = 0
    vote: str = ""
    commit: int = 0


@dataclass(frozen=True, slots=True)
class PreVote:
    """Would you vote for me at ``term`` (my term + 1)? Never changes the voter's state."""

    tag: ClassVar[str] = "raft-pre-vote"
    term: int
    last_index: int
    last_term: int


@dataclass(frozen=True, slots=True)
class PreVoteReply:
    """``term``: the request's term when granted, else the replier's own term."""

    tag: ClassVar[str] = "raft-pre-vote-reply"
    term: int
    granted: bool


@dataclass(frozen=True, slots=True)
class Vote:
    """A candidate's request for a vote in ``term``."""

    tag: ClassVar[str] = "raft-vote"
    term: int
    last_index: int
    last_term: int


@dataclass(frozen=True, slots=True)
class VoteReply:
    """The answer to a :class:`Vote`."""

    tag: ClassVar[str] = "raft-vote-reply"
    term: int
    granted: bool


@dataclass(frozen=True, slots=True)
class Append:
    """Entries after ``prev_index`` (none: a heartbeat) and the leader's commit index."""

    tag: ClassVar[str] = "raft-append"
    term: int
    prev_index: int
    prev_term: int
    entries: tuple[Entry, ...]
    commit: int


@dataclass(frozen=True, slots=True)
class AppendReply:
    """``index``: on success the last index now matched; on failure a hint where to resume.

    The hint is at most the follower's last index: that index when its log is
    shorter than the leader assumed, else (as etcd does) the last index at or
    before the rejected one whose term is not above the leader's ``prev_term``.
    """

    tag: ClassVar[str] = "raft-append-reply"
    term: int
    success: bool
    index: int


@dataclass(frozen=True, slots=True)
class Forgot:
    """(Leader to a member) Your log is shorter than ``index``, which you acknowledged: your store
    lost entries.  Take no part in elections until you hold my committed log."""

    tag: ClassVar[str] = "raft-forgot"
    term: int
    index: int


RaftMessage = PreVote | PreVoteReply | Vote | VoteReply | Append | AppendReply | Forgot

MESSAGES: dict[str, type[RaftMessage]] = {
    cls.tag: cls for cls in (PreVote, PreVoteReply, Vote, VoteReply, Append, AppendReply, Forgot)
}


@dataclass(frozen=True, slots=True)
class Envelope:
    """A message from ``frm`` to ``to``."""

    frm: str
    to: str
    msg: RaftMessage


@dataclass(frozen=True, slots=True)
class Ready:
    """What happened since the last :meth:`Raft.ready`: persist, then send, then apply."""

    hard: HardState | None
    truncate_from: int | None
    entries: tuple[Entry, ...]
    committed: tuple[Entry, ...]
    messages: tuple[Envelope, ...]

    def empty(self) -> bool:
        """Nothing to persist, send or apply."""
        return (self.hard is None and self.truncate_from is None and not self.entries
                and not self.committed and not self.messages)


def entry_size(entry: Entry) -> int:
    """The bytes ``entry``'s data takes in an append (what ``max_append_bytes`` counts)."""
    return len(msgpack.packb(entry.data, use_bin_type=True))


class Storage(Protocol):
    """The persisted log, as the core reads it (etcd-io/raft's ``Storage``, without snapshots).

    It holds what every :class:`Ready` handed over (``truncate_from`` and ``entries``) once
    the driver persisted it; the core reads from it only entries it handed over before.
    """

    def last_index(self) -> int:
        """The index of the last entry stored (0: none)."""
        ...

    def term_runs(self) -> list[tuple[int, int]]:
        """``(first index, term)`` of every run of entries of one term, in log order."""
        ...

    def entries(self, lo: int, hi: int, max_bytes: int | None = None) -> list[Entry]:
        """The entries ``lo`` up to ``hi`` (excluded), all stored; with ``max_bytes`` only as
        many as fit in it by :func:`entry_size` (at least one when ``lo < hi``)."""
        ...


class MemoryStorage:
    """A :class:`Storage` in memory: ``log`` is what was persisted (the tests' disk, which
    :meth:`save` or the test itself writes)."""

    def __init__(self, log: list[Entry] | None = None) -> None:
        self.log: list[Entry] = log if log is not None else []

    def last_index(self) -> int:
        return len(self.log)

    def term_runs(self) -> list[tuple[int, int]]:
        return _runs((e.index, e.term) for e in self.log)

    def entries(self, lo: int, hi: int, max_bytes: int | None = None) -> list[Entry]:
        if not 1 <= lo <= hi <= len(self.log) + 1:
            raise IndexError((lo, hi))
        return _fit(self.log[lo - 1:hi - 1], max_bytes)

    def save(self, ready: Ready) -> None:
        """What ``ready`` asks to persist."""
        if ready.truncate_from is not None:
            del self.log[ready.truncate_from - 1:]
        self.log.extend(ready.entries)


def _runs(pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """``(index, term)`` pairs in log order as runs ``(first index, term)``."""
    out: list[tuple[int, int]] = []
    for index, term in pairs:
        if not out or out[-1][1] != term:
            out.append((index, term))
    return out


def _fit(entries: Iterable[Entry], max_bytes: int | None) -> list[Entry]:
    """The first of ``entries`` that fit in ``max_bytes`` (None: all; at least one)."""
    out: list[Entry] = []
    size = 0
    for e in entries:
        if max_bytes is not None:
            size += entry_size(e)
            if out and size > max_bytes:
                break
        out.append(e)
    return out


def quorum(members: Sequence[str], have: Collection[str], tie_breaker: str | None) -> bool:
    """True when `have` (a subset of members) is a majority of `members`: more than half, or exactly half
    including `tie_breaker`."""
    k = sum(1 for m in members if m in have)
    n = len(members)
    return 2 * k > n or (2 * k == n and tie_breaker is not None and tie_breaker in have
                         and tie_breaker in members)


class Raft:
    """One node's Raft state machine (see the module docstring for the driver's duties)."""

    def __init__(self, me: str, members: Sequence[str], *, hard: HardState = HardState(),
                 storage: Storage | None = None, applied: int = 0, rand: random.Random,
                 election_ticks: int = 10, heartbeat_ticks: int = 1,
                 tie_breaker: str | None = None, max_append_bytes: int = 64 * 1024,
                 max_committed_bytes: int = 1024 * 1024, lost: bool = False) -> None:
        self.me = me
        self.members = tuple(members)
        if me not in self.members or len(set(self.members)) != len(self.members):
            raise ValueError("members must be distinct and include me")
        if not 1 <= heartbeat_ticks <= election_ticks:
            raise ValueError("need 1 <= heartbeat_ticks <= election_ticks")
        self.storage: Storage = storage if storage is not None else MemoryStorage()
        self._last = self.storage.last_index()
        runs = self.storage.term_runs()
        if (self._last < 0 or (runs == []) != (self._last == 0) or (runs and runs[0][0] != 1)
                or any(b[0] <= a[0] for a, b in pairwise(runs))
                or (runs and runs[-1][0] > self._last)):
            raise ValueError("the stored log's indexes must run 1, 2, 3, ...")
        self._run_starts = [i for i, _ in runs]
        self._run_terms = [t for _, t in runs]
        self._tail: list[Entry] = []
        """The entries from ``_first_unstable`` on: not handed over by :meth:`ready` yet."""
        self._first_unstable = self._last + 1
        if not 0 <= applied <= self.last_index or not 0 <= hard.commit <= self.last_index:
            raise ValueError("commit and applied must lie within the log")
        self._rand = rand
        self._election = election_ticks
        self._heartbeat = heartbeat_ticks
        self.tie_breaker = tie_breaker
        self._max_bytes = max_append_bytes
        self._max_committed = max_committed_bytes
        self._term = hard.term
        self._vote = hard.vote
        self.commit = max(hard.commit, applied)
        self._applied = applied
        self._saved = hard
        self._saved_last = self.last_index
        self._out: list[Envelope] = []
        self._role: Role = "follower"
        self.leader: str | None = None
        self._now = 0
        self._elapsed = 0
        self._timeout = 0
        self._beat = 0
        self._granted: set[str] = set()
        self._rejected: set[str] = set()
        self._next: dict[str, int] = {}
        self._match: dict[str, int] = {}
        self._heard: dict[str, int] = {}
        self._abstain_until = 0
        self.lost = lost
        """This member's store lost entries it had acknowledged (rolled back, damaged, emptied): it
        grants no vote and stands for no election until a leader has brought it its committed log
        (Raft thesis §4.2.2's lost-memory caveat; like an etcd learner catching up)."""
        self._become_follower(self._term, None)

    # -- read access ---------------------------------------------------------------------------------------

    @property
    def term(self) -> int:
        """The current term."""
        return self._term

    @property
    def role(self) -> Role:
        """Follower, pre-candidate, candidate or leader."""
        return self._role

    @property
    def last_index(self) -> int:
        """The index of the last entry (0: empty log)."""
        return self._last

    @property
    def last_term(self) -> int:
        """The term of the last entry (0: empty log)."""
        return self._run_terms[-1] if self._run_terms else 0

    def entry(self, index: int) -> Entry:
        """The entry at 1-based ``index`` (IndexError outside the log)."""
        if not 1 <= index <= self._last:
            raise IndexError(index)
        return self.entries(index, index + 1)[0]

    def entries(self, lo: int, hi: int, max_bytes: int | None = None) -> list[Entry]:
        """The entries ``lo`` up to ``hi`` (excluded), from the storage and from memory; with
        ``max_bytes`` only as many as fit (at least one when ``lo < hi``)."""
        if not 1 <= lo <= hi <= self._last + 1:
            raise IndexError((lo, hi))
        split = self._first_unstable
        out: list[Entry] = []
        if lo < split:
            stop = min(hi, split)
            out = self.storage.entries(lo, stop, max_bytes)
            if hi <= split or len(out) < stop - lo:
                return out
        tail = self._tail[max(lo, split) - split:hi - split]
        if max_bytes is None:
            return out + tail
        size = sum(entry_size(e) for e in out)
        for e in tail:
            size += entry_size(e)
            if out and size > max_bytes:
                break
            out.append(e)
        return out

    def _term_at(self, index: int) -> int | None:
        if index == 0:
            return 0
        if not 0 < index <= self._last:
            return None
        return self._run_terms[bisect_right(self._run_starts, index) - 1]

    @property
    def election_ticks(self) -> int:
        return self._election

    def peers(self) -> list[str]:
        """The other members."""
        return self._peers()

    def matched(self, peer: str) -> int:
        """(Leader) the last index known to be stored at ``peer``."""
        return self._match.get(peer, 0)

    def reachable(self) -> frozenset[str]:
        """Leader: the members heard from within the last election timeout, me included; else just me."""
        if self._role != "leader":
            return frozenset({self.me})
        return frozenset(p for p, t in self._heard.items() if self._now - t < self._election) | {self.me}

    # -- inputs ----------------------------------------------------------------------------------------------

    def tick(self) -> None:
        """One tick of the logical clock."""
        self._now += 1
        self._elapsed += 1
        if self._role != "leader":
            if self._elapsed >= self._timeout and self._now >= self._abstain_until and not self.lost:
                self._campaign(pre=True)
            return
        if self._elapsed >= self._election and not quorum(self.members, self.reachable(), self.tie_breaker):
            self._become_follower(self._term, None)  # CheckQuorum, from one election timeout in
            return
        self._beat += 1
        if self._beat >= self._heartbeat:
            self._beat = 0
            self._broadcast()

    def lead(self) -> None:
        """Lead the current term without an election: only a group's first leader may, for which
        every member persisted its vote in this term before it took part (so nobody else can
        gather a quorum of votes in it)."""
        if self._vote != self.me or self._term < 1 or self._last or self._role == "leader" or self.lost:
            raise ValueError("only the member every member voted for may lead without an election")
        self._granted = set(self.members)
        self._become_leader()

    def resign(self, ticks: int) -> None:
        """(Leader) stop leading, and stand for no election for ``ticks`` ticks, so that another
        member leads (its log is as complete: every entry of this leader's is committed first)."""
        if self._role == "leader":
            self._become_follower(self._term, None)
            self._abstain_until = self._now + ticks

    def propose(self, data: Any) -> int | None:
        """Leader: append ``data`` in the current term and return its index; otherwise None.

        Raises TypeError, appending nothing, when ``data`` cannot be encoded with msgpack.
        """
        if self._role != "leader":
            return None
        msgpack.packb(data, use_bin_type=True)
        index = self._append_own(data)
        for p in self._peers():
            if self._next[p] == index:
                self._send_append(p)
        self._maybe_commit()
        return index

    def step(self, env: Envelope) -> None:
        """Take a received message; anything stale, duplicated or out of range is handled per Raft."""
        frm, m = env.frm, env.msg
        if env.to != self.me or frm == self.me or frm not in self.members or m.term < 0:
            return
        if m.term > self._term:
            if isinstance(m, PreVote | Vote) and self._in_lease():
                return  # the leader lease: we lead, or heard from a live leader lately
            if isinstance(m, PreVote) or (isinstance(m, PreVoteReply) and m.granted):
                pass  # pre-votes never change a term
            else:
                self._become_follower(m.term, frm if isinstance(m, Append | Forgot) else None)
        elif m.term < self._term:
            if isinstance(m, Append):
                self._send(frm, AppendReply(self._term, False, self.last_index))  # the stale leader learns
            elif isinstance(m, PreVote):
                self._send(frm, PreVoteReply(self._term, False))
            return
        if self._role == "leader":
            self._heard[frm] = self._now
        if isinstance(m, PreVote | Vote):
            self._on_vote_request(frm, m)
        elif isinstance(m, PreVoteReply):
            if self._role == "pre-candidate" and m.term == self._term + (1 if m.granted else 0):
                self._poll(frm, m.granted)
        elif isinstance(m, VoteReply):
            if self._role == "candidate":
                self._poll(frm, m.granted)
        elif isinstance(m, Forgot):
            if self._role != "leader" and m.index > self.last_index:
                self._become_follower(self._term, frm)
                self.lost = True
        elif isinstance(m, Append):
            if self._role == "leader":
                return  # two leaders in one term cannot be; ignore
            if self._role != "follower":
                self._become_follower(self._term, frm)
            self.leader = frm
            self._elapsed = 0
            self._on_append(frm, m)
        elif self._role == "leader":
            self._on_append_reply(frm, m)

    def ready(self) -> Ready:
        """Hand over everything since the last call; of the committed entries only as many as
        fit in ``max_committed_bytes`` (at least one): the next call hands over more."""
        hard = HardState(self._term, self._vote, self.commit)
        new_hard = hard if hard != self._saved else None
        truncate = self._first_unstable if self._first_unstable <= self._saved_last else None
        entries = tuple(self._tail)
        committed = tuple(self.entries(self._applied + 1, self.commit + 1, self._max_committed))
        out = tuple(self._out)
        self._saved = hard
        self._saved_last = self.last_index
        self._first_unstable = self.last_index + 1
        self._tail = []  # from now on the storage holds them
        self._applied += len(committed)
        self._out = []
        return Ready(new_hard, truncate, entries, committed, out)

    @property
    def applying(self) -> bool:
        """Committed entries wait to be handed over by :meth:`ready`."""
        return self._applied < self.commit

    # -- elections -----------------------------------------------------------------------------------------

    def _in_lease(self) -> bool:
        return self._role == "leader" or (self.leader is not None and self._elapsed < self._election)

    def _peers(self) -> list[str]:
        return [p for p in self.members if p != self.me]

    def _reset(self, role: Role) -> None:
        self._role = role
        self._elapsed = 0
        self._beat = 0
        self._timeout = self._election + self._rand.randrange(self._election)
        self._granted = {self.me}
        self._rejected = set()

    def _become_follower(self, term: int, leader: str | None) -> None:
        if term != self._term:
            self._term = term
            self._vote = ""
        self.leader = leader
        self._reset("follower")

    def _campaign(self, *, pre: bool) -> None:
        self.leader = None
        if pre:
            self._reset("pre-candidate")
            msg: RaftMessage = PreVote(self._term + 1, self.last_index, self.last_term)
        else:
            self._term += 1
            self._vote = self.me
            self._reset("candidate")
            msg = Vote(self._term, self.last_index, self.last_term)
        if quorum(self.members, self._granted, self.tie_breaker):
            self._won()
            return
        for p in self._peers():
            self._send(p, msg)

    def _won(self) -> None:
        if self._role == "pre-candidate":
            self._campaign(pre=False)
        else:
            self._become_leader()

    def _poll(self, frm: str, granted: bool) -> None:
        (self._granted if granted else self._rejected).add(frm)
        if quorum(self.members, self._granted, self.tie_breaker):
            self._won()
        elif not quorum(self.members, set(self.members) - self._rejected, self.tie_breaker):
            self._become_follower(self._term, None)

    def _on_vote_request(self, frm: str, m: PreVote | Vote) -> None:
        pre = isinstance(m, PreVote)
        if self.lost:
            self._send(frm, PreVoteReply(self._term, False) if pre else VoteReply(self._term, False))
            return
        can = self._vote == frm or (self._vote == "" and self.leader is None) or (pre and m.term > self._term)
        up_to_date = (m.last_term, m.last_index) >= (self.last_term, self.last_index)
        if can and up_to_date:
            if pre:
                self._send(frm, PreVoteReply(m.term, True))
            else:
                self._elapsed = 0
                self._vote = frm
                self._send(frm, VoteReply(self._term, True))
        else:
            self._send(frm, PreVoteReply(self._term, False) if pre else VoteReply(self._term, False))

    def _become_leader(self) -> None:
        voters = self._granted
        self._reset("leader")
        self.leader = self.me
        self._next = {p: self.last_index + 1 for p in self._peers()}
        self._match = {p: 0 for p in self._peers()}
        self._heard = {p: self._now for p in voters if p != self.me}
        self._append_own(None)
        self._broadcast()
        self._maybe_commit()

    # -- replication ---------------------------------------------------------------------------------------

    def _append_own(self, data: Any) -> int:
        index = self.last_index + 1
        self._append(Entry(self._term, index, data))
        return index

    def _append(self, e: Entry) -> None:
        self._tail.append(e)
        self._last = e.index
        if not self._run_terms or self._run_terms[-1] != e.term:
            self._run_starts.append(e.index)
            self._run_terms.append(e.term)

    def _truncate(self, index: int) -> None:
        """Drop the entries from ``index`` on (none of them committed)."""
        if index >= self._first_unstable:
            del self._tail[index - self._first_unstable:]
        else:
            self._tail = []
            self._first_unstable = index
        self._last = index - 1
        k = bisect_right(self._run_starts, index - 1)
        del self._run_starts[k:]
        del self._run_terms[k:]

    def _broadcast(self) -> None:
        for p in self._peers():
            self._send_append(p)

    def _send_append(self, p: str) -> None:
        nxt = self._next[p]
        entries = self.entries(nxt, self.last_index + 1, self._max_bytes)
        prev_term = self._term_at(nxt - 1)
        assert prev_term is not None
        self._send(p, Append(self._term, nxt - 1, prev_term, tuple(entries), self.commit))

    def _on_append(self, frm: str, m: Append) -> None:
        if m.prev_index < 0 or any(e.index != m.prev_index + 1 + i for i, e in enumerate(m.entries)):
            return  # malformed
        prev_term = self._term_at(m.prev_index)
        if prev_term != m.prev_term:
            if prev_term is None:
                hint = self.last_index
            else:
                hint = m.prev_index - 1
                while hint > 0 and (self._term_at(hint) or 0) > m.prev_term:
                    hint = self._run_starts[bisect_right(self._run_starts, hint) - 1] - 1
            self._send(frm, AppendReply(self._term, False, hint))
            return
        for e in m.entries:
            have = self._term_at(e.index)
            if have == e.term:
                continue
            if have is not None:
                if e.index <= self.commit:
                    return  # would overwrite a committed entry: not from a correct leader
                self._truncate(e.index)
            for new in m.entries[e.index - m.prev_index - 1:]:
                self._append(new)
            break
        last_new = m.prev_index + len(m.entries)
        self.commit = max(self.commit, min(m.commit, last_new))
        if self.lost and self.commit >= m.commit:
            self.lost = False  # it holds every entry the leader counts as committed
        self._send(frm, AppendReply(self._term, True, last_new))

    def _on_append_reply(self, frm: str, m: AppendReply) -> None:
        if not 0 <= m.index <= self.last_index:
            return
        if m.success:
            self._match[frm] = max(self._match[frm], m.index)
            self._next[frm] = max(self._next[frm], m.index + 1)
            if self._maybe_commit():
                self._broadcast()
            elif self._next[frm] <= self.last_index:
                self._send_append(frm)
        else:
            if m.index < self._match[frm]:
                # Its log is shorter than what it acknowledged: its store lost entries (rolled
                # back or made anew).  Its acknowledgements no longer count, and it is told.
                self._match[frm] = m.index
                self._send(frm, Forgot(self._term, self.commit))
            self._next[frm] = max(self._match[frm] + 1, min(self._next[frm] - 1, m.index + 1))
            self._send_append(frm)

    def _maybe_commit(self) -> bool:
        for n in range(self.last_index, self.commit, -1):
            if self._term_at(n) != self._term:
                break
            have = {p for p, i in self._match.items() if i >= n} | {self.me}
            if quorum(self.members, have, self.tie_breaker):
                self.commit = n
                return True
        return False

    def _send(self, to: str, msg: RaftMessage) -> None:
        self._out.append(Envelope(self.me, to, msg))
