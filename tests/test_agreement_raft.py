"""Scenarios for the sans-IO Raft core (net.agreement.raft) over a lossless, partitionable test network."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from tarock.net.agreement import messages as rm
from tarock.net.agreement.log import MemoryStorage
from tarock.net.agreement.messages import Entry, Envelope, HardState, Ready
from tarock.net.agreement.raft import Raft
from tarock.net.agreement.tracker import quorum

E = 10  # election ticks


def log_of(r: Raft) -> list[Entry]:
    """Every entry of ``r``'s log (from its storage and from memory)."""
    return r.entries(1, r.log.last + 1)


@dataclass
class Store:
    """What a node persisted through its Ready, and what its app applied."""

    hard: HardState = field(default_factory=HardState)
    log: list[Entry] = field(default_factory=list)
    applied: list[Entry] = field(default_factory=list)

    def save(self, rd: Ready) -> None:
        if rd.hard is not None:
            self.hard = rd.hard
        if rd.truncate_from is not None:
            del self.log[rd.truncate_from - 1:]
        assert not rd.entries or rd.entries[0].index == len(self.log) + 1
        self.log.extend(rd.entries)
        for e in rd.committed:
            assert e.index == len(self.applied) + 1
            self.applied.append(e)


class Cluster:
    """Nodes wired by an in-order, lossless network that can be cut into groups and can crash nodes."""

    def __init__(self, n: int, *, tie_breaker: str | None = None, seed: int = 0) -> None:
        self.ids = [chr(ord("a") + i) for i in range(n)]
        self.tie_breaker = tie_breaker
        self.seed = seed
        self.stores = {i: Store() for i in self.ids}
        self.nodes: dict[str, Raft | None] = {i: self._make(i) for i in self.ids}
        self.group = {i: 0 for i in self.ids}
        self.queue: list[Envelope] = []
        self.readies: dict[str, list[Ready]] = {i: [] for i in self.ids}

    def _make(self, i: str) -> Raft:
        st = self.stores[i]
        return Raft(i, self.ids, hard=st.hard, storage=MemoryStorage(st.log), applied=len(st.applied),
                    rand=random.Random(f"{self.seed}-{i}-{len(st.applied)}"), election_ticks=E,
                    tie_breaker=self.tie_breaker)

    def node(self, i: str) -> Raft:
        r = self.nodes[i]
        assert r is not None
        return r

    def up(self) -> list[Raft]:
        return [r for r in self.nodes.values() if r is not None]

    def flush(self) -> None:
        for r in self.up():
            rd = r.ready()
            self.readies[r.me].append(rd)
            self.stores[r.me].save(rd)
            self.queue.extend(rd.messages)

    def deliver(self) -> None:
        self.flush()
        while self.queue:
            env = self.queue.pop(0)
            dst = self.nodes[env.to]
            if dst is not None and self.group[env.frm] == self.group[env.to]:
                dst.step(env)
            self.flush()

    def tick(self, n: int = 1) -> None:
        for _ in range(n):
            for r in self.up():
                r.tick()
            self.deliver()

    def split(self, *groups: str) -> None:
        for g, members in enumerate(groups):
            for i in members:
                self.group[i] = g

    def heal(self) -> None:
        self.split("".join(self.ids))

    def crash(self, i: str) -> None:
        self.nodes[i] = None

    def restart(self, i: str) -> None:
        self.nodes[i] = self._make(i)

    def leaders(self, among: str | None = None) -> list[Raft]:
        return [r for r in self.up() if r.role == "leader" and (among is None or r.me in among)]

    def until_leader(self, among: str | None = None, limit: int = 10 * E) -> Raft:
        for _ in range(limit):
            if len(self.leaders(among)) == 1:
                return self.leaders(among)[0]
            self.tick()
        raise AssertionError("no leader")

    def commit(self, data: Any, limit: int = 5 * E) -> int:
        leader = self.until_leader()
        index = leader.propose(data)
        assert index is not None
        for _ in range(limit):
            self.deliver()
            if leader.log.committed >= index:
                return index
            self.tick()
        raise AssertionError("not committed")


