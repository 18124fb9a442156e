"""Every string the full-screen client shows goes through one catalogue (client/i18n).

- Every message the client's code asks for, and the rules' data of every
  variant offered or defined (games, premiums, options, holdings, Kontra
  words, money), the engine's reasons and the results' notes, has a German
  translation; the German names of the data have an English one.
- Translations keep their placeholders.
- The language is German by default and English with --lang en or an
  English locale.
- Played in the pseudo language (every catalogue message in look-alike
  letters), no screen of a hand, the menu, the sheet, the rules page, the
  help, the settlement and the standings shows a plain word: a string that
  bypassed the catalogue would.
"""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from ui_harness import Driver, run
from ui_play import Seen, play_hand, until

from tarock.client.i18n import PSEUDO, Catalogue, _, choose_language, po_path, pseudo, set_language
from tarock.client.ui.app import play_local
from tarock.client.ui.local import LocalTable, SavedTable, TableSetup
from tarock.client.ui.model import TableModel
from tarock.core.plugins import load_plugins
from tarock.tools.i18n_extract import GERMAN_SOURCES, key, wanted

FIELD = re.compile(r"\{[^{}]*\}")


def _entries(lang: str) -> dict[tuple[str, str], polib.POEntry]:
    return {(e.msgctxt or "", e.msgid): e for e in polib.pofile(str(po_path(lang)))}


def _translated(e: polib.POEntry) -> bool:
    if e.msgid_plural:
        return all(e.msgstr_plural.values()) and len(e.msgstr_plural) == 2
    return bool(e.msgstr) and "fuzzy" not in e.flags


def test_every_message_has_a_german_translation() -> None:
    de = _entries("de")
    missing = sorted(
        f"{m.context}|{m.msgid} ({m.where})"
        for m in wanted()
        if key(m) not in de or not _translated(de[key(m)])
    )
    assert not missing, "run python -m tarock.tools.i18n_extract and translate:\n" + "\n".join(missing)


def test_the_german_names_have_an_english_translation() -> None:
    en = _entries("en")
    missing = sorted(
        f"{m.context}|{m.msgid}"
        for m in wanted()
        if m.context in GERMAN_SOURCES and (key(m) not in en or not _translated(en[key(m)]))
    )
    assert not missing, "\n".join(missing)


def test_a_sentence_with_figures_is_translated_by_its_template() -> None:
    """The rules write some refusals from a template (context
    ``reason-template``): the sentence that arrives, over the network too, is
    translated with its figures kept (decimals in the language's own mark);
    a sentence no template wrote is not."""
    template = ("a Valat in this game needs a hand that makes it on its own: {lost} of the {deals} deals "
                "played were lost and {made} made (95% Wilson interval of the rate {low}–{high} %); a Valat "
                "must be made in {needed} of {sample}")
    assert ("reason-template", template) in {key(m) for m in wanted()}
    figures = {"lost": "3", "deals": "5", "made": "2", "low": "11.8", "high": "76.9", "needed": "198",
               "sample": "200"}
    sentence = template.format(**figures)
    german = _entries("de")[("reason-template", template)].msgstr
    filled = Catalogue("de").fill(sentence)
    assert filled == german.format(**{**figures, "low": "11,8", "high": "76,9"})  # the decimal comma
    assert filled is not None and "11,8–76,9 %" in filled
    assert "von 5 durchgespielten Verteilungen gingen 3 verloren und 2 gelangen" in filled
    assert Catalogue("de").fill(sentence.replace("were lost", "went")) is None
    assert Catalogue("en").fill(sentence) is None  # English: the sentence as written
    assert Catalogue(PSEUDO).fill(sentence) == pseudo(sentence)


def test_the_catalogues_hold_nothing_unused() -> None:
    keys = {key(m) for m in wanted()}
    for lang in ("de", "en"):
        unused = sorted(k for k in _entries(lang) if k not in keys)
        assert not unused, f"{lang}.po: {unused}"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_translations_keep_their_fields(lang: str) -> None:
    for e in _entries(lang).values():
        fields = sorted(FIELD.findall(e.msgid))
        forms = list(e.msgstr_plural.values()) if e.msgid_plural else [e.msgstr]
        for form in forms:
            if form:
                assert sorted(FIELD.findall(form)) == fields, (e.msgid, form)


