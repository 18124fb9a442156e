"""The network commands: ``tarock host | join | tables | watch | bot`` and ``bench --net``.

They are registered into :mod:`client.cli` by :func:`register`.  A human at
``host``/``join`` plays through the terminal of ``tarock play``; bots print a
line per hand (``--json``: one JSON object per event).  Exit status: 0 when
the table was played to its end (or the command did what it says), 1 when a
table was left before its end, 2 for a usage error or a refusal (other rules,
no such table).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import random
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import trio

from tarock.client import argtypes
from tarock.client.bots import BOT_KINDS, make_bot
from tarock.client.human import HumanPlayer
from tarock.client.i18n import NP_, _, n_, p_
from tarock.client.netview import BotView, HumanView, Roster, quiet
from tarock.client.players import BotSeat, Policy
from tarock.client.render import sheet_lines
from tarock.core.plugins import Catalogue, load_plugins
from tarock.core.rules import RuleError
from tarock.net.advert import Seen
from tarock.net.dealing import COMMIT_REVEAL, DEFAULT_DEALING, SCHEMES
from tarock.net.discovery import Discovery, DiscoveryError, open_zeroconf_discovery
from tarock.net.effects import Leave
from tarock.net.game import Game
from tarock.net.lobby import (
    NoTable,
    Notice,
    OtherVariant,
    Seated,
    advert_of_info,
    find_or_form,
    host_table,
    join_table,
    new_table,
    resume_seat,
)
from tarock.net.manual_discovery import open_manual_discovery
from tarock.net.node import Node, default_state_dir, percentile
from tarock.net.protocol.limits import Timing
from tarock.net.protocol.messages import Info
from tarock.net.store import StoreError, check_folder
from tarock.net.transport import ConnectError, PeerAddress, TcpTransport

log = logging.getLogger("tarock.net")
SEATS = 4
DEFAULT = Timing()


class NetUsageError(Exception):
    """A command line or a table that cannot be used; exit status 2."""


LEAVE_REASONS = {
    "variant": NP_("leave", "the table plays a variant this installation does not have"),
    "rules": NP_("leave", "the table plays other rules (other plugins or plugin versions)"),
    "leaving": NP_("leave", "the player left"),
    "lost": NP_("leave", "no host was found"),
    "unreachable": NP_("leave", "the table could not be reached"),
    "no-table": NP_("leave", "no table was found"),
    "full": NP_("leave", "the table has no free seat"),
    "version": NP_("leave", "the table's node speaks another version of the protocol"),
    "role": NP_("leave", "the table's node does not take this kind of connection"),
    "table": NP_("leave", "the node hosts another table now"),
    "busy": NP_("leave", "the node is not waiting for a table with these rules"),
    "not-host": NP_("leave", "the node does not host a table now"),
}
"""Why a seat left a table, by the code of :class:`net.effects.Leave` (its reason,
the network's own sentence, is shown after it)."""


def _out(line: str = "") -> None:
    print(line, flush=True)


def _err(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


# -- shared options -------------------------------------------------------------------------
def _net_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plugins", metavar="TOML", help="the plugins.toml to read")
    p.add_argument("--state", metavar="DIR", help="where the node keeps its crash-safe store "
                   "(default: $TAROCK_STATE or the user's state folder)")
    p.add_argument("--port", type=argtypes.port, default=0,
                   help="TCP port to listen on, 0..65535 (default: 0, any free one)")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: all)")
    p.add_argument("--interface", action="append", metavar="NAME|IP",
                   help="network interface for discovery (default: every multicast-capable one)")
    p.add_argument("--seat-timeout", type=argtypes.seconds(0), default=DEFAULT.seat_timeout, metavar="S",
                   help="seconds a seat may be away before a bot plays it "
                        f"(default: {DEFAULT.seat_timeout:g})")
    p.add_argument("--step-timeout", type=argtypes.seconds(0.5, 3600), default=DEFAULT.step, metavar="S",
                   help="seconds a connected seat may take for a step of the deal or of a reveal "
                        "(no person decides there) before it is named for stalling "
                        f"(default: {DEFAULT.step:g})")
    p.add_argument("--heartbeat", type=argtypes.seconds(0.05, 60), default=DEFAULT.heartbeat, metavar="S",
                   help=f"seconds between heartbeats; a peer silent for 4 of them is gone "
                        f"(default: {DEFAULT.heartbeat:g})")
    p.add_argument("--pin", type=argtypes.pin, metavar="PIN",
                   help="the PIN of a private table: a host opens its table with it, "
                   "a player needs it to join or watch (nobody without it learns anything of the game)")
    p.add_argument("-v", "--verbose", action="count", default=0, help="log what the node does (-vv: more)")


def _table_args(p: argparse.ArgumentParser, rounds_default: int = 12) -> None:
    p.add_argument("--variant", help="the ruleset (default: the first variant plugins.toml offers)")
    p.add_argument("--rounds", type=argtypes.rounds, default=rounds_default,
                   help=f"rounds, 1..{argtypes.MAX_ROUNDS} (default: {rounds_default})")
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help="a variant option (JSON value)")
    p.add_argument("--dealing", default=DEFAULT_DEALING, choices=SCHEMES,
                   help=f"how a new table deals (default: {DEFAULT_DEALING}: no node, the host included, "
                        f"sees another's cards; {COMMIT_REVEAL}: cheaper, the host sees every hand)")


