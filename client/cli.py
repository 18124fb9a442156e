"""The ``tarock`` command: play, selfplay, replay and bench.

Exit status: 0 on success; 1 when a game was left before its end; 2 for a
usage error, an unknown or unavailable variant, a bad option, a record that
fails to replay, a plugin that fails, or ``tarock variants`` listing an
unavailable variant.

What a player reads is in the language ``--lang`` (any command) or the
locale chooses, German by default (:func:`client.i18n.choose_language`);
``--json`` output and the records are not translated.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import trio

from tarock.client import arena, argtypes, bench
from tarock.client.bots import BOT_KINDS, make_bot
from tarock.client.human import (
    HumanPlayer,
    Quit,
    TableView,
    action_text,
    final_line,
    result_lines,
    sheet_lines,
    standings_lines,
    trick_text,
)
from tarock.client.i18n import _, choose_language, n_, p_, set_language
from tarock.client.paths import default_records_dir
from tarock.client.players import BotSeat, Player
from tarock.client.session import Session, SessionListener
from tarock.client.stats import ContractStats
from tarock.client.ui.rules_page import rules_page
from tarock.client.ui.texts import reason_text, variant_description
from tarock.client.words import Terms
from tarock.core.actions import Play
from tarock.core.cards import format_card
from tarock.core.codec import RecordError
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.plugins import Catalogue, load_plugins
from tarock.core.record import load, replay
from tarock.core.registry import Variant
from tarock.core.rules import RuleError
from tarock.core.state import Reason
from tarock.net.store import StoreError, check_folder

BOT_NAMES = ("Franz", "Hilde", "Sepp", "Resi")


class UsageError(Exception):
    """A command line that cannot be carried out."""


def _out(line: str = "") -> None:
    print(line, flush=True)


def _err(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """Variant options from ``--option KEY=VALUE`` (JSON values, or a bare word as a
    string) and ``--no-kontra``; the ruleset checks each against its declaration."""
    options: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise UsageError(_("--option wants KEY=VALUE, not {item}").format(item=repr(item)))
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    if getattr(args, "no_kontra", False):
        options["kontra"] = False
    return options


def _catalogue(args: argparse.Namespace) -> Catalogue:
    """The variants this run may use: plugins.toml (``--plugins`` or the default)."""
    return load_plugins(getattr(args, "plugins", None))


def _variant(args: argparse.Namespace, catalogue: Catalogue) -> Variant:
    """The variant named by ``--variant``, or the first one plugins.toml offers."""
    if args.variant:
        return catalogue.find(args.variant)
    if not catalogue.enabled:
        if catalogue.unavailable:
            raise UsageError(_("plugins.toml enables no variant that can be played (tarock variants "
                               "says why)"))
        raise UsageError(_("plugins.toml enables no variant"))
    return catalogue.find(catalogue.enabled[0])


def _offer(catalogue: Catalogue, read: Any) -> Variant:
    """The lobby: list the enabled variants, the first preselected; read a choice."""
    offered = list(catalogue.offered().values())
    _out(_("Variants:"))
    for i, variant in enumerate(offered, start=1):
        mark = " " + _("(preselected)") if i == 1 else ""
        _out(f"  {i}. {p_('variant', variant.title)} [{variant.name}]{mark}: "
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
        _out(_("Sorry: {message}").format(
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
def _full_screen(args: argparse.Namespace) -> bool:
    """The full-screen client unless ``--plain`` or not at a terminal (scripts, pipes)."""
    return not getattr(args, "plain", False) and sys.stdin.isatty() and sys.stdout.isatty()


def cmd_play(args: argparse.Namespace) -> int:
    catalogue = _catalogue(args)
    if _full_screen(args):
        from tarock.client.ui.main import run_play_command

        _check_folders(args)
        return run_play_command(args, catalogue, _options(args))
    if args.variant or not sys.stdin.isatty():
        variant = _variant(args, catalogue)
    else:
        try:
            variant = _offer(catalogue, input)
        except Quit:
            _out("")
            _out(_("End of input: no table was opened."))
            return 1
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    holder: list[Session] = []

    def names() -> list[str]:
        return holder[0].names

    def sheet() -> list[str]:
        return sheet_lines(holder[0].table, holder[0].names, holder[0].terms, holder[0].rules.facts)

    def terms() -> Terms:
        return holder[0].terms

    human = HumanPlayer(getattr(args, "name", None) or _("You"), names=names, sheet=sheet, write=_out,
                        terms=terms)
    players: list[Player] = [human]
    bots = BOT_NAMES[:args.seats - 1]
    players += [BotSeat(make_bot("heuristic", seed * 4 + i, name)) for i, name in enumerate(bots, start=1)]
    session = Session(variant, players, seed=seed, records_dir=_records_dir(args),
                      rounds=args.rounds, options=_options(args), listener=TableView(0, _out))
    holder.append(session)
    table = n_("Tarock {title} [{name}], {n} round, seed {seed}.",
               "Tarock {title} [{name}], {n} rounds, seed {seed}.", args.rounds).format(
                   title=p_("variant", variant.title), name=variant.name, n=args.rounds, seed=seed)
    against = _("You are seat 0 against {bots} (heuristic bots).").format(bots=", ".join(bots))
    if args.seats > session.rules.players_per_hand:
        against = _("You are seat 0 against {bots} (heuristic bots; the dealer sits out each hand).").format(
            bots=", ".join(bots))
    _out(f"{table} {against} {_('Type ? for help.')}")
    try:
        trio.run(session.run)
    except Quit as stop:
        _out("")
        _out(_("End of input: leaving the table.") if stop.eof else _("You left the table."))
        _out(n_("{played} of {n} round was played.", "{played} of {n} rounds were played.",
                session.table.rounds).format(played=len(session.table.rows), n=session.table.rounds))
        _out(_records_line(session))
        return 1 if stop.eof else 0
    _out(_records_line(session))
    return 0


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
    variant = _variant(args, _catalogue(args))
    stats = ContractStats() if args.stats else None
    session = Session(variant, players, seed=args.seed, records_dir=_records_dir(args),
                      rounds=args.hands, options=_options(args), listener=stats or _Quiet())
    table = trio.run(session.run)
    void = table.deals - len(table.rows)
    _out(_("Selfplay {variant}: {rounds} ({deals}, {void} passed out), seed {seed}").format(
        variant=variant.name, rounds=n_("{n} round", "{n} rounds", table.rounds).format(n=table.rounds),
        deals=n_("{n} deal", "{n} deals", table.deals).format(n=table.deals), void=void, seed=args.seed))
    terms = session.terms
    if args.sheet:
        for line in sheet_lines(table, session.names, terms, session.rules.facts):
            _out(line)
    _out(final_line(table.rounds, terms))
    for line in standings_lines(table.standings(), session.names, terms):
        _out(line)
    for line in stats.lines() if stats is not None else ():
        _out(line)
    _out(_records_line(session))
    return 0


# -- replay --------------------------------------------------------------------------
def _number(units: int, unit: int) -> int | float:
    value = Fraction(units, unit)
    return int(value) if value.denominator == 1 else float(value)


def _summary(hand: Hand) -> dict[str, Any]:
    state = hand.state
    result = state.result
    assert result is not None
    return {
        "variant": state.variant,
        "dealer": state.dealer,
        "contract": state.contract.name if state.contract else None,
        "called": format_card(state.called) if state.called is not None else None,
        "declarers": list(result.declarers),
        "points": [_number(p, result.unit) for p in result.points],
        "units": list(result.points),
        "unit": result.unit,
        "won": result.won,
        "items": [{"name": i.name, "side": list(i.side), "opposite": list(i.opposite), "base": i.base,
                   "for_side": i.for_side, "made": i.made, "announced": i.announced, "kontra": i.kontra,
                   "scale": i.scale, "amount": i.amount, "label": i.label} for i in result.items],
        "kontra": state.kontra_level,
        "settlement": list(result.settlement),
        # the table context: a raised round (after a Fahrer) counts its amounts factor times
        "round": hand.context.round,
        "deal": hand.context.deal,
        "factor": hand.context.multiplier,
        "as_played": [a * hand.context.multiplier for a in result.settlement],
        "note": result.note,
        "tricks": [{"leader": t.leader, "seats": list(t.seats), "cards": [format_card(c) for c in t.cards],
                    "winner": t.winner} for t in state.tricks],
    }


def _replay_file(path: Path, catalogue: Catalogue) -> tuple[dict[str, Any], Hand | None]:
    """The JSON answer for one file and the finished hand (None on error)."""
    out: dict[str, Any] = {"file": str(path)}
    try:
        data = load(path)
        rep = replay(data, variants=catalogue.variants)
    except (RecordError, RuleError) as exc:
        out["error"] = {"message": str(exc)}
        return out, None
    hand = rep.hand
    assert hand is not None
    if rep.error_index is not None:
        assert rep.reason is not None
        raw = data["actions"][rep.error_index] if isinstance(data, dict) else None
        out["error"] = {"index": rep.error_index, "code": rep.reason.code, "reason": rep.reason.message,
                        "action": raw}
        return out, None
    if not hand.done:
        n = len(hand.state.actions)
        out["error"] = {"index": n, "code": "incomplete",
                        "reason": f"the record ends after {n} actions, before the hand is over "
                                  f"(phase {hand.state.phase}, seat {hand.state.to_move} to move)"}  # JSON
        return out, None
    out.update(_summary(hand))
    return out, hand


def _error_text(answer: dict[str, Any]) -> str:
    error = answer["error"]
    if "message" in error:
        return f"{answer['file']}: {error['message']}"
    action = f" {json.dumps(error['action'], ensure_ascii=False)}" if error.get("action") is not None else ""
    if error["code"] == "incomplete":
        reason = n_("the record ends after {n} action, before the hand is over",
                    "the record ends after {n} actions, before the hand is over", error["index"]).format(
                        n=error["index"])
    else:
        reason = reason_text(Reason(error["code"], error["reason"]))
    return _("{file}: action {index}{action}: {reason} ({code})").format(
        file=answer["file"], index=error["index"], action=action, reason=reason, code=error["code"])


def _phases(hand: Hand) -> list[str]:
    """The phase each action of a finished hand was taken in (replayed from its deal)."""
    state = hand.state
    again = Hand(hand.rules, state.dealer, *hand.deal, state.seats, state.active, hand.context)
    out: list[str] = []
    for action in state.actions:
        out.append(again.state.phase)
        again.apply(action)
    return out


def _show_hand(answer: dict[str, Any], hand: Hand) -> None:
    names = [_("Seat {n}").format(n=s) for s in range(hand.state.seats)]
    obs = observe(hand, 0)
    terms = Terms.of(hand.rules.variant_facts)
    _out(_("{file}: {variant}, dealer {dealer}").format(
        file=answer["file"], variant=hand.state.variant, dealer=names[hand.state.dealer]))
    context, factor = hand.context, hand.context.multiplier
    raised = " " + _("(this round counts x{n})").format(n=factor) if factor != 1 else ""
    _out("  " + _("Round {round}, deal {deal}").format(round=context.round, deal=context.deal) + raised)
    for action, phase in zip(obs.history, _phases(hand), strict=True):
        if not isinstance(action, Play):
            _out(f"  {action_text(action, names, None, terms, phase, hand.rules.facts)}")
    for i, trick in enumerate(obs.tricks, start=1):
        _out("  " + _("Trick {n}: {cards}").format(n=f"{i:>2}", cards=trick_text(trick, names)))
    for line in result_lines(obs, names, terms):
        _out(f"  {line}")
    result = hand.state.result
    if factor != 1 and result is not None and not result.passed_out:
        players = sorted({s for t in obs.tricks for s in t.seats} | {a.seat for a in obs.history})
        amounts = ", ".join(f"{names[s]} {terms.amount(result.settlement[s] * factor)}" for s in players)
        _out("  " + _("As played, the round counting x{n}: {amounts}").format(n=factor, amounts=amounts))


def cmd_replay(args: argparse.Namespace) -> int:
    status = 0
    catalogue = _catalogue(args)
    for name in args.files:
        answer, hand = _replay_file(Path(name), catalogue)
        if hand is None:
            status = 2
            if args.json:
                _out(json.dumps(answer, ensure_ascii=False))
            else:
                _err(_error_text(answer))
            continue
        if args.json:
            _out(json.dumps(answer, ensure_ascii=False))
        else:
            _show_hand(answer, hand)
    return status


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
    catalogue = _catalogue(args)
    where = str(catalogue.source) if catalogue.source else _("no plugins.toml: every installed variant")
    _out(_("Variants ({where}):").format(where=where))
    for name in catalogue.enabled:
        variant = catalogue.variants[name]
        _out(f"  {name}: {_variant_title(variant, catalogue)}")
        _out("      " + _origin_text(variant))
    others = sorted(set(catalogue.variants) - set(catalogue.enabled))
    if others:
        _out(_("Installed or defined but not enabled: {list}").format(list=", ".join(others)))
    if catalogue.unavailable:
        _out(_("Unavailable (the others can be played):"))
    for name, reason in catalogue.unavailable.items():
        _out(f"  {name}: {reason}")
    return 2 if catalogue.unavailable else 0  # a club checking its plugins.toml sees it failed


def cmd_rules(args: argparse.Namespace) -> int:
    catalogue = _catalogue(args)
    variant = catalogue.find(args.name)
    rules = variant.rules(_options(args))
    for line in rules_page(rules.facts, rules.option_specs, names=True):
        _out(line)
    return 0


# -- bench -------------------------------------------------------------------------------
def cmd_bench(args: argparse.Namespace) -> int:
    catalogue = _catalogue(args)
    if not args.all:
        for line in bench.run(_variant(args, catalogue), args.hands, args.seed).lines():
            _out(line)
        return 0
    results = []
    for name in catalogue.enabled:
        result = bench.run(catalogue.find(name), args.hands, args.seed)
        results.append(result)
        for line in result.lines():
            _out(line)
        _out("")
    for line in bench.summary(results):
        _out(line)
    return 0


# -- main ----------------------------------------------------------------------------------
def _positive(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def _screen_args(p: argparse.ArgumentParser, sub: bool = False) -> None:
    """The full-screen client's options (``tarock`` and ``tarock play``); a
    subcommand's do not overwrite those given before it (``tarock --lang en play``)."""
    keep = {"default": argparse.SUPPRESS} if sub else {}
    p.add_argument("--plain", action="store_true",
                   help="the line-based client (for scripts and screen readers)", **keep)  # type: ignore[arg-type]
    p.add_argument("--lang", metavar="LANG", help="de or en (default: English where the locale is, "
                   "else German)", **keep)  # type: ignore[arg-type]
    p.add_argument("--name", type=argtypes.name, metavar="NAME", help="your name at the table",
                   **keep)  # type: ignore[arg-type]
    p.add_argument("--state", metavar="DIR", help="where the saved table is kept (default: $TAROCK_STATE or "
                   "the user's state folder)", **keep)  # type: ignore[arg-type]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tarock", description="Austrian Tarock for four players. "
                                     "Without a command: the lobby (full screen).")
    _screen_args(parser)
    # its own dest: a command's --plugins (default None) must not overwrite it (_plugins_flag)
    parser.add_argument("--plugins", metavar="TOML", dest="plugins_before",
                        help="the plugins.toml to read (before or after the command, same meaning)")
    parser.add_argument("--port", type=argtypes.port, default=0,
                        help="the lobby's node: TCP port to listen on, 0..65535 (default: 0, any)")
    parser.add_argument("--interface", action="append", metavar="NAME|IP",
                        help="the lobby's node: interface for discovery (default: every multicast one)")
    parser.add_argument("--to", type=argtypes.address, metavar="HOST:PORT",
                        help="the lobby: ask this address for its table (no mDNS)")
    parser.add_argument("--offline", action="store_true", help="the lobby without the network")
    parser.add_argument("--records", metavar="DIR", help="where hand records go")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def plugins_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--plugins", metavar="TOML", help="the plugins.toml to read (default: "
                       "./plugins.toml, else the user's configuration folder's, else the one "
                       "installed with tarock; see docs/plugins.md)")

    def table_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--variant", help="the ruleset (default: the first variant plugins.toml offers)")
        plugins_arg(p)
        p.add_argument("--records", metavar="DIR", help="where hand records go "
                       f"(default: {default_records_dir()})")
        p.add_argument("--no-records", action="store_true", help="write no records")
        p.add_argument("--no-kontra", action="store_true", help="play without the Kontra round")
        p.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                       help="a variant option (value in JSON), may be repeated")

    play = sub.add_parser("play", help="play against three bots (four with --seats 5) at this terminal")
    table_args(play)
    play.add_argument("--seats", type=int, choices=(4, 5), default=4,
                      help="seats at the table: 5 where the dealer sits out each hand (default: 4)")
    play.add_argument("--seed", type=argtypes.seed, help="seed of the deals (default: random, printed)")
    play.add_argument("--rounds", type=argtypes.rounds, default=12,
                      help=f"rounds of the table, 1..{argtypes.MAX_ROUNDS} (default: 12)")
    _screen_args(play, sub=True)
    play.add_argument("--new", action="store_true",
                      help="start a new table instead of going on with the saved one")
    play.add_argument("--pace", type=argtypes.seconds(0, 60), metavar="S",
                      help="seconds a bot waits before its move (default: 0.6)")
    play.set_defaults(func=cmd_play)

    selfplay = sub.add_parser("selfplay", help="let four bots play a table")
    table_args(selfplay)
    selfplay.add_argument("--hands", type=argtypes.rounds, default=12,
                          help=f"rounds of the table, 1..{argtypes.MAX_ROUNDS} (default: 12)")
    selfplay.add_argument("--seed", type=argtypes.seed, default=0, help="seed of deals and bots (default: 0)")
    selfplay.add_argument("--bots", default="heuristic,heuristic,heuristic,heuristic",
                          help=f"four bot kinds, comma-separated (known: {', '.join(BOT_KINDS)})")
    selfplay.add_argument("--sheet", action="store_true", help="print the score sheet too")
    selfplay.add_argument("--stats", action="store_true",
                          help="print the declarers' win share and the mix of contracts")
    selfplay.set_defaults(func=cmd_selfplay)

    rep = sub.add_parser("replay", help="replay hand records and show or check them")
    rep.add_argument("files", nargs="+", metavar="FILE")
    rep.add_argument("--json", action="store_true", help="one JSON object per file and line")
    plugins_arg(rep)
    rep.set_defaults(func=cmd_replay)

    var = sub.add_parser("variants", help="list the variants offered and where each came from")
    plugins_arg(var)
    var.set_defaults(func=cmd_variants)

    rul = sub.add_parser("rules", help="print a variant's contracts, premiums and options, from its data")
    rul.add_argument("name", metavar="VARIANT")
    plugins_arg(rul)
    rul.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                     help="a variant option (value in JSON), may be repeated")
    rul.set_defaults(func=cmd_rules)

    ben = sub.add_parser("bench", help="measure the engine's speed")
    ben.add_argument("--hands", type=_positive, default=2000, help="random hands to play (default: 2000)")
    ben.add_argument("--seed", type=int, default=0)
    ben.add_argument("--variant", help="the ruleset (default: the first variant plugins.toml offers)")
    ben.add_argument("--all", action="store_true", help="every variant plugins.toml enables, then a table "
                     "of the ratios to the bare loop")
    plugins_arg(ben)
    ben.set_defaults(func=cmd_bench)

    arena.add_parser(sub, plugins_arg)
    # The network commands (host, join, tables, watch, bot, bench --net) live in client/netcli.py.
    from tarock.client import netcli
    netcli.register(sub)
    for command in sub.choices.values():  # every command speaks the player's language
        with contextlib.suppress(argparse.ArgumentError):  # play has it already
            command.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS,
                                 help="de or en (default: English where the locale is, else German)")
    return parser