def test_the_language_is_german_unless_english_is_asked() -> None:
    assert choose_language(None, {}) == "de"
    assert choose_language(None, {"LANG": "de_AT.UTF-8"}) == "de"
    assert choose_language(None, {"LANG": "C.UTF-8"}) == "de"
    assert choose_language(None, {"LANG": "en_GB.UTF-8"}) == "en"
    assert choose_language(None, {"LANGUAGE": "en_US:de", "LANG": "de_AT.UTF-8"}) == "en"
    assert choose_language(None, {"LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}) == "de"
    assert choose_language("en", {"LANG": "de_AT.UTF-8"}) == "en"
    assert choose_language("de-AT", {}) == "de"
    with pytest.raises(ValueError, match="no catalogue"):
        choose_language("fr", {})


def test_messages_in_each_language() -> None:
    assert Catalogue("de").get("Pass") == "Weiter"
    assert Catalogue("en").get("Pass") == "Pass"
    assert Catalogue("en").get("Vier Könige", "premium") == "Four Kings"
    assert Catalogue("de").get("Vier Könige", "premium") == "Vier Könige"
    assert Catalogue("de").nget("{n} card", "{n} cards", 1) == "{n} Karte"
    assert Catalogue("de").nget("{n} card", "{n} cards", 3) == "{n} Karten"
    assert Catalogue(PSEUDO).get("Pass {n}") == pseudo("Pass {n}") == "Þåšš {n}"
    assert Catalogue("de").get("a sentence of a house rule", "reason") == "a sentence of a house rule"


WORD = re.compile(r"[A-Za-z][A-Za-z0-9'_-]+")
ROMAN = re.compile(r"^[IVXL]+$")
KEY_NAMES = {"Esc", "Enter", "F1", "F2"}
KEY_SPAN = re.compile(r"^[a-z]-[a-z]$")
"""The keys of cards and lines past the tenth, as the footer names them (``a-e``)."""


def _plain_words(screen: str, allowed: set[str]) -> list[str]:
    out = []
    for word in WORD.findall(screen):
        if ROMAN.match(word) or word in allowed or word in KEY_NAMES or KEY_SPAN.match(word):
            continue
        out.append(word)
    return out


@pytest.mark.parametrize("variant, seed", [("tarock40", 3), ("tarock54", 9), ("koenigrufen-club", 37)])
def test_no_string_on_screen_bypasses_the_catalogue(variant: str, seed: int, tmp_path: Path) -> None:
    set_language(PSEUDO)
    try:
        names = ["Du", "Franz", "Hilde", "Sepp"]
        setup = TableSetup(variant, {}, names, ["", "heuristic", "heuristic", "heuristic"], 2, seed)
        ref: dict[str, object] = {}
        seen = Seen()

        def keep(table: LocalTable, model: TableModel) -> None:
            ref["table"], ref["model"] = table, model

        async def script(d: Driver) -> None:
            await until(lambda: "model" in ref)
            obs = await play_hand(d, ref, seen)
            model = ref["model"]
            assert isinstance(model, TableModel)
            for key_ in ("l", "t", "s", "r", "?", "f2", "q"):
                d.press("enter" if model.overlay == "settlement" else "esc")
                await until(lambda: model.overlay is None and model.waiting, what="the next decision")
                d.press(key_)
                seen.screens.append(await d.settle())
            d.press("esc")
            d.press("q")
            await d.settle()
            d.press("2")
            seen.screens.append(await d.wait_for("─ " + _("Final standings")))
            ref["plugins"] = [n for n, _v in obs.rules.plugins] if obs.rules is not None else []
            d.press("enter")

        run(
            lambda: play_local(setup, load_plugins(None), SavedTable(tmp_path / "t.json"), None, seen=keep),
            script,
            cols=100,
            rows=36,
        )
        # names, and names cut by a dialog drawn over them; the plugins' names
        allowed = {n[:k] for n in names for k in range(2, len(n) + 1)} | {str(p) for p in ref["plugins"]}  # type: ignore[attr-defined]
        for screen in seen.screens:
            plain = _plain_words(screen, allowed)
            assert not plain, f"not from the catalogue: {plain}\n{screen}"
        assert len(seen.screens) > 10
    finally:
        set_language("de")
