"""The words a table is shown in: the unit of its amounts, the names of its
Kontra levels, its premiums, and what the record vocabulary's less obvious
actions mean.

The client never asks which variant is played.  What differs is read from
the table's rule facts (:class:`core.facts.RuleFacts`):

- :class:`core.facts.VariantFacts` ``money``: the unit of settlements, the
  score sheet and the standings, e.g. ``"ct"`` (cents) in Königrufen; empty:
  game points, shown as bare numbers; ``kontra_words``: the names of the
  Kontra levels from level 1 up, e.g. ``("Kontra", "Re")``.
- the premiums (:class:`core.contracts.PremiumSpec`): their titles and
  descriptions, for the choices and the help.

Everything else comes from the action vocabulary of docs/records.md: the
pseudo-contract ``vorhand`` ("Vorhand!"), ``pass`` as "Gut!" in the
``announce`` phase, the Kontra targets (:class:`core.actions.KontraTarget`:
the game, an announcement, one declarer's game ``game@N`` or the answer to
one opponent's Kontra ``re@N``) and the premium names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.actions import Action, Kontra, KontraTarget
from core.auction import VORHAND
from core.facts import KONTRA_WORDS, RuleFacts, VariantFacts

__all__ = ["MONEY_NAMES", "NOISE", "PREMIUMS", "PREMIUM_ALIASES", "VORHAND", "Terms", "kontra_choice_text",
           "kontra_meaning", "pair_levels", "pair_target", "premium_label", "premium_meaning",
           "premium_words", "signed", "target_text"]

MONEY_NAMES: Mapping[str, str] = {"ct": "cents"}
"""Long names of money units, for headings."""

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
"""What the premium names of Königrufen's record vocabulary mean (shown in help where
the table's premium has no description of its own)."""

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


def premium_label(name: str, rules: RuleFacts | None) -> str:
    """The table's title of premium ``name`` where it says more than the name
    (``König Ultimo`` for ``king``), else empty."""
    spec = rules.premium(name) if rules is not None else None
    if spec is None or spec.title.casefold() == name.casefold():
        return ""
    return spec.title


def premium_meaning(name: str, rules: RuleFacts | None) -> str:
    """What announcing ``name`` means at this table: its title and description
    from the rule facts (or the vocabulary's meaning), ``announce it`` failing both."""
    spec = rules.premium(name) if rules is not None else None
    if spec is not None and spec.description:
        return f"{spec.title} ({spec.description})"
    if name in PREMIUMS:
        return PREMIUMS[name]
    return spec.title if spec is not None else "announce it"


def pair_target(target: KontraTarget) -> tuple[str, int] | None:
    """``("game", 2)`` for a Kontra on declarer 2's game, ``("re", 3)`` for the
    Re on seat 3's Kontra; None for the game's and the announcements' chains."""
    if target.declarer is not None:
        return "game", target.declarer
    if target.answer is not None:
        return "re", target.answer
    return None


def pair_levels(history: Sequence[Action]) -> dict[tuple[int, int], int]:
    """Per-pair Kontras said so far: (declarer, opponent) -> level (1 Kontra, 2 Re).

    ``kontra game@D`` by seat X is X's Kontra on declarer D's game;
    ``kontra re@X`` by D is D's Re on it (docs/records.md).
    """
    out: dict[tuple[int, int], int] = {}
    for action in history:
        if not isinstance(action, Kontra):
            continue
        target = action.target
        if target.declarer is not None:
            out[(target.declarer, action.seat)] = 1
        elif target.answer is not None:
            out[(action.seat, target.answer)] = 2
    return out


def _seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def target_text(target: KontraTarget, names: Sequence[str], terms: Terms) -> str:
    """A Kontra's target in words: ``on Hilde's game``, ``on Sepp's Kontra``,
    ``on trull``, or nothing for the game's own chain."""
    pair = pair_target(target)
    if pair is not None:
        kind, seat = pair
        name = _seat_name(names, seat)
        return f"on {name}'s game" if kind == "game" else f"on {name}'s {terms.kontra(1)}"
    return f"on {target.name}" if target.name else ""


def kontra_meaning(target: KontraTarget, names: Sequence[str], terms: Terms, level: int) -> str:
    """What a Kontra on ``target`` does (``level``: the level it reaches)."""
    pair = pair_target(target)
    if pair is not None:
        kind, other = pair
        name = _seat_name(names, other)
        if kind == "game":
            return f"{terms.kontra(1)} on {name}'s game: doubles it between {name} and you only"
        return f"{terms.kontra(2)} on {name}'s {terms.kontra(1)}: doubles it again between {name} and you"
    what = f"the announced {target.name}" if target.name else "the game"
    return f"{terms.kontra(level) or 'Kontra'} on {what}"


def kontra_choice_text(target: KontraTarget, names: Sequence[str], terms: Terms, level: int) -> str:
    """A Kontra choice as listed: ``kontra trull (Rekontra)``, a per-pair one explained."""
    if pair_target(target) is not None:
        return f"kontra {target.to_data()} ({kontra_meaning(target, names, terms, level)})"
    word = terms.kontra(level)
    shown = f"kontra {target.name}" if target.name else "kontra"
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
