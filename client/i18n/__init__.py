"""The one catalogue of every string the full-screen client shows.

The messages are gettext catalogues (``client/i18n/<lang>.po``, read with
polib, so translators use the usual tools and no build step is needed):
the source strings (msgids) are English; ``de.po`` translates every one of
them, ``en.po`` only the strings whose source is not English (the German
names of games and premiums in the rules' data, for instance).

- ``_(text)``: a message of the client;
- ``n_(singular, plural, n)``: one with a plural;
- ``p_(context, text)``: a message in a context; the rules' data goes
  through it with the kind of datum as context (``game``, ``premium``,
  ``option``, ``variant``, ``holding``, ``reason``, ``note``, ``card``...),
  so a contract's title is translated like any other message and a house
  rule's own strings show as they are written until a catalogue has them.

Placeholders are ``str.format`` fields (``{name}``); a translation keeps
the same fields (tests/test_i18n.py checks it).  A sentence the rules write
from a template with figures (context ``reason-template``) is translated as
it arrives, over the network too: :func:`fill` matches it against the
templates and writes the figures into the translation.  The language is German by
default, English with ``--lang en`` or an English locale
(:func:`choose_language`).  The pseudo language ``qps`` (tests only) turns
every message of the catalogue into look-alike letters, so a string shown
on screen without them is one that bypassed the catalogue.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import polib

LANGUAGES: tuple[str, ...] = ("de", "en")
"""The languages a player may choose."""
DEFAULT = "de"
PSEUDO = "qps"
"""The test language: every catalogue message in look-alike letters."""
HERE = Path(__file__).resolve().parent

_FIELD = re.compile(r"(\{[^{}]*\})")
_PSEUDO_MAP = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "ÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽåƀçđéƒĝĥîĵķļṁñöþǫŕšţûṽŵẋýž",
)


def pseudo(text: str) -> str:
    """``text`` in look-alike letters, its ``{fields}`` kept."""
    return "".join(
        part if _FIELD.fullmatch(part) else part.translate(_PSEUDO_MAP) for part in _FIELD.split(text)
    )


TEMPLATE_CONTEXT = "reason-template"
"""The context of the rules' sentences made from a template with ``{fields}``."""
_NAMED_FIELD = re.compile(r"\{(\w+)\}")
_DECIMAL = re.compile(r"[+-]?\d+\.\d+")
DECIMAL_COMMA = frozenset({"de"})
"""Languages that write a decimal comma."""

Key = tuple[str, str]
"""(context, msgid); the context is ``""`` for plain messages."""


def po_path(lang: str) -> Path:
    return HERE / f"{lang}.po"


@lru_cache(maxsize=4)
def _entries(lang: str) -> tuple[Mapping[Key, str], Mapping[Key, tuple[str, ...]]]:
    """The translated messages of ``lang``: singular and plural forms by key."""
    path = po_path(lang)
    single: dict[Key, str] = {}
    plural: dict[Key, tuple[str, ...]] = {}
    if not path.exists():
        return single, plural
    for entry in polib.pofile(str(path)):
        if entry.obsolete or "fuzzy" in entry.flags:
            continue
        key = (entry.msgctxt or "", entry.msgid)
        if entry.msgid_plural:
            forms = tuple(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural))
            if all(forms):
                plural[key] = forms
        elif entry.msgstr:
            single[key] = entry.msgstr
    return single, plural


def _template_pattern(template: str) -> re.Pattern[str]:
    """A pattern that matches the sentences ``template`` writes: each
    ``{field}`` a named group, the rest literal."""
    parts: list[str] = []
    seen: set[str] = set()
    last = 0
    for field in _NAMED_FIELD.finditer(template):
        parts.append(re.escape(template[last:field.start()]))
        name = field.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        last = field.end()
    parts.append(re.escape(template[last:]))
    return re.compile("".join(parts), re.DOTALL)


