"""One command line (issue 24, "Words and errors"), with real ``tarock`` processes.

- every option means the same before or after the command (``--records``, ``--plugins``,
  ``--name``); one the command does not take is refused in a line, not ignored;
- every error is one line on stderr in the player's language (German by default): no usage
  block, no log line, nothing on stdout, a path named once; the core's errors (an unknown
  variant, a bad option value) too, though the core knows no catalogue;
- ``tarock play`` takes ``--bots`` and ``--strength``; ``tarock variants`` in German has no
  English word; ``tarock tables`` says a table is private; ``join`` takes the name.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from net_procs import ROOT, bot_args, env, tarock
from netns import Procs

GERMAN = {"LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}


def run(tmp: Path, *args: str, stdin: str | None = None, lang: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    environ = {**env(tmp / "state"), **(lang or GERMAN), "TAROCK_CONFIG": str(tmp / "config")}
    return subprocess.run(tarock(*args), capture_output=True, text=True, timeout=120, cwd=ROOT, env=environ,
                          input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)


def one_line(done: subprocess.CompletedProcess[str], command: str) -> str:
    """The one error line of a refused command (status 2, nothing else anywhere)."""
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == "", done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"{command}: "), lines[0]
    assert "usage" not in lines[0].lower() and "Traceback" not in done.stderr
    return lines[0]


def test_options_before_the_command_mean_what_they_mean_after_it(tmp_path: Path) -> None:
    before = run(tmp_path, "--records", str(tmp_path / "before"), "selfplay", "--hands", "1", "--seed", "2")
    after = run(tmp_path, "selfplay", "--hands", "1", "--seed", "2", "--records", str(tmp_path / "after"))
    assert before.returncode == after.returncode == 0, before.stderr + after.stderr
    assert len(list((tmp_path / "before").iterdir())) == len(list((tmp_path / "after").iterdir())) == 1
    plugins = tmp_path / "plugins.toml"
    plugins.write_text('[plugins]\nenabled = ["tarock54"]\n', encoding="utf-8")
    first = run(tmp_path, "--plugins", str(plugins), "variants")
    last = run(tmp_path, "variants", "--plugins", str(plugins))
    assert first.returncode == last.returncode == 0 and first.stdout == last.stdout
    assert "tarock54" in first.stdout and "tarock40:" not in first.stdout
    option = one_line(run(tmp_path, "-o", "kontra=3", "rules", "tarock54"), "tarock rules")  # rules' own -o
    assert "Option 'kontra' muss true oder false sein, nicht 3" in option
    line = one_line(run(tmp_path, "--offline", "variants"), "tarock variants")
    assert line == "tarock variants: --offline gilt nicht für tarock variants"
    twice = one_line(run(tmp_path, "--records", "a", "selfplay", "--records", "b"), "tarock selfplay")
    assert "--records ist zweimal angegeben (a vor dem Befehl, b danach)" in twice


def test_every_error_is_one_german_line(tmp_path: Path) -> None:
    cases = [
        (("play", "--rounds", "0"), "tarock play", "Angabe --rounds: muss 1..10000 sein, nicht 0"),
        (("--lang", "de", "play", "--seats", "9"), "tarock play",
         "Angabe --seats: keine der Möglichkeiten: 9"),
        (("play", "--bogus"), "tarock play", "unbekannte Angaben: --bogus"),
        (("bot",), "tarock bot", "diese Angaben fehlen: --name"),
        (("join", "--to", "[::1]:x"), "tarock join", "Angabe --to: '[::1]:x': der Port 'x' ist keine Zahl"),
        (("rules", "nosuch"), "tarock rules", "unbekannte Variante 'nosuch' (eingeschaltet in"),
        (("rules", "tarock54", "-o", "kontra=3"), "tarock rules",
         "Option 'kontra' muss true oder false sein, nicht 3"),
        (("rules", "tarock54", "-o", "nosuch=1"), "tarock rules",
         "unbekannte Option(en) für tarock54: nosuch"),
        (("selfplay", "--records", "/dev/null/x"), "tarock selfplay",
         "In den Ordner der Spielprotokolle /dev/null/x lässt sich nicht schreiben"),
        (("play", "--plain", "--variant", "tarock54", "--bots", "random"), "tarock play",
         "--bots braucht 3 Arten"),
        (("play", "--plain", "--variant", "tarock54", "--strength", "godlike"), "tarock play",
         "unbekannte Bot-Art(en) godlike"),
    ]
    for args, command, words in cases:
        line = one_line(run(tmp_path, *args), command)
        assert words in line, (args, line)
        for english in ("unknown", "must be", "argument", "invalid", "cannot", "error"):
            assert english not in line, (args, line)
    missing = tmp_path / "missing.json"
    line = one_line(run(tmp_path, "replay", str(missing)), "tarock replay")
    assert line.count(str(missing)) == 1 and "lässt sich nicht lesen" in line, line


def test_english_errors_are_english(tmp_path: Path) -> None:
    english = {"LANGUAGE": "en"}
    line = one_line(run(tmp_path, "rules", "tarock54", "-o", "kontra=3", lang=english), "tarock rules")
    assert line == "tarock rules: option 'kontra' must be true or false, not 3"
    line = one_line(run(tmp_path, "--lang", "en", "play", "--rounds", "0"), "tarock play")
    assert line == "tarock play: argument --rounds: must be 1..10000, not 0"


def test_variants_in_german_has_no_english_word(tmp_path: Path) -> None:
    done = run(tmp_path, "variants")
    assert done.returncode == 0, done.stderr
    assert "installiert mit tarock" in done.stdout
    for english in ("installed", " from ", "entry point", "plugin ", "base "):
        assert english not in done.stdout, english


def test_play_takes_the_bots_kinds_and_strength(tmp_path: Path) -> None:
    common = ("--plain", "--variant", "tarock54", "--seed", "3", "--rounds", "1", "--no-records")
    seats = run(tmp_path, "play", *common, "--bots", "random,hard,medium", stdin="quit\n",
                lang={"LANGUAGE": "en"})
    assert seats.returncode == 0, seats.stderr
    assert "You play against Franz (random (beginner)), Hilde (hard (search)), Sepp (medium (search))." \
        in seats.stdout
    every = run(tmp_path, "--name", "Anna", "play", *common, "--strength", "random", stdin="quit\n",
                lang={"LANGUAGE": "en"})
    assert every.returncode == 0, every.stderr
    assert "Franz (random (beginner)), Hilde (random (beginner)), Sepp (random (beginner))" in every.stdout
    assert "Anna" in every.stdout  # the name given before the command


def test_join_takes_the_players_name_before_or_after(tmp_path: Path) -> None:
    """The node's store is named by the player: ``tarock --name Anna join`` and ``join --name Berta``."""
    for args, name in ((("--name", "Anna", "join"), "Anna"), (("join", "--name", "Berta"), "Berta")):
        done = run(tmp_path, *args, "--to", "127.0.0.1:1", "--state", str(tmp_path / "state"))
        line = one_line(done, "tarock join")
        assert line == "tarock join: Verbindung zu 127.0.0.1:1 nicht möglich: dort nimmt niemand an"
        assert (tmp_path / "state" / f"{name}.sqlite").exists()
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(json.dumps({"name": "Cilli"}), encoding="utf-8")
    one_line(run(tmp_path, "join", "--to", "127.0.0.1:1", "--state", str(tmp_path / "state")), "tarock join")
    assert (tmp_path / "state" / "Cilli.sqlite").exists()  # the name kept in the settings


