"""Argument types of the ``tarock`` commands: each refuses a bad value with one line.

argparse calls them while it reads the command line; an :class:`argparse.ArgumentTypeError`
becomes ``tarock CMD: error: argument --rounds: ...`` and exit status 2, before anything
is opened, bound or written.  The limits are those of the network: a value a command
accepts is one its node can announce and send (``net.advert``, ``net.protocol.messages``).
The messages are in the player's language (:mod:`client.cli` chooses it before it reads
the command line, and writes argparse's own words around them in it too).
"""

from __future__ import annotations

import argparse
import math
import unicodedata
from collections.abc import Callable

from tarock.client.i18n import _
from tarock.net.advert import MAX_ROUNDS
from tarock.net.protocol.messages import MAX_INT, MAX_NAME
from tarock.net.transport import PeerAddress

__all__ = ["MAX_NAME", "MAX_PIN", "MAX_ROUNDS", "MAX_SECONDS", "address", "count", "name", "pin", "port",
           "rounds", "seconds", "seed"]

MAX_SECONDS = 86_400.0
"""Longest time any option may give (a day): more is a typing error, not a wish."""
MAX_PIN = 64
"""Longest PIN of a private table, in characters."""


def _integer(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a whole number").format(text=repr(text))) from None


def count(low: int, high: int) -> Callable[[str], int]:
    """A whole number in ``low..high``."""
    def parse(text: str) -> int:
        n = _integer(text)
        if not low <= n <= high:
            why = _("must be {low}..{high}, not {n}").format(low=low, high=high, n=n)
            raise argparse.ArgumentTypeError(why)
        return n
    parse.__name__ = f"count {low}..{high}"
    return parse


rounds = count(1, MAX_ROUNDS)
"""Rounds of a table: 1 to the most a table's advert can announce."""
seed = count(0, MAX_INT)
"""A seed: 0 to the largest integer a record or message holds exactly."""
port = count(0, 65535)
"""A TCP port to listen on (0: any free one)."""


def seconds(low: float, high: float = MAX_SECONDS) -> Callable[[str], float]:
    """A finite number of seconds in ``low..high``."""
    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            why = _("{text} is not a number of seconds").format(text=repr(text))
            raise argparse.ArgumentTypeError(why) from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(_("must be {low}..{high} seconds, not {value}").format(
                low=f"{low:g}", high=f"{high:g}", value=text.strip()))
        return value
    parse.__name__ = f"seconds {low:g}..{high:g}"
    return parse


def _unprintable(text: str) -> str | None:
    """The first control, format or other invisible character of ``text``, named (None if none)."""
    for c in text:
        if unicodedata.category(c).startswith("C") or (not c.isprintable() and c != " "):
            return f"U+{ord(c):04X}" + (f" {unicodedata.name(c)}" if unicodedata.name(c, "") else "")
    return None


def name(text: str) -> str:
    """A player's or a table's name, blanks around it removed: 1 to ``MAX_NAME`` characters
    (the longest a hello or a table's info carries), none of them a control or format
    character (Unicode categories C*) or another that cannot be shown."""
    value = text.strip()
    if not value:
        raise argparse.ArgumentTypeError(_("a name must not be empty"))
    if len(value) > MAX_NAME:
        raise argparse.ArgumentTypeError(_("a name may have at most {most} characters, not {n}").format(
            most=MAX_NAME, n=len(value)))
    bad = _unprintable(value)
    if bad is not None:
        why = _("a name must not hold control or format characters ({bad})").format(bad=bad)
        raise argparse.ArgumentTypeError(why)
    return value


def pin(text: str) -> str:
    """A private table's PIN: 1 to ``MAX_PIN`` characters, none a control or format character."""
    if not 1 <= len(text) <= MAX_PIN:
        raise argparse.ArgumentTypeError(_("a PIN has 1..{most} characters, not {n}").format(
            most=MAX_PIN, n=len(text)))
    bad = _unprintable(text)
    if bad is not None:
        raise argparse.ArgumentTypeError(_("a PIN must not hold control or format characters ({bad})").format(
            bad=bad))
    return text


def address(text: str) -> str:
    """``HOST:PORT`` (or ``[IPv6]:PORT``) of another node, as typed; checked, not resolved."""
    try:
        PeerAddress.parse(text)
    except ValueError as exc:
        from tarock.client.errors import net_text

        raise argparse.ArgumentTypeError(net_text(str(exc))) from None
    return text
