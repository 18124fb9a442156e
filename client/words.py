"""The words a table is shown in, and the words a player may type.

The client never asks which variant is played.  What differs is read from
the table's rule facts (:class:`core.facts.RuleFacts`):

- :class:`core.facts.VariantFacts` ``money``: the unit of settlements, the
  score sheet and the standings, e.g. ``"ct"`` (cents) in Königrufen; empty:
  game points, shown as bare numbers; ``kontra_words``: the names of the
  Kontra levels from level 1 up, e.g. ``("Kontra", "Re")``.
- the contracts and premiums: their titles and descriptions.

Every word goes through the catalogue (:mod:`client.i18n`): the unit and
the Kontra words with their contexts (``money``, ``kontra``), titles with
``game`` and ``premium``, the client's sentences as plain messages.

What a player types is read in every language the catalogue has, the
player's own and English whatever the language shown (scripts write
English): the command words are messages of context ``typed`` (``pass``
is ``weiter`` in German, ``bid`` is left out, ``call`` is ``rufe``), and a
game or premium is written as its title in any language, hyphens for
spaces (``solo-mit-pagat``, ``vier-könige``, ``four-kings``), or by its
record name (``solo-pagat``, ``kings``).  The record vocabulary's Kontra
targets (docs/records.md: ``game@N``, ``re@N``) take the typed word for
``game`` (``spiel@N`` in German).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from tarock.client.i18n import LANGUAGES, NP_, Catalogue, _, language, p_
from tarock.core.actions import Action, Kontra, KontraTarget
from tarock.core.auction import VORHAND
from tarock.core.facts import KONTRA_WORDS, RuleFacts, VariantFacts

__all__ = ["MONEY_NAMES", "NOISE", "PREMIUMS", "PREMIUM_ALIASES", "TYPED", "VORHAND", "Terms", "game_names",
           "game_title", "game_token", "is_you", "kontra_choice_text", "kontra_meaning", "pair_levels",
           "pair_target", "premium_meaning", "premium_names", "premium_title", "premium_token",
           "premium_words", "signed", "target_text", "target_token", "token", "typed_word", "typed_words"]

MONEY_NAMES: Mapping[str, str] = {"ct": NP_("money-name", "cents")}
"""Long names of money units, for headings."""

PREMIUMS: Mapping[str, str] = {
    "trull": NP_("premium-meaning", "Pagat, Mond and Sküs in the own party's tricks"),
    "kings": NP_("premium-meaning", "all four Kings in the own party's tricks"),
    "absolut": NP_("premium-meaning", "45 2/3 points or more"),
    "grammopoi": NP_("premium-meaning", "55 2/3 points or more, with the Absolut"),
    "king": NP_("premium-meaning", "the called King wins the last trick"),
    "pagat": NP_("premium-meaning", "the I wins the last trick"),
    "uhu": NP_("premium-meaning", "the II wins the second-last trick"),
    "kakadu": NP_("premium-meaning", "the III wins the third-last trick"),
    "marabu": NP_("premium-meaning", "the IIII wins the fourth-last trick"),
    "mondfang": NP_("premium-meaning", "the Mond is caught by the other party"),
    "valat": NP_("premium-meaning", "all tricks"),
}
"""What the premium names of Königrufen's record vocabulary mean (shown in help where
the table's premium has no description of its own)."""

PREMIUM_ALIASES: Mapping[str, str] = {
    "könig": "king", "koenig": "king", "konig": "king", "spatz": "pagat", "dreier": "kakadu",
    "vierer": "marabu", "könige": "kings", "koenige": "kings", "konige": "kings",
}
"""Other words a player may write for a premium (``announce könig``)."""

NOISE: frozenset[str] = frozenset({"ultimo", "4", "vier", "four"})
"""Words dropped from a written premium (``pagat ultimo``, ``4 könige``)."""

TYPED: tuple[str, ...] = (
    NP_("typed", "pass"), NP_("typed", "gut"), NP_("typed", "vorhand"), NP_("typed", "bid"),
    NP_("typed", "announce"), NP_("typed", "against"), NP_("typed", "kontra"), NP_("typed", "re"),
    NP_("typed", "on"), NP_("typed", "game"), NP_("typed", "call"), NP_("typed", "discard"),
    NP_("typed", "play"), NP_("typed", "talon"), NP_("typed", "half"), NP_("typed", "give up"),
    NP_("typed", "trump"), NP_("typed", "bei"), NP_("typed", "hand"), NP_("typed", "sheet"),
    NP_("typed", "help"), NP_("typed", "quit"),
)
"""The command words a player types, as messages: each language writes them its own way."""