def _timing(args: argparse.Namespace) -> Timing:
    beat = max(0.05, float(args.heartbeat))
    step = max(0.5, float(getattr(args, "step_timeout", DEFAULT.step)))
    return Timing(heartbeat=beat, dead_after=4 * beat, seat_timeout=max(0.0, float(args.seat_timeout)),
                  step=step)


def _logging(args: argparse.Namespace) -> None:
    level = logging.WARNING if not args.verbose else logging.INFO if args.verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(message)s", stream=sys.stderr)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise NetUsageError(_("--option wants KEY=VALUE, not {item}").format(item=repr(item)))
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def _game(args: argparse.Namespace, catalogue: Catalogue) -> Game:
    name = args.variant or (catalogue.enabled[0] if catalogue.enabled else None)
    if name is None:
        raise NetUsageError(_("plugins.toml enables no variant"))
    dealing = getattr(args, "dealing", DEFAULT_DEALING)
    return Game.make(catalogue, name, _options(args), SEATS, args.rounds, dealing)


def _node(args: argparse.Namespace, catalogue: Catalogue, name: str, records: Path | None) -> Node:
    """The node, with its store opened and checked: a state folder or records folder that
    cannot be written, or a damaged store, is a usage error (one line, status 2)."""
    state = Path(args.state) if args.state else default_state_dir()
    try:
        transport = TcpTransport(args.bind, args.port)
    except ValueError as exc:
        raise NetUsageError(str(exc)) from None
    pin = getattr(args, "pin", None)
    try:
        if records is not None:
            check_folder(records, "records folder")
        node = Node(name, catalogue, transport, state, timing=_timing(args), records_dir=records, pin=pin)
    except StoreError as exc:
        raise NetUsageError(str(exc)) from None
    for line in [*node.store.warnings, node.lost]:  # the store's checks at the open, one line each
        if line:
            _err(f"tarock: {line}")
    return node


def _own_table(player: str) -> str:
    """The default name of ``player``'s table, cut to the longest a table's name may be."""
    return _("{name}'s table").format(name=player)[:argtypes.MAX_NAME].strip()


def _bot_for(seed: int) -> Callable[[int], Policy]:
    def make(seat: int) -> Policy:
        return make_bot("heuristic", seed * 10 + seat, f"bot for seat {seat}")
    return make