def test_quorum_truth_table() -> None:
    four = ["a", "b", "c", "d"]
    assert quorum(["a"], {"a"}, None)
    assert not quorum(["a"], set(), None)
    assert quorum(four, {"a", "b", "c"}, None)
    assert not quorum(four, {"a", "b"}, None)
    assert quorum(four, {"a", "b"}, "a")
    assert quorum(four, {"a", "b"}, "b")
    assert not quorum(four, {"c", "d"}, "a")
    assert not quorum(four, {"a"}, "a")
    assert not quorum(four, {"a", "x", "y"}, "a")  # outsiders do not count
    assert quorum(["a", "b"], {"a"}, "a")
    assert not quorum(["a", "b"], {"b"}, "a")
    assert quorum(["a", "b", "c"], {"a", "c"}, None)
    assert not quorum(["a", "b", "c"], {"a"}, "a")  # odd sizes have no ties
    assert not quorum(["a", "b", "c", "d", "e"], {"a", "b"}, "a")
    assert quorum(["a", "b", "c", "d", "e"], {"a", "b", "e"}, None)
    assert not quorum(four, {"a", "b"}, "z")  # a tie-breaker that is no member breaks no tie


def test_message_tags() -> None:
    assert sorted(rm.MESSAGES) == ["raft-append", "raft-append-reply", "raft-forgot", "raft-pre-vote",
                                "raft-pre-vote-reply", "raft-vote", "raft-vote-reply"]
    assert all(rm.MESSAGES[t].tag == t for t in rm.MESSAGES)


def test_single_node_leads_and_commits_alone() -> None:
    c = Cluster(1)
    a = c.node("a")
    c.tick(2 * E)
    assert a.role == "leader" and a.leader == "a" and a.term == 1
    index = a.propose({"deal": 1})
    c.flush()
    assert a.log.committed == index == 2
    assert [e.data for e in c.stores["a"].applied] == [None, {"deal": 1}]
    assert c.stores["a"].hard == HardState(1, "a", 2)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_election(n: int) -> None:
    c = Cluster(n, seed=n)
    leader = c.until_leader(limit=3 * E)
    c.tick(E)
    assert c.leaders() == [leader]
    assert all(r.leader == leader.me and r.term == leader.term for r in c.up())
    assert all(r.log.committed == 1 and log_of(r) == log_of(leader) for r in c.up())  # the leader's no-op
    assert leader.reachable() == frozenset(c.ids)
    assert {r.reachable() for r in c.up() if r is not leader} == {frozenset({r.me}) for r in c.up()} - {
        frozenset({leader.me})}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_leader_failover(n: int) -> None:
    c = Cluster(n, seed=10 + n)
    old = c.until_leader()
    c.commit({"deal": 1})
    c.crash(old.me)
    new = c.until_leader(limit=4 * E)
    assert new.me != old.me and new.term > old.term
    assert {"deal": 1} in [e.data for e in log_of(new)]
    c.commit({"deal": 2})
    c.restart(old.me)
    c.tick(2 * E)
    back = c.node(old.me)
    assert back.role == "follower" and back.leader == new.me and log_of(back) == log_of(new)
    assert [e.data for e in c.stores[old.me].applied] == [e.data for e in log_of(new)]


def test_returning_follower_does_not_disrupt_the_leader() -> None:
    c = Cluster(5, seed=3)
    leader = c.until_leader()
    c.tick(E)
    term = leader.term
    f = next(i for i in c.ids if i != leader.me)
    c.split("".join(i for i in c.ids if i != f), f)
    c.tick(10 * E)
    assert c.node(f).term == term  # pre-votes never reach a quorum, so its term stays
    assert c.node(f).role in ("follower", "pre-candidate")
    c.heal()
    c.tick(3 * E)
    assert c.leaders() == [leader] and leader.term == term
    assert c.node(f).role == "follower" and c.node(f).leader == leader.me


def test_leader_lease_ignores_disruptive_vote() -> None:
    c = Cluster(3, seed=4)
    leader = c.until_leader()
    c.tick(2)
    f, g = (r for r in c.up() if r is not leader)
    for req in (rm.Vote(leader.term + 5, 99, 99), rm.PreVote(leader.term + 5, 99, 99)):
        f.step(Envelope(g.me, f.me, req))
        leader.step(Envelope(g.me, leader.me, req))
    assert f.term == leader.term and f.leader == leader.me and leader.role == "leader"
    assert f.ready().messages == () and leader.ready().hard is None