def signed(n: int) -> str:
    """``+3``, ``-2``, ``0``."""
    return f"{n:+d}" if n else "0"


# -- the table's words ------------------------------------------------------------------

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
    def unit(self) -> str:
        """The unit after an amount (``ct``), in the player's language; empty for game points."""
        return p_("money", self.money) if self.money else ""

    @property
    def unit_name(self) -> str:
        """``cents`` for ``ct``; empty for game points."""
        if self.money in MONEY_NAMES:
            return p_("money-name", MONEY_NAMES[self.money])
        return self.unit

    def amount(self, n: int) -> str:
        """A signed amount with its unit: ``+30 ct``, ``-2``."""
        return f"{signed(n)} {self.unit}" if self.money else signed(n)

    def kontra(self, level: int) -> str:
        """The name of Kontra ``level`` (1 = Kontra); ``x2**level`` beyond the named ones."""
        if 1 <= level <= len(self.kontra_words):
            return p_("kontra", self.kontra_words[level - 1])
        return "" if level <= 0 else f"x{2 ** level}"


def game_title(name: str, rules: RuleFacts | None) -> str:
    """The title of contract ``name`` in the player's language (``Solo mit Pagat``)."""
    spec = rules.contract(name) if rules is not None else None
    return p_("game", spec.title) if spec is not None else p_("game", name)


def premium_title(name: str, rules: RuleFacts | None) -> str:
    """The title of premium ``name`` in the player's language (``Vier Könige``)."""
    spec = rules.premium(name) if rules is not None else None
    return p_("premium", spec.title) if spec is not None else p_("premium", name)


def premium_meaning(name: str, rules: RuleFacts | None) -> str:
    """What announcing ``name`` means at this table: its title and description
    from the rule facts (or the vocabulary's meaning), ``announce it`` failing both."""
    spec = rules.premium(name) if rules is not None else None
    title = premium_title(name, rules)
    if spec is not None and spec.description:
        return f"{title} ({p_('premium-description', spec.description)})"
    if name in PREMIUMS:
        return f"{title} ({p_('premium-meaning', PREMIUMS[name])})"
    return title if spec is not None else _("announce it")


# -- typed words ------------------------------------------------------------------------

def catalogues() -> tuple[Catalogue, ...]:
    """The catalogues a typed word is read in: the player's language first, then every other."""
    return _catalogues_for(language())


@lru_cache(maxsize=4)
def _catalogues_for(current: str) -> tuple[Catalogue, ...]:
    return tuple(Catalogue(lang) for lang in dict.fromkeys((current, *LANGUAGES)))


def token(text: str) -> str:
    """A title as one typed word: ``Solo mit Pagat`` -> ``solo-mit-pagat``."""
    return "-".join(text.casefold().split())


def typed_word(msgid: str) -> str:
    """The command word ``msgid`` (one of :data:`TYPED`) as the player's language writes it."""
    return p_("typed", msgid)


def typed_words(msgid: str) -> frozenset[str]:
    """Every way of typing the command word ``msgid``: in each language, and as written here."""
    return _typed_words(msgid, language())


@lru_cache(maxsize=128)
def _typed_words(msgid: str, current: str) -> frozenset[str]:
    return frozenset({msgid.casefold(), *(c.get(msgid, "typed").casefold() for c in catalogues())})


def game_token(name: str, rules: RuleFacts | None) -> str:
    """How to type contract ``name`` in the player's language: its title as one word."""
    spec = rules.contract(name) if rules is not None else None
    return token(p_("game", spec.title)) if spec is not None else name


def premium_token(name: str, rules: RuleFacts | None) -> str:
    """How to type premium ``name`` in the player's language: its title as one word."""
    spec = rules.premium(name) if rules is not None else None
    return token(p_("premium", spec.title)) if spec is not None else name


def _names(pairs: Iterable[tuple[str, str]], context: str) -> dict[str, str]:
    """Typed word -> name: the record names first, then each title in every language."""
    pairs = list(pairs)
    out = {name.casefold(): name for name, _title in pairs}
    for catalogue in catalogues():
        for name, title in pairs:
            out.setdefault(token(catalogue.get(title, context)), name)
    for name, title in pairs:
        out.setdefault(token(title), name)
    return out


