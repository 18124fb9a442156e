"""The commands played at this terminal: ``tarock play | selfplay | variants | rules``, and
the lobby (``tarock`` without a command).

What a player reads is in the language ``--lang`` (any command) or the locale
chooses, German by default (:func:`client.i18n.choose_language`); ``--json``
output and the records are not translated.  Exit status: 0 on success; 1 when a
game was left before its end; 2 for a usage error, an unknown or unavailable
variant, a bad option, a plugin that fails, or ``tarock variants`` listing an
unavailable variant (:func:`client.command.guarded`).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

import trio

from tarock.client import command
from tarock.client.bots import BOT_KINDS, make_bot
from tarock.client.command import UsageError, out
from tarock.client.errors import error_text
from tarock.client.human import HumanPlayer, Quit, TableView, final_line, sheet_lines, standings_lines
from tarock.client.i18n import _, n_, p_
from tarock.client.paths import default_records_dir
from tarock.client.players import BotSeat, Player
from tarock.client.session import Session, SessionListener
from tarock.client.settings import player_name
from tarock.client.stats import ContractStats
from tarock.client.text.rule_words import Terms, variant_description
from tarock.client.ui.rules_page import rules_page
from tarock.core.plugins import Catalogue
from tarock.core.registry import Variant
from tarock.net.store import StoreError, check_folder

BOT_NAMES = ("Franz", "Hilde", "Sepp", "Resi")


def _offer(catalogue: Catalogue, read: Any) -> Variant:
    """The lobby: list the enabled variants, the first preselected; read a choice."""
    offered = list(catalogue.offered().values())
    out(_("Variants:"))
    for i, variant in enumerate(offered, start=1):
        mark = " " + _("(preselected)") if i == 1 else ""
        out(f"  {i}. {p_('variant', variant.title)} [{variant.name}]{mark}: "
             f"{variant_description(variant.description)}")
    while True:
        try:
            line = read(_("Variant [1-{n}, Enter: 1]> ").format(n=len(offered))).strip()
        except EOFError:
            raise Quit(eof=True) from None
        if not line:
            return offered[0]
        if line.isdigit() and 1 <= int(line) <= len(offered):
            return offered[int(line) - 1]
        by_name = {v.name: v for v in offered}
        if line in by_name:
            return by_name[line]
        out(_("Sorry: {message}").format(
            message=_("{line} is not one of the variants offered.").format(line=repr(line))))


def _records_dir(args: argparse.Namespace) -> Path | None:
    """The records folder, made if missing and known to be writable (else a usage error)."""
    if getattr(args, "no_records", False):
        return None
    folder = Path(args.records) if args.records else default_records_dir()
    try:
        check_folder(folder, "records folder")
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    return folder


def _check_folders(args: argparse.Namespace) -> None:
    """The records folder and the state folder (where the full-screen client saves its table
    and the lobby's node keeps its store), made if missing and known to be writable, before a
    table starts: else a usage error naming the folder and why."""
    from tarock.client.ui.local import state_dir

    _records_dir(args)
    try:
        check_folder(Path(args.state) if getattr(args, "state", None) else state_dir(), "state folder")
    except StoreError as exc:
        raise UsageError(str(exc)) from None


def _records_line(session: Session) -> str:
    if session.records_dir is None:
        return _("Records: not written (--no-records).")
    n = len(session.records)
    return n_("Records: {n} hand written to {files}", "Records: {n} hands written to {files}", n).format(
        n=n, files=session.records_dir / session.record_pattern())


# -- play ------------------------------------------------------------------------
def cmd_play(args: argparse.Namespace) -> int:
    catalogue = command.catalogue(args)
    if args.full_screen:
        from tarock.client.ui.main import run_play_command

        _check_folders(args)
        return run_play_command(args, catalogue, command.options(args))
    if args.variant or not sys.stdin.isatty():
        variant = command.variant(args, catalogue)
    else:
        try:
            variant = _offer(catalogue, input)
        except Quit:
            out("")
            out(_("End of input: no table was opened."))
            return 1
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    holder: list[Session] = []

    def names() -> list[str]:
        return holder[0].names

    def sheet() -> list[str]:
        return sheet_lines(holder[0].table, holder[0].names, holder[0].terms, holder[0].rules.facts)

    def terms() -> Terms:
        return holder[0].terms

    human = HumanPlayer(player_name(getattr(args, "name", None), _("You")), names=names, sheet=sheet,
                        write=out,
                        terms=terms)
    players: list[Player] = [human]
    bots = BOT_NAMES[:args.seats - 1]
    kinds = command.bot_kinds(args, args.seats)
    players += [BotSeat(make_bot(kind, seed * 4 + i, name))
                for i, (kind, name) in enumerate(zip(kinds, bots, strict=True), start=1)]
    session = Session(variant, players, seed=seed, records_dir=_records_dir(args),
                      rounds=args.rounds, options=command.options(args), listener=TableView(0, out),
                      keep=True)
    holder.append(session)
    table = n_("Tarock {title} [{name}], {n} round, seed {seed}.",
               "Tarock {title} [{name}], {n} rounds, seed {seed}.", args.rounds).format(
                   title=p_("variant", variant.title), name=variant.name, n=args.rounds, seed=seed)
    against = _("You play against {bots}.").format(
        bots=", ".join(f"{name} ({p_('bot', kind)})" for name, kind in zip(bots, kinds, strict=True)))
    if args.seats > session.rules.players_per_hand:
        against += " " + _("The dealer sits out each hand.")
    out(f"{table} {against} {_('Type ? for help.')}")
    try:
        trio.run(session.run)
    except Quit as stop:
        out("")
        out(_("End of input: leaving the table.") if stop.eof else _("You left the table."))
        out(n_("{played} of {n} round was played.", "{played} of {n} rounds were played.",
                session.table.rounds).format(played=len(session.table.rows), n=session.table.rounds))
        _keep(args, session, kinds)
        if session.table.rows:
            out(final_line(len(session.table.rows), session.terms))
            for line in standings_lines(session.table.standings(), session.names, session.terms):
                out(line)
        out(_records_line(session))
        return 1 if stop.eof else 0
    _keep(args, session, kinds)
    out(_records_line(session))
    return 0


def _keep(args: argparse.Namespace, session: Session, kinds: list[str]) -> None:
    """The table played here, kept with the finished ones (the lobby's statistics and replay)."""
    from tarock.client.tables import Tables
    from tarock.client.ui.local import TableSetup, state_dir

    setup = TableSetup(session.variant, dict(session.rules.options), session.names, ["", *kinds],
                       session.table.rounds, session.seed)
    folder = Path(args.state) if getattr(args, "state", None) else state_dir()
    try:
        Tables(folder).keep(setup, session.finished or [])
    except StoreError as exc:  # the table was played; only its keeping failed: said, not fatal
        command.err(f"{command.prog(args)}: {error_text(exc)}")


# -- selfplay ----------------------------------------------------------------------
class _Quiet(SessionListener):
    """Selfplay shows only the standings: every event is ignored."""


def cmd_selfplay(args: argparse.Namespace) -> int:
    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    if len(kinds) not in (4, 5):
        raise UsageError(_("--bots wants four kinds separated by commas (five for a table where "
                           "the dealer sits out), got {n}").format(n=len(kinds)))
    unknown = sorted(set(kinds) - set(BOT_KINDS))
    if unknown:
        raise UsageError(_("unknown bot kind(s) {kinds} (known: {known})").format(
            kinds=", ".join(unknown), known=", ".join(BOT_KINDS)))
    players = [BotSeat(make_bot(kind, args.seed * 4 + seat, f"{kind}-{seat}"))
               for seat, kind in enumerate(kinds)]
    variant = command.variant(args, command.catalogue(args))
    stats = ContractStats() if args.stats else None
    session = Session(variant, players, seed=args.seed, records_dir=_records_dir(args),
                      rounds=args.hands, options=command.options(args), listener=stats or _Quiet())
    table = trio.run(session.run)
    void = table.deals - len(table.rows)
    out(_("Selfplay {variant}: {rounds} ({deals}, {void} passed out), seed {seed}").format(
        variant=variant.name, rounds=n_("{n} round", "{n} rounds", table.rounds).format(n=table.rounds),
        deals=n_("{n} deal", "{n} deals", table.deals).format(n=table.deals), void=void, seed=args.seed))
    terms = session.terms
    if args.sheet:
        for line in sheet_lines(table, session.names, terms, session.rules.facts):
            out(line)
    out(final_line(table.rounds, terms))
    for line in standings_lines(table.standings(), session.names, terms):
        out(line)
    for line in stats.lines() if stats is not None else ():
        out(line)
    out(_records_line(session))
    return 0


# -- variants and rules -------------------------------------------------------------------
def _variant_title(variant: Variant, catalogue: Catalogue) -> str:
    """The variant's title in the player's language; a ``[[variant]]`` without a
    title is its base's title + its house rules' names."""
    source = variant.source
    base = catalogue.variants.get(source.base)
    if source.titled or base is None or not source.plugins:
        return p_("variant", variant.title)
    return f"{_variant_title(base, catalogue)} + {', '.join(p[0] for p in source.plugins)}"


def _origin_text(variant: Variant) -> str:
    """Where a variant came from (the package, entry point, file and plugins to look for)."""
    source = variant.source
    if source.package:
        return _("installed with {package} (entry point {entry})").format(
            package=source.package, entry=source.entry_point)
    if not source.config:
        return _("from {origin}").format(origin=variant.origin or _("a Variant object"))
    parts = [_("base {name}").format(name=source.base)] if source.base else []
    for name, version, file, entry in source.plugins:
        parts.append(_("plugin {name} {version} ({file})").format(name=name, version=version, file=file)
                     if file else _("plugin {name} {version} (entry point {entry})").format(
                         name=name, version=version, entry=entry))
    return _("from {origin}").format(origin=f"{source.config}: {', '.join(parts)}")


def cmd_variants(args: argparse.Namespace) -> int:
    catalogue = command.catalogue(args)
    where = str(catalogue.source) if catalogue.source else _("no plugins.toml: every installed variant")
    out(_("Variants ({where}):").format(where=where))
    for name in catalogue.enabled:
        variant = catalogue.variants[name]
        out(f"  {name}: {_variant_title(variant, catalogue)}")
        out("      " + _origin_text(variant))
    others = sorted(set(catalogue.variants) - set(catalogue.enabled))
    if others:
        out(_("Installed or defined but not enabled: {list}").format(list=", ".join(others)))
    if catalogue.unavailable:
        out(_("Unavailable (the others can be played):"))
    for name, reason in catalogue.unavailable.items():
        out(f"  {name}: {reason}")
    return 2 if catalogue.unavailable else 0  # a club checking its plugins.toml sees it failed


def cmd_rules(args: argparse.Namespace) -> int:
    catalogue = command.catalogue(args)
    variant = catalogue.find(args.name)
    rules = variant.rules(command.options(args))
    for line in rules_page(rules.facts, rules.option_specs, names=True):
        out(line)
    return 0


# -- the lobby -----------------------------------------------------------------------------
def lobby(args: argparse.Namespace) -> int:
    """``tarock`` without a command: the full-screen lobby (:mod:`client.cli` has seen a terminal)."""
    from tarock.client.ui.main import run_lobby_command

    _check_folders(args)
    return run_lobby_command(args, command.catalogue(args))


COMMANDS = {"play": cmd_play, "selfplay": cmd_selfplay, "variants": cmd_variants, "rules": cmd_rules}


def main(args: argparse.Namespace) -> int:
    """Run the command ``args.command`` (the lobby for none) parsed by :mod:`client.cli`."""
    return command.guarded(COMMANDS[args.command] if args.command else lobby, args)
