"""A member whose save failed acts on nothing more (docs/protocol.md, "Host agreement").

The Raft core hands over what it asks to store before the driver stores it, and afterwards
reads its log only from the store (etcd-io/raft's Storage).  A save that fails (a full disk)
leaves the core believing in entries the store lacks: the driver must then stop stepping,
ticking and proposing, as a crashed member would, and the node leaves with the store's one
line.  Seen once in a full run (tests/test_net_disk_full.py): a peer's acknowledgement that
arrived after the host's failed save made the core read the lost entries, and an IndexError's
traceback was printed beside the host's line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from tarock.net.agreement.driver import Agreement
from tarock.net.agreement.messages import AppendReply, Ready
from tarock.net.agreement.outcome import Outcome
from tarock.net.agreement.wire import encode
from tarock.net.identity import Identity
from tarock.net.protocol.limits import Timing
from tarock.net.protocol.parts import SeatInfo, TableInfo
from tarock.net.store import Store, StoreError

SEEDS = [bytes([n]) * 32 for n in range(1, 5)]
NODES = [Identity(s).node for s in SEEDS]


def _agreement(tmp_path: Path) -> tuple[Agreement, Store]:
    store = Store(tmp_path / "host.sqlite")
    info = TableInfo("a" * 32, "t", "tarock54", {}, "c" * 64, 1, 4, "mental-poker/1", False)
    roster = [SeatInfo(i, node, f"p{i}", "d" * 64, ("127.0.0.1",), 1, False) for i, node in enumerate(NODES)]

    async def never(*_a: Any) -> Any:
        raise OSError("no member is reachable in this test")

    agreement = Agreement(me=NODES[0], name="host", identity=Identity(SEEDS[0]), info=info, roster=roster,
                          store=store, timing=Timing(), open_stream=never, port=lambda: 1,
                          first_host=NODES[0])
    assert agreement.leads()
    return agreement, store


def _queued(agreement: Agreement) -> dict[str, int]:
    """How many messages wait in each member's outbox (no member is reachable here)."""
    return {n: len(box) for n, box in agreement.peers.outbox.items()}


async def _run_for(agreement: Agreement, seconds: float) -> None:
    async with trio.open_nursery() as nursery:
        nursery.start_soon(agreement.run)
        await trio.sleep(seconds)
        agreement.close()


def _full_disk(agreement: Agreement) -> None:
    """Every later save fails as a full disk makes it fail: nothing of it is stored."""

    def save(ready: Ready) -> None:
        if ready.entries or ready.hard is not None:
            raise StoreError("cannot write the state folder: No space left on device")

    agreement.persist.save = save  # type: ignore[method-assign]


async def test_a_member_whose_save_failed_steps_ticks_and_proposes_no_more(tmp_path: Path) -> None:
    agreement, store = _agreement(tmp_path)
    try:
        agreement.raft.tick()
        assert agreement.propose(Outcome(1, {"hand": 1}))
        stored = agreement.persist.last_index()
        _full_disk(agreement)
        with pytest.raises(StoreError):
            agreement.propose(Outcome(2, {"hand": 2}))
        assert agreement.halted
        assert agreement.persist.last_index() == stored  # the second outcome is not in the store
        # A member's rejection asks the leader to send from the first entry, the lost one included:
        # the core would read it from the store. A halted member does not step it.
        term = agreement.raft.term
        agreement.receive(NODES[1], encode(AppendReply(term, False, 0)))
        agreement.receive(NODES[2], encode(AppendReply(term, True, stored + 1)))
        assert not agreement.propose(Outcome(3, {"hand": 3}))
        # Ticking: a leader's heartbeats would go to the outboxes; a halted member sends none.
        queued = _queued(agreement)
        await _run_for(agreement, 10 * agreement.timing.beat)
        assert _queued(agreement) == queued
    finally:
        store.close()


async def test_a_healthy_member_steps_a_rejection_and_sends_from_its_store(tmp_path: Path) -> None:
    """The same steps without the full disk: the rejection is stepped and answered (the test
    above would pass trivially if receiving never reached the core)."""
    agreement, store = _agreement(tmp_path)
    try:
        agreement.raft.tick()
        assert agreement.propose(Outcome(1, {"hand": 1}))
        assert agreement.propose(Outcome(2, {"hand": 2}))
        term = agreement.raft.term
        before = _queued(agreement)[NODES[1]]
        agreement.receive(NODES[1], encode(AppendReply(term, False, 0)))
        assert not agreement.halted
        assert _queued(agreement)[NODES[1]] > before
        queued = _queued(agreement)
        await _run_for(agreement, 10 * agreement.timing.beat)
        assert all(n > queued[node] for node, n in _queued(agreement).items())
    finally:
        store.close()
