"""The node's gate and per-peer limits (net/admission.py): the sans-IO caps, and wrong PINs
against a real host node that pause only the node that typed them."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing
from net_pump import CATALOGUE
from net_rig import CLIENT_IDENTITY, Client, join, open_host

from tarock.net.admission import DropLog, Failures, Gate, Limits
from tarock.net.identity import Identity
from tarock.net.pake import Pake
from tarock.net.protocol.connection import Connection, Welcomed
from tarock.net.seat import SeatCore
from tarock.net.store import Store

SMALL = Limits(total=10, members=3, per_address=4, handshakes=5, claims=2)


def test_limits_follow_the_descriptor_limit() -> None:
    assert Limits.for_descriptors(1024).total == 256  # the cap, whatever the descriptors
    low = Limits.for_descriptors(200)
    assert low.total == 200 - 64 and low.members == 17 and low.handshakes == 34 and low.per_address == 17
    tiny = Limits.for_descriptors(20)
    assert tiny.total == 8 and tiny.members == 4 and tiny.per_address == 4
    with pytest.raises(ValueError):
        Limits(total=4, members=4, per_address=1, handshakes=1)


def test_one_address_gets_its_share_and_its_oldest_silent_connection_makes_room() -> None:
    gate = Gate(SMALL)
    first = [gate.arrive("10.0.0.9", float(t)).ticket for t in range(4)]
    assert all(t is not None for t in first)
    fifth = gate.arrive("10.0.0.9", 5.0)
    assert fifth.ticket is not None and [t for t, _ in fifth.evict] == [first[0]]
    assert "from 10.0.0.9" in fifth.evict[0][1]
    other = gate.arrive("10.0.0.2", 6.0)
    assert other.ticket is not None and other.evict == ()  # another address is not touched


def test_a_flood_evicts_itself_and_never_a_member_or_a_claim() -> None:
    gate = Gate(SMALL)
    member = gate.arrive("10.0.0.1", 0.0).ticket
    assert member is not None
    assert gate.hello(member, "m" * 32, member=True) == ("", ())
    gate.authenticated(member, member=True)
    claim = gate.arrive("10.0.0.2", 1.0).ticket
    assert claim is not None and gate.hello(claim, "n" * 32, member=True)[0] == ""
    evicted: set[int] = set()
    for i in range(200):
        arrival = gate.arrive(f"10.1.{i // 250}.{i % 250}", 2.0 + i)
        assert arrival.ticket is not None
        evicted |= {t for t, _ in arrival.evict}
        assert len(gate.conns) <= SMALL.total
    assert member in gate.conns and claim in gate.conns and member not in evicted and claim not in evicted
    assert gate.evicted == 200 - (SMALL.handshakes - 1) and gate.counts()["new"] == SMALL.handshakes - 1


def test_when_strangers_that_said_hello_fill_it_only_a_member_gets_in() -> None:
    gate = Gate(SMALL)
    strangers = []
    for i in range(SMALL.total - SMALL.members):  # watchers: authenticated, no members
        t = gate.arrive(f"10.0.0.{i}", float(i)).ticket
        assert t is not None
        gate.hello(t, f"{i:032x}", member=False)
        gate.authenticated(t, member=False)
        strangers.append(t)
    stranger = gate.arrive("10.0.1.1", 20.0)
    assert stranger.ticket is not None and stranger.evict == ()  # on probation: it must name a member
    refusal, _ = gate.hello(stranger.ticket, "s" * 32, member=False)
    assert "only the table's members" in refusal
    gate.leave(stranger.ticket)
    arrivals = [gate.arrive("10.0.1.2", 21.0 + k).ticket for k in range(SMALL.members)]
    assert all(t is not None for t in arrivals)
    assert gate.arrive("10.0.1.3", 30.0).ticket is None  # the members' share is taken: refused
    assert gate.refused == 1
    member = arrivals[0]
    assert member is not None and gate.hello(member, "m" * 32, member=True)[0] == ""
    gate.authenticated(member, member=True)
    assert all(t in gate.conns for t in strangers)  # nobody who said hello was pushed out
    assert len(gate.conns) <= SMALL.total


def test_a_forger_holds_at_most_a_few_claims_on_one_member() -> None:
    gate = Gate(SMALL)
    claims = []
    for k in range(4):
        t = gate.arrive("10.0.0.66", float(k)).ticket
        assert t is not None
        _, evict = gate.hello(t, "m" * 32, member=True)
        claims.append((t, evict))
    assert [e for _, e in claims[:2]] == [(), ()]
    assert claims[2][1][0][0] == claims[0][0] and claims[3][1][0][0] == claims[1][0]


def test_the_total_is_never_passed() -> None:
    gate = Gate(SMALL)
    for i in range(50):
        t = gate.arrive(f"10.2.0.{i}", float(i)).ticket
        if t is not None:
            gate.hello(t, f"{i:032x}", member=i % 2 == 0)
            gate.authenticated(t, member=i % 2 == 0)
        assert len(gate.conns) <= SMALL.total


def test_wrong_pins_pause_the_node_that_typed_them_and_nobody_else() -> None:
    f = Failures(per_node=5, per_address=30)
    for k in range(5):
        f.failed("bad", "10.0.0.5", float(k))
    assert "this node" in f.paused("bad", "10.0.0.5", 6.0)
    assert f.paused("good", "10.0.0.5", 6.0) == ""  # same computer, never typed a wrong PIN
    assert f.paused("good", "10.0.0.6", 6.0) == ""
    assert f.paused("bad", "10.0.0.5", 70.0) == ""  # the minute has passed
    for k in range(30):  # a guesser making up node ids
        f.failed(f"made-up-{k}", "10.0.0.7", 100.0 + k)
    assert "10.0.0.7" in f.paused("new", "10.0.0.7", 140.0)
    f.succeeded("known")
    assert f.paused("known", "10.0.0.7", 140.0) == ""


def test_drop_log_says_once_per_peer_and_reason_and_sums_up_a_flood() -> None:
    d = DropLog(window=60.0, budget=3)
    first = d.line("10.0.0.1", "timeout", "no hello within 5 s", 0.0)
    assert first == "dropped 10.0.0.1: no hello within 5 s"
    assert d.line("10.0.0.1", "timeout", "no hello within 5 s", 1.0) is None
    assert d.line("10.0.0.1", "protocol", "bad frame", 1.0) is not None  # another reason
    assert d.line("10.0.0.2", "timeout", "x", 2.0) is not None
    assert all(d.line(f"10.0.1.{i}", "timeout", "x", 3.0) is None for i in range(10))  # over budget
    later = d.line("10.0.0.1", "timeout", "no hello within 5 s", 61.0)
    assert later is not None and "1 more like it" in later and "10 other drops not shown" in later


async def _client(rig_node: object, nursery: trio.Nursery, tmp: Path, identity: Identity, name: str,
                  ip: str, table: str, rules: str) -> Client:
    """A scripted seat that reaches the host node through its gate from ``ip``."""
    here, there = trio.testing.memory_stream_pair()
    nursery.start_soon(rig_node.admit, there, ip)  # type: ignore[attr-defined]
    core = SeatCore(identity.node, name, CATALOGUE, Store(tmp / f"{name}.sqlite"),
                    records_dir=tmp / f"{name}-records", identity=identity)
    core.expect_table, core.expect_rules = table, rules
    return Client(here, Connection("client", trio.current_time()), core)


async def test_one_nodes_wrong_pins_do_not_lock_out_another(tmp_path: Path) -> None:
    """A node retries a wrong PIN until it is paused; a node on another computer, and one on
    the same computer that never typed a wrong PIN, still join (the host's whole table was
    locked for a minute before)."""
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            rig = await open_host(nursery, tmp_path, bots=2, pin="4711")
            table, rules = rig.core.info.id, rig.core.info.rules
            stuck = Identity(b"\x51" * 32)
            paused = None
            for k in range(12):
                c = await _client(rig.node, nursery, tmp_path, stuck, f"stuck{k}", "10.0.0.5", table, rules)
                await join(c, pake=Pake(table, "1234", "client"))
                refused = c.refused()
                if refused is not None:
                    paused = refused.refuse.message
                    break
                assert c.closed() is not None and c.closed().code == "pin"  # type: ignore[union-attr]
                await c.stream.aclose()  # as a real node does: the host counts the guess at once
                await trio.sleep(0.05)
            assert paused is not None and "too many wrong PINs from this node" in paused, paused
            same_computer = await _client(rig.node, nursery, tmp_path, Identity(b"\x52" * 32), "neighbour",
                                          "10.0.0.5", table, rules)
            await join(same_computer, pake=Pake(table, "4711", "client"))
            assert isinstance(same_computer.events[0], Welcomed), same_computer.events
            elsewhere = await _client(rig.node, nursery, tmp_path, CLIENT_IDENTITY, "elsewhere",
                                      "10.0.0.6", table, rules)
            await join(elsewhere, pake=Pake(table, "4711", "client"))
            assert isinstance(elsewhere.events[0], Welcomed), elsewhere.events
            nursery.cancel_scope.cancel()
