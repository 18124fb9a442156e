"""Manual discovery (HOST:PORT) over loopback, and the view's change signal and events.

The "ask" callable is the game protocol's info request in the real node; here it is a
small request over the real TCP transport to servers that answer with an advert's TXT
data, so polling, failures and removal are exercised end to end on loopback.
"""

from __future__ import annotations

import trio

from tarock.net.advert import Advert, Seen, advert_from_txt, advert_to_txt, new_boot_nonce
from tarock.net.discovery_view import PeerView
from tarock.net.manual_discovery import open_manual_discovery
from tarock.net.transport import PeerAddress, TcpTransport


def advert(node: str, port: int = 7654) -> Advert:
    return Advert(
        node_id=node,
        kind="waiting",
        name=f"bot-{node[:4]}",
        table_id="",
        variant="tarock54",
        rules_hash="00",
        free_seats=3,
        protocol=(1, 1),
        boot=new_boot_nonce(),
        port=port,
    )


async def ask(address: PeerAddress) -> Advert:
    stream = await TcpTransport().connect(address, timeout=2)
    async with stream:
        data = b""
        while chunk := await stream.receive_some(4096):
            data += chunk
    return advert_from_txt(data, port=address.port)


class InfoServer:
    """Answers every connection with the TXT data of its current advert."""

    def __init__(self, advert: Advert) -> None:
        self.advert = advert
        self.scope = trio.CancelScope()

    async def handle(self, stream: trio.abc.Stream) -> None:
        await stream.send_all(advert_to_txt(self.advert))

    async def run(self, *, task_status: trio.TaskStatus[PeerAddress] = trio.TASK_STATUS_IGNORED) -> None:
        with self.scope:
            await TcpTransport("127.0.0.1", 0).serve(self.handle, task_status=task_status)


async def test_manual_peers_are_found_updated_and_removed() -> None:
    first = InfoServer(advert("aaaa0000aaaa0000"))
    second = InfoServer(advert("bbbb0000bbbb0000"))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            a = await nursery.start(first.run)
            b = await nursery.start(second.run)
            async with open_manual_discovery([a, b, a], ask, interval=0.05, timeout=1, misses=2) as disc:
                assert disc.targets == (a, b)
                seen: dict[str, Seen] = {}
                while len(seen) < 2:
                    event = await disc.next_event(timeout=5)
                    assert event is not None and event.kind == "added"
                    seen[event.seen.advert.node_id] = event.seen
                # What the user typed is where the peer is reached.
                assert seen["aaaa0000aaaa0000"].endpoints == (a,)
                assert {s.advert.node_id for s in disc.current()} == set(seen)

                first.advert = advert("aaaa0000aaaa0000")  # restarted: new boot nonce
                event = await disc.next_event(timeout=5)
                assert event is not None and event.kind == "updated"
                assert event.seen.advert.boot == first.advert.boot

                second.scope.cancel()  # that node goes away
                event = await disc.next_event(timeout=5)
                assert event is not None and event.kind == "removed"
                assert event.seen.advert.node_id == "bbbb0000bbbb0000"
                assert [s.advert.node_id for s in disc.current()] == ["aaaa0000aaaa0000"]
            nursery.cancel_scope.cancel()


async def test_the_node_itself_is_filtered_out() -> None:
    me = InfoServer(advert("cccc0000cccc0000"))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            address = await nursery.start(me.run)
            async with open_manual_discovery([address], ask, interval=0.05, timeout=1, misses=2) as disc:
                assert await disc.wait_changed(timeout=5)
                assert len(disc.current()) == 1
                await disc.publish(me.advert)
                assert disc.current() == ()
                await trio.sleep(0.3)  # further polls find only the node itself
                assert disc.current() == ()
            nursery.cancel_scope.cancel()


async def test_a_peer_that_sends_garbage_is_not_taken_and_discovery_goes_on() -> None:
    async def garbage(stream: trio.abc.Stream) -> None:
        await stream.send_all(b"\x05hello\xff\xff")

    good = InfoServer(advert("dddd0000dddd0000"))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            bad_address = await nursery.start(TcpTransport("127.0.0.1", 0).serve, garbage)
            good_address = await nursery.start(good.run)
            async with open_manual_discovery(
                [bad_address, good_address], ask, interval=0.05, timeout=1, misses=1
            ) as disc:
                event = await disc.next_event(timeout=5)
                assert event is not None and event.seen.advert.node_id == "dddd0000dddd0000"
                await trio.sleep(0.3)
                assert [s.advert.node_id for s in disc.current()] == ["dddd0000dddd0000"]
            nursery.cancel_scope.cancel()


async def test_view_signals_changes_once_and_keeps_events_in_order() -> None:
    view = PeerView(max_peers=2, max_events=3)
    assert not await view.wait_changed(timeout=0.01)
    one, two, three = (Seen(advert(n * 8), ("192.0.2.1",)) for n in ("1", "2", "3"))
    view.put("a", one)
    view.put("a", one)  # the same value: no change
    view.put("b", two)
    view.put("c", three)  # over the limit: the least recently announced one ("a") makes room
    assert await view.wait_changed(timeout=0.01)
    assert not await view.wait_changed(timeout=0.01)
    assert [s.advert.node_id for s in view.current()] == ["2" * 8, "3" * 8]
    view.drop_node("3" * 8)
    view.drop("nothing")
    view.put("b", Seen(two.advert, ("192.0.2.2",)))  # the address changed: an update
    kinds = []
    while (event := await view.next_event(timeout=0.01)) is not None:
        kinds.append(event.kind)
    assert kinds == ["added", "removed", "updated"]  # the oldest events fell out of the log