def test_tables_says_a_table_is_private(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with Procs(log_dir=tmp_path / "logs", lifetime=90) as procs:
        host = procs.spawn(bot_args("h", tmp_path, 1, "--interface", "127.0.0.1", "--host", "--table",
                                    "Stüberl", "--pin", "2468"), name="h", env=env(state), cwd=ROOT)
        opened = host.wait_for_json(lambda e: e.get("event") == "open", timeout=60)
        listed = run(tmp_path, "tables", "--to", f"127.0.0.1:{opened['port']}", "--wait", "3",
                     "--state", str(state))
        assert listed.returncode == 0, listed.stderr
        assert "'Stüberl': tarock40, 1 Runde, privat (PIN), 3 Plätze frei" in listed.stdout, listed.stdout


def test_the_networks_sentences_name_the_seats_in_the_players_language() -> None:
    """A void deal's reason comes from the host in English with seats counted from 0: a player reads
    it in German, each seat by its name, or counted from 1 where the name is not known."""
    from tarock.client.errors import net_text
    from tarock.client.i18n import set_language

    set_language("de")
    try:
        names = ["Anna", "Berta", "Cilli", "Dora"]
        assert net_text("seat 2 (Cilli) is away: the hand cannot go on without it", names) == \
            "Cilli ist nicht da: ohne diesen Platz geht das Spiel nicht weiter"
        assert net_text("seat 3 stalled its step of the deal for 2.5 s", names) == \
            "Dora hat den eigenen Schritt beim Geben 2,5 s lang nicht gemacht"
        assert net_text("seat 3 stalled its step of the hand for 5 s") == \
            "Platz 4 hat den eigenen Schritt im Spiel 5 s lang nicht gemacht"
    finally:
        set_language("en")