def test_cut_off_leader_steps_down_within_an_election_timeout() -> None:
    c = Cluster(5, seed=5)
    leader = c.until_leader()
    c.tick(3 * E)
    c.split(leader.me, "".join(i for i in c.ids if i != leader.me))
    ticks = 0
    while leader.role == "leader" and ticks < 3 * E:
        c.tick()
        ticks += 1
    assert leader.role == "follower" and leader.leader is None and ticks <= E
    assert leader.reachable() == frozenset({leader.me})
    new = c.until_leader(among="".join(i for i in c.ids if i != leader.me), limit=4 * E)
    assert new.term > leader.term


def test_two_two_split_with_tie_breaker() -> None:
    c = Cluster(4, tie_breaker="a", seed=6)
    c.until_leader()
    c.split("ab", "cd")
    c.tick(6 * E)
    assert [r.me for r in c.leaders()] in (["a"], ["b"])
    terms = (c.node("c").term, c.node("d").term)
    c.tick(5 * E)
    assert (c.node("c").term, c.node("d").term) == terms  # no pre-vote quorum in the other half
    c.commit({"deal": 1})
    assert [r.me for r in c.leaders()] in (["a"], ["b"])


def test_two_two_split_without_tie_breaker() -> None:
    c = Cluster(4, seed=7)
    c.until_leader()
    c.split("ab", "cd")
    c.tick(3 * E)
    terms = [r.term for r in c.up()]
    c.tick(10 * E)
    assert c.leaders() == []
    assert [r.term for r in c.up()] == terms
    c.heal()
    c.until_leader(limit=4 * E)


def test_restart_from_persisted_state() -> None:
    c = Cluster(3, seed=8)
    for d in range(1, 4):
        c.commit({"deal": d})
    c.tick(E)
    f = next(r for r in c.up() if r.role != "leader")
    st = c.stores[f.me]
    assert st.log == log_of(f) and st.hard == HardState(f.term, st.hard.vote, f.log.committed)
    c.crash(f.me)
    c.commit({"deal": 4})
    c.restart(f.me)
    r = c.node(f.me)
    assert r.term == st.hard.term and r.log.committed == st.hard.commit and log_of(r) == st.log
    applied = len(st.applied)
    c.tick(2 * E)
    assert [e.data for e in st.applied] == [e.data for e in log_of(c.until_leader())]
    assert len(st.applied) > applied and r.log.committed == r.log.last


def test_restart_reapplies_only_unapplied_entries() -> None:
    log = [Entry(1, 1, None), Entry(1, 2, "x"), Entry(1, 3, "y")]
    r = Raft("a", ["a", "b", "c"], hard=HardState(1, "a", 3), storage=MemoryStorage(log), applied=1,
             rand=random.Random(0))
    rd = r.ready()
    assert rd.committed == tuple(log[1:]) and rd.hard is None
    assert rd.entries == () and rd.truncate_from is None
    assert r.ready().empty()
    with pytest.raises(ValueError):
        Raft("a", ["a", "b"], hard=HardState(1, "", 5), storage=MemoryStorage(log),
             rand=random.Random(0))
    with pytest.raises(ValueError):
        Raft("z", ["a", "b"], rand=random.Random(0))


