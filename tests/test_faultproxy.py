"""The fault-injecting proxy itself, over loopback: pass-through, delay, stall, cut, refuse."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import trio
from faultproxy import FaultProxy
from netns import Procs

from tarock.net.transport import ConnectError, PeerAddress, TcpTransport

HERE = Path(__file__).resolve().parent


async def echo(stream: trio.abc.Stream) -> None:
    async for chunk in stream:
        await stream.send_all(chunk)


async def receive_exactly(stream: trio.abc.Stream, size: int) -> bytes:
    got = b""
    while len(got) < size:
        chunk = await stream.receive_some(size - len(got))
        if not chunk:
            raise EOFError(f"stream ended after {len(got)} of {size} bytes")
        got += chunk
    return got


async def start(nursery: trio.Nursery) -> tuple[FaultProxy, PeerAddress]:
    server = await nursery.start(TcpTransport("127.0.0.1", 0).serve, echo)
    proxy = FaultProxy(server)
    return proxy, await nursery.start(proxy.run)


async def test_bytes_pass_unchanged_in_order_both_ways() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            proxy, address = await start(nursery)
            stream = await TcpTransport().connect(address, timeout=5)
            data = os.urandom(300_000)

            async def send() -> None:
                for i in range(0, len(data), 7_001):
                    await stream.send_all(data[i : i + 7_001])

            nursery.start_soon(send)
            assert await receive_exactly(stream, len(data)) == data
            assert proxy.stats.bytes_up == proxy.stats.bytes_down == len(data)
            assert proxy.stats.accepted == proxy.stats.open == 1
            await stream.aclose()
            nursery.cancel_scope.cancel()


async def test_delay_holds_every_byte_back() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            proxy, address = await start(nursery)
            stream = await TcpTransport().connect(address, timeout=5)
            await stream.send_all(b"ping")
            await receive_exactly(stream, 4)
            proxy.set_delay(0.25)
            began = trio.current_time()
            await stream.send_all(b"late")
            assert await receive_exactly(stream, 4) == b"late"
            assert trio.current_time() - began >= 0.5  # delayed on the way there and back
            proxy.set_delay(0)
            with pytest.raises(ValueError):
                proxy.set_delay(-1)
            await stream.aclose()
            nursery.cancel_scope.cancel()


async def test_stall_holds_and_resume_delivers_in_order() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            proxy, address = await start(nursery)
            stream = await TcpTransport().connect(address, timeout=5)
            proxy.stall()
            assert proxy.stalled
            await stream.send_all(b"one ")
            await stream.send_all(b"two")
            with trio.move_on_after(0.5) as waited:
                await stream.receive_some(100)
            assert waited.cancelled_caught  # nothing got through while stalled
            proxy.resume()
            assert await receive_exactly(stream, 7) == b"one two"
            await stream.aclose()
            nursery.cancel_scope.cancel()


async def test_cut_resets_both_sides_and_new_connections_still_work() -> None:
    server_ended = trio.Event()
    server_error: list[BaseException] = []

    async def hold(stream: trio.abc.Stream) -> None:
        try:
            async for chunk in stream:
                await stream.send_all(chunk)
        except trio.BrokenResourceError as exc:
            server_error.append(exc)
        server_ended.set()

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            server = await nursery.start(TcpTransport("127.0.0.1", 0).serve, hold)
            proxy = FaultProxy(server)
            address = await nursery.start(proxy.run)
            stream = await TcpTransport().connect(address, timeout=5)
            await stream.send_all(b"x")
            await receive_exactly(stream, 1)
            assert proxy.cut() == 1
            with pytest.raises(trio.BrokenResourceError):
                await stream.receive_some(10)  # a reset, not an orderly end
            await server_ended.wait()
            assert server_error, "the server side saw an orderly close instead of a reset"
            again = await TcpTransport().connect(address, timeout=5)
            await again.send_all(b"y")
            assert await receive_exactly(again, 1) == b"y"
            assert proxy.stats.cut == 1 and proxy.stats.accepted == 2
            await again.aclose()
            nursery.cancel_scope.cancel()


async def test_refuse_resets_new_connections_until_switched_off() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            proxy, address = await start(nursery)
            proxy.refuse(True)
            # The reset reaches the client during its connect or on its first read.
            with pytest.raises((ConnectError, trio.BrokenResourceError)):
                refused = await TcpTransport().connect(address, timeout=5)
                await refused.receive_some(10)
            proxy.refuse(False)
            stream = await TcpTransport().connect(address, timeout=5)
            await stream.send_all(b"ok")
            assert await receive_exactly(stream, 2) == b"ok"
            assert proxy.stats.refused == 1
            await stream.aclose()
            nursery.cancel_scope.cancel()


async def test_an_unreachable_target_resets_the_client() -> None:
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            closed = await nursery.start(TcpTransport("127.0.0.1", 0).serve, echo)
            nursery.cancel_scope.cancel()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            proxy = FaultProxy(closed)  # nothing listens there any more
            address = await nursery.start(proxy.run)
            with pytest.raises((ConnectError, trio.BrokenResourceError)):
                stream = await TcpTransport().connect(address, timeout=5)
                await stream.receive_some(10)
            assert proxy.stats.upstream_failed == 1
            nursery.cancel_scope.cancel()


async def test_the_proxy_as_a_process_obeys_commands_on_stdin() -> None:
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            server = await nursery.start(TcpTransport("127.0.0.1", 0).serve, echo)
            with Procs(lifetime=30) as procs:
                argv = [sys.executable, str(HERE / "faultproxy.py"), "--listen", "127.0.0.1:0"]
                proc = procs.spawn([*argv, "--target", str(server)], name="faultproxy")
                line = await trio.to_thread.run_sync(lambda: proc.wait_for("listening", timeout=10))
                address = PeerAddress.parse(json.loads(line)["address"])
                stream = await TcpTransport().connect(address, timeout=5)
                await stream.send_all(b"abc")
                assert await receive_exactly(stream, 3) == b"abc"

                def command(text: str, expect: str) -> dict[str, object]:
                    start = len(proc.lines())
                    proc.send(text + "\n")
                    return proc.wait_for_json(lambda j: expect in j, timeout=10, start=start)

                answer = command("stall", "ok")
                assert answer["stalled"] is True
                await stream.send_all(b"held")
                with trio.move_on_after(0.3) as waited:
                    await stream.receive_some(10)
                assert waited.cancelled_caught
                command("resume", "ok")
                assert await receive_exactly(stream, 4) == b"held"
                assert command("bogus", "error")["error"] == "unknown command 'bogus'"
                assert command("delay x", "error")
                assert command("cut", "ok")["connections"] == 1
                with pytest.raises(trio.BrokenResourceError):
                    await stream.receive_some(10)
                command("quit", "ok")
                assert await trio.to_thread.run_sync(lambda: proc.wait(timeout=10)) == 0
            nursery.cancel_scope.cancel()
