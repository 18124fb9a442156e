"""The table as one seat (or watcher) knows it, sans-IO: its rules, roster, host and sheet.

:class:`SeatTable` is what the parts of a seat share (:mod:`net.seat_hand`,
:mod:`net.seat_score`, :class:`~net.seat.SeatCore`): the table's rules and
game, who sits where, which host at which epoch, the score sheet, and the
seat's signature on what it sends the host outside a hand's log.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from tarock.core.plugins import Catalogue
from tarock.net.dealing import HOST
from tarock.net.effects import ToHost
from tarock.net.game import Game, Sheet
from tarock.net.identity import Identity, fingerprint, signed_bytes, verify
from tarock.net.protocol.messages import Inner, SeatInfo, Signed, TableInfo, dump, parse, plain
from tarock.net.store import Store


@dataclass
class SeatTable:
    """One node's seat at a table (``watch``: a watcher's view of it)."""

    me: str
    identity: Identity
    store: Store
    catalogue: Catalogue
    watch: bool
    info: TableInfo | None = None
    game: Game | None = None
    sheet: Sheet | None = None
    seat: int | None = None
    epoch: int = 0
    host: str = ""
    host_key: bytes = b""
    roster: tuple[SeatInfo, ...] = ()

    @property
    def table_id(self) -> str:
        return self.info.id if self.info is not None else ""

    @property
    def done(self) -> int:
        return self.sheet.done if self.sheet is not None else 0

    @property
    def fingerprint(self) -> str:
        """The roster's fingerprint, for the players to compare (docs/protocol.md, "Identity")."""
        return fingerprint(self.table_id, [s.key for s in sorted(self.roster, key=lambda s: s.seat)])

    def set_table(self, info: TableInfo, game: Game | None = None) -> None:
        """The table this seat sits at (its game made here unless given)."""
        self.info = info
        self.game = game or Game.make(self.catalogue, info.variant, info.options, info.seats, info.rounds,
                                      info.dealing)
        self.sheet = Sheet(self.game.new_table())

    def save(self) -> None:
        assert self.info is not None
        state = {"epoch": self.epoch, "host": self.host, "seat": self.seat,
                 "roster": [plain(s) for s in self.roster]}
        self.store.save_table(self.info.id, plain(self.info), state)

    def to_host(self, body: Inner, deal: int = 0) -> ToHost:
        """A table message of this seat (outside a hand's log) for the host."""
        fields: dict[str, Any] = {"t": Signed.tag, "table": self.table_id, "epoch": self.epoch,
                                  "deal": deal, "author": self.me, "seat": self.seat, "seq": 0, "prev": "",
                                  "head": "", "to": self.host, "body": dump(body), "sig": "0" * 128}
        fields["sig"] = self.identity.sign(signed_bytes(fields))
        env = parse(fields, "body")
        assert isinstance(env, Signed)
        return ToHost(env)

    def from_host(self, env: Signed) -> bool:
        """Whether the host signed ``env`` (a table message to this node or to all)."""
        if not self.host_key or env.seat is not None or env.to not in ("", self.me):
            return False
        return verify(self.host_key, signed_bytes(dump(env)), env.sig)

    def node_of(self, seat: int | None, bots: Collection[int] = ()) -> str:
        """The node that answers for ``seat`` in a deal whose bots are ``bots`` ("": nobody)."""
        if seat is None:
            return ""
        if seat == HOST or seat in bots:
            return self.host
        for s in self.roster:
            if s.seat == seat:
                return s.node
        return ""
