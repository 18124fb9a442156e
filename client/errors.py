"""Errors in the player's language: argparse's lines, the core's coded errors, a folder's failure.

The core knows no catalogue (the rooms of tests/test_import_graph.py): an error it raises for a
player carries a ``code`` and its ``params`` (:class:`~core.rule_errors.RuleError`,
:class:`~core.options.OptionError`), and :func:`error_text` writes it from the catalogue, seats
counted from 1 or named.  argparse writes its lines in English; :func:`argparse_text` matches
them and writes them in the player's language.  Whatever matches nothing is shown as it is.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tarock.client.i18n import NP_, _, fill, p_

log = logging.getLogger("tarock.client")

_ARGUMENT = re.compile(r"argument (?P<option>\S+): (?P<why>.*)", re.DOTALL)
ARGPARSE = (
    NP_("argparse", "invalid choice: {value} (choose from {choices})"),
    NP_("argparse", "expected one argument"), NP_("argparse", "invalid {kind} value: {value}"),
    NP_("argparse", "unrecognized arguments: {args}"),
    NP_("argparse", "the following arguments are required: {args}"),
    NP_("argparse", "expected at least one argument"), NP_("argparse", "expected at most one argument"),
    NP_("argparse", "ambiguous option: {option} could match {matches}"),
    NP_("argparse", "not allowed with argument {option}"),
    NP_("argparse", "ignored explicit argument {value}"))
"""argparse's own words (its English templates), for the catalogue: :func:`~client.i18n.fill` matches
a line against them and writes it in the player's language with its values."""


def argparse_text(message: str) -> str:
    """An argparse error line in the player's language (``argument X: why`` and the why)."""
    found = _ARGUMENT.fullmatch(message)
    if found is not None:
        why = argparse_text(found["why"])
        return p_("argparse", "argument {option}: {why}").format(option=found["option"], why=why)
    return fill(message, "argparse") or message


# -- the core's coded errors -----------------------------------------------------------------------

def _kind(kind: str) -> str:
    return {"bool": _("true or false"), "int": _("an integer"), "float": _("a number"),
            "str": _("a word"), "tuple": _("a list of words")}.get(kind, kind)


def allowed_text(params: Mapping[str, Any]) -> str:
    """What an option accepts, in words (``true or false``, ``one of "a", "b"``, ``an integer
    from 1 to 5``), from an :class:`~core.options.OptionError`'s params."""
    choices = params.get("choices") or ()
    if choices:
        return _("one of {values}").format(values=", ".join(str(c) for c in choices))
    text = _kind(str(params.get("kind", "")))
    low, high = params.get("minimum"), params.get("maximum")
    if low is not None and high is not None:
        return _("{kind} from {low} to {high}").format(kind=text, low=low, high=high)
    if low is not None:
        return _("{kind} of at least {low}").format(kind=text, low=low)
    if high is not None:
        return _("{kind} of at most {high}").format(kind=text, high=high)
    return text


def _where(params: Mapping[str, Any]) -> str:
    return str(params.get("where") or _("the built-in variants"))


def _option_value(p: Mapping[str, Any]) -> str:
    what = p.get("what") or ""
    text = _("option {name} must be {allowed}, not {value}") if not what else \
        _("option {name} ({what}) must be {allowed}, not {value}")
    return text.format(name=p["name"], what=what, allowed=allowed_text(p), value=p["value"])


_CODES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "unknown-variant": lambda p: _("unknown variant {name} (enabled in {where}: {enabled})").format(
        name=p["name"], where=_where(p), enabled=p.get("enabled") or _("none")),
    "not-enabled": lambda p: _("variant {name} is installed but not enabled in {where}: add it to "
                               "[plugins] enabled (enabled: {enabled})").format(
        name=p["name"], where=_where(p), enabled=p.get("enabled") or _("none")),
    "unknown-option": lambda p: _("unknown option(s) for {variant}: {names} (known: {known})").format(
        variant=p["variant"], names=p["names"], known=p.get("known") or _("none")),
    "option-value": _option_value,
}
"""Each code a player may meet, written from its params."""


def error_text(exc: BaseException) -> str:
    """``exc`` in the player's language: by its code where it has one, else as it reads."""
    code = getattr(exc, "code", "")
    params = getattr(exc, "params", None)
    write = _CODES.get(code) if isinstance(code, str) else None
    if write is not None and isinstance(params, Mapping):
        try:
            return write(params)
        except (KeyError, IndexError, ValueError):
            log.debug("error %r: its params %r do not fit its text; shown as it reads", code, params)
    return net_text(store_text(str(exc)))


