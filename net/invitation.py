"""A node that waits to be invited to a table (``tarock bot`` without a table), and its answer."""

from __future__ import annotations

from dataclasses import dataclass

import trio

from tarock.net.game import Game
from tarock.net.link import Link
from tarock.net.protocol.limits import PROTOCOL_MAX
from tarock.net.protocol.messages import Hello, Welcome
from tarock.net.transport import PeerAddress


@dataclass
class Invitation:
    hello: Hello
    address: PeerAddress


class Waiting:
    """A node waiting to be invited to a table (``tarock bot`` without a table)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.invitation: Invitation | None = None
        self.event = trio.Event()


async def answer_invitation(w: Waiting | None, link: Link, hello: Hello, peer_ip: str | None, me: str,
                            name: str) -> None:
    """Take an invitation (``hello``) if this node (``me``, ``name``) waits for a table with its
    rules, else refuse it."""
    if w is None or w.invitation is not None or hello.rules != w.game.hash or not hello.table:
        link.conn.refuse("busy", f"{name} is not waiting for a table with these rules")
        await link.flush()
        return
    # The addresses the host names first; the connection's peer address only without them.
    host_ip = hello.addresses[0] if hello.addresses else (peer_ip or "")
    if not host_ip or not 0 < hello.port <= 65535:
        link.conn.refuse("busy", "the invitation names no address to join")
        await link.flush()
        return
    w.invitation = Invitation(hello, PeerAddress(host_ip, hello.port))
    link.conn.accept(Welcome(PROTOCOL_MAX, me, name, hello.table, hello.rules, 0, "", "", 0,
                             False, None, 0), None)
    await link.flush()
    w.event.set()
