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

The parts, as in etcd-io/raft: the messages and the :class:`Ready`
(:mod:`net.agreement.messages`), the log with its unstable part and its
:class:`Storage` (:mod:`net.agreement.log`), quorums with a tie-breaker, a
campaign's votes and a leader's progress of each follower
(:mod:`net.agreement.tracker`); this module is the state machine that steps
messages through them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import msgpack

from tarock.net.agreement.log import MemoryStorage, RaftLog, Storage
from tarock.net.agreement.messages import (
    Append,
    AppendReply,
    Entry,
    Envelope,
    Forgot,
    HardState,
    PreVote,
    PreVoteReply,
    RaftMessage,
    Ready,
    Vote,
    VoteReply,
)
from tarock.net.agreement.tracker import Progress, Tally, quorum

Role = Literal["follower", "pre-candidate", "candidate", "leader"]

NEW = HardState()
"""The hard state of a member that never persisted one."""


class Clock:
    """A member's logical time in ticks: ``elapsed`` since its role began (or it last heard a
    leader, or granted a vote), its randomized election timeout, the heartbeat's count and
    the tick before which it stands for no election."""

    def __init__(self, election: int, heartbeat: int, rand: random.Random) -> None:
        if not 1 <= heartbeat <= election:
            raise ValueError("need 1 <= heartbeat_ticks <= election_ticks")
        self.election, self.heartbeat, self._rand = election, heartbeat, rand
        self.now = self.elapsed = self.timeout = self.beat = self.abstain_until = 0

    def restart(self) -> None:
        """A new role: count from 0, with a new election timeout (``election`` up to twice it)."""
        self.elapsed = self.beat = 0
        self.timeout = self.election + self._rand.randrange(self.election)

    def recent(self) -> bool:
        """Less than one election timeout since the count began."""
        return self.elapsed < self.election

    def campaign_due(self) -> bool:
        return self.elapsed >= self.timeout and self.now >= self.abstain_until

    def beat_due(self) -> bool:
        """Count a leader's tick: True when a heartbeat is due."""
        self.beat += 1
        if self.beat < self.heartbeat:
            return False
        self.beat = 0
        return True


