"""The full-screen client's entry points: ``tarock`` (the lobby) and ``tarock play``.

Both run on one asyncio loop.  A local table is saved after every action,
so closing the client (``Q``, Ctrl-C, the terminal going away) loses
nothing: ``tarock play`` or the lobby's first row goes on with it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from tarock.client.command import bot_kinds
from tarock.client.errors import error_text
from tarock.client.i18n import _, choose_language, set_language
from tarock.client.paths import default_records_dir
from tarock.client.settings import player_name
from tarock.client.tables import Tables
from tarock.client.ui.app import Outcome, play_local, run_table
from tarock.client.ui.bridge import Portal, trio_guest
from tarock.client.ui.hint import HINT
from tarock.client.ui.kept import (
    first_name,
    keep_network_table,
    kept_page,
    network_standings,
    saved_rows,
    standings_on_exit,
)
from tarock.client.ui.lobby import run_lobby
from tarock.client.ui.lobby_forms import BOT_NAMES
from tarock.client.ui.lobby_model import LobbyChoice, LobbyModel
from tarock.client.ui.local import SavedTable, SaveError, TableSetup, state_dir
from tarock.client.ui.model import TableModel
from tarock.client.ui.network import NetError, NetSettings, Network
from tarock.core.plugins import Catalogue
from tarock.core.rules import RuleError

DEFAULT_PACE = 0.6
"""Seconds a bot waits before its move, so the player can follow (``--pace``)."""


def _tables(args: argparse.Namespace) -> Tables:
    return Tables(Path(args.state) if getattr(args, "state", None) else state_dir())


def _records(args: argparse.Namespace) -> Path | None:
    if getattr(args, "no_records", False):
        return None
    return Path(args.records) if getattr(args, "records", None) else default_records_dir()


def _player(args: argparse.Namespace) -> str:
    return player_name(getattr(args, "name", None), _("You"))


def _pace(args: argparse.Namespace) -> float:
    pace = getattr(args, "pace", None)
    return DEFAULT_PACE if pace is None else max(0.0, float(pace))


def _say_after(outcome: Outcome, save: SavedTable, catalogue: Catalogue) -> None:
    """On the terminal, once the screen is gone: the standings of the table left, and whether it is saved."""
    standings_on_exit(save, catalogue)
    if outcome == "closed" and save.exists():
        print(_("The table is saved: `tarock play` (or the lobby) goes on with it."), flush=True)


def setup_of(choice: LobbyChoice, player: str) -> TableSetup:
    bots = list(choice.bots)
    names = [player, *BOT_NAMES[: len(bots)]]
    return TableSetup(choice.variant, dict(choice.options), names, ["", *bots], choice.rounds)


def _settings(args: argparse.Namespace) -> NetSettings:
    folder = Path(args.state) if getattr(args, "state", None) else state_dir()
    records = _records(args)
    return NetSettings(
        folder,
        port=int(getattr(args, "port", None) or 0),
        interfaces=getattr(args, "interface", None),
        to=getattr(args, "to", None),
        records=records,
    )


@contextlib.asynccontextmanager
async def network(
    args: argparse.Namespace, catalogue: Catalogue, player: str
) -> AsyncIterator[Network | None]:
    """This client's node, in the trio guest, while the lobby and its tables run (None with ``--offline``)."""
    if getattr(args, "offline", False):
        yield None
        return
    async with trio_guest() as portal:
        net = Network(player, catalogue, _settings(args))  # its store keeps the seat, whatever the name
        net.portal = portal
        portal.start_soon(net.run)
        await portal.run(net.ready.wait)
        try:
            yield net
        finally:
            portal.start_soon(_stop, net)


async def _stop(net: Network) -> None:
    net.stop()


Seen = Callable[[object, TableModel], None]
"""Told each table's driver and model as it opens (tests look through it)."""


async def lobby(args: argparse.Namespace, catalogue: Catalogue, seen: Seen | None = None) -> int:
    """The lobby, then the table chosen, then the lobby again, until the player quits or closes."""
    player = await first_name(args)
    async with network(args, catalogue, player) as net:
        return await _lobby(args, catalogue, player, net, seen)