@contextlib.asynccontextmanager
async def _discovery(args: argparse.Namespace, node: Node) -> AsyncIterator[Discovery]:
    """mDNS, or polling the ``--to`` address where a network blocks multicast."""
    async def ask(address: PeerAddress) -> Any:
        info = await node.ask_info(address)
        return advert_of_info(info, address.port)

    to = getattr(args, "to", None)
    if to:
        async with open_manual_discovery([_address(to)], ask, interval=1.0) as manual:
            yield manual
        return
    try:
        # ``check``: every peer is asked once; those that answer stay in view under a flood.
        async with open_zeroconf_discovery(interfaces=args.interface, check=ask) as disc:
            node.addresses = tuple(disc.network.advertise)
            node.lookup = lambda node_id: [a for seen in disc.current() if seen.advert.node_id == node_id
                                           for a in seen.endpoints]
            yield disc
    except DiscoveryError as exc:
        raise NetUsageError(_("discovery failed: {reason} (use --to HOST:PORT where multicast is blocked)")
                            .format(reason=exc)) from exc


def _address(text: str) -> PeerAddress:
    try:
        return PeerAddress.parse(text)
    except ValueError as exc:
        raise NetUsageError(str(exc)) from None


async def _serve(node: Node, nursery: trio.Nursery) -> PeerAddress:
    node.nursery = nursery
    try:
        bound: PeerAddress = await nursery.start(node.serve)
    except OSError as exc:
        raise NetUsageError(_("cannot listen on {address}: {reason}").format(
            address=node.transport, reason=exc)) from None
    return bound


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _run(main: Callable[[], Any]) -> int:
    """Run ``main`` under trio; a usage error or refusal is a message and status 2.

    A store or records folder that cannot be written while the node plays (a
    :class:`StoreError`: a full disk, a folder made read-only) is one line and status 1:
    the node has said ``bye`` on every connection on its way out
    (:class:`net.link.Link`), so the others know at once and play its seat with a bot; its
    store holds everything written before the failure (a failed write is rolled back)."""
    try:
        status: int = trio.run(main)
    except BaseException as exc:
        leaves = _leaves(exc)
        if any(isinstance(e, KeyboardInterrupt) for e in leaves):
            _err(_("interrupted"))
            return 130
        failures = [str(e) for e in leaves if isinstance(e, StoreError)]
        if failures and len(failures) == len(leaves):
            for line in dict.fromkeys(failures):
                _err("tarock: " + _("{failure}; leaving the table").format(failure=line))
            return 1
        known = [e for e in leaves if isinstance(e, NetUsageError | RuleError)]
        if not known or len(known) != len(leaves):
            raise
        for e in known:
            _err(f"tarock: {e}")
        return 2
    return status


def _human(name: str, roster: Roster) -> tuple[HumanPlayer, HumanView]:
    def names() -> list[str]:
        return roster.names

    def sheet() -> list[str]:
        table = roster.table
        if table is None:
            return [_("(no rounds played yet)")]
        return sheet_lines(table, roster.names, roster.terms)

    human = HumanPlayer(name, names=names, sheet=sheet, write=_out, terms=lambda: roster.terms)
    view = HumanView(_out, roster)
    return human, view


def _ended(leave: Leave) -> int:
    if leave.code == "done":
        return 0
    _out(_("Left the table: {reason}").format(reason=leave_text(leave)))
    return 2 if leave.code in ("rules", "variant", "table", "full", "version", "role") else 1


# -- tarock host -----------------------------------------------------------------------------
def cmd_host(args: argparse.Namespace) -> int:
    _logging(args)
    catalogue = load_plugins(args.plugins)
    game = _game(args, catalogue)
    name = args.player or _("Host")
    records = Path(args.records) if args.records else None

    async def main() -> int:
        node = _node(args, catalogue, name, records)
        async with trio.open_nursery() as nursery:
            bound = await _serve(node, nursery)
            async with _discovery(args, node) as disc:
                info = new_table(game, args.name or _own_table(name),
                                 private=node.pin is not None)
                roster = Roster()
                human, view = _human(name, roster)
                seed = random.SystemRandom().randrange(1_000_000)
                bots = [Seated(BotSeat(make_bot("heuristic", seed + k, _("Bot {n}").format(n=k + 1))), quiet)
                        for k in range(args.bots)]
                where = ", ".join(f"{a}:{bound.port}" for a in node.addresses) or \
                    _("port {port}").format(port=bound.port)
                free = SEATS - 1 - args.bots
                _out(n_("Table {name} is open ({variant}, {rounds} round) at {where};",
                        "Table {name} is open ({variant}, {rounds} rounds) at {where};", game.rounds).format(
                            name=repr(info.name), variant=game.variant, rounds=game.rounds, where=where)
                     + " " + n_("{n} seat free.", "{n} seats free.", free).format(n=free) + " "
                     + _("Others join with: {command}").format(command=f"tarock join {info.name!r}"))
                leave = await host_table(node, game, info, Seated(human, view, threaded=True), bots,
                                         _bot_for(seed), publish=disc.publish)
            nursery.cancel_scope.cancel()
        return _ended(leave)
    return _run(main)