@lru_cache(maxsize=8)
def _templates(lang: str, context: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The translated templates of ``context`` in ``lang``, as patterns, longest first."""
    single, _plural = _entries(lang)
    found = [(msgid, text) for (ctx, msgid), text in single.items() if ctx == context]
    found.sort(key=lambda item: -len(item[0]))
    return tuple((_template_pattern(msgid), text) for msgid, text in found)


class Catalogue:
    """The messages of one language."""

    def __init__(self, lang: str) -> None:
        if lang not in (*LANGUAGES, PSEUDO):
            raise ValueError(f"no catalogue for language {lang!r} (known: {', '.join(LANGUAGES)})")
        self.lang = lang
        self._single, self._plural = _entries(lang) if lang != PSEUDO else ({}, {})

    def get(self, msgid: str, context: str = "") -> str:
        if not msgid:
            return ""
        if self.lang == PSEUDO:
            return pseudo(msgid)
        return self._single.get((context, msgid), msgid)

    def fill(self, text: str, context: str = TEMPLATE_CONTEXT) -> str | None:
        """``text`` translated by the template of ``context`` it was written
        from, with its figures kept; None if it matches no template."""
        if self.lang == PSEUDO:
            return pseudo(text)
        for pattern, translation in _templates(self.lang, context):
            if (found := pattern.fullmatch(text)) is not None:
                return translation.format(**{k: self.number(v) for k, v in found.groupdict().items()})
        return None

    def number(self, figure: str) -> str:
        """A figure written with this language's decimal mark (``56.1`` is ``56,1`` in German)."""
        if self.lang in DECIMAL_COMMA and _DECIMAL.fullmatch(figure):
            return figure.replace(".", ",")
        return figure

    def nget(self, singular: str, plural: str, n: int, context: str = "") -> str:
        if self.lang == PSEUDO:
            return pseudo(singular if n == 1 else plural)
        forms = self._plural.get((context, singular))
        if forms:  # both languages here: nplurals=2; plural=(n != 1)
            return forms[0 if n == 1 else min(1, len(forms) - 1)]
        return singular if n == 1 else plural


_current = Catalogue(DEFAULT)


def set_language(lang: str) -> None:
    """Show every message in ``lang`` from now on."""
    global _current
    _current = Catalogue(lang)


def language() -> str:
    """The language messages are shown in."""
    return _current.lang


def choose_language(flag: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """``--lang`` if given, else English where the locale is English, else German.

    The locale is read as gettext does: ``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``, the first one set.
    """
    if flag:
        lang = flag.strip().lower().replace("_", "-").split("-")[0]
        if lang not in (*LANGUAGES, PSEUDO):
            raise ValueError(f"--lang {flag}: no catalogue for it (known: {', '.join(LANGUAGES)})")
        return lang
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            first = value.split(":")[0].lower()
            return "en" if first.startswith("en") else DEFAULT
    return DEFAULT


def _(msgid: str) -> str:
    """The message ``msgid`` in the current language."""
    return _current.get(msgid)


def n_(singular: str, plural: str, n: int) -> str:
    """The singular or plural message for ``n`` in the current language."""
    return _current.nget(singular, plural, n)


def p_(context: str, msgid: str) -> str:
    """The message ``msgid`` in ``context`` (rule data: the kind of datum)."""
    return _current.get(msgid, context)


def fill(text: str, context: str = TEMPLATE_CONTEXT) -> str | None:
    """``text``, a sentence written from a template of ``context``, in the
    current language with its figures; None if no template matches."""
    return _current.fill(text, context)


def number(figure: str) -> str:
    """``figure`` (``56.1``) with the current language's decimal mark."""
    return _current.number(figure)


def NP_(context: str, msgid: str) -> str:
    """Mark ``msgid`` for the catalogue in ``context`` without translating it
    yet (it is translated where shown, with :func:`p_`)."""
    return msgid


__all__ = [
    "DECIMAL_COMMA",
    "DEFAULT",
    "LANGUAGES",
    "NP_",
    "PSEUDO",
    "TEMPLATE_CONTEXT",
    "Catalogue",
    "_",
    "choose_language",
    "fill",
    "language",
    "n_",
    "number",
    "p_",
    "pseudo",
    "set_language",
]
