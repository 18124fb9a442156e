"""The discovery view under a flood: bounded, never refusing a newcomer, keeping the peers that answer."""

from __future__ import annotations

import tracemalloc

from tarock.net.advert import Advert, Seen, new_boot_nonce
from tarock.net.discovery_view import PeerView


def seen(i: int, *, boot: str = "b0", address: str = "192.0.2.1") -> Seen:
    advert = Advert(f"{i:016x}", "waiting", f"p{i}", "", "tarock54", "00", 0, (1, 1), boot, 7654)
    return Seen(advert, (address,))


def ids(view: PeerView) -> set[int]:
    return {int(s.advert.node_id, 16) for s in view.current()}


def test_a_full_view_takes_every_newcomer_and_evicts_the_least_recently_announced() -> None:
    view = PeerView(max_peers=4)
    for i in range(4):
        view.put(f"k{i}", seen(i))
    view.put("k0", seen(0))  # announced again (the same advert): the most recent now
    view.put("k4", seen(4))
    assert ids(view) == {0, 2, 3, 4} and view.evicted == 1 and view.room == 0


def test_peers_that_answered_stay_under_a_flood_of_thousands_and_memory_stays_bounded() -> None:
    view = PeerView(max_peers=256, max_events=1024)
    real = [seen(i) for i in range(4)]
    for i, s in enumerate(real):
        view.put(f"real{i}", s)
        view.confirm(f"real{i}")
    tracemalloc.start()
    try:
        for i in range(1000, 3000):  # a flood nobody answers for
            view.put(f"fake{i}", seen(i, boot=new_boot_nonce()))
        after_2000 = tracemalloc.get_traced_memory()[0]
        for i in range(3000, 13_000):
            view.put(f"fake{i}", seen(i, boot=new_boot_nonce()))
        after_12000 = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(view.current()) == 256
    assert {0, 1, 2, 3} <= ids(view)  # the real peers are still there
    assert 12_999 in ids(view)  # and the newest newcomer got in
    assert view.evicted == 12_000 - 252
    assert after_12000 < after_2000 * 1.5  # five times the adverts, not five times the memory


def test_a_new_boot_or_address_must_answer_again_and_the_protected_segment_is_bounded() -> None:
    view = PeerView(max_peers=4, protected=2)
    for i in range(3):
        view.put(f"k{i}", seen(i))
        view.confirm(f"k{i}")
    # k0, the least recently confirmed, went back on probation: it leaves first.
    assert [view.confirmed(f"k{i}") for i in range(3)] == [False, True, True]
    view.put("k1", seen(1, boot="b1"))  # restarted: on probation until it answers
    assert not view.confirmed("k1")
    view.put("k2", seen(2, address="192.0.2.9"))
    assert not view.confirmed("k2")
    view.confirm("k2")
    view.put("k3", seen(3))
    view.put("k4", seen(4))  # full: k0 leaves (least recently announced on probation)
    view.put("k5", seen(5))  # then k1
    assert ids(view) == {2, 3, 4, 5}
    view.put("k2", seen(2, address="192.0.2.9"))  # the same again: still protected
    assert view.confirmed("k2")
    view.confirm("gone")  # not in view: nothing happens
    assert ids(view) == {2, 3, 4, 5}
    assert view.node_confirmed(f"{2:016x}") and not view.node_confirmed(f"{3:016x}")
    view.drop("k2")
    assert not view.node_confirmed(f"{2:016x}") and not view.node_confirmed(f"{1:016x}")
