"""A hand's log as one node keeps it: entries, their hashes and chains, who may write them.

Every entry is a :class:`~net.protocol.messages.Signed` envelope bound to the
table, epoch and deal, signed by its author (a seat, or the host in its own
role), numbered in a chain per author (``seq``/``prev``) and bound to the log as
the author last saw it (``head``: the running hash, :func:`next_head`).
:class:`HandLog` checks those bindings for every entry and signs this node's
own; :mod:`net.handplay` decides what an entry means for the hand.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from tarock.core.observation import Observation
from tarock.net.dealing import HOST, DealContext
from tarock.net.identity import Identity, envelope_hash, signed_bytes, verify
from tarock.net.protocol.messages import Inner, MessageError, Signed, dump, inner_of, parse
from tarock.net.values import value

LOG_TAG = b"tarock-log/1\x00"
Author = int
"""A seat, or :data:`net.dealing.HOST`."""


class HandFault(Exception):
    """An entry that breaks the rules of the hand: ``author`` is at fault (HOST: the host;
    None: nobody can be named yet, the audit will)."""

    def __init__(self, reason: str, author: Author | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.author = author


def entry_hash(env: Signed) -> str:
    """The envelope's hash (:func:`net.identity.envelope_hash`), once per envelope."""
    return env.hash


def next_head(head: str, entry_hash: str) -> str:
    """The log's running hash after an entry: SHA-256(``"tarock-log/1" 0x00`` || the hash
    before (32 bytes; nothing for the first entry) || the entry's hash), hex."""
    before = bytes.fromhex(head) if head else b""
    return hashlib.sha256(LOG_TAG + before + bytes.fromhex(entry_hash)).hexdigest()


@value
class Entry:
    index: int
    author: Author
    env: Signed
    msg: Inner
    hash: str
    head: str
    """The running hash after this entry."""


@value
class Out:
    """A signed message of this node: for the log, or private (``to``: a seat or HOST)."""

    env: Signed
    to: Author | None = None


@value
class Ask:
    """This node's player is to move: ``obs`` is its observation, ``index`` the action's."""

    obs: Observation
    index: int


@value
class Member:
    """A node at the table and the public key it signs with."""

    node: str
    key: bytes


@value
class Roster:
    """Who may author what: every seat's member, the host's, the seats its bots play."""

    seats: tuple[Member, ...]
    host: Member
    bots: tuple[int, ...] = ()

    def key_of(self, author_node: str, seat: int | None) -> bytes | None:
        """The key that signs for ``seat`` (None: the host) when ``author_node`` may, else None."""
        if seat is None or seat in self.bots:
            member = self.host
        elif 0 <= seat < len(self.seats):
            member = self.seats[seat]
        else:
            return None
        return member.key if member.node == author_node else None

    def node_of(self, seat: int) -> str:
        """The node that plays ``seat`` in this hand: the host's for a seat its bot plays (a
        private message to that seat goes to the host's node, where the bot is), else the seat's."""
        return (self.host if seat in self.bots else self.seats[seat]).node


def roster_of(seat_infos: Sequence[Any], host: str, bots: Sequence[int] = ()) -> Roster:
    """The Roster of a table's SeatInfo list and its host."""
    seats = tuple(Member(s.node, bytes.fromhex(s.key)) for s in sorted(seat_infos, key=lambda s: s.seat))
    return Roster(seats, next((m for m in seats if m.node == host), Member(host, b"")), tuple(bots))


def who(author: Author) -> str:
    return "the host" if author == HOST else f"seat {author}"