class Raft:
    """One node's Raft state machine (see the module docstring for the driver's duties)."""

    def __init__(self, me: str, members: Sequence[str], *, hard: HardState = NEW,
                 storage: Storage | None = None, applied: int = 0, rand: random.Random,
                 election_ticks: int = 10, heartbeat_ticks: int = 1,
                 tie_breaker: str | None = None, max_append_bytes: int = 64 * 1024,
                 max_committed_bytes: int = 1024 * 1024, lost: bool = False) -> None:
        self.me = me
        self.members = tuple(members)
        if me not in self.members or len(set(self.members)) != len(self.members):
            raise ValueError("members must be distinct and include me")
        self._clock = Clock(election_ticks, heartbeat_ticks, rand)
        self.log = RaftLog(storage if storage is not None else MemoryStorage(), hard.commit, applied)
        self.tie_breaker = tie_breaker
        self._max_bytes, self._max_committed = max_append_bytes, max_committed_bytes
        self._term, self._vote = hard.term, hard.vote
        self._saved = hard
        self._out: list[Envelope] = []
        self._role: Role = "follower"
        self.leader: str | None = None
        self._tally = Tally(self.members, tie_breaker, ())
        self._progress = Progress()
        """(Leader) its followers' replication; kept after it stops leading."""
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

    def entry(self, index: int) -> Entry:
        """The entry at 1-based ``index`` (IndexError outside the log)."""
        return self.entries(index, index + 1)[0]

    def entries(self, lo: int, hi: int, max_bytes: int | None = None) -> list[Entry]:
        """The entries ``lo`` up to ``hi`` (excluded), from the storage and from memory; with
        ``max_bytes`` only as many as fit (at least one when ``lo < hi``)."""
        return self.log.entries(lo, hi, max_bytes)

    @property
    def election_ticks(self) -> int:
        return self._clock.election

    def peers(self) -> list[str]:
        """The other members."""
        return [p for p in self.members if p != self.me]

    def matched(self, peer: str) -> int:
        """(Leader) the last index known to be stored at ``peer``."""
        return self._progress.match.get(peer, 0)

    def reachable(self) -> frozenset[str]:
        """Leader: the members heard from within the last election timeout, me included; else just me."""
        if self._role != "leader":
            return frozenset({self.me})
        return frozenset(self._progress.reachable(self._clock.now, self._clock.election)) | {self.me}

    # -- inputs ----------------------------------------------------------------------------------------------
    def tick(self) -> None:
        """One tick of the logical clock."""
        clock = self._clock
        clock.now += 1
        clock.elapsed += 1
        if self._role != "leader":
            if clock.campaign_due() and not self.lost:
                self._campaign(pre=True)
        elif not clock.recent() and not quorum(self.members, self.reachable(), self.tie_breaker):
            self._become_follower(self._term, None)  # CheckQuorum, from one election timeout in
        elif clock.beat_due():
            self._broadcast()

    def lead(self) -> None:
        """Lead the current term without an election: only a group's first leader may, for which
        every member persisted its vote in this term before it took part (so nobody else can
        gather a quorum of votes in it)."""
        if self._vote != self.me or self._term < 1 or self.log.last or self._role == "leader" or self.lost:
            raise ValueError("only the member every member voted for may lead without an election")
        self._become_leader(self.members)

    def resign(self, ticks: int) -> None:
        """(Leader) stop leading, and stand for no election for ``ticks`` ticks, so that another
        member leads (its log is as complete: every entry of this leader's is committed first)."""
        if self._role == "leader":
            self._become_follower(self._term, None)
            self._clock.abstain_until = self._clock.now + ticks

    def propose(self, data: Any) -> int | None:
        """Leader: append ``data`` in the current term and return its index; otherwise None.

        Raises TypeError, appending nothing, when ``data`` cannot be encoded with msgpack.
        """
        if self._role != "leader":
            return None
        msgpack.packb(data, use_bin_type=True)
        index = self.log.last + 1
        self.log.append(Entry(self._term, index, data))
        for p in self.peers():
            if self._progress.next[p] == index:
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
                self._send(frm, AppendReply(self._term, False, self.log.last))  # the stale leader learns
            elif isinstance(m, PreVote):
                self._send(frm, PreVoteReply(self._term, False))
            return
        if self._role == "leader":
            self._progress.heard[frm] = self._clock.now
        if isinstance(m, PreVote | Vote):
            self._on_vote_request(frm, m)
        elif isinstance(m, PreVoteReply | VoteReply):
            if (self._role == "candidate" if isinstance(m, VoteReply) else
                    self._role == "pre-candidate" and m.term == self._term + (1 if m.granted else 0)):
                self._tally.record(frm, m.granted)
                self._count()
        elif isinstance(m, Forgot):
            if self._role != "leader" and m.index > self.log.last:
                self._become_follower(self._term, frm)
                self.lost = True
        elif isinstance(m, Append):
            if self._role == "leader":
                return  # two leaders in one term cannot be; ignore
            if self._role != "follower":
                self._become_follower(self._term, frm)
            self.leader = frm
            self._clock.elapsed = 0
            self._on_append(frm, m)
        elif self._role == "leader":
            self._on_append_reply(frm, m)

    def ready(self) -> Ready:
        """Hand over everything since the last call; of the committed entries only as many as
        fit in ``max_committed_bytes`` (at least one): the next call hands over more."""
        hard = HardState(self._term, self._vote, self.log.committed)
        new_hard = hard if hard != self._saved else None
        committed = self.log.take_committed(self._max_committed)
        truncate, entries = self.log.hand_over()  # after reading committed ones still in memory
        out = tuple(self._out)
        self._saved = hard
        self._out = []
        return Ready(new_hard, truncate, entries, committed, out)

    @property
    def applying(self) -> bool:
        """Committed entries wait to be handed over by :meth:`ready`."""
        return self.log.applied < self.log.committed

    # -- elections -----------------------------------------------------------------------------------------
    def _in_lease(self) -> bool:
        return self._role == "leader" or (self.leader is not None and self._clock.recent())

    def _reset(self, role: Role) -> None:
        self._role = role
        self._clock.restart()
        self._tally = Tally(self.members, self.tie_breaker, (self.me,))

    def _become_follower(self, term: int, leader: str | None) -> None:
        if term != self._term:
            self._term, self._vote = term, ""
        self.leader = leader
        self._reset("follower")

    def _campaign(self, *, pre: bool) -> None:
        self.leader = None
        if pre:
            self._reset("pre-candidate")
            msg: RaftMessage = PreVote(self._term + 1, self.log.last, self.log.last_term)
        else:
            self._term += 1
            self._vote = self.me
            self._reset("candidate")
            msg = Vote(self._term, self.log.last, self.log.last_term)
        if not self._tally.won():
            for p in self.peers():
                self._send(p, msg)
        self._count()

    def _count(self) -> None:
        """Won: on from the pre-vote to the vote, or from the vote to leading; lost: follow."""
        if self._tally.won():
            if self._role == "pre-candidate":
                self._campaign(pre=False)
            else:
                self._become_leader(self._tally.granted)
        elif self._tally.lost():
            self._become_follower(self._term, None)

    def _on_vote_request(self, frm: str, m: PreVote | Vote) -> None:
        pre = isinstance(m, PreVote)
        can = self._vote == frm or (self._vote == "" and self.leader is None) or (pre and m.term > self._term)
        up_to_date = (m.last_term, m.last_index) >= (self.log.last_term, self.log.last)
        granted = can and up_to_date and not self.lost  # a member that lost entries votes for nobody
        if granted and not pre:
            self._clock.elapsed = 0
            self._vote = frm
        reply = PreVoteReply if pre else VoteReply
        self._send(frm, reply(m.term if granted and pre else self._term, granted))

    def _become_leader(self, voters: Iterable[str]) -> None:
        heard = [p for p in voters if p != self.me]
        self._reset("leader")
        self.leader = self.me
        self._progress = Progress(self.peers(), self.log.last, heard, self._clock.now)
        self.log.append(Entry(self._term, self.log.last + 1, None))  # the new leader's no-op
        self._broadcast()
        self._maybe_commit()

    # -- replication ---------------------------------------------------------------------------------------
    def _broadcast(self) -> None:
        for p in self.peers():
            self._send_append(p)

    def _send_append(self, p: str) -> None:
        nxt = self._progress.next[p]
        entries = self.entries(nxt, self.log.last + 1, self._max_bytes)
        prev_term = self.log.term_at(nxt - 1)
        assert prev_term is not None
        self._send(p, Append(self._term, nxt - 1, prev_term, tuple(entries), self.log.committed))

    def _on_append(self, frm: str, m: Append) -> None:
        if m.prev_index < 0 or any(e.index != m.prev_index + 1 + i for i, e in enumerate(m.entries)):
            return  # malformed
        prev_term = self.log.term_at(m.prev_index)
        if prev_term != m.prev_term:
            hint = self.log.last if prev_term is None else self.log.conflict_hint(m.prev_index, m.prev_term)
            self._send(frm, AppendReply(self._term, False, hint))
            return
        if not self.log.append_after(m.prev_index, m.entries, self.log.committed):
            return  # it would overwrite a committed entry: not from a correct leader
        last_new = m.prev_index + len(m.entries)
        self.log.committed = max(self.log.committed, min(m.commit, last_new))
        if self.lost and self.log.committed >= m.commit:
            self.lost = False  # it holds every entry the leader counts as committed
        self._send(frm, AppendReply(self._term, True, last_new))

    def _on_append_reply(self, frm: str, m: AppendReply) -> None:
        if not 0 <= m.index <= self.log.last:
            return
        if m.success:
            self._progress.acknowledged(frm, m.index)
            if self._maybe_commit():
                self._broadcast()
            elif self._progress.next[frm] <= self.log.last:
                self._send_append(frm)
        else:
            if self._progress.refused(frm, m.index):
                # Its store lost entries (rolled back or made anew): it is told.
                self._send(frm, Forgot(self._term, self.log.committed))
            self._send_append(frm)

    def _maybe_commit(self) -> bool:
        for n in range(self.log.last, self.log.committed, -1):
            if self.log.term_at(n) != self._term:
                break
            if quorum(self.members, self._progress.holding(n) | {self.me}, self.tie_breaker):
                self.log.committed = n
                return True
        return False

    def _send(self, to: str, msg: RaftMessage) -> None:
        self._out.append(Envelope(self.me, to, msg))