# -- finding tables --------------------------------------------------------------------------
async def _tables(disc: Discovery, wait: float, name: str | None = None) -> list[Seen]:
    """Table adverts seen within ``wait`` seconds (at once when ``name`` shows up)."""
    deadline = trio.current_time() + wait
    while True:
        found = [s for s in disc.current() if s.advert.kind == "table"]
        if name is not None and any(s.advert.name == name for s in found):
            return found
        left = deadline - trio.current_time()
        if left <= 0:
            return found
        await disc.wait_changed(timeout=min(left, 0.2))


async def _pick(args: argparse.Namespace, node: Node, disc: Discovery, wanted: str | None,
                interactive: bool) -> tuple[PeerAddress, Info]:
    """The table to join or watch: ``--to``'s, the one named, or one the user picks."""
    if getattr(args, "to", None):
        address = _address(args.to)
        try:
            info = await node.ask_info(address)
        except ConnectError as exc:
            raise NetUsageError(str(exc)) from None
        if info.kind != "table":
            raise NetUsageError(_("{address} ({name}) has no table").format(address=address, name=info.name))
        return address, info
    found = await _tables(disc, args.wait, wanted)
    if wanted is not None:
        found = [s for s in found if s.advert.name == wanted]
        if not found:
            raise NetUsageError(_("no table named {name} found within {wait} s").format(
                name=repr(wanted), wait=f"{args.wait:g}"))
    if not found:
        raise NetUsageError(_("no table found within {wait} s (tarock host opens one)").format(
            wait=f"{args.wait:g}"))
    chosen = found[0]
    if len(found) > 1 and interactive:
        for i, s in enumerate(found, start=1):
            _out(f"  {i}. {_table_line(s)}")
        while True:
            prompt = _("Table [1-{n}]> ").format(n=len(found))
            line = (await trio.to_thread.run_sync(input, prompt)).strip()
            if line.isdigit() and 1 <= int(line) <= len(found):
                chosen = found[int(line) - 1]
                break
            _out(_("Sorry: {message}").format(message=_("type a number 1..{n}").format(n=len(found))))
    for address in chosen.endpoints:
        try:
            return address, await node.ask_info(address)
        except ConnectError as exc:
            log.info("%s", exc)
    raise NetUsageError(_("table {name} does not answer").format(name=repr(chosen.advert.name)))


def _table_line(s: Seen) -> str:
    a = s.advert
    where = ", ".join(str(e) for e in s.endpoints)
    rounds = n_("{n} round", "{n} rounds", a.rounds).format(n=a.rounds)
    free = n_("{n} seat free", "{n} seats free", a.free_seats).format(n=a.free_seats)
    return _("{name}: {variant}, {rounds}, {free}, at {where}").format(
        name=repr(a.name), variant=a.variant, rounds=rounds, free=free, where=where)


def leave_text(leave: Leave) -> str:
    """Why a seat left the table, in the player's language (the network's own words after it)."""
    known = LEAVE_REASONS.get(leave.code)
    return f"{p_('leave', known)} ({leave.reason})" if known else leave.reason


