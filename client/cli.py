"""The ``tarock`` command: its parser, and each command handed to the module that runs it.

Light by design: ``tarock --help`` imports no command.  A command's arguments are
built when it is chosen (:class:`_Commands`; :mod:`client.cliargs`,
:mod:`client.netargs`) and its module is imported when it runs: the commands at
this terminal (:mod:`client.localcli`, :mod:`client.replaycli`), the network ones
(:mod:`client.netcli`), the developer tools (:mod:`tarock.tools`: ``bench``,
``bench --net``, ``arena``).

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
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from tarock.client.i18n import NP_, _, p_

Runner = Callable[[argparse.Namespace], int]
Builder = Callable[[str, argparse.ArgumentParser], None]


# -- the commands' arguments, built when the command is chosen -----------------------------
def _local_args(name: str, p: argparse.ArgumentParser) -> None:
    from tarock.client import cliargs

    cliargs.BUILDERS[name](p)


def _network_args(name: str, p: argparse.ArgumentParser) -> None:
    from tarock.client import netargs

    netargs.BUILDERS[name](p)


# -- the commands, imported when they run ---------------------------------------------------
def _run_local(args: argparse.Namespace) -> int:
    from tarock.client import localcli

    return localcli.main(args)


def _run_replay(args: argparse.Namespace) -> int:
    from tarock.client import replaycli

    return replaycli.main(args)


def _run_network(args: argparse.Namespace) -> int:
    from tarock.client import netcli

    return netcli.main(args)


def _run_bench(args: argparse.Namespace) -> int:
    if args.net:
        from tarock.tools import netbench

        return netbench.main(args)
    from tarock.tools import bench

    return bench.main(args)


def _run_arena(args: argparse.Namespace) -> int:
    from tarock.tools import arena

    return arena.main(args)


COMMANDS: dict[str, tuple[str, Builder, Runner]] = {
    "play": (NP_("command", "play against three bots (four with --seats 5) at this terminal"),
            _local_args, _run_local),
    "selfplay": (NP_("command", "let four bots play a table"),
                _local_args, _run_local),
    "replay": (NP_("command", "replay hand records and show or check them"),
              _local_args, _run_replay),
    "variants": (NP_("command", "list the variants offered and where each came from"),
                _local_args, _run_local),
    "rules": (NP_("command", "print a variant's contracts, premiums and options, from its data"),
             _local_args, _run_local),
    "bench": (NP_("command", "measure the engine's speed (--net: a table of bot processes on loopback)"),
             _local_args, _run_bench),
    "arena": (NP_("command", "duplicate matches between bot kinds, with confidence intervals"),
             _local_args, _run_arena),
    "host": (NP_("command", "open a table on the home network (--bots K fills K seats)"),
            _network_args, _run_network),
    "join": (NP_("command", "join a table found on the network (or --to HOST:PORT)"),
            _network_args, _run_network),
    "tables": (NP_("command", "list the tables found on the network"),
              _network_args, _run_network),
    "watch": (NP_("command", "follow a table with public information only"),
             _network_args, _run_network),
    "bot": (NP_("command", "a headless player: joins a table with a free seat or forms one"),
           _network_args, _run_network),
}
"""Each command: its line in ``tarock --help``, who builds its arguments, who runs it."""

if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction


class _Commands(_SubParsers):
    """The subcommands, each one's arguments built only when it is chosen: ``tarock --help``
    lists them (name and help line) without building any."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unbuilt: set[str] = set()

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        name = values[0] if isinstance(values, Sequence) and values else None
        if name in self.unbuilt:
            self.unbuilt.discard(name)
            _build(name, self.choices[name])
        super().__call__(parser, namespace, values, option_string)


def _build(name: str, p: argparse.ArgumentParser) -> None:
    COMMANDS[name][1](name, p)
    if name == "play":
        _screen_args(p, sub=True)
    with contextlib.suppress(argparse.ArgumentError):  # every command speaks the player's language
        p.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS,
                       help=_("de or en (default: English where the locale is, else German)"))


def _checked(kind: str) -> Callable[[str], Any]:
    """The check ``kind`` of :mod:`client.argtypes` (which knows the protocol's limits),
    imported only when the option is given."""
    def check(text: str) -> Any:
        from tarock.client import argtypes

        return getattr(argtypes, kind)(text)
    check.__name__ = kind
    return check