def game_names(rules: RuleFacts | None) -> dict[str, str]:
    """Every typed word for the table's contracts -> the contract's name."""
    if rules is None:
        return {}
    return _names(((c.name, c.title) for c in rules.contracts), "game")


def premium_names(rules: RuleFacts | None) -> dict[str, str]:
    """Every typed word for the table's premiums -> the premium's name."""
    if rules is None:
        return {}
    return _names(((p.name, p.title) for p in rules.premiums), "premium")


def premium_words(words: Sequence[str], rules: RuleFacts | None = None) -> list[str]:
    """Written premiums as their names: titles in any language (``vier könige``,
    ``four-kings``), record names, and the aliases (``könig ultimo`` -> ``king``,
    ``spatz`` -> ``pagat``); a word that names nothing is kept as written."""
    known = premium_names(rules)
    out: list[str] = []
    i = 0
    while i < len(words):
        for n in range(len(words) - i, 0, -1):
            joined = "-".join(words[i:i + n])
            if joined in known:
                out.append(known[joined])
                i += n
                break
        else:
            word = words[i]
            i += 1
            if word not in NOISE:
                out.append(PREMIUM_ALIASES.get(word, word))
    return out


# -- Kontras ------------------------------------------------------------------------------

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


def is_you(name: str) -> bool:
    """Whether ``name`` is the catalogue's word for the player reading (``You``,
    ``Du``): a sentence about that seat is written in the second person."""
    return name == _("You")


def _seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("seat {n}").format(n=seat)


def target_token(target: KontraTarget, rules: RuleFacts | None) -> str:
    """A Kontra target as typed: ``game@2`` (``spiel@2``), ``re@3``, ``trull``; empty for the game."""
    pair = pair_target(target)
    if pair is not None:
        kind, seat = pair
        return f"{typed_word(kind)}@{seat}"
    return premium_token(target.name, rules) if target.name else ""


def target_text(target: KontraTarget, names: Sequence[str], terms: Terms,
                rules: RuleFacts | None = None) -> str:
    """A Kontra's target in words: ``on Hilde's game``, ``on Sepp's Kontra``,
    ``on Trull``, or nothing for the game's own chain."""
    pair = pair_target(target)
    if pair is not None:
        kind, seat = pair
        name = _seat_name(names, seat)
        if kind == "game":
            return _("on your game") if is_you(name) else _("on {name}'s game").format(name=name)
        if is_you(name):
            return _("on your {kontra}").format(kontra=terms.kontra(1))
        return _("on {name}'s {kontra}").format(name=name, kontra=terms.kontra(1))
    return _("on {premium}").format(premium=premium_title(target.name, rules)) if target.name else ""


def kontra_meaning(target: KontraTarget, names: Sequence[str], terms: Terms, level: int,
                   rules: RuleFacts | None = None) -> str:
    """What a Kontra on ``target`` does (``level``: the level it reaches)."""
    pair = pair_target(target)
    if pair is not None:
        kind, other = pair
        name = _seat_name(names, other)
        if kind == "game":
            return _("{kontra} on {name}'s game: doubles it between {name} and you only").format(
                kontra=terms.kontra(1), name=name)
        return _("{re} on {name}'s {kontra}: doubles it again between {name} and you").format(
            re=terms.kontra(2), kontra=terms.kontra(1), name=name)
    word = terms.kontra(level) or terms.kontra(1)
    if target.name:
        return _("{kontra} on the announced {premium}").format(
            kontra=word, premium=premium_title(target.name, rules))
    return _("{kontra} on the game").format(kontra=word)


def kontra_choice_text(target: KontraTarget, names: Sequence[str], terms: Terms, level: int,
                       rules: RuleFacts | None = None) -> str:
    """A Kontra choice as listed: ``kontra trull (Rekontra)``, a per-pair one explained."""
    shown = " ".join(w for w in (typed_word("kontra"), target_token(target, rules)) if w)
    if pair_target(target) is not None:
        return f"{shown} ({kontra_meaning(target, names, terms, level, rules)})"
    word = terms.kontra(level)
    return f"{shown} ({word})" if word else shown