def _check_rules(catalogue: Catalogue, info: Info) -> None:
    """A clear refusal when this installation cannot play the table's rules."""
    try:
        game = Game.make(catalogue, info.variant, info.options, SEATS, max(1, info.rounds), COMMIT_REVEAL)
    except RuleError as exc:
        raise NetUsageError(_("cannot join table {name}: it plays {variant}, which this installation cannot "
                              "({reason})").format(name=repr(info.table_name), variant=repr(info.variant),
                                                   reason=exc)) from None
    if game.hash != info.rules:
        raise NetUsageError(_("cannot join table {name}: it plays {variant} with rules {theirs}, here the "
                              "same variant and options give {ours} (different plugins or plugin versions)")
                            .format(name=repr(info.table_name), variant=info.variant, theirs=info.rules[:12],
                                    ours=game.hash[:12]))


# -- tarock join / watch ----------------------------------------------------------------------
def cmd_join(args: argparse.Namespace, watch: bool = False) -> int:
    _logging(args)
    catalogue = load_plugins(args.plugins)
    name = getattr(args, "player", None) or (_("Watcher") if watch else _("Player"))
    records = Path(args.records) if getattr(args, "records", None) else None

    async def main() -> int:
        node = _node(args, catalogue, name, records)
        async with trio.open_nursery() as nursery:
            await _serve(node, nursery)
            async with _discovery(args, node) as disc:
                address, info = await _pick(args, node, disc, args.table, sys.stdin.isatty())
                _check_rules(catalogue, info)
                roster = Roster()
                human, view = _human(name, roster)
                doing = _("Watching table {name} at {address} ...") if watch else \
                    _("Joining table {name} at {address} ...")
                _out(doing.format(name=repr(info.table_name), address=address))
                driver = await join_table(node, address, info.table, info.rules, Seated(human, view, True),
                                          _bot_for(0), watch=watch)
                leave = await driver.run(address)
            nursery.cancel_scope.cancel()
        return _ended(leave)
    return _run(main)


def cmd_watch(args: argparse.Namespace) -> int:
    return cmd_join(args, watch=True)


# -- tarock tables ---------------------------------------------------------------------------
def cmd_tables(args: argparse.Namespace) -> int:
    _logging(args)
    catalogue = load_plugins(args.plugins)

    async def main() -> int:
        node = _node(args, catalogue, "lister", None)
        async with trio.open_nursery() as nursery:
            await _serve(node, nursery)
            async with _discovery(args, node) as disc:
                await _tables(disc, args.wait)
                seen = list(disc.current())
            nursery.cancel_scope.cancel()
        tables = [s for s in seen if s.advert.kind == "table"]
        if args.json:
            _out(json.dumps([{"name": s.advert.name, "table": s.advert.table_id, "variant": s.advert.variant,
                              "rules": s.advert.rules_hash, "rounds": s.advert.rounds,
                              "free": s.advert.free_seats, "node": s.advert.node_id,
                              "addresses": [str(e) for e in s.endpoints], "kind": s.advert.kind}
                             for s in seen], ensure_ascii=False))
            return 0
        if not tables:
            _out(_("No table found within {wait} s.").format(wait=f"{args.wait:g}"))
        for s in tables:
            _out(_table_line(s))
        waiting = [s for s in seen if s.advert.kind == "waiting"]
        if waiting:
            _out(_("Waiting for a table: {names}").format(names=", ".join(s.advert.name for s in waiting)))
        return 0
    return _run(main)


