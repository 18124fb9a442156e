"""Every screen and dialog at 80×24, in German and in English: no cut word, no word of the other language.

The screens (tests/ui_screens.py): the lobby's pages, each game's forms and
rules pages, and a table of each family of games (40 cards, 54 cards,
Königrufen with its Vorhand! and Trischaken) played to its end, with each
decision, hint, overlay, settlement and the standings.

- A cut word is a word that ends in "…" (the ellipsis ``clip`` puts where
  a text does not fit); an ellipsis after a space ("Thinking …") is a word
  of its own, not a cut.
- No screen names a document of the project (docs/rules.md).
- A word of the other language is a word the catalogues write only in it:
  the words of every German message (de.po's msgstr) that no English
  message has (en.po's msgstr, else the English source), and the other way
  round.  Words both write (names of games, cards and premiums: Tarock,
  Pagat, Kontra ...) belong to neither, so they need no list; ALLOWED holds
  the few that one language's rule data writes untranslated on purpose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

import polib
import pytest
from ui_screens import lobby_screens, table_screens

from tarock.client.i18n import po_path, set_language

WORD = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")
CUT = re.compile(r"[^\W_]…")
DOCUMENT = re.compile(r"docs/|\w\.md\b")
"""A reference to the project's own documents, which a player does not have."""
BOX = re.compile(r"[│┌┐└┘├┤]")
TABLES = (("tarock40", 1, 3), ("tarock54", 1, 5), ("koenigrufen-club", 4, 2))
"""(game, rounds, seed) of the tables played: one of each family (40, 54 cards, Königrufen)."""


def _words(texts: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for text in texts:
        text = re.sub(r"\{[^{}]*\}", " ", text)  # a {field} is no word
        out.update(w.lower() for w in WORD.findall(text) if len(w) > 1)
    return out


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, set[str]]:
    """The words each language's messages write, by language."""
    english = {(e.msgctxt or "", e.msgid): e for e in polib.pofile(str(po_path("en")))}
    written: dict[str, list[str]] = {"de": [], "en": []}
    for entry in polib.pofile(str(po_path("de"))):
        if entry.obsolete:
            continue
        own = english.get((entry.msgctxt or "", entry.msgid))
        if entry.msgid_plural:
            written["de"] += list(entry.msgstr_plural.values())
            forms = list(own.msgstr_plural.values()) if own is not None and own.msgstr_plural else []
            written["en"] += [f for f in forms if f] or [entry.msgid, entry.msgid_plural]
        else:
            written["de"].append(entry.msgstr)
            if own is not None and own.msgstr:
                written["en"].append(own.msgstr)
            elif entry.msgid != entry.msgstr:  # a source that German had to translate is English
                written["en"].append(entry.msgid)
    return {lang: _words(texts) for lang, texts in written.items()}


def foreign(lang: str) -> set[str]:
    """The words only the other language's messages write."""
    words = vocabulary()
    other = "en" if lang == "de" else "de"
    return words[other] - words[lang]


def uncovered(row: str) -> str:
    """``row`` without the pieces of words a box (dialog, overlay) covers the rest of:
    the word just left of its left edge and the one just right of its right edge."""
    edges = [m.start() for m in BOX.finditer(row)]
    if not edges:
        return row
    first, last = edges[0], edges[-1]
    return re.sub(r"\S+$", "", row[:first]) + row[first : last + 1] + re.sub(r"^\S+", "", row[last + 1 :])


def problems(lang: str, screens: Iterable[tuple[str, list[str]]]) -> list[str]:
    alien = foreign(lang)
    found: dict[str, str] = {}  # each wrong row once, with the first screen it is on
    for what, rows in screens:
        for row in rows:
            line = row.strip()
            if DOCUMENT.search(row) is not None:
                found.setdefault(f"an internal document named in {line!r}", what)
            if CUT.search(row) is not None:
                found.setdefault(f"cut word in {line!r}", what)
            strange = sorted({w for w in WORD.findall(uncovered(row)) if w.lower() in alien})
            if strange:
                found.setdefault(f"{', '.join(strange)} in {line!r}", what)
    return [f"{lang} {what}: {problem}" for problem, what in found.items()]


def test_the_word_lists_are_not_empty() -> None:
    """The check can fail: German words English never writes, and the other way round."""
    assert {"stich", "runde", "geber"} <= foreign("en")
    assert {"trick", "round", "game"} <= foreign("de")
    # what English showed in German before (issue 24): the standings' HP/SP, the club's opening
    # word, the ranks of Trischaken; English writes MP/TP, Forehand!, virgin ... mayor
    german = {"hp", "sp", "vorhand", "jungfrau", "unterwertiger", "oberwertiger", "bürgermeister"}
    assert german <= foreign("en")


@pytest.fixture(params=["de", "en"])
def lang(request: pytest.FixtureRequest) -> object:
    set_language(request.param)
    yield request.param
    set_language("de")


def test_the_lobby_in_one_language(lang: str) -> None:
    found = problems(lang, lobby_screens())
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game, rounds, seed", TABLES)
def test_a_table_in_one_language(lang: str, game: str, rounds: int, seed: int) -> None:
    screens = table_screens(game, rounds, seed)
    assert any("settlement" in what for what, _rows in screens)
    found = problems(lang, screens)
    assert not found, "\n".join(found)
