"""net.transport: addresses from the command line, and TCP streams over loopback."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import trio
from hypothesis import given
from hypothesis import strategies as st

from tarock.net.transport import ConnectError, ConnectTimeout, PeerAddress, TcpTransport

# -- PeerAddress ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "host", "port"),
    [
        ("192.168.1.20:7654", "192.168.1.20", 7654),
        (" 10.0.0.1:1 ", "10.0.0.1", 1),
        ("[::1]:65535", "::1", 65535),
        ("[fe80::1%eth0]:7000", "fe80::1%eth0", 7000),
        ("[2001:db8::2]:80", "2001:db8::2", 80),
        ("wohnzimmer.local:7654", "wohnzimmer.local", 7654),
        ("localhost:80", "localhost", 80),
        ("my-box:8080", "my-box", 8080),
    ],
)
def test_parse_accepts(text: str, host: str, port: int) -> None:
    address = PeerAddress.parse(text)
    assert (address.host, address.port) == (host, port)
    assert PeerAddress.parse(str(address)) == address


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty address"),
        ("   ", "empty address"),
        ("192.168.1.20", "no port"),
        ("192.168.1.20:", "port is missing"),
        ("192.168.1.20:http", "not a number"),
        ("192.168.1.20:0", "not in 1..65535"),
        ("192.168.1.20:65536", "not in 1..65535"),
        ("192.168.1.20:99999999999999999999999", "not in 1..65535"),
        ("192.168.1.20:-5", "not a number"),
        ("192.168.1.20:٣", "not a number"),
        ("::1:7654", "needs brackets"),
        ("[::1:7654", "without ']'"),
        ("[::1]7654", "expected ':PORT'"),
        ("[10.0.0.1]:7654", "not an IPv6 address"),
        ("[]:7654", "not an IPv6 address"),
        ("300.1.1.1:7654", "not a valid IPv4 address"),
        ("a b:7654", "neither an IP address nor a host name"),
        (":7654", "host is empty"),
        ("-box:7654", "neither an IP address nor a host name"),
        ("a..b:7654", "neither an IP address nor a host name"),
    ],
)
def test_parse_refuses_with_a_reason(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(".", r"\.")):
        PeerAddress.parse(text)


def test_port_zero_only_where_asked() -> None:
    assert PeerAddress.parse("0.0.0.0:0", allow_port_zero=True).port == 0
    with pytest.raises(ValueError):
        PeerAddress.parse("0.0.0.0:0")


def test_direct_construction_is_checked() -> None:
    with pytest.raises(ValueError, match="port"):
        PeerAddress("127.0.0.1", 70000)
    with pytest.raises(ValueError, match="empty"):
        PeerAddress("", 1)
    assert str(PeerAddress("::1", 5)) == "[::1]:5"
    assert str(PeerAddress("10.0.0.1", 5)) == "10.0.0.1:5"


@given(st.text(max_size=60))
def test_parse_of_any_text_gives_an_address_or_a_value_error(text: str) -> None:
    try:
        address = PeerAddress.parse(text)
    except ValueError as exc:
        assert str(exc)
    else:
        assert 1 <= address.port <= 65535
        assert PeerAddress.parse(str(address)) == address


# -- TcpTransport over loopback --------------------------------------------------------


async def echo(stream: trio.abc.Stream) -> None:
    async for chunk in stream:
        await stream.send_all(chunk)


async def test_serve_reports_the_bound_port_and_streams_both_ways() -> None:
    transport = TcpTransport("127.0.0.1", 0)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(transport.serve, echo)
            assert bound.host == "127.0.0.1" and bound.port > 0
            stream = await transport.connect(bound, timeout=5)
            data = bytes(range(256)) * 300
            await stream.send_all(data)
            got = b""
            while len(got) < len(data):
                got += await stream.receive_some(65536)
            assert got == data
            await stream.aclose()
            nursery.cancel_scope.cancel()


async def test_streams_have_nodelay_and_keepalive() -> None:
    transport = TcpTransport("127.0.0.1", 0, keepalive_idle=7)
    server_side: list[trio.SocketStream] = []
    seen = trio.Event()

    async def keep(stream: trio.abc.Stream) -> None:
        assert isinstance(stream, trio.SocketStream)
        server_side.append(stream)
        seen.set()
        await trio.sleep_forever()

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(transport.serve, keep)
            client = await transport.connect(bound, timeout=5)
            await seen.wait()
            for stream in (client, server_side[0]):
                sock = stream.socket
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE)
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 7
            await client.aclose()
            nursery.cancel_scope.cancel()


async def test_a_failing_handler_does_not_stop_serving() -> None:
    transport = TcpTransport("127.0.0.1", 0)
    calls = 0

    async def handler(stream: trio.abc.Stream) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("bug in a handler")
        await echo(stream)

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(transport.serve, handler)
            first = await transport.connect(bound, timeout=5)
            assert await first.receive_some(10) == b""  # closed by the server after the failure
            second = await transport.connect(bound, timeout=5)
            await second.send_all(b"still here")
            assert await second.receive_some(100) == b"still here"
            await first.aclose()
            await second.aclose()
            nursery.cancel_scope.cancel()


async def test_the_stream_is_closed_when_the_handler_returns() -> None:
    transport = TcpTransport("127.0.0.1", 0)

    async def greet(stream: trio.abc.Stream) -> None:
        await stream.send_all(b"hello")

    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(transport.serve, greet)
            stream = await transport.connect(bound, timeout=5)
            got = b""
            while chunk := await stream.receive_some(100):
                got += chunk
            assert got == b"hello"
            await stream.aclose()
            nursery.cancel_scope.cancel()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_connect_refused_says_where_and_why() -> None:
    address = PeerAddress("127.0.0.1", _free_port())
    with trio.fail_after(10), pytest.raises(ConnectError, match=rf"127\.0\.0\.1:{address.port}.*refused"):
        await TcpTransport().connect(address, timeout=5)


@contextmanager
def full_backlog() -> Iterator[PeerAddress]:
    """A loopback port whose accept queue is full: the next connect gets no answer."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = int(listener.getsockname()[1])
    filler = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        yield PeerAddress("127.0.0.1", port)
    finally:
        filler.close()
        listener.close()


async def test_connect_times_out() -> None:
    with full_backlog() as address, trio.fail_after(10):
        start = trio.current_time()
        with pytest.raises(ConnectTimeout, match=r"no answer within 0\.3 s"):
            await TcpTransport().connect(address, timeout=0.3)
        assert trio.current_time() - start < 5


async def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="timeout"):
        await TcpTransport().connect(PeerAddress("127.0.0.1", 1), timeout=0)
    with pytest.raises(ValueError, match="port"):
        TcpTransport("127.0.0.1", 70000)
    with pytest.raises(ValueError, match="neither an IP address nor a host name"):
        TcpTransport("not an address")


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


async def test_ipv6_loopback() -> None:
    if not _has_ipv6_loopback():
        pytest.fail("this machine has no IPv6 loopback; the transport's IPv6 path cannot be tested")
    transport = TcpTransport("::1", 0)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(transport.serve, echo)
            assert str(bound).startswith("[::1]:")
            stream = await transport.connect(PeerAddress.parse(str(bound)), timeout=5)
            await stream.send_all(b"v6")
            assert await stream.receive_some(10) == b"v6"
            await stream.aclose()
            nursery.cancel_scope.cancel()
