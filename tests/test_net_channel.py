"""Sessions across connections: sequence numbers, cumulative acks, resending after a drop
(NETWORK.md's reconnect scheme), with two sans-IO connections and no network."""

from __future__ import annotations

import pytest
from net_ids import CLIENT_ID, HOST, NODE, authenticate, make_hello

from tarock.net.protocol.channel import Channel, ChannelError, QueueFull
from tarock.net.protocol.connection import BodyReceived, Closed, Connection, Welcomed
from tarock.net.protocol.limits import PROTOCOL_MAX, Timing
from tarock.net.protocol.messages import Data, Hello, Signed, Welcome, dump, parse, parse_body

SESSION = "cd" * 16


def hello(session: str = "", received: int = 0) -> Hello:
    return make_hello(session=session, received=received)


def welcome(channel: Channel, resumed: bool) -> Welcome:
    return Welcome(PROTOCOL_MAX, HOST, "host", "", "", 1, HOST, channel.session, channel.received, resumed,
                   0, 0)


def pair(client_channel: Channel | None, server_channel: Channel,
         resumed: bool) -> tuple[Connection, Connection]:
    client, server = Connection("client"), Connection("server")
    client.hello(hello(client_channel.session if client_channel else "",
                       client_channel.received if client_channel else 0), 0.0, client_channel, CLIENT_ID)
    received = authenticate(client, server)
    server.accept(welcome(server_channel, resumed), server_channel)
    if resumed:
        server.resend(received.received)
    client.receive_data(server.data_to_send())
    assert isinstance(client.next_event(), Welcomed)
    resent = client.data_to_send()  # the client's resent frames, if any
    if resent:
        server.receive_data(resent)
    return client, server


def bodies(conn: Connection) -> list[object]:
    return [e.body for e in conn.events() if isinstance(e, BodyReceived)]


def test_duplicates_are_dropped_and_gaps_refused() -> None:
    channel = Channel(SESSION)
    assert channel.receive(Data(1, 0, "a")) == "a"
    assert channel.receive(Data(1, 0, "a")) is None  # a duplicate: acknowledged, not delivered
    assert channel.ack_due
    with pytest.raises(ChannelError, match="gap"):
        channel.receive(Data(3, 0, "c"))
    with pytest.raises(ChannelError, match="never sent"):
        channel.on_ack(5)


def test_the_queue_is_bounded() -> None:
    channel = Channel(SESSION, limit=3)
    for i in range(3):
        channel.wrap(i)
    with pytest.raises(QueueFull):
        channel.wrap(3)
    channel.on_ack(2)
    channel.wrap(3)
    assert channel.unacked == 2


def test_a_dropped_connection_loses_nothing_and_delivers_nothing_twice() -> None:
    host_side = Channel(SESSION)
    seat_side: Channel | None = None
    client, server = pair(None, host_side, resumed=False)
    seat_side = client.channel
    assert seat_side is not None and seat_side.session == SESSION
    # The host sends three bodies; only the first reaches the seat before the line dies.
    for n in range(3):
        server.send_body({"n": n})
    wire = server.data_to_send()
    first_frame_end = 4 + int.from_bytes(wire[:4], "big")
    client.receive_data(wire[:first_frame_end])
    assert bodies(client) == [{"n": 0}]
    # The seat sent one body too, which never arrived.
    client.send_body({"seat": "act"})
    client.data_to_send()  # lost
    # Reconnect with the same session: both sides resend what the other lacks.
    client, server = pair(seat_side, host_side, resumed=True)
    assert bodies(client) == [{"n": 1}, {"n": 2}]
    assert bodies(server) == [{"seat": "act"}]
    # And again, with everything acknowledged: nothing is resent.
    client.flush_ack()
    server.receive_data(client.data_to_send())
    server.flush_ack()
    client.receive_data(server.data_to_send())
    assert host_side.unacked == 0 and seat_side.unacked == 0
    client, server = pair(seat_side, host_side, resumed=True)
    assert bodies(client) == [] and bodies(server) == []


def test_a_new_session_starts_numbering_again() -> None:
    old = Channel(SESSION)
    old.wrap("lost")
    client, _ = pair(old, Channel("ef" * 16), resumed=False)
    assert client.channel is not None and client.channel is not old and client.channel.sent == 0


def test_heartbeats_and_silence() -> None:
    timing = Timing(heartbeat=1.0, dead_after=4.0)
    client, server = Connection("client", 0.0, timing), Connection("server", 0.0, timing)
    client.hello(hello(), 0.0, identity=CLIENT_ID)
    authenticate(client, server)
    server.accept(welcome(Channel(SESSION), False), Channel(SESSION), 0.0)
    client.receive_data(server.data_to_send(), 0.0)
    client.next_event()
    server.tick(1.5)
    ping = server.data_to_send()
    assert b"ping" in ping
    client.receive_data(ping, 1.5)
    assert b"pong" in client.data_to_send()
    server.tick(3.9)
    assert not server.closed
    server.tick(4.1)  # nothing from the client since 0.0 (the pong was never delivered)
    closed = server.next_event()
    assert isinstance(closed, Closed) and closed.code == "timeout"
    assert b"bye" in server.data_to_send()


def _signed(n: int) -> Signed:
    """A signed table message (the signature is not checked here)."""
    env = parse({"t": "signed", "table": "", "epoch": 1, "deal": 0, "author": HOST, "seat": None, "seq": 0,
                 "prev": "", "head": "", "to": NODE, "body": {"t": "checked", "deal": n, "ok": True,
                                                                "reason": "", "culprit": "", "log": ""},
                 "sig": "0" * 128}, "body")
    assert isinstance(env, Signed)
    return env


def test_a_message_sent_is_framed_as_its_plain_data_and_read_back_as_a_message() -> None:
    # The host's connection packs a signed body once and writes the data frame around it; the
    # bytes must be those of the frame of its plain data (the wire is unchanged).
    server_channel = Channel(SESSION)
    plain_side = Connection("server")
    packed_side = Connection("server")
    for conn in (plain_side, packed_side):
        fresh = Connection("client")
        fresh.hello(hello(), 0.0, None, CLIENT_ID)
        authenticate(fresh, conn)
        conn.accept(welcome(Channel(SESSION), False), Channel(SESSION))
        conn.data_to_send()
    bodies_sent = [_signed(n) for n in range(3)]
    for env in bodies_sent:
        plain_side.send_body(dump(env))
        packed_side.send_body(env)
    wire = packed_side.data_to_send()
    assert wire == plain_side.data_to_send()
    # A client whose session reads bodies gets the messages themselves.
    client, server = Connection("client"), Connection("server")
    client.hello(hello(), 0.0, None, CLIENT_ID, bodies=parse_body)
    authenticate(client, server)
    server.accept(welcome(server_channel, False), server_channel)
    client.receive_data(server.data_to_send())
    assert isinstance(client.next_event(), Welcomed)
    client.receive_data(wire)
    assert bodies(client) == bodies_sent
    # A body that is no message closes the connection, naming it.
    packed_side.send_body({"t": "launch"})
    client.receive_data(packed_side.data_to_send())
    closed = client.events()[-1]
    assert isinstance(closed, Closed) and closed.code == "protocol" and "bad body" in closed.reason
