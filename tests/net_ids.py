"""Fixed identities and well-formed handshake messages for protocol tests."""

from __future__ import annotations

from typing import Any

from tarock.net.identity import Identity
from tarock.net.protocol.connection import Authenticated, Connection, HelloReceived
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN
from tarock.net.protocol.messages import Hello

CLIENT_ID = Identity(b"\x11" * 32)
SERVER_ID = Identity(b"\x22" * 32)
NODE = CLIENT_ID.node
HOST = SERVER_ID.node
NONCE = "ab" * 32


def make_hello(identity: Identity = CLIENT_ID, **changes: Any) -> Hello:
    fields: dict[str, Any] = dict(proto_min=PROTOCOL_MIN, proto_max=PROTOCOL_MAX, node=identity.node,
                                  name="Resi", role="seat", table="", rules="", session="", received=0,
                                  epoch=0, deal=0, done=0, port=7654, addresses=("192.0.2.2",),
                                  key=identity.key, nonce=NONCE, pake="")
    fields.update(changes)
    return Hello(**fields)


def authenticate(client: Connection, server: Connection, now: float = 0.0) -> Hello:
    """Carry a client's hello through the server's challenge and the client's auth."""
    server.receive_data(client.data_to_send(), now)
    event = server.next_event()
    assert isinstance(event, HelloReceived), event
    server.challenge(SERVER_ID, None, now)
    client.receive_data(server.data_to_send(), now)
    server.receive_data(client.data_to_send(), now)
    done = server.next_event()
    assert isinstance(done, Authenticated), done
    return done.hello