class HandLog:
    """The entries of one hand's log as this node took them, and this node's chain.

    ``seats``: the table's; ``is_host``: this is the host's node (it names an entry's
    author for an entry out of place; anywhere else the host, which logged it)."""

    def __init__(self, ctx: DealContext, roster: Roster, seats: int, is_host: bool,
                 signer: Identity | None, seat: int | None) -> None:
        self.ctx = ctx
        self.roster = roster
        self.seats = seats
        self.is_host = is_host
        self.signer = signer
        self.seat = seat
        """The seat this node signs as (None: the host in its own role)."""
        self.entries: list[Entry] = []
        self.heads: dict[str, int] = {}
        """Running hash -> the index of the entry after which the log had it."""
        self.chains: dict[tuple[str, int | None], tuple[int, str]] = {}
        """(author node, seat) -> (seq, hash) of its last entry in the log."""
        self.mine: tuple[int, str] = (0, "")
        """This node's last signed entry (sent; the log may not hold it yet)."""
        self.posted: set[tuple[Any, ...]] = set()
        """The keys of what this node sent (or the log holds of it): each is sent once."""

    def copy(self) -> HandLog:
        """A copy that later entries do not change (the roster and signer shared)."""
        out = HandLog(self.ctx, self.roster, self.seats, self.is_host, self.signer, self.seat)
        out.entries, out.heads, out.chains = list(self.entries), dict(self.heads), dict(self.chains)
        out.mine, out.posted = self.mine, set(self.posted)
        return out

    @property
    def head(self) -> str:
        return self.entries[-1].head if self.entries else ""

    def author(self, env: Signed) -> Author:
        """The author of the next entry ``env`` (HandFault if it is not bound, signed and
        chained as the next entry of its author in this log)."""
        ctx = self.ctx
        if env.table != ctx.table or env.epoch != ctx.epoch or env.deal != ctx.deal or env.to:
            raise HandFault(f"an entry bound to {env.table[:8]}:{env.epoch}:{env.deal}, not this hand",
                            self.blame(env))
        key = self.roster.key_of(env.author, env.seat)
        if key is None:
            raise HandFault(f"{env.author[:8]} may not write as seat {env.seat}", self.blame(env))
        if not verify(key, env.signed, env.sig):
            raise HandFault(f"an entry of {env.author[:8]} with a bad signature", HOST)
        chain = self.chains.get((env.author, env.seat), (0, ""))
        if env.seq != chain[0] + 1 or env.prev != chain[1]:
            raise HandFault(f"seat {env.seat if env.seat is not None else 'host'} sent message {env.seq} "
                            f"after {chain[0]} (a replayed, dropped or reordered message)", self.blame(env))
        if env.head and env.head not in self.heads:
            raise HandFault("an entry that refers to log entries this node was not sent", HOST)
        return HOST if env.seat is None else env.seat

    def blame(self, env: Signed) -> Author:
        """Who is at fault for an entry that does not belong where it is: at the host, its
        author's seat (it sent it); anywhere else the host, which checked it and logged it."""
        if not self.is_host or env.seat is None or not 0 <= env.seat < self.seats:
            return HOST
        return env.seat

    def entry(self, env: Signed, author: Author) -> tuple[Entry, int]:
        """The entry ``env`` would be, and the index of the last entry its author saw (-1: none);
        HandFault naming ``author`` if its message is malformed."""
        try:
            msg = inner_of(env)
        except MessageError as exc:
            raise HandFault(f"a malformed entry: {exc}", author) from None
        assert isinstance(msg, Inner)
        digest = env.hash
        entry = Entry(len(self.entries), author, env, msg, digest, next_head(self.head, digest))
        return entry, self.heads[env.head] if env.head else -1

    def mine_of(self, env: Signed, author: Author, me: Author | None) -> bool:
        """Whether ``env`` is an entry this node signed."""
        return author == me and self.signer is not None and env.author == self.signer.node

    def append(self, entry: Entry, key: tuple[Any, ...], mine: bool) -> None:
        env = entry.env
        self.entries.append(entry)
        self.heads[entry.head] = entry.index
        self.chains[(env.author, env.seat)] = (env.seq, entry.hash)
        if mine:
            self.posted.add(key)
            if env.seq > self.mine[0]:
                self.mine = (env.seq, entry.hash)

    def sign(self, body: Inner, to: Author | None = None) -> Signed:
        """An envelope of this node: in the log (the next of its chain), or private."""
        assert self.signer is not None
        to_node = ""
        seq, prev = 0, ""
        if to is None:
            seq, prev = self.mine
            seq += 1
        else:
            to_node = self.roster.host.node if to == HOST else self.roster.node_of(to)
        fields: dict[str, Any] = {"t": Signed.tag, "table": self.ctx.table, "epoch": self.ctx.epoch,
                                  "deal": self.ctx.deal, "author": self.signer.node, "seat": self.seat,
                                  "seq": seq, "prev": prev, "head": self.head,
                                  "to": to_node, "body": dump(body), "sig": "0" * 128}
        fields["sig"] = self.signer.sign(signed_bytes(fields))
        if to is None:
            self.mine = (seq, envelope_hash(fields))
        env = parse(fields, "body")
        assert isinstance(env, Signed)
        return env

    def private(self, env: Signed) -> None:
        """Check a message sent to this node alone: bound to this hand, signed by its sender."""
        if env.to != (self.signer.node if self.signer is not None else "") or env.table != self.ctx.table \
                or env.deal != self.ctx.deal or env.epoch != self.ctx.epoch:
            raise HandFault("a private message for another node or hand", HOST)
        key = self.roster.key_of(env.author, env.seat)
        if key is None or not verify(key, env.signed, env.sig):
            raise HandFault("a private message that its sender did not sign", HOST)