def _tolerant_streams() -> None:
    """Never die on a character the terminal cannot show."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


def _plugins_flag(args: argparse.Namespace) -> None:
    """``tarock --plugins F CMD`` means ``tarock CMD --plugins F``; two different files are refused."""
    before = vars(args).pop("plugins_before", None)
    after = getattr(args, "plugins", None)
    if before is not None and after is not None and Path(before) != Path(after):
        raise UsageError(_("--plugins is given twice ({before} before the command, {after} after it): "
                           "give it once").format(before=before, after=after))
    args.plugins = after if after is not None else before


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tarock`` command; return the exit status."""
    _tolerant_streams()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        set_language(choose_language(getattr(args, "lang", None)))
    except ValueError as exc:
        _err(f"tarock: {exc}")
        return 2
    try:
        _plugins_flag(args)
    except UsageError as exc:
        _err(f"tarock: {exc}")
        return 2
    if args.command is None:
        if not _full_screen(args):
            parser.print_help()
            return 2
        from tarock.client.ui.main import run_lobby_command

        try:
            _check_folders(args)
            return run_lobby_command(args, _catalogue(args))
        except (RuleError, UsageError) as exc:
            _err(f"tarock: {exc}")
            return 2
        except StoreError as exc:  # a folder that could not be written during a table
            _err(f"tarock: {exc}")
            return 1
    try:
        status: int = args.func(args)
    except (RuleError, UsageError) as exc:
        _err(f"tarock {args.command}: {exc}")
        return 2
    except StoreError as exc:  # a record that cannot be written (a full disk): it says where and why
        _err(f"tarock {args.command}: {exc}")
        return 1
    except KeyboardInterrupt:
        _err(_("interrupted"))
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
