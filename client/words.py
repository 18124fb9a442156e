"""The words a table is shown in: the unit of its amounts, the names of its
Kontra levels, and what the record vocabulary's less obvious actions mean.

The client never asks which variant is played.  What differs is read from
the ruleset's options, which a variant declares through ``tarock_options``:

``money_unit``
    The unit of settlements, the score sheet and the standings, e.g. ``"ct"``
    (cents) in Königrufen; absent or empty: game points, shown as bare
    numbers.
``kontra_words``
    The names of the Kontra levels from level 1 up, e.g. ``["Kontra", "Re"]``;
    absent: Kontra, Rekontra, Subkontra, Re-Sub.

Everything else comes from the action vocabulary of docs/records.md: the
pseudo-contract ``vorhand`` ("Vorhand!"), ``pass`` as "Gut!" in the
``announce`` phase, the per-pair Kontra targets ``game@N`` and ``re@N``,
and the premium names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.facts import KONTRA_WORDS, VariantFacts

MONEY_NAMES: Mapping[str, str] = {"ct": "cents"}
"""Long names of money units, for headings."""

VORHAND = "vorhand"
"""The pseudo-contract of the forehand's "Vorhand!"."""

PREMIUMS: Mapping[str, str] = {
    "trull": "Trull (Pagat, Mond and Sküs in the own party's tricks)",
    "kings": "4 Könige (all four Kings in the own party's tricks)",
    "absolut": "Absolut (45 2/3 points or more)",
    "grammopoi": "Grammopoi (55 2/3 points or more, with the Absolut)",
    "king": "König Ultimo (the called King wins the last trick)",
    "pagat": "Pagat Ultimo (the I wins the last trick)",
    "uhu": "Uhu (the II wins the second-last trick)",
    "kakadu": "Kakadu (the III wins the third-last trick)",
    "marabu": "Marabu (the IIII wins the fourth-last trick)",
    "mondfang": "Mondfang (the Mond is caught by the other party)",
    "valat": "Valat (all tricks)",
}
"""What each premium name of the record vocabulary means (shown in help)."""

PREMIUM_LABELS: Mapping[str, str] = {
    "king": "König Ultimo", "kings": "4 Könige", "pagat": "Pagat Ultimo", "uhu": "Uhu, the II",
    "kakadu": "Kakadu, the III", "marabu": "Marabu, the IIII",
}
"""Short labels for the premium names that do not speak for themselves (numbered choices)."""

PREMIUM_ALIASES: Mapping[str, str] = {
    "könig": "king", "koenig": "king", "konig": "king", "spatz": "pagat", "dreier": "kakadu",
    "vierer": "marabu", "könige": "kings", "koenige": "kings", "konige": "kings",
}
"""Other words a player may write for a premium (``announce könig``)."""

NOISE: frozenset[str] = frozenset({"ultimo", "4", "vier"})
"""Words dropped from a written premium (``pagat ultimo``, ``4 könige``)."""


def signed(n: int) -> str:
    """``+3``, ``-2``, ``0``."""
    return f"{n:+d}" if n else "0"


@dataclass(frozen=True, slots=True)
class Terms:
    """How one ruleset's amounts and Kontra levels are written (module docstring)."""

    money: str = ""
    kontra_words: tuple[str, ...] = KONTRA_WORDS

    @classmethod
    def of(cls, facts: VariantFacts) -> Terms:
        """The terms a ruleset's facts declare (money unit, names of the Kontra levels)."""
        return cls(facts.money, facts.kontra_words or KONTRA_WORDS)

    @property
    def unit_name(self) -> str:
        """``cents`` for ``ct``; empty for game points."""
        return MONEY_NAMES.get(self.money, self.money)

    def amount(self, n: int) -> str:
        """A signed amount with its unit: ``+30 ct``, ``-2``."""
        return f"{signed(n)} {self.money}" if self.money else signed(n)

    def kontra(self, level: int) -> str:
        """The name of Kontra ``level`` (1 = Kontra); ``x2**level`` beyond the named ones."""
        if 1 <= level <= len(self.kontra_words):
            return self.kontra_words[level - 1]
        return "" if level <= 0 else f"x{2 ** level}"


def pair_target(target: str) -> tuple[str, int] | None:
    """``("game", 2)`` for ``game@2``, ``("re", 3)`` for ``re@3``; None for other targets."""
    kind, at, seat = target.partition("@")
    if at and kind in ("game", "re") and seat.isdigit():
        return kind, int(seat)
    return None


def pair_levels(history: Sequence[Any]) -> dict[tuple[int, int], int]:
    """Per-pair Kontras said so far: (declarer, opponent) -> level (1 Kontra, 2 Re).

    ``kontra game@D`` by seat X is X's Kontra on declarer D's game;
    ``kontra re@X`` by D is D's Re on it (docs/records.md).
    """
    out: dict[tuple[int, int], int] = {}
    for action in history:
        target = getattr(action, "target", None)
        if getattr(action, "type", "") != "kontra" or not isinstance(target, str):
            continue
        pair = pair_target(target)
        if pair is None:
            continue
        kind, seat = pair
        if kind == "game":
            out[(seat, action.seat)] = 1
        else:
            out[(action.seat, seat)] = 2
    return out


def target_text(target: str, names: Sequence[str], terms: Terms) -> str:
    """A Kontra's target in words: ``on Hilde's game``, ``on Sepp's Kontra``,
    ``on trull``, or nothing for the game's own chain."""
    pair = pair_target(target)
    if pair is not None:
        kind, seat = pair
        name = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
        return f"on {name}'s game" if kind == "game" else f"on {name}'s {terms.kontra(1)}"
    return f"on {target}" if target else ""


def kontra_meaning(target: str, names: Sequence[str], terms: Terms, level: int) -> str:
    """What a Kontra on ``target`` does (``level``: the level it reaches)."""
    pair = pair_target(target)
    if pair is not None:
        kind, other = pair
        name = names[other] if 0 <= other < len(names) else f"seat {other}"
        if kind == "game":
            return f"{terms.kontra(1)} on {name}'s game: doubles it between {name} and you only"
        return f"{terms.kontra(2)} on {name}'s {terms.kontra(1)}: doubles it again between {name} and you"
    what = f"the announced {target}" if target else "the game"
    return f"{terms.kontra(level) or 'Kontra'} on {what}"


def kontra_choice_text(target: str, names: Sequence[str], terms: Terms, level: int) -> str:
    """A Kontra choice as listed: ``kontra trull (Rekontra)``, a per-pair one explained."""
    if pair_target(target) is not None:
        return f"kontra {target} ({kontra_meaning(target, names, terms, level)})"
    word = terms.kontra(level)
    shown = f"kontra {target}" if target else "kontra"
    return f"{shown} ({word})" if word else shown


def premium_words(words: Sequence[str]) -> list[str]:
    """Written premium names in the record's words: ``könig ultimo`` -> ``king``,
    ``4 könige`` -> ``kings``, ``spatz`` -> ``pagat``."""
    out: list[str] = []
    for word in words:
        if word in NOISE:
            continue
        out.append(PREMIUM_ALIASES.get(word, word))
    return out