# -- tarock bot ------------------------------------------------------------------------------
def _line_buffered() -> None:
    """Each line of standard output goes out when it is written, also into a file or a pipe
    (where Python buffers blocks): whoever follows a bot's events sees each one at once."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)


def cmd_bot(args: argparse.Namespace) -> int:
    _line_buffered()
    _logging(args)
    catalogue = load_plugins(args.plugins)
    game = _game(args, catalogue)
    records = Path(args.records) if args.records else None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)

    async def main() -> int:
        node = _node(args, catalogue, args.name, records)
        view = BotView(_out, args.name, args.json)
        bot = make_bot(args.strength, seed, args.name)
        me = Seated(BotSeat(bot), view)
        bot_for = _bot_for(seed)
        leave: Leave | None = None
        async with trio.open_nursery() as nursery:
            await _serve(node, nursery)
            async with _discovery(args, node) as disc:
                resumed = resume_seat(node, me, bot_for)
                if resumed is not None:
                    view.roster.names = [s.name for s in resumed.core.roster]
                    table_name = resumed.core.info.name if resumed.core.info else "?"
                    view._emit("resume", _("resumes its seat at table {name}").format(name=repr(table_name)),
                               deal=resumed.core.deal)
                    leave = await resumed.run(None)
                if leave is None and args.host:
                    info = new_table(game, args.table or _own_table(args.name),
                                     private=node.pin is not None)
                    view._emit("open", _("opened table {name} on port {port}").format(
                        name=repr(info.name), port=node.port), table=info.id, port=node.port)
                    leave = await host_table(node, game, info, me, [], bot_for, publish=disc.publish)
                skip: set[str] = set()
                while leave is None:
                    try:
                        found = await find_or_form(node, disc, game, table_name=args.table, timeout=args.wait,
                                                   skip=skip, notice=_waits(view, args),
                                                   variant=game.variant if args.variant else None)
                    except OtherVariant as exc:
                        raise NetUsageError(_other_variant(exc)) from None
                    except NoTable as exc:
                        _err(f"tarock bot: {exc}")  # the network's sentence
                        leave = Leave("no-table", str(exc))
                        break
                    if found.form:
                        info = new_table(game, _own_table(args.name),
                                         private=node.pin is not None)
                        leave = await host_table(node, game, info, me, [], bot_for, publish=disc.publish,
                                                 invite=found.form)
                        break
                    await disc.withdraw()
                    address = found.invitation
                    if address is None and found.join is not None:
                        address = found.join.endpoints[0]
                        try:
                            _check_rules(catalogue, await node.ask_info(address))
                        except (NetUsageError, ConnectError) as exc:
                            log.info("%s", exc)
                            skip.add(found.table)
                            continue
                    assert address is not None
                    driver = await join_table(node, address, found.table, found.rules, me, bot_for)
                    leave = await driver.run(address)
                    if leave.code in ("full", "unreachable") and driver.core.info is None:
                        skip.add(found.table)
                        node.seats.remove(driver)
                        leave = None
            nursery.cancel_scope.cancel()
        seat = node.seats[0] if node.seats else None
        if seat is not None and seat.core.sheet is not None:
            view.roster.names = [s.name for s in sorted(seat.core.roster, key=lambda s: s.seat)]
            rtt = seat.stats.rtt
            view.final(seat.core.sheet.table, {
                "rtt_ms_median": percentile(rtt, 0.5) * 1000, "rtt_ms_p95": percentile(rtt, 0.95) * 1000,
                "actions": seat.stats.actions, "frames": seat.stats.frames, "bytes": seat.stats.bytes,
                "hands": seat.stats.hands, "first_card": seat.stats.first_card})
        return _ended(leave)
    return _run(main)


def _other_variant(exc: OtherVariant) -> str:
    return _("table {name} plays {theirs}, not {ours} (--variant): leave out --variant to play {theirs} "
             "there").format(name=repr(exc.table), theirs=exc.theirs, ours=exc.ours)


def _waits(view: BotView, args: argparse.Namespace) -> Callable[[Notice], None]:
    """What a waiting bot tells its user (once each): the named table is not there, or is full."""
    wait = f"{args.wait:g}"

    def tell(notice: Notice) -> None:
        name = repr(notice.name)
        if notice.kind == "absent":
            text = _("waits for a table named {name}: none on the network yet (tarock bot --host --table "
                     "{name} or tarock host --name {name} opens it); gives up after {wait} s").format(
                         name=name, wait=wait)
        elif args.table:
            text = _("table {name} ({variant}) is full: waits for a seat there to become free, "
                     "at most {wait} s").format(name=name, variant=notice.variant, wait=wait)
        else:
            text = _("table {name} ({variant}) is full: waits for a free seat or for other players to form a "
                     "table with, at most {wait} s").format(name=name, variant=notice.variant, wait=wait)
        view._emit("wait", text, reason=notice.kind, table_name=notice.name)
    return tell


# -- registration ------------------------------------------------------------------------------
def register(sub: Any) -> None:
    """Add the network commands to ``tarock``'s subparsers (and ``--net`` to ``bench``)."""
    host = sub.add_parser("host", help="open a table on the home network (--bots K fills K seats)")
    _table_args(host)
    host.add_argument("--name", type=argtypes.name, help="the table's name (default: <player>'s table)")
    host.add_argument("--bots", type=argtypes.count(0, SEATS - 1), default=0,
                      help=f"seats filled by bots at once, 0..{SEATS - 1} (default: 0)")
    host.add_argument("--player", type=argtypes.name, help="your name at the table (default: Host)")
    host.add_argument("--records", metavar="DIR", help="where this node writes the hand records")
    _net_args(host)
    host.set_defaults(func=_guard(cmd_host))

    join = sub.add_parser("join", help="join a table found on the network (or --to HOST:PORT)")
    join.add_argument("table", nargs="?", type=argtypes.name,
                      help="the table's name (default: list what is found)")
    join.add_argument("--to", type=argtypes.address, metavar="HOST:PORT",
                      help="join the table at this address (no discovery)")
    join.add_argument("--player", type=argtypes.name, help="your name at the table (default: Player)")
    join.add_argument("--records", metavar="DIR", help="where this node writes the hand records")
    join.add_argument("--wait", type=argtypes.seconds(0), default=4.0,
                      help="seconds to look for tables (default: 4)")
    _net_args(join)
    join.set_defaults(func=_guard(cmd_join))

    tables = sub.add_parser("tables", help="list the tables found on the network")
    tables.add_argument("--json", action="store_true", help="one JSON list of every node found")
    tables.add_argument("--wait", type=argtypes.seconds(0), default=3.0, help="seconds to look (default: 3)")
    tables.add_argument("--to", type=argtypes.address, metavar="HOST:PORT",
                        help="ask this address instead of browsing")
    _net_args(tables)
    tables.set_defaults(func=_guard(cmd_tables))

    watch = sub.add_parser("watch", help="follow a table with public information only")
    watch.add_argument("table", nargs="?", type=argtypes.name,
                       help="the table's name (default: the first found)")
    watch.add_argument("--to", type=argtypes.address, metavar="HOST:PORT",
                       help="watch the table at this address")
    watch.add_argument("--wait", type=argtypes.seconds(0), default=4.0,
                       help="seconds to look for tables (default: 4)")
    _net_args(watch)
    watch.set_defaults(func=_guard(cmd_watch))

    bot = sub.add_parser("bot", help="a headless player: joins a table with a free seat or forms one")
    bot.add_argument("--name", type=argtypes.name, required=True,
                     help="the bot's name (also names its store)")
    bot.add_argument("--strength", default="heuristic", choices=BOT_KINDS,
                     help=f"how it plays ({', '.join(BOT_KINDS)})")
    bot.add_argument("--table", type=argtypes.name, help="join only the table of this name")
    bot.add_argument("--records", metavar="DIR", help="where this node writes the hand records")
    bot.add_argument("--seed", type=argtypes.seed, help="seed of the bot's choices (default: random)")
    bot.add_argument("--json", action="store_true", help="print one JSON object per event")
    bot.add_argument("--to", type=argtypes.address, metavar="HOST:PORT",
                     help="look for tables at this address only (no mDNS)")
    bot.add_argument("--wait", type=argtypes.seconds(0), default=600.0,
                     help="seconds to wait for a table (default: 600)")
    bot.add_argument("--host", action="store_true",
                     help="open a table (named --table) and wait for players, instead of forming one")
    _table_args(bot)
    _net_args(bot)
    bot.set_defaults(func=_guard(cmd_bot))

    bench = sub.choices.get("bench")
    if bench is not None:
        from tarock.client import netbench

        netbench.extend(bench)


def _guard(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except NetUsageError as exc:
            _err(f"tarock {args.command}: {exc}")
            return 2
    return run