def _screen_args(p: argparse.ArgumentParser, sub: bool = False) -> None:
    """The full-screen client's options (``tarock`` and ``tarock play``); a
    subcommand's do not overwrite those given before it (``tarock --lang en play``)."""
    keep = {"default": argparse.SUPPRESS} if sub else {}
    p.add_argument("--plain", action="store_true",
                   help=_("the line-based client (for scripts and screen readers)"), **keep)  # type: ignore[arg-type]
    p.add_argument("--lang", metavar="LANG", help=_("de or en (default: English where the locale is, "
                   "else German)"), **keep)  # type: ignore[arg-type]
    p.add_argument("--name", type=_checked("name"), metavar="NAME", help=_("your name at the table"),
                   **keep)  # type: ignore[arg-type]
    p.add_argument("--state", metavar="DIR",
                   help=_("where the saved table is kept (default: $TAROCK_STATE or the user's state "
                          "folder)"),
                   **keep)  # type: ignore[arg-type]


class UsageLine(Exception):
    """A command line argparse refuses: one line, in the player's language (:func:`main`)."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog


class _Help(argparse.HelpFormatter):
    """argparse's help in the player's language: its own words (``usage:``, the section
    titles, ``-h``'s line) from the catalogue (context ``argparse``); the help of each
    option is translated where it is given."""

    def _format_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                      groups: Iterable[Any], prefix: str | None) -> str:
        return super()._format_usage(usage, actions, groups, p_("argparse", "usage: ") if prefix is None
                                     else prefix)

    def start_section(self, heading: str | None) -> None:
        words = {"options": p_("argparse", "options"),
                 "positional arguments": p_("argparse", "positional arguments")}
        super().start_section(words.get(heading, heading) if heading else heading)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.help == "show this help message and exit":
            return p_("argparse", "show this help message and exit")
        return action.help


class _Parser(argparse.ArgumentParser):
    """argparse with its refusal as one line (no usage block): :class:`UsageLine`; its help
    in the player's language (:class:`_Help`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageLine(self.prog, message)


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``tarock``; a command's own arguments are added when it is parsed."""
    parser = _Parser(prog="tarock", description=_("Austrian Tarock for four players. "
                     "Without a command: the lobby (full screen)."), allow_abbrev=False)
    _screen_args(parser)
    # its own dest: a command's --plugins (default None) must not overwrite it (_plugins_flag)
    parser.add_argument("--plugins", metavar="TOML", dest="plugins_before",
                        help=_("the plugins.toml to read (before or after the command, same meaning)"))
    parser.add_argument("--port", type=_checked("port"), default=0,
                        help=_("the lobby's node: TCP port to listen on, 0..65535 (default: 0, any)"))
    parser.add_argument("--interface", action="append", metavar="NAME|IP",
                        help=_("the lobby's node: interface for discovery (default: every multicast one)"))
    parser.add_argument("--to", type=_checked("address"), metavar="HOST:PORT",
                        help=_("the lobby: ask this address for its table (no mDNS)"))
    parser.add_argument("--offline", action="store_true", help=_("the lobby without the network"))
    parser.add_argument("--records", metavar="DIR", help=_("where hand records go"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", action=_Commands)
    assert isinstance(sub, _Commands)
    for name, (line, _args, run) in COMMANDS.items():
        sub.add_parser(name, help=p_("command", line)).set_defaults(run=run)
        sub.unbuilt.add(name)
    return parser


def _tolerant_streams() -> None:
    """Never die on a character the terminal cannot show."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


def _plugins_flag(args: argparse.Namespace) -> tuple[str, str] | None:
    """``tarock --plugins F CMD`` means ``tarock CMD --plugins F``; two different files are refused
    (they are returned)."""
    before = vars(args).pop("plugins_before", None)
    after = getattr(args, "plugins", None)
    if before is not None and after is not None and Path(before) != Path(after):
        return before, after
    args.plugins = after if after is not None else before
    return None


def _full_screen(args: argparse.Namespace) -> bool:
    """The full-screen client unless ``--plain`` or not at a terminal (scripts, pipes)."""
    return not getattr(args, "plain", False) and sys.stdin.isatty() and sys.stdout.isatty()


def _language_flag(argv: Sequence[str]) -> str | None:
    """``--lang``'s value wherever it stands (the language errors are written in)."""
    for i, token in enumerate(argv):
        if token == "--":
            break
        if token == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if token.startswith("--lang="):
            return token.partition("=")[2]
    return None


def _takes_value(parser: argparse.ArgumentParser, token: str) -> bool:
    action = parser._option_string_actions.get(token)
    return action is not None and action.nargs != 0 and "=" not in token


def _command_parser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The arguments of command ``name``, built if they were not yet."""
    sub = next(a for a in parser._actions if isinstance(a, _Commands))
    if name in sub.unbuilt:
        sub.unbuilt.discard(name)
        _build(name, sub.choices[name])
    return sub.choices[name]


BEFORE_AS: dict[tuple[str, str], str] = {("--name", "host"): "--player", ("--name", "join"): "--player"}
"""Options whose meaning before a command is another option of it: ``tarock --name Anna host``
names the player (``host --name`` names the table)."""


def command_line(parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """``argv`` with the options given before the command moved after it: every option means the
    same before or after the command.  One the command does not take is refused (not ignored), and
    so is one given twice with different values (:class:`UsageLine`)."""
    argv = list(argv)
    at = _command_at(parser, argv)
    if not at:
        return argv
    name, rest = argv[at], argv[at + 1:]
    command = _command_parser(parser, name)
    i, before = 0, []
    while i < at:  # the options before the command, each with its value (as the command reads them)
        flag = argv[i].partition("=")[0]
        if not flag.startswith("-"):
            return argv  # a word before the command: argparse says what is wrong
        action = command._option_string_actions.get(BEFORE_AS.get((flag, name), flag)) or \
            parser._option_string_actions.get(flag)
        width = 2 if action is not None and action.nargs != 0 and "=" not in argv[i] else 1
        before.append(argv[i:i + width])
        i += width
    if i != at:
        return argv
    moved: list[str] = []
    for option in before:
        flag, eq, value = option[0].partition("=")
        flag = BEFORE_AS.get((flag, name), flag)
        action = command._option_string_actions.get(flag)
        if action is None or flag in ("-h", "--help"):
            if flag in ("-h", "--help"):
                return argv
            raise UsageLine(f"tarock {name}", _("{option} does not apply to tarock {command}").format(
                option=flag, command=name))
        given = (value if eq else option[1]) if action.nargs != 0 else None
        again = _given(command, rest, action)
        if again is not None and not isinstance(action, argparse._AppendAction) and again != given:
            raise UsageLine(f"tarock {name}", _("{option} is given twice ({before} before the command, "
                                                "{after} after it): give it once").format(
                option=flag, before=given, after=again))
        moved += [flag] if given is None else [flag, given]
    return [name, *moved, *rest]


def _command_at(parser: argparse.ArgumentParser, argv: Sequence[str]) -> int | None:
    """Where the command stands in ``argv`` (None: no command, the lobby)."""
    for i, token in enumerate(argv):
        if token == "--":
            return None
        if token in COMMANDS and not (i > 0 and _takes_value(parser, argv[i - 1])):
            return i
    return None


def _given(command: argparse.ArgumentParser, rest: Sequence[str], action: argparse.Action) -> str | None:
    """The value ``action`` has among ``rest`` (``""`` for a flag), None if it is not there."""
    for i, token in enumerate(rest):
        if token == "--":
            break
        flag, eq, value = token.partition("=")
        if flag in action.option_strings:
            if action.nargs == 0:
                return ""
            return value if eq else (rest[i + 1] if i + 1 < len(rest) else "")
    return None


def _refuse(prog: str, message: str) -> int:
    """A refused command line: one line on stderr, in the player's language; status 2."""
    from tarock.client.errors import argparse_text

    print(f"{prog}: {argparse_text(message)}", file=sys.stderr, flush=True)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tarock`` command; return the exit status."""
    _tolerant_streams()
    argv = list(sys.argv[1:] if argv is None else argv)
    from tarock.client.i18n import choose_language, set_language  # a catalogue, read once

    try:
        set_language(choose_language(_language_flag(argv)))
    except ValueError as exc:
        print(f"tarock: {exc}", file=sys.stderr, flush=True)
        return 2
    parser = build_parser()
    try:
        args = parser.parse_args(command_line(parser, argv))
    except UsageLine as exc:  # the top parser sees words after the command it does not know
        named = next((t for t in argv if t in COMMANDS), None) if exc.prog == "tarock" else None
        return _refuse(f"tarock {named}" if named else exc.prog, str(exc))
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 2
    twice = _plugins_flag(args)
    if twice is not None:
        refusal = _("--plugins is given twice ({before} before the command, {after} after it): "
                    "give it once").format(before=twice[0], after=twice[1])
        print(f"tarock: {refusal}", file=sys.stderr, flush=True)
        return 2
    args.full_screen = _full_screen(args)
    if args.command is None and not args.full_screen:
        parser.print_help()
        return 2
    run: Runner = args.run if args.command is not None else _run_local  # the lobby
    try:
        return run(args)
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr, flush=True)
        return 130
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