def test_replication_needs_a_quorum() -> None:
    c = Cluster(5, seed=9)
    leader = c.until_leader()
    c.tick(E)
    others = [i for i in c.ids if i != leader.me]
    c.split(leader.me + others[0], "".join(others[1:]))
    index = leader.propose({"deal": 1})
    assert index is not None
    c.tick(E // 2)
    assert leader.log.committed < index and c.node(others[0]).log.last == index
    c.heal()
    c.tick(2)
    assert all(r.log.committed == index for r in c.up())
    assert all(c.stores[i].applied[-1].data == {"deal": 1} for i in c.ids)


def test_batches_respect_max_append_bytes() -> None:
    c = Cluster(3, seed=11)
    leader = c.until_leader()
    c.tick(E)
    f = next(i for i in c.ids if i != leader.me)
    c.split("".join(i for i in c.ids if i != f), f)
    for k in range(20):
        c.commit("x" * 20_000 + str(k))
    c.heal()
    c.tick(2 * E)
    sent = [env.msg for rd in c.readies[leader.me] for env in rd.messages
            if env.to == f and isinstance(env.msg, rm.Append)]
    assert max(len(m.entries) for m in sent) == 3  # 3 * 20 kB under 64 KiB, 4 over
    assert log_of(c.node(f)) == log_of(leader)


def test_conflicting_uncommitted_entries_are_overwritten() -> None:
    c = Cluster(3, seed=12)
    old = c.until_leader()
    c.tick(E)
    c.commit({"deal": 1})
    rest = "".join(i for i in c.ids if i != old.me)
    c.split(old.me, rest)
    assert old.propose({"deal": 2, "outcome": "lost"}) is not None
    assert old.propose({"deal": 3, "outcome": "lost"}) is not None
    c.flush()
    new = c.until_leader(among=rest, limit=4 * E)
    c.commit({"deal": 2, "outcome": "kept"})
    c.heal()
    c.tick(2 * E)
    assert old.role == "follower" and log_of(old) == log_of(new)
    datas = [e.data for e in c.stores[old.me].log]
    assert {"deal": 2, "outcome": "kept"} in datas and {"deal": 2, "outcome": "lost"} not in datas
    assert any(rd.truncate_from is not None for rd in c.readies[old.me])


def test_follower_truncates_a_conflicting_suffix() -> None:
    log = [Entry(1, 1, None), Entry(1, 2, "a"), Entry(2, 3, "stale"), Entry(2, 4, "stale")]
    disk = MemoryStorage(list(log))
    f = Raft("b", ["a", "b", "c"], hard=HardState(2, "", 2), storage=disk, rand=random.Random(0))
    f.step(Envelope("a", "b", rm.Append(3, 2, 1, (Entry(3, 3, "new"),), 3)))
    rd = f.ready()
    disk.save(rd)
    assert rd.truncate_from == 3 and rd.entries == (Entry(3, 3, "new"),)
    assert rd.hard == HardState(3, "", 3) and [e.data for e in rd.committed] == [None, "a", "new"]
    assert rd.messages == (Envelope("b", "a", rm.AppendReply(3, True, 3)),)
    # a delayed copy of an older, shorter append changes nothing
    f.step(Envelope("a", "b", rm.Append(3, 1, 1, (Entry(1, 2, "a"),), 2)))
    rd = f.ready()
    assert log_of(f)[-1] == Entry(3, 3, "new") and rd.truncate_from is None and rd.entries == ()
    assert rd.messages == (Envelope("b", "a", rm.AppendReply(3, True, 2)),)


def test_append_rejection_hints() -> None:
    log = [Entry(1, 1, None), Entry(2, 2, "x"), Entry(2, 3, "y")]
    f = Raft("b", ["a", "b", "c"], hard=HardState(3), storage=MemoryStorage(log),
             rand=random.Random(0))
    f.step(Envelope("a", "b", rm.Append(3, 7, 3, (), 0)))  # beyond my log: my last index
    f.step(Envelope("a", "b", rm.Append(3, 3, 1, (), 0)))  # term mismatch: last index with term <= 1
    f.step(Envelope("a", "b", rm.Append(3, -1, 0, (), 0)))  # malformed: dropped
    replies = [rm.AppendReply(3, False, 3), rm.AppendReply(3, False, 1)]
    assert [env.msg for env in f.ready().messages] == replies


def test_vote_is_persisted_with_its_reply_and_given_once_per_term() -> None:
    r = Raft("a", ["a", "b", "c"], rand=random.Random(0))
    r.step(Envelope("b", "a", rm.Vote(1, 0, 0)))
    rd = r.ready()
    assert rd.hard == HardState(1, "b", 0) and rd.messages == (Envelope("a", "b", rm.VoteReply(1, True)),)
    r.step(Envelope("c", "a", rm.Vote(1, 5, 5)))
    r.step(Envelope("b", "a", rm.Vote(1, 0, 0)))  # a duplicate is granted again, to the same candidate
    assert [env.msg for env in r.ready().messages] == [rm.VoteReply(1, False), rm.VoteReply(1, True)]


def test_election_restriction() -> None:
    log = [Entry(1, 1, None), Entry(2, 2, "x")]
    r = Raft("a", ["a", "b", "c"], hard=HardState(2), storage=MemoryStorage(log),
             rand=random.Random(0))
    r.step(Envelope("b", "a", rm.Vote(3, 5, 1)))  # longer but older
    r.step(Envelope("c", "a", rm.Vote(3, 1, 2)))  # same term, shorter
    assert [env.msg for env in r.ready().messages] == [rm.VoteReply(3, False), rm.VoteReply(3, False)]
    assert r.term == 3 and r.ready().empty()


def test_pre_vote_changes_nothing_at_the_voter() -> None:
    r = Raft("a", ["a", "b", "c"], hard=HardState(4, "c"), rand=random.Random(0))
    r.step(Envelope("b", "a", rm.PreVote(5, 0, 0)))
    r.step(Envelope("b", "a", rm.PreVote(3, 0, 0)))
    rd = r.ready()
    assert rd.hard is None and r.term == 4
    assert [env.msg for env in rd.messages] == [rm.PreVoteReply(5, True), rm.PreVoteReply(4, False)]


def test_pre_candidate_keeps_its_term() -> None:
    r = Raft("a", ["a", "b", "c"], hard=HardState(4), rand=random.Random(0))
    for _ in range(2 * E):
        r.tick()
    assert r.role == "pre-candidate" and r.term == 4
    rd = r.ready()
    assert rd.hard is None and {env.msg for env in rd.messages} == {rm.PreVote(5, 0, 0)}
    r.step(Envelope("b", "a", rm.PreVoteReply(5, True)))
    rd = r.ready()
    assert (r.role, r.term, rd.hard) == ("candidate", 5, HardState(5, "a", 0))
    assert {env.msg for env in rd.messages} == {rm.Vote(5, 0, 0)}
    r.step(Envelope("c", "a", rm.VoteReply(5, True)))
    assert (r.role, log_of(r)) == ("leader", [Entry(5, 1, None)])


def test_stale_leader_learns_the_term() -> None:
    r = Raft("a", ["a", "b", "c"], hard=HardState(7), rand=random.Random(0))
    r.step(Envelope("b", "a", rm.Append(3, 0, 0, (), 0)))
    r.step(Envelope("b", "a", rm.Vote(3, 0, 0)))  # stale vote requests are dropped
    assert [env.msg for env in r.ready().messages] == [rm.AppendReply(7, False, 0)]
    assert r.term == 7


def test_garbage_is_ignored() -> None:
    r = Raft("a", ["a", "b", "c"], rand=random.Random(0))
    r.step(Envelope("z", "a", rm.Vote(9, 0, 0)))  # not a member
    r.step(Envelope("b", "c", rm.Vote(9, 0, 0)))  # not for me
    r.step(Envelope("b", "a", rm.AppendReply(0, True, 99)))
    r.step(Envelope("b", "a", rm.Append(0, 0, 0, (Entry(0, 2, "gap"),), 5)))
    assert r.term == 0 and log_of(r) == [] and r.ready().empty()
    assert r.propose("x") is None


def test_propose_rejects_data_msgpack_cannot_encode() -> None:
    c = Cluster(1)
    leader = c.until_leader(limit=3 * E)
    with pytest.raises(TypeError):
        leader.propose({"deal": object()})
    assert leader.log.last == 1 and leader.propose({"deal": 1}) == 2


def test_the_first_host_leads_without_an_election_and_nobody_else_can_win_its_term() -> None:
    """docs/protocol.md §14 "Joining": every member persisted its vote for the table's first host
    in term 1, so that host leads at once and no other member can gather votes in term 1."""
    c = Cluster(4)
    for i in c.ids:
        c.stores[i].hard = HardState(1, "a", 0)
        c.restart(i)
    c.node("a").lead()
    c.deliver()
    assert c.node("a").role == "leader" and c.node("a").term == 1
    assert c.commit({"deal": 1}) == 2 and all(r.term == 1 for r in c.up())
    with pytest.raises(ValueError):
        c.node("b").lead()  # b did not get the votes
    c.crash("a")
    leader = c.until_leader()
    assert leader.me != "a" and leader.term == 2


def test_a_leader_that_resigns_hands_the_term_on_and_stands_for_no_election_meanwhile() -> None:
    c = Cluster(4)
    first = c.until_leader()
    c.commit({"deal": 1})
    first.resign(3 * E)
    c.deliver()
    assert first.role == "follower"
    leader = c.until_leader(limit=3 * E)
    assert leader.me != first.me and leader.term > 1
    assert [e.data for e in c.stores[leader.me].applied if e.data] == [{"deal": 1}]


# -- a member whose store lost entries it had acknowledged (rolled back, damaged, emptied) ----------


def roll_back(c: Cluster, i: str, to: Store) -> None:
    """Crash ``i`` and start it again from an older copy of its store."""
    c.crash(i)
    c.stores[i] = Store(to.hard, list(to.log), list(to.applied))
    c.restart(i)


def test_a_member_restarted_from_an_older_store_is_told_catches_up_and_votes_only_then() -> None:
    c = Cluster(4, tie_breaker="a")
    leader = c.until_leader()
    victim = next(i for i in c.ids if i != leader.me)
    c.commit("one")
    old = Store(c.stores[victim].hard, list(c.stores[victim].log), list(c.stores[victim].applied))
    for k in range(5):
        c.commit(f"deal {k}")
    acknowledged = leader.matched(victim)
    assert acknowledged > len(old.log)
    roll_back(c, victim, old)
    node = c.node(victim)
    assert not node.lost  # it cannot tell by itself: the leader tells it
    # Before a heartbeat reaches it, it would vote; the first exchange with the leader finds it out.
    told: list[bool] = []
    real_step = node.step

    def step(env: Envelope) -> None:
        real_step(env)
        told.append(node.lost)

    node.step = step  # type: ignore[method-assign]
    for _ in range(3 * E):
        c.tick()
        if node.log.last >= leader.log.committed and not node.lost:
            break
    forgot = [env.msg for rd in c.readies[leader.me] for env in rd.messages if env.to == victim
              and isinstance(env.msg, rm.Forgot)]
    assert forgot and any(told), "the leader never told the member that it lost entries"
    assert not node.lost and node.log.last >= acknowledged  # caught up from the table's log
    assert [e.data for e in c.stores[victim].applied] == [e.data for e in c.stores[leader.me].applied]


def test_a_lost_member_grants_no_vote_and_stands_for_no_election() -> None:
    r = Raft("b", ["a", "b", "c"], rand=random.Random(1), election_ticks=E, lost=True)
    for _ in range(5 * E):
        r.tick()
    assert r.role == "follower" and not r.ready().messages  # never campaigned
    r.step(Envelope("c", "b", rm.Vote(1, 0, 0)))
    r.step(Envelope("c", "b", rm.PreVote(1, 0, 0)))
    replies = [env.msg for env in r.ready().messages]
    assert replies == [rm.VoteReply(1, False), rm.PreVoteReply(1, False)]
    # A leader's append that brings its committed log ends it.
    r.step(Envelope("a", "b", rm.Append(2, 0, 0, (Entry(2, 1, None),), 1)))
    assert not r.lost and r.log.committed == 1
    with pytest.raises(ValueError):
        Raft("a", ["a"], hard=HardState(1, "a"), rand=random.Random(1), lost=True).lead()


def test_committed_entries_are_handed_over_a_bounded_batch_at_a_time() -> None:
    log = [Entry(1, 1, None)] + [Entry(1, i, "x" * 1000) for i in range(2, 12)]
    r = Raft("a", ["a", "b", "c"], hard=HardState(1, "a", 11), storage=MemoryStorage(log),
             rand=random.Random(0), max_committed_bytes=2500)
    batches = []
    while r.applying:
        batches.append(r.ready().committed)
    assert [len(b) for b in batches] == [3, 2, 2, 2, 2]  # the no-op and two, then two of 1 kB each
    assert [e for b in batches for e in b] == log and r.ready().empty()


def test_the_core_reads_persisted_entries_from_its_storage() -> None:
    """What a Ready handed over is read back from the storage (etcd-io/raft's Storage): a
    storage that lost an entry makes the core fail loudly, not serve a copy from memory."""
    disk = MemoryStorage()
    r = Raft("a", ["a"], hard=HardState(1, "a", 0), storage=disk, rand=random.Random(0))
    r.lead()
    r.propose({"deal": 1})
    disk.save(r.ready())
    assert log_of(r) == disk.log == [Entry(1, 1, None), Entry(1, 2, {"deal": 1})]
    r.propose({"deal": 2})
    assert r.entry(3) == Entry(1, 3, {"deal": 2})  # not handed over yet: from memory
    del disk.log[1:]
    with pytest.raises(IndexError):
        r.entry(2)
