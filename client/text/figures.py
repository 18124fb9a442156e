"""How figures are written: the two styles of marks, numbers with their
fractions, signed amounts and card points."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Style:
    """The marks a client writes: the minus sign, the times sign, the arrow
    to a trick's winner, what separates the plays of a trick, and whether
    cards show their suit symbols (``♥K``) or are written as typed (``hK``)."""

    minus: str
    times: str
    arrow: str
    between: str
    symbols: bool


PLAIN = Style(minus="-", times="x", arrow="->", between=", ", symbols=False)
"""The line client's marks: plain characters, for scripts and screen readers."""
SYMBOLS = Style(minus="−", times="×", arrow="→", between=" · ", symbols=True)
"""The full-screen client's marks."""

_GLYPHS = {Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔",
           Fraction(1, 4): "¼", Fraction(3, 4): "¾"}


def number_text(x: Fraction | int, style: Style = PLAIN) -> str:
    """``3``, ``1½``, ``2⅓``, ``-¾``; other fractions as ``5 2/7``."""
    x = Fraction(x)
    sign = style.minus if x < 0 else ""
    x = abs(x)
    whole, rest = divmod(x, 1)
    if rest == 0:
        return f"{sign}{whole}"
    glyph = _GLYPHS.get(rest)
    if glyph is not None:
        return f"{sign}{whole or ''}{glyph}"
    return f"{sign}{whole} {rest}" if whole else f"{sign}{rest}"


def signed(n: int | Fraction, style: Style = PLAIN) -> str:
    """``+3``, ``-2``, ``0``."""
    if not n:
        return "0"
    return ("+" if n > 0 else "") + number_text(n, style)


def points_text(units: int, unit: int, style: Style = PLAIN) -> str:
    """Card points given in units (``unit`` units make a point)."""
    return number_text(Fraction(units, unit), style)


def factor_text(factor: int, style: Style = PLAIN) -> str:
    """A multiplier: ``x4`` (``×4``)."""
    return f"{style.times}{factor}"
