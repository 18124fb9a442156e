"""The host's chairs, sans-IO: who sits where, who is connected, whom a hello admits.

:class:`Seating` is the table's roster as its host keeps it: one :class:`Chair`
per seat, the watchers, the quorum (docs/protocol.md, "Host loss"), and the
host's signature on the table messages it sends outside a hand's log.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock.core.players import Policy
from tarock.net.dealing import HOST
from tarock.net.effects import Effect, Note, Send
from tarock.net.identity import Identity, fingerprint, signed_bytes, verify
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN, Timing
from tarock.net.protocol.messages import (
    HandEnd,
    Hello,
    Info,
    Inner,
    Seated,
    SeatInfo,
    Signed,
    TableInfo,
    Void,
    dump,
    parse,
    plain,
)
from tarock.net.store import Store


@dataclass(frozen=True, slots=True)
class Admit:
    seat: int | None


@dataclass(frozen=True, slots=True)
class Reject:
    code: str
    message: str
    host: str = ""
    epoch: int = 0


@dataclass
class Chair:
    """One seat as the host sees it."""

    info: SeatInfo | None = None
    connected: bool = False
    away_since: float | None = None
    back_since: float = 0.0
    """When its node last connected: a seat can stall only while it is connected, so the step
    timeout runs from here at the earliest (a seat cut off, then back, is not a staller)."""
    substituted: bool = False
    bot: Policy | None = None


@dataclass
class Seating:
    """The chairs and watchers of one table at one epoch, and the host's signature."""

    info: TableInfo
    me: str
    identity: Identity
    store: Store
    epoch: int
    bot_for: Callable[[int], Policy] | None
    chairs: list[Chair]
    watchers: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, info: TableInfo, me: str, identity: Identity, store: Store, epoch: int,
           roster: Sequence[SeatInfo | None], bot_for: Callable[[int], Policy] | None, now: float) -> Seating:
        """The chairs of ``roster``: each seated player away until its node connects (a bot plays
        a local seat at once)."""
        infos = [roster[s] if s < len(roster) else None for s in range(info.seats)]
        chairs = [Chair(info=i, away_since=now if i is not None else None) for i in infos]
        return cls(info, me, identity, store, epoch, bot_for, chairs)

    def roster(self) -> tuple[SeatInfo, ...]:
        return tuple(c.info for c in self.chairs if c.info is not None)

    def fingerprint(self) -> str:
        return fingerprint(self.info.id, [s.key for s in self.roster()])

    def seat_of(self, node: str) -> int | None:
        for seat, chair in enumerate(self.chairs):
            if chair.info is not None and chair.info.node == node:
                return seat
        return None

    def name_of(self, seat: int | None) -> str:
        info = self.chairs[seat].info if seat is not None else None
        return info.name if info is not None else "?"

    def nodes(self) -> list[str]:
        """The table's nodes (not the host's bots), each once, in seat order."""
        out: list[str] = []
        for chair in self.chairs:
            if chair.info is not None and not chair.info.local and chair.info.node not in out:
                out.append(chair.info.node)
        return out

    def quorum(self) -> bool:
        """Whether this host reaches a majority of the table's nodes (itself included); on a
        tie, the half that holds the roster's first node.  Without it the host neither deals
        nor lets bots play away seats: a host cut off from the others waits instead of
        playing on alone (docs/protocol.md, "Host loss")."""
        nodes = self.nodes()
        if not nodes:
            return True
        reach = {self.me} | {c.info.node for c in self.chairs if c.info is not None and c.connected}
        have = sum(1 for n in nodes if n in reach)
        return have * 2 > len(nodes) or (have * 2 == len(nodes) and nodes[0] in reach)

    @property
    def free(self) -> int:
        return sum(1 for c in self.chairs if c.info is None)

    def audience(self) -> list[tuple[str, int | None]]:
        """Every connected node and its seat (None: a watcher)."""
        out: list[tuple[str, int | None]] = [(c.info.node, s) for s, c in enumerate(self.chairs)
                                             if c.info is not None and c.connected]
        return out + [(w, None) for w in sorted(self.watchers)]

    def node_of(self, seat: int | None, bots: Collection[int] = ()) -> str:
        """The node that answers for ``seat`` in a deal whose bots are ``bots``: the host's for a
        seat its bot plays, else the seat's own."""
        if seat is None or seat == HOST or seat in bots:
            return self.me
        info = self.chairs[seat].info if 0 <= seat < len(self.chairs) else None
        return info.node if info is not None else ""

    def save(self) -> None:
        state = {"epoch": self.epoch, "host": self.me, "roster": [plain(s) for s in self.roster()]}
        self.store.save_table(self.info.id, plain(self.info), state)

    def info_message(self, name: str, port: int, boot: str) -> Info:
        return Info(PROTOCOL_MIN, PROTOCOL_MAX, self.me, name, "table", self.info.id, self.info.name,
                    self.info.variant, dict(self.info.options), self.info.rules, self.info.rounds,
                    self.free, self.epoch, self.me, port, boot, self.info.private)

    # -- signing the host's own messages ---------------------------------------------------------
    def signed_by(self, node: str, env: Signed) -> bool:
        """Whether ``env`` is a table message to this host that ``node``'s key signed."""
        seat = self.seat_of(node)
        info = self.chairs[seat].info if seat is not None else None
        if info is None or env.table != self.info.id or env.to != self.me:
            return False
        return verify(bytes.fromhex(info.key), signed_bytes(dump(env)), env.sig)

    def signed(self, body: Inner, to: str, deal: int = 0) -> Signed:
        """A table message of the host (outside a hand's log), for the node ``to``."""
        fields: dict[str, Any] = {"t": Signed.tag, "table": self.info.id, "epoch": self.epoch, "deal": deal,
                                  "author": self.me, "seat": None, "seq": 0, "prev": "", "head": "",
                                  "to": to, "body": dump(body), "sig": "0" * 128}
        fields["sig"] = self.identity.sign(signed_bytes(fields))
        env = parse(fields, "body")
        assert isinstance(env, Signed)
        return env

    def send(self, node: str, body: Inner, deal: int = 0) -> Send:
        return Send(node, self.signed(body, node, deal))

    def to_all(self, body: Inner, deal: int = 0) -> list[Effect]:
        """``body`` to every connected node and watcher."""
        return [self.send(node, body, deal) for node, _ in self.audience()]

    def catch_up(self, node: str, seat: int | None, done: int, sheet_done: int) -> list[Effect]:
        """What a node that connects is sent first: the roster, and the outcomes it lacks (and
        the last one, which may have changed to void), read from the store a few at a time."""
        out: list[Effect] = [self.send(node, Seated(self.info, self.epoch, self.me, seat, self.roster()))]
        first = min(done + 1, max(1, sheet_done))
        for deal, record, why, who in self.store.iter_outcomes(self.info.id, first):
            if deal > done or deal == sheet_done:
                out.append(self.send(node, Void(deal, why, who), deal) if record is None else
                           self.send(node, HandEnd(record), deal))
        return out

    def seated_all(self) -> list[Effect]:
        """The roster to every connected node and watcher."""
        return [self.send(node, Seated(self.info, self.epoch, self.me, seat, self.roster()))
                for node, seat in self.audience()]

    # -- admission -------------------------------------------------------------------------------
    def admit(self, hello: Hello, open_seats: bool, agreed: bool) -> Admit | Reject:
        """Whether to welcome ``hello`` (and at which seat); ``open_seats``: the table still takes
        new players; ``agreed``: a host agreement decides who hosts."""
        if hello.role == "watch":
            return Admit(None)
        if hello.role != "seat":
            return Reject("role", f"a host does not take {hello.role!r} connections")
        if hello.epoch > self.epoch and agreed:
            # Only the host agreement decides who hosts: a hello cannot depose a host.
            return Reject("not-host", f"this host's epoch {self.epoch} is older than yours ({hello.epoch})",
                          epoch=self.epoch)
        if hello.epoch > self.epoch:
            return Reject("stale-epoch", f"this host's epoch {self.epoch} is older than yours "
                                         f"({hello.epoch}): it steps down", epoch=self.epoch)
        if hello.table not in ("", self.info.id):
            return Reject("table", f"this node hosts table {self.info.name!r} ({self.info.id}), "
                                   f"not {hello.table}")
        if hello.rules != self.info.rules:
            return Reject("rules", f"table {self.info.name!r} plays {self.info.variant} with rules "
                                   f"{self.info.rules[:12]}, yours are {hello.rules[:12] or 'none'}: "
                                   "the same variant, plugins and options are needed")
        seat = self.seat_of(hello.node)
        if seat is not None:
            chair = self.chairs[seat]
            if chair.info is not None and chair.info.key != hello.key:
                return Reject("identity", "this node id sits at the table with another key")
            return Admit(seat)
        if not open_seats or self.free == 0:
            return Reject("full", f"table {self.info.name!r} has no free seat")
        seat = next(s for s, c in enumerate(self.chairs) if c.info is None)
        self.chairs[seat].info = SeatInfo(seat, hello.node, hello.name, hello.key, hello.addresses,
                                          hello.port, local=False)
        self.save()
        return Admit(seat)

    def seat_local(self, node: str, name: str, local: bool, addresses: tuple[str, ...] = (),
                   port: int = 0, key: str = "") -> int:
        """Seat one of this node's own players (the host's, or a bot of ``--bots``)."""
        seat = self.seat_of(node)
        if seat is not None:
            return seat
        seat = next(s for s, c in enumerate(self.chairs) if c.info is None)
        self.chairs[seat].info = SeatInfo(seat, node, name, key or self.identity.key, addresses, port, local)
        self.save()
        return seat

    # -- who is away -------------------------------------------------------------------------------
    def arrived(self, node: str, now: float) -> tuple[int | None, list[Effect]]:
        """A node connected: its seat (None: a watcher), and a note if its seat comes back."""
        seat = self.seat_of(node)
        if seat is None:
            self.watchers.add(node)
            return None, []
        chair = self.chairs[seat]
        chair.connected = True
        chair.away_since = None
        chair.back_since = now
        if not chair.substituted:
            return seat, []
        chair.substituted = False
        return seat, [Note(f"seat {seat} ({chair.info.name if chair.info else '?'}) is back: "
                           "it plays again from the next deal")]

    def left(self, node: str, now: float) -> int | None:
        """A node's connection ended: its seat (None: a watcher's)."""
        self.watchers.discard(node)
        seat = self.seat_of(node)
        if seat is not None:
            chair = self.chairs[seat]
            chair.connected = False
            chair.away_since = now
        return seat

    def all_back(self) -> bool:
        """Whether every other node's seat is connected again or played by a bot."""
        return all(c.connected or c.substituted for c in self.chairs
                   if c.info is not None and not c.info.local and c.info.node != self.me)

    def full(self) -> Note:
        seats = ", ".join(f"{s.seat}: {s.name}" for s in self.roster())
        return Note(f"table {self.info.name!r} is full: {seats}; roster {self.fingerprint()}")

    def away_too_long(self, timing: Timing, now: float) -> list[Effect]:
        """Seats away longer than the seat timeout (a local one at once): a bot plays them from
        the next deal."""
        out: list[Effect] = []
        for seat, chair in enumerate(self.chairs):
            if (chair.info is not None and not chair.connected and not chair.substituted
                    and chair.away_since is not None
                    and (chair.info.local or now - chair.away_since >= timing.seat_timeout)):
                chair.substituted = True
                out.append(Note(f"seat {seat} ({chair.info.name}) is away: a bot of this node plays it "
                                "from the next deal until it returns"))
        return out

    def out_of_reach(self, reachable: Callable[[], frozenset[str]] | None) -> list[Effect]:
        """Seats whose node is not connected and that the host agreement has not heard from for
        an election timeout (``reachable``; None: no agreement) are away now: a bot plays them
        from this deal (their node is down or cut off; it gets its seat back from the deal after
        it returns)."""
        out: list[Effect] = []
        if reachable is None:
            return out
        reach = reachable()
        for seat, chair in enumerate(self.chairs):
            info = chair.info
            if (info is not None and not info.local and not chair.connected and not chair.substituted
                    and info.node != self.me and info.node not in reach):
                chair.substituted = True
                out.append(Note(f"seat {seat} ({info.name}) is out of reach: a bot of this node plays it "
                                "until it returns"))
        return out

    def bots(self) -> tuple[int, ...]:
        """The seats a bot of the host's node plays in the next deal."""
        return tuple(s for s, c in enumerate(self.chairs)
                     if c.substituted or (c.info is not None and c.info.local and not c.connected))

    def bot(self, seat: int) -> Policy:
        """The bot that plays ``seat`` for its absent player (the same one deal after deal)."""
        chair = self.chairs[seat]
        if chair.bot is None:
            if self.bot_for is None:
                raise RuntimeError("no bot to play an absent seat")
            chair.bot = self.bot_for(seat)
        return chair.bot
