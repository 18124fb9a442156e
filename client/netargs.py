"""The arguments of the network commands (``tarock host | join | tables | watch | bot``).

:mod:`client.cli` builds a command's arguments only when that command is chosen,
and runs it through :mod:`client.netcli`, which this module does not import.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from tarock.client import argtypes
from tarock.client.bots import BOT_KINDS
from tarock.client.i18n import _
from tarock.net.dealing import COMMIT_REVEAL, DEFAULT_DEALING, SCHEMES
from tarock.net.protocol.limits import Timing

SEATS = 4
DEFAULT = Timing()


def _net_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plugins", metavar="TOML", help=_("the plugins.toml to read"))
    p.add_argument("--state", metavar="DIR", help=_("where the node keeps its crash-safe store "
                   "(default: $TAROCK_STATE or the user's state folder)"))
    p.add_argument("--port", type=argtypes.port, default=0,
                   help=_("TCP port to listen on, 0..65535 (default: 0, any free one)"))
    p.add_argument("--bind", default="0.0.0.0", help=_("address to listen on (default: all)"))
    p.add_argument("--interface", action="append", metavar="NAME|IP",
                   help=_("network interface for discovery (default: every multicast-capable one)"))
    p.add_argument("--seat-timeout", type=argtypes.seconds(0), default=DEFAULT.seat_timeout, metavar="S",
                   help=_("seconds a seat may be away before a bot plays it (default: {seconds})").format(
                       seconds=f"{DEFAULT.seat_timeout:g}"))
    p.add_argument("--step-timeout", type=argtypes.seconds(0.5, 3600), default=DEFAULT.step, metavar="S",
                   help=_("seconds a connected seat may take for a step of the deal or of a reveal "
                          "(no person decides there) before it is named for stalling "
                          "(default: {seconds})").format(seconds=f"{DEFAULT.step:g}"))
    p.add_argument("--heartbeat", type=argtypes.seconds(0.05, 60), default=DEFAULT.heartbeat, metavar="S",
                   help=_("seconds between heartbeats; a peer silent for 4 of them is gone "
                          "(default: {seconds})").format(seconds=f"{DEFAULT.heartbeat:g}"))
    p.add_argument("--pin", type=argtypes.pin, metavar="PIN",
                   help=_("the PIN of a private table: a host opens its table with it, a player needs it "
                          "to join or watch (nobody without it learns anything of the game)"))
    p.add_argument("-v", "--verbose", action="count", default=0, help=_("log what the node does (-vv: more)"))


def _table_args(p: argparse.ArgumentParser, rounds_default: int = 12) -> None:
    p.add_argument("--variant", help=_("the ruleset (default: the first variant plugins.toml offers)"))
    p.add_argument("--rounds", type=argtypes.rounds, default=rounds_default,
                   help=_("rounds, 1..{most} (default: {rounds})").format(most=argtypes.MAX_ROUNDS,
                                                                  rounds=rounds_default))
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help=_("a variant option (JSON value)"))
    p.add_argument("--dealing", default=DEFAULT_DEALING, choices=SCHEMES,
                   help=_("how a new table deals (default: {default}: no node, the host included, "
                          "sees another's cards; {cheaper}: cheaper, the host sees every hand)").format(
                       default=DEFAULT_DEALING, cheaper=COMMIT_REVEAL))


def host_args(p: argparse.ArgumentParser) -> None:
    """``tarock host``'s arguments."""
    _table_args(p)
    p.add_argument("--name", type=argtypes.name, help=_("the table's name (default: <player>'s table)"))
    p.add_argument("--bots", type=argtypes.count(0, SEATS - 1), default=0,
                   help=_("seats filled by bots at once, 0..{most} (default: 0)").format(most=SEATS - 1))
    p.add_argument("--player", type=argtypes.name, help=_("your name at the table (default: the one kept in "
                          "your settings, else Host; `tarock --name NAME host` says the same)"))
    p.add_argument("--records", metavar="DIR", help=_("where this node writes the hand records"))
    _net_args(p)


def _table_found(p: argparse.ArgumentParser, table: str, to: str) -> None:
    """Which table to go to (``join``, ``watch``): its name, or ``--to`` its address."""
    p.add_argument("table", nargs="?", type=argtypes.name, metavar="TABLE", help=table)
    p.add_argument("--to", type=argtypes.address, metavar="HOST:PORT", help=to)
    p.add_argument("--wait", type=argtypes.seconds(0), default=4.0,
                   help=_("seconds to look for tables (default: 4)"))


def join_args(p: argparse.ArgumentParser) -> None:
    """``tarock join``'s arguments."""
    _table_found(p, _("the table's name (default: list what is found)"),
                 _("join the table at this address (no discovery)"))
    p.add_argument("--player", "--name", dest="player", type=argtypes.name,
                   help=_("your name at the table (default: the one kept in your settings, else Player)"))
    p.add_argument("--records", metavar="DIR", help=_("where this node writes the hand records"))
    _net_args(p)


def tables_args(p: argparse.ArgumentParser) -> None:
    """``tarock tables``'s arguments."""
    p.add_argument("--json", action="store_true", help=_("one JSON list of every node found"))
    p.add_argument("--wait", type=argtypes.seconds(0), default=3.0, help=_("seconds to look (default: 3)"))
    p.add_argument("--to", type=argtypes.address, metavar="HOST:PORT",
                   help=_("ask this address instead of browsing"))
    _net_args(p)


def watch_args(p: argparse.ArgumentParser) -> None:
    """``tarock watch``'s arguments."""
    _table_found(p, _("the table's name (default: the first found)"), _("watch the table at this address"))
    _net_args(p)


def bot_args(p: argparse.ArgumentParser) -> None:
    """``tarock bot``'s arguments."""
    p.add_argument("--name", type=argtypes.name, required=True,
                   help=_("the bot's name (also names its store)"))
    p.add_argument("--strength", default="heuristic", choices=BOT_KINDS,
                   help=_("how it plays ({kinds})").format(kinds=", ".join(BOT_KINDS)))
    p.add_argument("--table", type=argtypes.name, help=_("join only the table of this name"))
    p.add_argument("--records", metavar="DIR", help=_("where this node writes the hand records"))
    p.add_argument("--seed", type=argtypes.seed, help=_("seed of the bot's choices (default: random)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object per event"))
    p.add_argument("--to", type=argtypes.address, metavar="HOST:PORT",
                   help=_("look for tables at this address only (no mDNS)"))
    p.add_argument("--wait", type=argtypes.seconds(0), default=600.0,
                   help=_("seconds to wait for a table (default: 600)"))
    p.add_argument("--host", action="store_true",
                   help=_("open a table (named --table) and wait for players, instead of forming one"))
    _table_args(p)
    _net_args(p)


BUILDERS: dict[str, Callable[[argparse.ArgumentParser], None]] = {
    "host": host_args, "join": join_args, "tables": tables_args, "watch": watch_args, "bot": bot_args}
