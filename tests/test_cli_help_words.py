"""``tarock --help`` and each command's ``--help`` (the local ones and the network ones of
client/netargs.py) in the player's language: argparse's own words (usage, the section titles,
-h's line) and ours from the one catalogue, with no word of the other language (the word lists
of tests/test_ui_words.py, made from the catalogues).

The line client (``tarock play --plain``) is checked the same way over a short table of each family.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_ui_words import WORD, foreign

from tarock.client.bots import BOT_KINDS
from tarock.client.cli import COMMANDS, main
from tarock.client.i18n import p_, set_language
from tarock.net.protocol.limits import Timing

IDENTIFIER = re.compile(r"--?[\w-]+|\b[A-Z][A-Z_]+\b|\S*/\S*")
"""What is typed or named as it is in either language: options, metavars, paths."""
LOCAL = ("play", "selfplay", "replay", "variants", "rules", "bench", "arena")
NETWORK = ("host", "join", "tables", "watch", "bot")


def help_text(capsys: pytest.CaptureFixture[str], lang: str, *command: str) -> str:
    try:
        assert main(["--lang", lang, *command, "--help"]) == 0
    finally:
        set_language("de")
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("command", [(), *((c,) for c in LOCAL + NETWORK)])
def test_help_in_one_language(
    capsys: pytest.CaptureFixture[str], lang: str, command: tuple[str, ...]
) -> None:
    text = help_text(capsys, lang, *command)
    set_language(lang)
    try:
        usage, heading, dash_h = (p_("argparse", w) for w in ("usage: ", "options",
                                                             "show this help message and exit"))
    finally:
        set_language("de")
    assert text.startswith(usage + "tarock") and f"\n{heading}:\n" in text
    assert dash_h in " ".join(text.split())
    typed = {*COMMANDS, *BOT_KINDS}  # values typed as they are (``--strength hard``)
    words = IDENTIFIER.sub(" ", text)
    strange = sorted({w for w in WORD.findall(words) if w.lower() in foreign(lang) and w not in typed})
    assert not strange, f"{strange} in:\n{text}"


def test_german_help_is_german(capsys: pytest.CaptureFixture[str]) -> None:
    """The words a German reader saw in English before (issue 24)."""
    text = help_text(capsys, "de", "play")
    assert text.startswith("Aufruf: tarock play") and "\nOptionen:\n" in text
    assert re.search(r"Runden des Tisches, 1\.\.\d+ \(Vorgabe: 12\)", " ".join(text.split()))
    assert "usage" not in text and "default" not in text


def test_german_network_help_is_german(capsys: pytest.CaptureFixture[str]) -> None:
    """The network commands' own lines (client/netargs.py) are translated too, their figures kept."""
    text = " ".join(help_text(capsys, "de", "host").split())
    assert text.startswith("Aufruf: tarock host") and "Optionen:" in text
    assert re.search(r"Runden, 1\.\.\d+ \(Vorgabe: 12\)", text)
    assert f"fehlen darf, bevor ein Bot für ihn spielt (Vorgabe: {Timing().seat_timeout:g})" in text
    assert "default" not in text and "seconds" not in text
    assert "Argumente: TABLE der Name des Tisches" in " ".join(help_text(capsys, "de", "join").split())


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("variant", ["tarock40", "tarock54", "koenigrufen-club"])
def test_the_line_client_in_one_language(tmp_path: Path, lang: str, variant: str) -> None:
    """``tarock play --plain``: a table of two rounds, the first choice taken at every question
    (and ``?`` once), has no word of the other language in what it prints."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "TAROCK_STATE": str(tmp_path / "state")}
    done = subprocess.run(
        [sys.executable, "-m", "tarock.client.cli", "play", "--plain", "--lang", lang, "--variant", variant,
         "--seed", "3", "--rounds", "2", "--no-records"],
        input="?\n" + "1\n" * 600, capture_output=True, text=True, encoding="utf-8", timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    words = IDENTIFIER.sub(" ", done.stdout)
    strange: dict[str, str] = {}
    for line in words.splitlines():
        for w in WORD.findall(line):
            if w.lower() in foreign(lang) and w not in {*COMMANDS, *BOT_KINDS}:
                strange.setdefault(w, line.strip())
    assert not strange, "\n".join(f"{w}: {line}" for w, line in strange.items())
