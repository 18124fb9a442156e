"""The arguments of the commands played at this terminal and of the developer tools
(``tarock play | selfplay | replay | variants | rules | bench | arena``).

:mod:`client.cli` builds a command's arguments only when that command is chosen;
the commands themselves (:mod:`client.localcli`, :mod:`client.replaycli`, the tools
in :mod:`tarock.tools`) are imported only when one runs.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from tarock.client import argtypes
from tarock.client.i18n import _
from tarock.client.paths import default_records_dir


def positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1, not {n}").format(n=n))
    return n


def plugins_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plugins", metavar="TOML", help=_("the plugins.toml to read (default: "
                   "./plugins.toml, else the user's configuration folder's, else the one "
                   "installed with tarock; see docs/plugins.md)"))


def _option_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                   help=_("a variant option (value in JSON), may be repeated"))


def _table_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", help=_("the ruleset (default: the first variant plugins.toml offers)"))
    plugins_arg(p)
    p.add_argument("--records", metavar="DIR", help=_("where hand records go (default: {folder})").format(
                   folder=default_records_dir()))
    p.add_argument("--no-records", action="store_true", help=_("write no records"))
    p.add_argument("--no-kontra", action="store_true", help=_("play without the Kontra round"))
    _option_arg(p)


def _bot_kinds() -> str:
    from tarock.client.bots import BOT_KINDS  # only where a command names the kinds

    return ", ".join(BOT_KINDS)


def play_args(p: argparse.ArgumentParser) -> None:
    """``tarock play``'s arguments (the full-screen client's are added by :mod:`client.cli`)."""
    _table_args(p)
    p.add_argument("--seats", type=int, choices=(4, 5), default=4,
                   help=_("seats at the table: 5 where the dealer sits out each hand (default: 4)"))
    p.add_argument("--seed", type=argtypes.seed, help=_("seed of the deals (default: random, printed)"))
    p.add_argument("--rounds", type=argtypes.rounds, default=12,
                   help=_("rounds of the table, 1..{most} (default: 12)").format(most=argtypes.MAX_ROUNDS))
    p.add_argument("--new", action="store_true",
                   help=_("start a new table instead of going on with the saved one"))
    p.add_argument("--pace", type=argtypes.seconds(0, 60), metavar="S",
                   help=_("seconds a bot waits before its move (default: 0.6)"))
    p.add_argument("--strength", metavar="KIND",
                   help=_("how every bot plays ({kinds}; default: heuristic)").format(kinds=_bot_kinds()))
    p.add_argument("--bots", metavar="A,B,C", help=_("each bot's kind, seat by seat (four with --seats 5)"))


def selfplay_args(p: argparse.ArgumentParser) -> None:
    """``tarock selfplay``'s arguments."""
    _table_args(p)
    p.add_argument("--hands", type=argtypes.rounds, default=12,
                   help=_("rounds of the table, 1..{most} (default: 12)").format(most=argtypes.MAX_ROUNDS))
    p.add_argument("--seed", type=argtypes.seed, default=0, help=_("seed of deals and bots (default: 0)"))
    p.add_argument("--bots", default="heuristic,heuristic,heuristic,heuristic",
                   help=_("four bot kinds, comma-separated (known: {kinds})").format(kinds=_bot_kinds()))
    p.add_argument("--sheet", action="store_true", help=_("print the score sheet too"))
    p.add_argument("--stats", action="store_true",
                   help=_("print the declarers' win share and the mix of contracts"))


def replay_args(p: argparse.ArgumentParser) -> None:
    """``tarock replay``'s arguments."""
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help=_("one JSON object per file and line"))
    plugins_arg(p)


def rules_args(p: argparse.ArgumentParser) -> None:
    """``tarock rules``'s arguments."""
    p.add_argument("name", metavar="VARIANT")
    plugins_arg(p)
    _option_arg(p)


def bench_args(p: argparse.ArgumentParser) -> None:
    """``tarock bench``'s arguments (the engine's speed; ``--net``: a table of bot processes)."""
    p.add_argument("--hands", type=positive, default=2000, help=_("random hands to play (default: 2000)"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--variant", help=_("the ruleset (default: the first variant plugins.toml offers)"))
    p.add_argument("--all", action="store_true", help=_("every variant plugins.toml enables, then a table "
                   "of the ratios to the bare loop"))
    plugins_arg(p)
    p.add_argument("--net", action="store_true", help=_("measure a table of four bot processes on loopback"))
    p.add_argument("--rounds", type=argtypes.rounds, default=4,
                   help=_("rounds of the --net table (default: 4)"))
    p.add_argument("--timeout", type=argtypes.seconds(1), default=300.0,
                   help=_("give up after this many seconds (--net)"))


def arena_args(p: argparse.ArgumentParser) -> None:
    """``tarock arena``'s arguments."""
    p.add_argument("--variant", required=True, help=_("the ruleset to play"))
    plugins_arg(p)
    p.add_argument("--bots", required=True, metavar="A,B[,C...]",
                   help=_("bot kinds ({kinds}); each is matched against the next one in the list").format(
                       kinds=_bot_kinds()))
    p.add_argument("--boards", type=int, required=True, help=_("deals per pairing (each played twice)"))
    p.add_argument("--first", type=int, default=0,
                   help=_("number of the first board (default: 0): play a long match in parts"))
    p.add_argument("--seed", type=int, default=0, help=_("seed of the deals and the bots' sampling"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per pairing and line"))
    p.add_argument("--progress", action="store_true", help=_("a line on stderr every 10 boards"))


BUILDERS: dict[str, Callable[[argparse.ArgumentParser], None]] = {
    "play": play_args, "selfplay": selfplay_args, "replay": replay_args, "variants": plugins_arg,
    "rules": rules_args, "bench": bench_args, "arena": arena_args}
