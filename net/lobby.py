"""Opening, finding, joining and forming tables.

How waiting nodes form a table (``tarock bot`` with no table named and none
with a free seat in view; docs/protocol.md, "Forming a table"): every
waiting node announces itself (kind ``waiting``, with its variant, rules
hash and rounds).  A node that sees at least ``seats - 1`` other waiting
nodes with the same variant, rules hash and rounds, and whose node id is the
smallest of them, waits until that view has not changed for ``SETTLE``
seconds, then opens a table, takes seat 0 and invites the others with the
smallest node ids over TCP; each accepts the first invitation it gets and
joins.  A leader that does not invite within ``PATIENCE`` seconds is passed
over (:mod:`net.formation`).  Seats left free (an invitee that had joined
elsewhere) stay announced, and waiting nodes prefer a table with a free seat
to forming one.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import trio

from tarock.core.players import Player, Policy
from tarock.net.advert import Advert, Kind, Seen
from tarock.net.discovery import Discovery
from tarock.net.effects import Leave
from tarock.net.formation import PATIENCE, SETTLE, Form, Formation
from tarock.net.game import Game
from tarock.net.host import HostCore
from tarock.net.identity import Identity
from tarock.net.node import LOCAL, Listener, Node, SeatDriver, Waiting, local_identity
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN
from tarock.net.protocol.messages import Info, TableInfo, check_name
from tarock.net.seat import SeatCore
from tarock.net.store import Store
from tarock.net.transport import PeerAddress

log = logging.getLogger("tarock.net")

NOTICE = 3.0
"""Seconds a node waiting for a named table waits before it says that the table is not there."""

Publish = Callable[[Advert], Awaitable[None]]
BotFor = Callable[[int], Policy]


@dataclass(frozen=True)
class Seated:
    """A player at a table: how it plays and what it shows."""

    player: Player
    listener: Listener
    shows_all: bool = False
    """The listener shows every change of the hand (a person's screen); False: only what the
    player decides on is worked out (a bot)."""


PLAYERS = "players"
"""The advert's extra TXT key naming who sits at a table (``Hilde, Sepp``), for a lobby's list."""
PRIVATE = "private"
"""The advert's extra TXT key of a private table (``1``): a lobby asks for its PIN before joining."""


def table_advert(node: Node, info: TableInfo, free: int, players: Sequence[str] = ()) -> Advert:
    extra = {PLAYERS: ", ".join(players)[:200]} if players else {}
    if info.private:
        extra[PRIVATE] = "1"
    return Advert(node.me, "table", info.name, info.id, info.variant, info.rules, free,
                  (PROTOCOL_MIN, PROTOCOL_MAX), node.boot, node.port, info.rounds, extra)


def waiting_advert(node: Node, game: Game) -> Advert:
    return Advert(node.me, "waiting", node.name, "", game.variant, game.hash, 0,
                  (PROTOCOL_MIN, PROTOCOL_MAX), node.boot, node.port, game.rounds)


def advert_of_info(info: Info, port: int) -> Advert:
    """An advert from a node's info answer (manual discovery)."""
    kind: Kind = "table" if info.kind == "table" and info.table else "waiting"
    return Advert(info.node, kind, (info.table_name if kind == "table" else info.name) or "?",
                  info.table if kind == "table" else "", info.variant or "unknown",
                  info.rules or "0", info.free, (info.proto_min, info.proto_max),
                  "".join(c for c in info.boot if c.isalnum())[:32] or "0", port,
                  max(1, min(info.rounds, 10_000)),
                  {PRIVATE: "1"} if kind == "table" and info.private else {})


def is_private(advert: Advert) -> bool:
    """Whether ``advert`` announces a private table (joined and watched only with its PIN)."""
    return advert.extra.get(PRIVATE) == "1"


def new_table(game: Game, name: str, private: bool = False) -> TableInfo:
    """A new table of ``game`` (``private``: joined only with its PIN), dealt by the game's scheme."""
    return TableInfo(secrets.token_hex(16), check_name(name, "table name"), game.variant, game.options,
                     game.hash, game.rounds, game.seats, game.scheme.name, private)


async def host_table(node: Node, game: Game, info: TableInfo, own: Seated, bots: Sequence[Seated],
                     bot_for: BotFor, publish: Publish | None = None,
                     invite: Sequence[Seen] = ()) -> Leave:
    """Open ``info`` on ``node``: seat its own player (the seats know the host's key from its
    seat) and bots, announce the table while seats are free, invite ``invite``, play until the
    table ends."""
    assert node.nursery is not None
    core = HostCore(game, info, node.me, node.host_store(), now=trio.current_time(), timing=node.timing,
                    bot_for=bot_for, identity=node.identity)
    driver = node.start_hosting(core)
    seats: list[SeatDriver] = []
    core.seat_local(node.me, node.name, local=False, addresses=node.addresses, port=node.port,
                    key=node.identity.key)
    seats.append(_seat(node, info, own, node.identity, node.name, node.store, node.records_dir, bot_for))
    for k, bot in enumerate(bots):
        bot_identity = local_identity(node.identity, k)
        name = getattr(bot.player, "name", f"bot{k + 1}")
        core.seat_local(bot_identity.node, name, local=True, key=bot_identity.key)
        seats.append(_seat(node, info, bot, bot_identity, name, Store(Path(":memory:")), None, bot_for))
    node.seats.extend(seats)
    result: list[Leave] = []

    async def play(seat: SeatDriver) -> None:
        result.append(await seat.run(LOCAL))

    async def announce() -> None:
        assert publish is not None
        free = -1
        while not driver.finished.is_set():
            if core.free != free:
                free = core.free
                try:
                    await publish(table_advert(node, info, free, [s.name for s in core.roster()]))
                except Exception as exc:  # announcing is a convenience: --to still works
                    log.warning("could not announce the table: %s", exc)
            with trio.move_on_after(1.0):
                await driver.changed.wait()

    async with trio.open_nursery() as nursery:
        if publish is not None:
            nursery.start_soon(announce)
        for seen in invite:
            nursery.start_soon(_invite, node, seen, info)
        async with trio.open_nursery() as players:
            for seat in seats:
                players.start_soon(play, seat)
        with trio.move_on_after(node.timing.check + 5):
            await driver.finished.wait()
        await driver.close_all("done", "the table is over")
        nursery.cancel_scope.cancel()
    return result[0] if result else Leave("done", "the table is over")


async def _invite(node: Node, seen: Seen, info: TableInfo) -> None:
    for address in seen.endpoints:
        if await node.invite(address, info):
            log.info("%s accepted the invitation", seen.advert.name)
            return
    log.info("%s did not accept the invitation", seen.advert.name)


def _seat(node: Node, info: TableInfo, who: Seated, identity: Identity, name: str, store: Store,
          records: Path | None, bot_for: BotFor) -> SeatDriver:
    core = SeatCore(identity.node, name, node.catalogue, store, records_dir=records, identity=identity)
    core.expect_table = info.id
    core.expect_rules = info.rules
    return SeatDriver(node, core, who.player, who.listener, shows_all=who.shows_all, bot_for=bot_for,
                      me=identity.node, name=name)


async def join_table(node: Node, address: PeerAddress, table: str, rules: str, who: Seated,
                     bot_for: BotFor, watch: bool = False) -> SeatDriver:
    """A seat (or a watcher) for the table ``table`` at ``address``; run it with ``.run(address)``."""
    core = SeatCore(node.me, node.name, node.catalogue, node.store, watch=watch,
                    records_dir=None if watch else node.records_dir)
    core.expect_table = table
    core.expect_rules = rules
    driver = SeatDriver(node, core, None if watch else who.player, who.listener, shows_all=who.shows_all,
                        bot_for=bot_for)
    node.seats.append(driver)
    return driver


def resume_seat(node: Node, who: Seated, bot_for: BotFor) -> SeatDriver | None:
    """The seat this node held when it stopped (its store says), if its table is not over."""
    core = SeatCore(node.me, node.name, node.catalogue, node.store, records_dir=node.records_dir)
    if not core.restore() or core.over or core.info is None:
        return None
    driver = SeatDriver(node, core, who.player, who.listener, shows_all=who.shows_all, bot_for=bot_for)
    node.seats.append(driver)
    return driver


def compatible(seen: Seen, game: Game) -> bool:
    a = seen.advert
    return (a.variant == game.variant and a.rules_hash == game.hash and a.rounds == game.rounds
            and a.protocol[0] <= PROTOCOL_MAX and a.protocol[1] >= PROTOCOL_MIN)


class NoTable(Exception):
    """No table to join appeared (and none could be formed) in time."""


class OtherVariant(Exception):
    """The table asked for by name plays another variant than the one asked for."""

    def __init__(self, table: str, theirs: str, ours: str) -> None:
        super().__init__(f"table {table!r} plays {theirs}, not {ours}")
        self.table, self.theirs, self.ours = table, theirs, ours


@dataclass(frozen=True)
class Found:
    """What a waiting node found: a table to join, or the nodes to open one with."""

    join: Seen | None = None
    invitation: PeerAddress | None = None
    table: str = ""
    rules: str = ""
    form: tuple[Seen, ...] = ()


@dataclass(frozen=True)
class Notice:
    """Something a waiting node tells its user once: ``absent``, the named table is not on the
    network; ``full``, table ``name`` (``variant``) has no free seat."""

    kind: Literal["absent", "full"]
    name: str
    variant: str = ""


def _why_none(table_name: str | None, full: dict[str, str]) -> str:
    if full:
        names = ", ".join(repr(n) for n in sorted(set(full.values())))
        return f" (table {names} was full)" if len(full) == 1 else f" (tables {names} were full)"
    return f" (no table named {table_name!r} seen)" if table_name is not None else ""


async def find_or_form(node: Node, view: Discovery, game: Game, *, table_name: str | None = None,
                       timeout: float = 600.0, skip: set[str] | None = None,
                       notice: Callable[[Notice], None] | None = None,
                       patience: float = PATIENCE, variant: str | None = None) -> Found:
    """Wait for a table to join (``table_name``: only that one) or, with no name,
    form one with other waiting nodes (the module docstring); ``notice`` hears what the
    user should know while it waits (each :class:`Notice` once).  With ``variant`` (one the
    user asked for), a table named ``table_name`` that plays another raises :class:`OtherVariant`."""
    waiting = Waiting(game)
    node.waiting = waiting
    skip = skip if skip is not None else set()
    told: set[Notice] = set()

    def tell(what: Notice) -> None:
        if what not in told:
            told.add(what)
            if notice is not None:
                notice(what)

    if table_name is None:
        await view.publish(waiting_advert(node, game))
    started = trio.current_time()
    deadline = started + timeout
    formation = Formation(node.me, game.seats, settle=SETTLE, patience=patience)
    full: dict[str, str] = {}  # table id -> name, of the tables seen full that this node could play
    try:
        while trio.current_time() < deadline:
            if waiting.invitation is not None:
                inv = waiting.invitation
                return Found(invitation=inv.address, table=inv.hello.table, rules=inv.hello.rules)
            current = list(view.current())
            named = False
            for seen in current:
                a = seen.advert
                if a.kind != "table" or (table_name is not None and a.name != table_name):
                    continue
                named = True
                if table_name is not None and variant is not None and a.variant != variant:
                    raise OtherVariant(a.name, a.variant, variant)
                if table_name is None and not compatible(seen, game):
                    continue
                if a.free_seats == 0:
                    full[a.table_id] = a.name
                    tell(Notice("full", a.name, a.variant))
                elif a.table_id not in skip:
                    return Found(join=seen, table=a.table_id, rules=a.rules_hash)
            if table_name is not None and not named and trio.current_time() - started >= NOTICE:
                tell(Notice("absent", table_name))
            if table_name is None:
                # Only nodes that answered count: a flood of adverts nobody answers for leads nothing.
                others = [(s.advert.node_id, s.advert.boot) for s in current if s.advert.kind == "waiting"
                          and compatible(s, game) and view.answered(s.advert.node_id)]
                decision = formation.step(trio.current_time(), others)
                if isinstance(decision, Form):
                    by_id = {s.advert.node_id: s for s in current if s.advert.kind == "waiting"}
                    return Found(form=tuple(by_id[n] for n in decision.invite))
                if decision.passed_over is not None:
                    log.info("%s: passed over waiting node %s: it did not invite within %g s",
                             node.name, decision.passed_over[:16], patience)
            with trio.move_on_after(0.1):
                await waiting.event.wait()
            await view.wait_changed(timeout=0.05)
        raise NoTable(f"no table found or formed within {timeout:g} s{_why_none(table_name, full)}")
    finally:
        node.waiting = None