# -- a folder or store that cannot be used (net.store_files words it) -------------------------------

_STORE = re.compile(r"cannot (?P<doing>write|read|open|use) the (?P<what>records folder|state folder|store) "
                    r"(?P<path>.+?): (?P<why>.+)", re.DOTALL)
_FILE = re.compile(r"cannot read (?P<path>.+?): (?P<why>[^:]+)", re.DOTALL)
_STORE_WORDS = (NP_("store", "records folder"), NP_("store", "state folder"), NP_("store", "store"),
                NP_("store", "a part of the path is a file, not a folder"),
                NP_("store", "it is a file, not a folder"), NP_("store", "it is read-only"),
                NP_("store", "No space left on device"), NP_("store", "Permission denied"),
                NP_("store", "Read-only file system"), NP_("store", "No such file or directory"),
                NP_("store", "the file cannot be opened"), NP_("store", "the file is damaged"))


def store_text(text: str) -> str:
    """A store's or folder's failure (``cannot write the records folder X: why``) in the
    player's language; any other text as it is."""
    found = _STORE.fullmatch(text)
    if found is None:
        plain = _FILE.fullmatch(text)
        if plain is not None:
            return _("cannot read {path}: {why}").format(path=plain["path"], why=p_("store", plain["why"]))
        return text
    what, why = p_("store", found["what"]), p_("store", found["why"])
    doing = {"write": _("cannot write the {what} {path}: {why}"),
             "read": _("cannot read the {what} {path}: {why}"),
             "open": _("cannot open the {what} {path}: {why}"),
             "use": _("cannot use the {what} {path}: {why}")}[found["doing"]]
    return doing.format(what=what, path=found["path"], why=why)


# -- the network's sentences about seats (net words them in English, seats counted from 0) ------------

_SEAT_NAMED = re.compile(r"\bseat (\d+) \(([^()]*)\)")
_SEAT = re.compile(r"\bseat (\d+)\b")
_SEATS = (NP_("net", "{who} is away: the hand cannot go on without it"),
          NP_("net", "{who} stalled its step of the deal for {s} s"),
          NP_("net", "{who} stalled its step of the hand for {s} s"),
          NP_("net", "{who} kept back its opening at the hand's end (a refused reveal) for {s} s"))
_LINKS = (NP_("net", "could not connect to {address}: no answer within {s} s"),
          NP_("net", "could not connect to {address}: Connection refused"),
          NP_("net", "could not connect to {address}: {why}"),
          NP_("net", "the host was lost during this deal; it is dealt again"))
_ADDRESS = (NP_("net", "empty address: expected HOST:PORT, for example 192.168.1.20:7654"),
            NP_("net", "{text}: '[' without ']' (IPv6 is written [ADDRESS]:PORT)"),
            NP_("net", "{text}: {host} inside [] is not an IPv6 address"),
            NP_("net", "{text}: no port (expected HOST:PORT, for example {example})"))
_PORT = (
    NP_("net", "{text}: an IPv6 address needs brackets, as in {example}"),
    NP_("net", "{text}: expected ':PORT' after ']'"), NP_("net", "{text}: the port is missing after ':'"),
    NP_("net", "{text}: the port {port} is not a number"),
    NP_("net", "{text}: the port {port} is not in {low}..65535"))
NET = _SEATS + _LINKS + _ADDRESS + _PORT
"""The network's sentences a player reads (its English words, seats already named), for the catalogue."""


def seat_words(text: str, names: Sequence[str]) -> str:
    """``seat 2 (Berta)`` and ``seat 2`` as the player's name (``Berta``), or as seat 3 where the
    name is not known (a player counts seats from 1)."""
    def named(found: re.Match[str]) -> str:
        return found[2] or seat_name(int(found[1]), names)

    text = _SEAT_NAMED.sub(named, text)
    return _SEAT.sub(lambda found: seat_name(int(found[1]), names), text)


def seat_name(seat: int, names: Sequence[str]) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else _("seat {n}").format(n=seat + 1)


def net_text(text: str, names: Sequence[str] = ()) -> str:
    """A sentence of the network (a void deal's reason) in the player's language, seats by name."""
    text = seat_words(text, names)
    return fill(text, "net") or text


__all__ = ["NP_", "allowed_text", "argparse_text", "error_text", "net_text", "seat_words", "store_text"]
