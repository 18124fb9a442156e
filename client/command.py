"""What the ``tarock`` commands share: their usage error, their output, ``--option``
and ``--plugins``, and the one guard that turns an error into a line and an exit status.

Exit status of a command run through :func:`guarded`: 2 for a :class:`UsageError` or a
:class:`~core.rules.RuleError` (a bad option, an unknown or unavailable variant, a plugin
that fails), 1 for a :class:`~net.store.StoreError` (a folder that cannot be written).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from tarock.client.errors import error_text
from tarock.client.i18n import _
from tarock.core.plugins import Catalogue, load_plugins
from tarock.core.registry import Variant
from tarock.core.rules import RuleError
from tarock.net.store import StoreError


class UsageError(Exception):
    """A command line or a table that cannot be used: exit status 2."""


def out(line: str = "") -> None:
    print(line, flush=True)


def err(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def options(args: argparse.Namespace) -> dict[str, Any]:
    """Variant options from ``--option KEY=VALUE`` (JSON values, or a bare word as a
    string) and ``--no-kontra``; the ruleset checks each against its declaration."""
    found: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise UsageError(_("--option wants KEY=VALUE, not {item}").format(item=repr(item)))
        try:
            found[key] = json.loads(raw)
        except json.JSONDecodeError:
            found[key] = raw
    if getattr(args, "no_kontra", False):
        found["kontra"] = False
    return found


def bot_kinds(args: argparse.Namespace, seats: int) -> list[str]:
    """The kinds of the bots at a table of ``seats`` with the player (``tarock play``): ``--bots``
    seat by seat, else ``--strength`` for each, else the rule of thumb; a usage error if wrong."""
    from tarock.client.bots import BOT_KINDS  # only where a table is made

    given = getattr(args, "bots", None)
    kinds = [k.strip() for k in given.split(",")] if given else \
        [getattr(args, "strength", None) or "heuristic"] * (seats - 1)
    if len(kinds) != seats - 1:
        raise UsageError(_("--bots wants {n} kinds separated by commas, one per bot, not {given}").format(
            n=seats - 1, given=given))
    unknown = sorted(set(kinds) - set(BOT_KINDS))
    if unknown:
        raise UsageError(_("unknown bot kind(s) {kinds} (known: {known})").format(
            kinds=", ".join(unknown), known=", ".join(BOT_KINDS)))
    return kinds


def catalogue(args: argparse.Namespace) -> Catalogue:
    """The variants this run may use: plugins.toml (``--plugins`` or the default)."""
    return load_plugins(getattr(args, "plugins", None))


def variant(args: argparse.Namespace, found: Catalogue) -> Variant:
    """The variant named by ``--variant``, or the first one plugins.toml offers."""
    if args.variant:
        return found.find(args.variant)
    if not found.enabled:
        if found.unavailable:
            raise UsageError(_("plugins.toml enables no variant that can be played (tarock variants "
                               "says why)"))
        raise UsageError(_("plugins.toml enables no variant"))
    return found.find(found.enabled[0])


def prog(args: argparse.Namespace) -> str:
    """``tarock CMD`` (``tarock`` for the lobby): what starts an error line."""
    return f"tarock {args.command}" if getattr(args, "command", None) else "tarock"


def guarded(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run ``command``; a usage error, a rule error or a store error is one line on stderr, in the
    player's language (:func:`client.errors.error_text`)."""
    name = prog(args)
    try:
        return command(args)
    except (RuleError, UsageError) as exc:
        err(f"{name}: {error_text(exc)}")
        return 2
    except StoreError as exc:  # a record that cannot be written (a full disk): it says where and why
        err(f"{name}: {error_text(exc)}")
        return 1
