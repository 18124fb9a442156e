"""The network commands: ``tarock host | join | tables | watch | bot``.

Their arguments are in :mod:`client.netargs`; :mod:`client.cli` imports this module
only when one of them runs (:func:`main`).  A human at
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

from tarock.client import argtypes, command
from tarock.client.bots import make_bot
from tarock.client.command import UsageError, err, out
from tarock.client.errors import error_text, store_text
from tarock.client.human import HumanPlayer
from tarock.client.i18n import NP_, _, n_, p_
from tarock.client.netargs import DEFAULT, SEATS
from tarock.client.netview import BotView, HumanView, Roster, quiet
from tarock.client.players import BotSeat, Policy
from tarock.client.render import sheet_lines
from tarock.client.settings import player_name
from tarock.core.plugins import Catalogue, load_plugins
from tarock.core.rules import RuleError
from tarock.net.advert import Seen
from tarock.net.dealing import COMMIT_REVEAL, DEFAULT_DEALING
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
    is_private,
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


def _timing(args: argparse.Namespace) -> Timing:
    beat = max(0.05, float(args.heartbeat))
    step = max(0.5, float(getattr(args, "step_timeout", DEFAULT.step)))
    return Timing(heartbeat=beat, dead_after=4 * beat, seat_timeout=max(0.0, float(args.seat_timeout)),
                  step=step)


def _logging(args: argparse.Namespace) -> None:
    # without -v a player's command logs only failures: a refusal or a peer that does not answer is the
    # command's one error line, not a log line before it (a headless bot's log keeps its warnings)
    quiet = logging.WARNING if args.command == "bot" else logging.ERROR
    level = quiet if not args.verbose else logging.INFO if args.verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(message)s", stream=sys.stderr)


def _game(args: argparse.Namespace, catalogue: Catalogue) -> Game:
    name = args.variant or (catalogue.enabled[0] if catalogue.enabled else None)
    if name is None:
        raise UsageError(_("plugins.toml enables no variant"))
    dealing = getattr(args, "dealing", DEFAULT_DEALING)
    return Game.make(catalogue, name, command.options(args), SEATS, args.rounds, dealing)


def _node(args: argparse.Namespace, catalogue: Catalogue, name: str, records: Path | None) -> Node:
    """The node, with its store opened and checked: a state folder or records folder that
    cannot be written, or a damaged store, is a usage error (one line, status 2)."""
    state = Path(args.state) if args.state else default_state_dir()
    try:
        transport = TcpTransport(args.bind, args.port)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    pin = getattr(args, "pin", None)
    try:
        if records is not None:
            check_folder(records, "records folder")
        node = Node(name, catalogue, transport, state, timing=_timing(args), records_dir=records, pin=pin)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    for line in [*node.store.warnings, node.lost]:  # the store's checks at the open, one line each
        if line:
            err(f"{command.prog(args)}: {store_text(line)}")
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
        raise UsageError(_("discovery failed: {reason} (use --to HOST:PORT where multicast is blocked)")
                            .format(reason=exc)) from exc


def _address(text: str) -> PeerAddress:
    try:
        return PeerAddress.parse(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


async def _serve(node: Node, nursery: trio.Nursery) -> PeerAddress:
    node.nursery = nursery
    try:
        bound: PeerAddress = await nursery.start(node.serve)
    except OSError as exc:
        raise UsageError(_("cannot listen on {address}: {reason}").format(
            address=node.transport, reason=exc)) from None
    return bound


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _run(main: Callable[[], Any], args: argparse.Namespace) -> int:
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
            err(_("interrupted"))
            return 130
        failures = [str(e) for e in leaves if isinstance(e, StoreError)]
        if failures and len(failures) == len(leaves):
            for line in dict.fromkeys(failures):
                failure = _("{failure}; leaving the table").format(failure=store_text(line))
                err(f"{command.prog(args)}: {failure}")
            return 1
        known = [e for e in leaves if isinstance(e, UsageError | RuleError)]
        if not known or len(known) != len(leaves):
            raise
        for e in known:
            err(f"{command.prog(args)}: {error_text(e)}")
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

    human = HumanPlayer(name, names=names, sheet=sheet, write=out, terms=lambda: roster.terms)
    view = HumanView(out, roster)
    return human, view


def _ended(leave: Leave) -> int:
    if leave.code == "done":
        return 0
    out(_("Left the table: {reason}").format(reason=leave_text(leave)))
    return 2 if leave.code in ("rules", "variant", "table", "full", "version", "role") else 1


# -- tarock host -----------------------------------------------------------------------------
def cmd_host(args: argparse.Namespace) -> int:
    _logging(args)
    catalogue = load_plugins(args.plugins)
    game = _game(args, catalogue)
    name = player_name(args.player, _("Host"))
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
                out(n_("Table {name} is open ({variant}, {rounds} round) at {where};",
                        "Table {name} is open ({variant}, {rounds} rounds) at {where};", game.rounds).format(
                            name=repr(info.name), variant=game.variant, rounds=game.rounds, where=where)
                     + " " + n_("{n} seat free.", "{n} seats free.", free).format(n=free) + " "
                     + _("Others join with: {command}").format(command=f"tarock join {info.name!r}"))
                leave = await host_table(node, game, info, Seated(human, view, shows_all=True), bots,
                                         _bot_for(seed), publish=disc.publish)
            await node.wind_down()
            nursery.cancel_scope.cancel()
        return _ended(leave)
    return _run(main, args)


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
            raise UsageError(str(exc)) from None
        if info.kind != "table":
            raise UsageError(_("{address} ({name}) has no table").format(address=address, name=info.name))
        return address, info
    found = await _tables(disc, args.wait, wanted)
    if wanted is not None:
        found = [s for s in found if s.advert.name == wanted]
        if not found:
            raise UsageError(_("no table named {name} found within {wait} s").format(
                name=repr(wanted), wait=f"{args.wait:g}"))
    if not found:
        raise UsageError(_("no table found within {wait} s (tarock host opens one)").format(
            wait=f"{args.wait:g}"))
    chosen = found[0]
    if len(found) > 1 and interactive:
        for i, s in enumerate(found, start=1):
            out(f"  {i}. {_table_line(s)}")
        while True:
            prompt = _("Table [1-{n}]> ").format(n=len(found))
            line = (await trio.to_thread.run_sync(input, prompt)).strip()
            if line.isdigit() and 1 <= int(line) <= len(found):
                chosen = found[int(line) - 1]
                break
            out(_("Sorry: {message}").format(message=_("type a number 1..{n}").format(n=len(found))))
    for address in chosen.endpoints:
        try:
            return address, await node.ask_info(address)
        except ConnectError as exc:
            log.info("%s", exc)
    raise UsageError(_("table {name} does not answer").format(name=repr(chosen.advert.name)))


def _table_line(s: Seen) -> str:
    a = s.advert
    where = ", ".join(str(e) for e in s.endpoints)
    rounds = n_("{n} round", "{n} rounds", a.rounds).format(n=a.rounds)
    free = n_("{n} seat free", "{n} seats free", a.free_seats).format(n=a.free_seats)
    if is_private(a):
        free = _("private (PIN)") + ", " + free
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
        raise UsageError(_("cannot join table {name}: it plays {variant}, which this installation cannot "
                              "({reason})").format(name=repr(info.table_name), variant=repr(info.variant),
                                                   reason=exc)) from None
    if game.hash != info.rules:
        raise UsageError(_("cannot join table {name}: it plays {variant} with rules {theirs}, here the "
                              "same variant and options give {ours} (different plugins or plugin versions)")
                            .format(name=repr(info.table_name), variant=info.variant, theirs=info.rules[:12],
                                    ours=game.hash[:12]))


# -- tarock join / watch ----------------------------------------------------------------------
def cmd_join(args: argparse.Namespace, watch: bool = False) -> int:
    _logging(args)
    catalogue = load_plugins(args.plugins)
    name = player_name(getattr(args, "player", None), _("Watcher") if watch else _("Player"))
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
                out(doing.format(name=repr(info.table_name), address=address))
                driver = await join_table(node, address, info.table, info.rules, Seated(human, view, True),
                                          _bot_for(0), watch=watch)
                leave = await driver.run(address)
            await node.wind_down()
            nursery.cancel_scope.cancel()
        return _ended(leave)
    return _run(main, args)


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
            out(json.dumps([{"name": s.advert.name, "table": s.advert.table_id, "variant": s.advert.variant,
                              "rules": s.advert.rules_hash, "rounds": s.advert.rounds,
                              "free": s.advert.free_seats, "node": s.advert.node_id,
                              "addresses": [str(e) for e in s.endpoints], "kind": s.advert.kind}
                             for s in seen], ensure_ascii=False))
            return 0
        if not tables:
            out(_("No table found within {wait} s.").format(wait=f"{args.wait:g}"))
        for s in tables:
            out(_table_line(s))
        waiting = [s for s in seen if s.advert.kind == "waiting"]
        if waiting:
            out(_("Waiting for a table: {names}").format(names=", ".join(s.advert.name for s in waiting)))
        return 0
    return _run(main, args)


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
        view = BotView(out, args.name, args.json)
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
                        raise UsageError(_other_variant(exc)) from None
                    except NoTable as exc:
                        err(f"tarock bot: {exc}")  # the network's sentence
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
                        except (UsageError, ConnectError) as exc:
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
            await node.wind_down()
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
    return _run(main, args)


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


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "host": cmd_host, "join": cmd_join, "tables": cmd_tables, "watch": cmd_watch, "bot": cmd_bot}


def main(args: argparse.Namespace) -> int:
    """Run the network command ``args.command`` as :mod:`client.netargs` parsed it."""
    return command.guarded(COMMANDS[args.command], args)