async def _lobby(
    args: argparse.Namespace,
    catalogue: Catalogue,
    player: str,
    net: Network | None,
    seen: Seen | None = None,
    new_game: str = "",
) -> int:
    tables = _tables(args)
    portal = _portal(net)
    message = ""
    refused = ""
    left: Callable[[], None] | None = None  # prints the standings of the table left last
    back = ""  # the row the lobby comes back to after a page of its own
    while True:
        model = LobbyModel(catalogue, player=player, saved_tables=saved_rows(tables, catalogue),
                           kept=bool(tables.finished()), message=message)
        model.row = next((i for i, (tag, _l, _d) in enumerate(model.entries()) if tag == back), 0)
        message = ""
        if new_game:  # "New game" in the table's menu: the form of a new table of that game at once
            model.page, model.form, new_game = "form", model.new_form("bots", new_game), ""
        if net is not None:
            model.network = net.node is not None
            model.net_saved = net.saved_table()
            model.net_saved_private = net.saved_private()
            model.network_note = net.note
            model.tables = net.entries()
            model.select_table(refused)
            net.lobby = model
        try:
            choice = await run_lobby(model)
        finally:
            if net is not None:
                net.lobby = None
        if choice.kind == "quit":
            if left is not None:
                left()
            return 0
        if choice.kind in ("stats", "replay", "name"):
            player = await kept_page(choice.kind, tables, catalogue, player)
            back = choice.kind
            if net is not None:
                net.name = player
                if net.node is not None:
                    net.node.name = player
            continue
        if choice.kind == "resume":
            found = tables.find(choice.name)
            if found is None:
                continue
            save = found.save
            outcome = await _resume(save, catalogue, args)
        elif choice.kind == "bots":
            setup = setup_of(choice, player)
            save = tables.new(setup)
            outcome = await play_local(setup, catalogue, save, _records(args), _pace(args), seen=seen)
        elif net is not None and portal is not None:
            shown: list[TableModel] = []
            since = time.time()
            try:
                outcome = await play_network(net, portal, choice, player, _also(seen, shown.append))
            except NetProblem as exc:
                message = str(exc)
                refused = choice.table.name if choice.table is not None else ""
                continue
            left = functools.partial(network_standings, shown[0]) if shown else None
            if shown and net.node is not None and choice.kind != "watch":
                keep_network_table(tables, _records(args), net.node.me, since - 1, shown[0])
        else:
            continue
        if choice.kind in ("resume", "bots"):
            left = functools.partial(standings_on_exit, save, catalogue)
            if outcome == "closed":
                _say_after(outcome, save, catalogue)
                return 0
        elif outcome == "closed":
            if left is not None:
                left()
            return 0
        new_game = (choice.variant or "-") if outcome == "new" else ""


def _also(seen: Seen | None, more: Callable[[TableModel], None]) -> Seen:
    def both(driver: object, model: TableModel) -> None:
        more(model)
        if seen is not None:
            seen(driver, model)

    return both


def _portal(net: Network | None) -> Portal | None:
    return net.portal if net is not None else None


async def play_network(
    net: Network, portal: Portal, choice: LobbyChoice, player: str, seen: Seen | None = None
) -> Outcome:
    """A network table on the screen: opened, joined, watched or taken up again from the node's store."""
    model = TableModel(
        seat=0,
        names=[player],
        title=choice.table.name if choice.table else "",
        rounds=choice.rounds,
        hint_fn=HINT,
        network=True,
    )
    if seen is not None:
        seen(net, model)

    async def drive(model: TableModel) -> object:
        try:
            if choice.kind == "open":
                assert choice.table is not None
                return await portal.run(
                    net.host,
                    model,
                    choice.variant,
                    dict(choice.options),
                    choice.rounds,
                    choice.table.name,
                    choice.bots,
                    choice.pin,
                )
            if choice.kind in ("join", "watch"):
                assert choice.table is not None
                return await portal.run(net.join, model, choice.table, choice.kind == "watch", choice.pin)
            return await portal.run(net.resume, model, choice.pin)
        except NetError as exc:
            problem.append(str(exc))
            raise

    problem: list[str] = []
    try:
        return await run_table(model, drive)
    except NetError:
        raise NetProblem(problem[0] if problem else "") from None


class NetProblem(Exception):
    """A network table could not be opened, joined or watched; the lobby says why."""


async def _resume(save: SavedTable, catalogue: Catalogue, args: argparse.Namespace) -> Outcome:
    setup, _finished, _current = save.read()
    return await play_local(setup, catalogue, save, _records(args), _pace(args), resume=True)


async def play(args: argparse.Namespace, catalogue: Catalogue, options: dict[str, object]) -> int:
    """``tarock play``: straight to a table against bots (the saved one, unless ``--new``)."""
    saved = None if args.new else _tables(args).latest(args.variant)
    if saved is not None:
        save: SavedTable = saved.save
        variant = saved.setup.variant
        outcome = await _resume(save, catalogue, args)
    else:
        variant = args.variant or catalogue.enabled[0]
        player = _player(args)
        seats = getattr(args, "seats", 4)
        names = [player, *BOT_NAMES[: seats - 1]]
        setup = TableSetup(variant, dict(options), names, ["", *bot_kinds(args, seats)], args.rounds)
        if args.seed is not None:
            setup.seed = args.seed
        save = _tables(args).new(setup)
        outcome = await play_local(setup, catalogue, save, _records(args), _pace(args))
    if outcome == "new":  # "New game" in the table's menu: the lobby's form of a new table
        return await _lobby(args, catalogue, _player(args), None, new_game=variant)
    _say_after(outcome, save, catalogue)
    return 0 if outcome != "ended" else 1


def language(args: argparse.Namespace) -> None:
    """Set the catalogue's language from ``--lang`` or the locale."""
    set_language(choose_language(getattr(args, "lang", None)))


def run_lobby_command(args: argparse.Namespace, catalogue: Catalogue) -> int:
    language(args)
    try:
        return asyncio.run(lobby(args, catalogue))
    except SaveError as exc:
        print(f"tarock: {exc}", file=sys.stderr)
        return 2


def run_play_command(args: argparse.Namespace, catalogue: Catalogue, options: dict[str, object]) -> int:
    language(args)
    try:
        return asyncio.run(play(args, catalogue, options))
    except (SaveError, RuleError) as exc:
        print(f"tarock play: {error_text(exc)}", file=sys.stderr)
        return 2
