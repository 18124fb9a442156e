"""The words a player may type, and what they mean at this table.

The words the table is shown in (titles, Kontra levels, amounts) are the
text layer's (:mod:`client.text`); this module reads what a player writes.
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
from functools import lru_cache

from tarock.client.i18n import LANGUAGES, NP_, Catalogue, _, language, p_
from tarock.client.text.actions import pair_target
from tarock.client.text.rule_words import Terms, premium_title, seat_name
from tarock.core.actions import KontraTarget
from tarock.core.facts import RuleFacts

__all__ = ["NOISE", "PREMIUMS", "PREMIUM_ALIASES", "TYPED", "game_names", "game_token",
           "kontra_choice_text", "kontra_meaning", "premium_meaning", "premium_names", "premium_token",
           "premium_words", "target_token", "token", "typed_word", "typed_words"]

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


def target_token(target: KontraTarget, rules: RuleFacts | None) -> str:
    """A Kontra target as typed: ``game@2`` (``spiel@2``), ``re@3``, ``trull``; empty for the game."""
    pair = pair_target(target)
    if pair is not None:
        kind, seat = pair
        return f"{typed_word(kind)}@{seat}"
    return premium_token(target.name, rules) if target.name else ""


def kontra_meaning(target: KontraTarget, names: Sequence[str], terms: Terms, level: int,
                   rules: RuleFacts | None = None) -> str:
    """What a Kontra on ``target`` does (``level``: the level it reaches)."""
    pair = pair_target(target)
    if pair is not None:
        kind, other = pair
        name = seat_name(names, other)
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
