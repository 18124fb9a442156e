"""A Jepsen/etcd-style model test of net.agreement.raft.

A seeded random scheduler drives 4 or 5 nodes over a simulated network that
loses, delays, duplicates and reorders messages and is cut into random groups
and healed; nodes crash (losing everything not yet handed over by ``ready``)
and restart from exactly what their simulated store persisted; leaders
propose deal outcomes as the app would. The Raft safety properties are
checked after every step; after the faults stop a leader must be elected and
a proposal committed within a bounded number of ticks.

``RAFT_MODEL_STEPS`` sets the total number of random steps (default 1 000 000, about 10 s of CPU),
``RAFT_MODEL_SEED`` runs one seed only: a failure names its seed, and
``RAFT_MODEL_SEED=7 pytest tests/test_agreement_model.py`` with the same
``RAFT_MODEL_STEPS`` replays it exactly.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import NoReturn

import pytest

from tarock.net.agreement.log import MemoryStorage
from tarock.net.agreement.messages import Entry, Envelope, HardState
from tarock.net.agreement.raft import Raft

STEPS = int(os.environ.get("RAFT_MODEL_STEPS", "1000000"))
RUNS = 20  # seeds 0..19, STEPS // RUNS steps each
SEEDS = [int(os.environ["RAFT_MODEL_SEED"])] if "RAFT_MODEL_SEED" in os.environ else list(range(RUNS))
E = 5  # election ticks: short, for many elections per step
LIVENESS_TICKS = 10 * E


@dataclass
class Store:
    """A node's disk: hard state, log (the node's MemoryStorage reads it), and the app's applied
    index (saved atomically per Ready)."""

    hard: HardState = field(default_factory=HardState)
    log: list[Entry] = field(default_factory=list)
    applied: int = 0


def config(seed: int) -> tuple[int, str | None]:
    """Node count and tie-breaker for a seed: 5 nodes, 4 nodes, 4 nodes with a tie-breaker."""
    return [(5, None), (4, None), (4, "n0")][seed % 3]


class Sim:
    """The cluster, its network and stores, and the checker's history."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        n, self.tie_breaker = config(seed)
        self.max_bytes = 64 * 1024 if seed % 4 == 3 else 40  # 40: mostly one entry per append
        self.ids = [f"n{i}" for i in range(n)]
        self.stores = {i: Store() for i in self.ids}
        self.nodes: dict[str, Raft | None] = {i: self.boot(i) for i in self.ids}
        self.checked = dict.fromkeys(self.ids, 0)  # in-memory commit index already checked
        self.group = dict.fromkeys(self.ids, 0)
        self.net: list[Envelope] = []
        self.committed: dict[int, Entry] = {}  # the one committed log, as far as anyone has seen
        self.deals: dict[int, int] = {}  # deal -> index of its committed outcome
        self.leaders: dict[int, str] = {}  # term -> its leader, over all history
        self.steps = 0
        self.elections = 0

    def fail(self, what: str) -> NoReturn:
        raise AssertionError(f"seed {self.seed} (RAFT_MODEL_STEPS={STEPS}), step {self.steps}: {what}")

    def boot(self, i: str) -> Raft:
        st = self.stores[i]
        return Raft(i, self.ids, hard=st.hard, storage=MemoryStorage(st.log), applied=st.applied,
                    rand=random.Random(self.rng.getrandbits(64)), election_ticks=E,
                    tie_breaker=self.tie_breaker, max_append_bytes=self.max_bytes,
                    max_committed_bytes=self.max_bytes)

    def up(self) -> list[Raft]:
        return [r for r in self.nodes.values() if r is not None]

    # -- the app and its disk --------------------------------------------------------------------------------

    def ready(self, r: Raft) -> None:
        rd = r.ready()
        st = self.stores[r.me]
        if rd.truncate_from is not None:
            if not st.hard.commit < rd.truncate_from <= len(st.log):
                self.fail(f"{r.me} truncates at {rd.truncate_from}, commit {st.hard.commit}")
            del st.log[rd.truncate_from - 1:]
        if rd.entries and rd.entries[0].index != len(st.log) + 1:
            self.fail(f"{r.me} persists a gap")
        st.log.extend(rd.entries)
        if rd.hard is not None:
            st.hard = rd.hard
        if st.hard.commit > len(st.log):
            self.fail(f"{r.me} persisted commit {st.hard.commit} beyond its log")
        for e in rd.committed:
            if e.index != st.applied + 1 or st.log[e.index - 1] != e:
                self.fail(f"{r.me} applies {e} after {st.applied}")
            st.applied = e.index
            self.record(e)
        self.net.extend(rd.messages)

    def record(self, e: Entry) -> None:
        known = self.committed.get(e.index)
        if known is None:
            if isinstance(e.data, dict):
                deal = e.data["deal"]
                if deal in self.deals:
                    self.fail(f"deal {deal} committed twice: at {self.deals[deal]} and {e.index}")
                self.deals[deal] = e.index
            self.committed[e.index] = e
        elif known != e:
            self.fail(f"index {e.index} committed as {known} and as {e}")

    def propose(self, r: Raft) -> int | None:
        deal = max((e.data["deal"] for e in r.entries(1, r.log.last + 1) if isinstance(e.data, dict)),
                   default=0) + 1
        return r.propose({"deal": deal, "outcome": f"{r.me}@{self.steps}"})

    # -- the checker -----------------------------------------------------------------------------------------

    def check(self) -> None:
        for r in self.up():
            if r.role == "leader":
                known = self.leaders.setdefault(r.term, r.me)
                if known != r.me:
                    self.fail(f"two leaders in term {r.term}: {known} and {r.me}")
            if r.log.committed > self.checked[r.me]:
                if r.log.committed > r.log.last:
                    self.fail(f"{r.me} commits {r.log.committed} beyond its log")
                for e in r.entries(self.checked[r.me] + 1, r.log.committed + 1):
                    self.record(e)
                self.checked[r.me] = r.log.committed

    def check_new_leader(self, r: Raft) -> None:
        """Leader completeness: a new leader holds every entry committed so far."""
        self.elections += 1
        for index, e in self.committed.items():
            if index > r.log.last or r.entry(index) != e:
                self.fail(f"new leader {r.me} of term {r.term} lacks committed {e}")

    # -- one random step -------------------------------------------------------------------------------------

    def act(self, r: Raft, what: str, env: Envelope | None = None) -> None:
        before = r.role == "leader"
        term = r.term
        if what == "tick":
            r.tick()
        elif what == "step":
            assert env is not None
            r.step(env)
        elif what == "propose":
            self.propose(r)
        if r.role == "leader" and not (before and term == r.term):
            self.check_new_leader(r)
        if self.rng.random() < 0.7:
            self.ready(r)

    def deliver(self, lossy: bool) -> None:
        k = self.rng.randrange(len(self.net))
        env = self.net[k]
        if lossy and self.rng.random() < 0.03:
            self.net.append(env)  # duplicated: a copy stays in flight
        else:
            self.net[k] = self.net[-1]
            self.net.pop()
        dst = self.nodes[env.to]
        if dst is None or self.group[env.frm] != self.group[env.to] or (lossy and self.rng.random() < 0.05):
            return
        self.act(dst, "step", env)

    def random_step(self) -> None:
        self.steps += 1
        rng = self.rng
        x = rng.random()
        up = self.up()
        if x < 0.55 and self.net:
            self.deliver(lossy=True)
        elif x < 0.75 and up:
            self.act(rng.choice(up), "tick")
        elif x < 0.86 and up:
            self.ready(rng.choice(up))
        elif x < 0.93:
            leaders = [r for r in up if r.role == "leader"]
            if leaders:
                self.act(rng.choice(leaders), "propose")
        elif x < 0.95 and up:
            leaders = [r for r in up if r.role == "leader"]
            victim = rng.choice(leaders if leaders and rng.random() < 0.5 else up)
            self.nodes[victim.me] = None  # crash: what was not handed over is lost
        elif x < 0.97:
            down = [i for i, r in self.nodes.items() if r is None]
            if down:
                i = rng.choice(down)
                self.nodes[i] = self.boot(i)
                self.checked[i] = 0
        elif x < 0.99:
            self.partition()
        else:
            self.group = dict.fromkeys(self.ids, 0)
        if len(self.net) > 400:
            del self.net[:100]  # a flood: a hundred are lost
        self.check()

    def partition(self) -> None:
        ids = self.ids[:]
        self.rng.shuffle(ids)
        kind = self.rng.randrange(4)
        if kind == 0:  # isolate one node, most often a leader
            leaders = [r.me for r in self.up() if r.role == "leader"]
            if leaders and self.rng.random() < 0.7:
                ids.remove(leaders[0])
                ids.insert(0, leaders[0])
            cut = 1
        elif kind == 1:  # halves (2-2 with four nodes)
            cut = len(ids) // 2
        elif kind == 2:
            cut = self.rng.randrange(1, len(ids))
        else:  # a three-way split: nobody has a majority
            self.group = {i: k % 3 for k, i in enumerate(ids)}
            return
        self.group = {i: int(k >= cut) for k, i in enumerate(ids)}

    # -- liveness -------------------------------------------------------------------------------------------

    def settle(self) -> int:
        """Heal and restart everything, stop the faults; return the ticks until a fresh proposal commits."""
        self.group = dict.fromkeys(self.ids, 0)
        for i, r in self.nodes.items():
            if r is None:
                self.nodes[i] = self.boot(i)
                self.checked[i] = 0
        rafts = self.up()
        for r in rafts:
            self.ready(r)
        proposal: tuple[Raft, int, Entry] | None = None  # leader, its term, the entry proposed
        for tick in range(1, LIVENESS_TICKS + 1):
            for r in rafts:
                self.act(r, "tick")
            self.flush()
            if proposal is not None:
                leader, term, entry = proposal
                if self.committed.get(entry.index) == entry:
                    return tick
                if leader.role != "leader" or leader.term != term:
                    proposal = None
            if proposal is None:
                for r in rafts:
                    if r.role == "leader":
                        index = self.propose(r)
                        assert index is not None
                        proposal = (r, r.term, r.entry(index))
                        self.flush()
                        break
        self.fail(f"no proposal committed within {LIVENESS_TICKS} ticks after the faults stopped")

    def flush(self) -> None:
        for r in self.up():
            self.ready(r)
        while self.net:
            env = self.net.pop(0)
            dst = self.nodes[env.to]
            if dst is not None:
                self.steps += 1
                self.act(dst, "step", env)
                self.ready(dst)
                self.check()


@pytest.mark.parametrize("seed", SEEDS)
def test_model(seed: int) -> None:
    """Random faults with the safety checks after every step; liveness checked halfway and at the end."""
    sim = Sim(seed)
    steps = max(2, STEPS // RUNS)
    settle = []
    for phase in (steps // 2, steps - steps // 2):
        for _ in range(phase):
            sim.random_step()
        settle.append(sim.settle())
    print(f"seed {seed}: {sim.elections} elections, {len(sim.committed)} committed, "
          f"{len(sim.deals)} deals, max term {max(sim.leaders)}, settled in {settle} ticks")
    if steps >= 10_000:  # the run did exercise the core: leaders came and went, deals committed
        assert sim.elections >= 5 and len(sim.deals) >= 10, f"seed {seed}: too little happened"
