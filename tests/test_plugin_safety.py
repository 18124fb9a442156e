"""A plugin author's safety net (issue 22: house rules that are never silently wrong).

Driven through the real ``tarock`` command where the point is about the
command: each test writes its own plugins.toml and plugin files.

- ``--plugins`` means the same before and after the command;
- an exception in a plugin's hook is one line naming the plugin, the hook and
  the hand, and the hand stands as it was;
- a plugin file changed since a record was written refuses the record;
- a broken ``[[variant]]`` is listed as unavailable while the others play;
- every refusal names its plugin;
- ``tarock replay`` shows the amounts as played (a doubled round counts double);
- German output holds no English words, English no German ones.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_i18n_plain import assert_pseudo
from test_plugins import ULTIMO_WON, play, play_out

from tarock.client.bots import make_bot
from tarock.client.i18n import PSEUDO
from tarock.client.players import BotSeat
from tarock.client.session import Session
from tarock.core.cards import parse_card
from tarock.core.context import TableContext
from tarock.core.engine import Hand
from tarock.core.plugins import load_plugins, rules_hash
from tarock.core.record import record_of, replay
from tarock.core.registry import find_variant
from tarock.core.rules import PluginFailure, RuleError

ROOT = Path(__file__).resolve().parent.parent


def tarock(*args: str, cwd: Path = ROOT,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``tarock ARGS`` from this checkout (exit status, stdout and stderr)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "tarock.client.cli", *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=600, cwd=cwd, env=env, stdin=subprocess.DEVNULL)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


VALAT_DOUBLE = '''
    """A Valat counts double."""
    from collections.abc import Generator, Mapping, Sequence
    from dataclasses import replace
    from typing import Any

    from tarock.core.contracts import PremiumSpec
    from tarock.core.hookspecs import hookimpl


    class ValatDouble:
        name = "valat-double"
        version = "1.0"

        @hookimpl(wrapper=True)
        def tarock_premium_specs(self, options: Mapping[str, Any]
                                 ) -> Generator[None, Any, Sequence[PremiumSpec]]:
            premiums: Sequence[PremiumSpec] = (yield) or ()
            return [replace(p, silent=2 * p.silent) if p.name == "valat" else p for p in premiums]


    PLUGIN = ValatDouble
'''


def house_config(tmp_path: Path, plugin: str = VALAT_DOUBLE, extra: str = "",
                 enabled: str = '"tarock54", "house"') -> Path:
    """A plugins.toml enabling tarock54 and ``house`` (tarock54 + the plugin file ``house.py``)."""
    write(tmp_path / "house.py", plugin)
    return write(tmp_path / "plugins.toml", f"""
        [plugins]
        enabled = [{enabled}]

        [[variant]]
        name = "house"
        base = "tarock54"
        title = "House rules"
        plugins = [{{ path = "house.py" }}]
        """ + textwrap.dedent(extra))


# -- --plugins before or after the command -------------------------------------------------------

def test_plugins_before_the_command_means_the_same_as_after(tmp_path: Path) -> None:
    toml = str(house_config(tmp_path))
    for command in (["rules", "house"], ["variants"]):
        after = tarock(*command, "--plugins", toml, "--lang", "en")
        before = tarock("--plugins", toml, *command, "--lang", "en")
        assert after.returncode == before.returncode == 0, (after.stderr, before.stderr)
        assert after.stdout == before.stdout and "House rules" in before.stdout
    # what is not in the default plugins.toml is not found without it
    assert tarock("rules", "house", "--lang", "en").returncode == 2


def test_plugins_given_twice_with_different_files_is_refused(tmp_path: Path) -> None:
    toml = str(house_config(tmp_path))
    same = tarock("--plugins", toml, "variants", "--plugins", toml, "--lang", "en")
    assert same.returncode == 0, same.stderr
    other = tarock("--plugins", toml, "variants", "--plugins", str(tmp_path / "other.toml"), "--lang", "en")
    assert other.returncode == 2 and other.stdout == ""
    assert other.stderr.splitlines() == [
        f"tarock variants: --plugins is given twice ({toml} before the command, {tmp_path / 'other.toml'} "
        "after it): give it once"]


# -- a plugin that raises -----------------------------------------------------------------------

SHAKY = '''
    """Sound unless HOUSE_FAIL names a hook: then it raises there (HOUSE_FAIL=phases:2: in round 2)."""
    import os

    from tarock.core.hookspecs import hookimpl

    FAIL, _, ROUND = os.environ.get("HOUSE_FAIL", "").partition(":")


    class Shaky:
        name = "shaky"
        version = "1.0"

        @hookimpl
        def tarock_phases(self, state):
            if FAIL == "phases" and state.context.round == int(ROUND):
                raise RuntimeError("no phases today")
            return None

        @hookimpl
        def tarock_trick_winner(self, state, trick):
            if FAIL == "trick" and len(state.tricks) == 2:
                raise ZeroDivisionError("the third trick")
            return None

        @hookimpl
        def tarock_next_context(self, context, state, result):
            if FAIL == "context":
                return context.memory["never-set"]
            return None


    PLUGIN = Shaky
'''


def test_a_failing_hook_in_selfplay_is_one_line_naming_plugin_hook_and_hand(tmp_path: Path) -> None:
    toml = str(house_config(tmp_path, SHAKY))
    run = tarock("selfplay", "--plugins", toml, "--variant", "house", "--seed", "5", "--hands", "3",
                 "--no-records", "--lang", "en", env={"HOUSE_FAIL": "phases:2"})
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == ["tarock selfplay: plugin 'shaky' failed in hook tarock_phases "
                                       "(round 2, deal 1; seed 5): RuntimeError: no phases today"]
    run = tarock("selfplay", "--plugins", toml, "--variant", "house", "--seed", "5", "--hands", "1",
                 "--no-records", "--lang", "en", env={"HOUSE_FAIL": "context"})
    assert run.returncode == 2
    assert run.stderr.splitlines() == ["tarock selfplay: plugin 'shaky' failed in hook tarock_next_context "
                                       "(round 1, deal 1; seed 5): KeyError: 'never-set'"]


def test_a_failing_hook_in_play_is_one_line(tmp_path: Path) -> None:
    toml = str(house_config(tmp_path, SHAKY))
    run = tarock("play", "--plain", "--plugins", toml, "--variant", "house", "--seed", "3", "--no-records",
                 "--lang", "en", env={"HOUSE_FAIL": "phases:1"})
    assert run.returncode == 2
    assert run.stderr.splitlines() == ["tarock play: plugin 'shaky' failed in hook tarock_phases "
                                       "(round 1, deal 1; seed 3): RuntimeError: no phases today"]


async def test_the_table_stays_as_it_was_when_a_plugin_fails(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOUSE_FAIL", "trick")
    variant = load_plugins(house_config(tmp_path, SHAKY)).find("house")
    players = [BotSeat(make_bot("heuristic", seat, f"bot-{seat}")) for seat in range(4)]
    session = Session(variant, players, seed=9, records_dir=tmp_path / "records", rounds=2)
    with pytest.raises(PluginFailure) as caught:
        await session.run()
    failure = caught.value
    assert isinstance(failure, RuleError) and isinstance(failure.__cause__, ZeroDivisionError)
    assert (failure.plugin, failure.hook, failure.round, failure.deal, failure.seed) == (
        "shaky", "tarock_trick_winner", 1, 1, 9)
    assert failure.action is not None and re.fullmatch(r"seat \d: play \S+", failure.action)
    # the last card of the third trick was not taken; nothing reached the sheet or the records
    hand = session.hand
    assert hand is not None and len(hand.state.tricks) == 2
    assert hand.state.trick is not None and len(hand.state.trick.cards) == 3
    assert session.table.rows == [] and session.table.deals == 0 and session.records == []
    assert re.fullmatch(r"plugin 'shaky' failed in hook tarock_trick_winner \(round 1, deal 1; seed 9; "
                        r"on seat \d: play \S+, which was not taken\): ZeroDivisionError: the third trick",
                        str(failure))


def test_a_failing_hook_in_replay_is_one_line(tmp_path: Path) -> None:
    toml = str(house_config(tmp_path, SHAKY))
    records = tmp_path / "records"
    made = tarock("selfplay", "--plugins", toml, "--variant", "house", "--seed", "2", "--hands", "1",
                  "--records", str(records), "--lang", "en")
    assert made.returncode == 0, made.stderr
    files = sorted(records.glob("*.json"))
    assert files
    last = str(files[-1])
    assert tarock("replay", "--plugins", toml, last, "--lang", "en").returncode == 0
    run = tarock("replay", last, "--plugins", toml, "--lang", "en", env={"HOUSE_FAIL": "trick"})
    assert run.returncode == 2 and run.stdout == ""
    [line] = run.stderr.splitlines()
    assert re.fullmatch(rf"tarock replay: {re.escape(last)}: plugin 'shaky' failed in hook "
                        r"tarock_trick_winner "
                        r"\(round \d+, deal \d+; on seat \d: play \S+, which was not taken\): "
                        r"ZeroDivisionError: the third trick", line), line
    run = tarock("replay", "--json", last, "--plugins", toml, env={"HOUSE_FAIL": "trick"})
    answer = json.loads(run.stdout)
    assert answer["error"]["message"] == line.removeprefix(f"tarock replay: {last}: ")


# -- a broken [[variant]] does not stop the others ----------------------------------------------

BROKEN_VARIANTS = """
    [[variant]]
    name = "bad-base"
    base = "tarock99"

    [[variant]]
    name = "missing-file"
    base = "tarock54"
    plugins = [{ path = "nowhere.py" }]

    [[variant]]
    name = "raises-at-import"
    base = "tarock54"
    plugins = [{ path = "raises.py" }]

    [[variant]]
    name = "bad-option"
    base = "house"
    options = { kontra = "maybe" }
    """


def test_a_broken_variant_is_listed_as_unavailable_while_the_others_play(tmp_path: Path) -> None:
    write(tmp_path / "raises.py", "raise ImportError('the club forgot a file')\n")
    toml = str(house_config(tmp_path, extra=BROKEN_VARIANTS, enabled='"tarock54", "house", "bad-base", '
                            '"missing-file", "raises-at-import", "bad-option", "nobody-defines-me"'))
    listed = tarock("variants", "--plugins", toml, "--lang", "en")
    assert listed.returncode == 2 and listed.stderr == ""  # the whole list; the status: not all is well
    lines = listed.stdout.splitlines()
    assert [line.split(":")[0].strip() for line in lines if line.startswith("  ") and
            not line.startswith("      ")][:2] == ["tarock54", "house"]
    tail = lines[lines.index("Unavailable (the others can be played):") + 1:]
    reasons = dict(line.strip().split(": ", 1) for line in tail)
    assert sorted(reasons) == ["bad-base", "bad-option", "missing-file", "nobody-defines-me",
                               "raises-at-import"]
    assert re.search(r"unknown base variant 'tarock99'", reasons["bad-base"])
    assert re.search(r"plugin file .*nowhere\.py does not exist", reasons["missing-file"])
    assert re.search(r"raises\.py failed to import: ImportError: the club forgot a file",
                     reasons["raises-at-import"])
    assert re.search(r"option 'kontra' \(declared by plugin 'tarock54'\) must be true or false",
                     reasons["bad-option"])
    assert re.search(r"no installed package or \[\[variant\]\] defines 'nobody-defines-me'",
                     reasons["nobody-defines-me"])
    played = tarock("selfplay", "--plugins", toml, "--variant", "house", "--hands", "1", "--no-records",
                    "--lang", "en")
    assert played.returncode == 0, played.stderr
    for name, reason in reasons.items():
        chosen = tarock("selfplay", "--plugins", toml, "--variant", name, "--hands", "1", "--no-records",
                        "--lang", "en")
        assert chosen.returncode == 2 and chosen.stdout == ""
        assert chosen.stderr.splitlines() == [f"tarock selfplay: variant {name!r} is unavailable: {reason}"]


# -- a changed plugin file refuses the records of the old rule ----------------------------------

def test_a_plugin_file_changed_since_the_record_refuses_it(tmp_path: Path) -> None:
    toml = str(house_config(tmp_path))
    records = tmp_path / "records"
    made = tarock("selfplay", "--plugins", toml, "--variant", "house", "--seed", "4", "--hands", "1",
                  "--records", str(records), "--lang", "en")
    assert made.returncode == 0, made.stderr
    last = str(sorted(records.glob("*.json"))[-1])
    data = json.loads(Path(last).read_text(encoding="utf-8"))
    assert list(data["rules"]["sources"]) == ["valat-double"]  # only the file loaded by path
    assert tarock("replay", last, "--plugins", toml, "--lang", "en").returncode == 0
    plugin = tmp_path / "house.py"
    # the same version, another rule: refused, naming the plugin and its file
    plugin.write_text(plugin.read_text().replace("2 * p.silent", "3 * p.silent"), encoding="utf-8")
    run = tarock("replay", last, "--plugins", toml, "--lang", "en")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [
        f"tarock replay: {last}: the record was played with other rules than house here: plugin "
        f"'valat-double' ({plugin}) "
        "changed since the record was written, though its version is still 1.0 (give a changed rule a new "
        "version; the record replays only with the file as it was)"]
    # a new version says so: still refused (the old record is of the old rule)
    plugin.write_text(plugin.read_text().replace('version = "1.0"', 'version = "1.1"'), encoding="utf-8")
    run = tarock("replay", last, "--plugins", toml, "--lang", "en")
    assert run.stderr.splitlines() == [
        f"tarock replay: {last}: the record was played with other rules than house here: plugin "
        "'valat-double' is "
        "version 1.1 here, 1.0 in the record"]
    # the file as it was: the record replays again
    plugin.write_text(textwrap.dedent(VALAT_DOUBLE).lstrip(), encoding="utf-8")
    assert tarock("replay", last, "--plugins", toml, "--lang", "en").returncode == 0


def test_peers_with_a_changed_plugin_file_have_other_rules_hashes(tmp_path: Path) -> None:
    one = load_plugins(house_config(tmp_path / "one")).find("house").rules()
    two = load_plugins(house_config(tmp_path / "two", VALAT_DOUBLE + "    # a note\n")).find("house").rules()
    same = load_plugins(house_config(tmp_path / "same")).find("house").rules()
    assert one.facts.plugins == two.facts.plugins  # same names and versions
    assert rules_hash(one) == rules_hash(same) != rules_hash(two)
    # an installed variant's hash does not depend on files: it is as before
    assert not load_plugins(house_config(tmp_path / "one")).find("tarock54").rules().sources


def test_a_record_made_before_files_were_hashed_still_replays(tmp_path: Path) -> None:
    catalogue = load_plugins(house_config(tmp_path))
    hand = play(catalogue.find("house").rules(), *ULTIMO_WON)
    data = record_of(hand).to_json()
    del data["rules"]["sources"]
    data["rules"]["hash"] = rules_hash(hand.rules, hand.context, sources=False)
    again = replay(data, variants=catalogue.variants)
    assert again.hand is not None and again.hand.state.result == hand.state.result


# -- replay shows the amounts as played --------------------------------------------------------

def raised_record(tmp_path: Path) -> tuple[Path, Hand]:
    """A tarock54 hand of round 5 in a raised series (a doubled round after a Fahrer), as a file."""
    context = TableContext(round=5, deal=2, dealer=3, factor=2, raised=3)
    hands = [[parse_card(c) for c in h.split()] for h in ULTIMO_WON[0]]
    talon = [[parse_card(c) for c in p.split()] for p in ULTIMO_WON[1]]
    hand = Hand(find_variant("tarock54").rules(), 3, hands, talon, context=context)
    play_out(hand)
    path = tmp_path / "raised.json"
    path.write_text(record_of(hand).dumps(), encoding="utf-8")
    return path, hand


def test_replay_shows_and_applies_the_rounds_factor(tmp_path: Path) -> None:
    path, hand = raised_record(tmp_path)
    result = hand.state.result
    assert result is not None and result.settlement == (2, 2, -2, -2)
    run = tarock("replay", str(path), "--lang", "en")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[1] == "  Round 5, deal 2 (this round counts x2)"
    assert lines[-2] == "  Settlement: Seat 1 +2, Seat 2 +2, Seat 3 -2, Seat 4 -2"  # the hand's own
    assert lines[-1] == "  As played, the round counting x2: Seat 1 +4, Seat 2 +4, Seat 3 -4, Seat 4 -4"
    answer = json.loads(tarock("replay", "--json", str(path)).stdout)
    assert (answer["round"], answer["deal"], answer["factor"]) == (5, 2, 2)
    assert answer["settlement"] == [2, 2, -2, -2] and answer["as_played"] == [4, 4, -4, -4]
    german = tarock("replay", str(path), "--lang", "de").stdout.splitlines()
    assert german[1] == "  Runde 5, 2. Geben (diese Runde zählt x2)"
    assert german[-1] == "  Wie gespielt, die Runde zählt x2: Platz 1 +4, Platz 2 +4, Platz 3 -4, Platz 4 -4"


def test_replay_of_a_plain_round_says_no_factor(tmp_path: Path) -> None:
    hand = play(find_variant("tarock54").rules(), *ULTIMO_WON)
    path = tmp_path / "plain.json"
    path.write_text(record_of(hand).dumps(), encoding="utf-8")
    lines = tarock("replay", str(path), "--lang", "en").stdout.splitlines()
    assert lines[1] == "  Round 1, deal 1" and not any("As played" in line for line in lines)
    answer = json.loads(tarock("replay", "--json", str(path)).stdout)
    assert answer["factor"] == 1 and answer["as_played"] == answer["settlement"]


# -- every refusal names its plugin -------------------------------------------------------------

TWICE = '''
    """Adds a second contract called like one of the base's."""
    from dataclasses import replace

    from tarock.core.hookspecs import hookimpl


    class Twice:
        name = "twice"
        version = "1.0"

        @hookimpl(wrapper=True)
        def tarock_contracts(self, options):
            contracts = list((yield) or ())
            return [*contracts, replace(contracts[0], rank=99)]


    PLUGIN = Twice
'''

NOT_DATA = '''
    """Answers the variant's facts with a plain dict."""
    from tarock.core.hookspecs import hookimpl


    class NotData:
        name = "not-data"
        version = "1.0"

        @hookimpl
        def tarock_variant_facts(self, options):
            return {"unit": 3}


    PLUGIN = NotData
'''


@pytest.mark.parametrize(("plugin", "message"), [
    (TWICE, r"plugin 'twice', hook 'tarock_contracts': two contracts are called '\w+'"),
    (NOT_DATA, r"plugin 'not-data', hook 'tarock_variant_facts': must answer a VariantFacts, "
               r"not \{'unit': 3\}"),
])
def test_a_refusal_of_bad_data_names_the_plugin(tmp_path: Path, plugin: str, message: str) -> None:
    toml = str(house_config(tmp_path, plugin))
    run = tarock("rules", "house", "--plugins", toml, "--lang", "en")
    assert run.returncode == 2 and run.stdout == ""
    [line] = run.stderr.splitlines()
    assert line.startswith(f"tarock rules: variant 'house' is unavailable: {toml}: variant 'house': ")
    assert re.search(message, line), line
    # the other variants of the file still play
    assert tarock("rules", "tarock54", "--plugins", toml, "--lang", "en").returncode == 0


# -- one language at a time ---------------------------------------------------------------------

def test_variants_speaks_one_language(tmp_path: Path) -> None:
    untitled = """
        [[variant]]
        name = "untitled"
        base = "tarock54"
        plugins = [{ path = "house.py" }]
        """
    toml = str(house_config(tmp_path, extra=untitled, enabled='"tarock54", "untitled"'))
    shown = tarock("variants", "--plugins", toml, "--lang", PSEUDO)
    assert shown.returncode == 0, shown.stderr
    # every word through the catalogue, but names: variants, plugins, versions, package, entry points
    names = {"tarock", "tarock54", "house", "untitled", "valat-double", "valat", "double", "variants",
             "VARIANT", "koenigrufen", "club", "course", "tarock40", "online"}
    assert_pseudo(shown.stdout, names, 5)
    german = tarock("variants", "--plugins", toml, "--lang", "de").stdout
    english = tarock("variants", "--plugins", toml, "--lang", "en").stdout
    # without a title of its own: its base's title, in the language shown, + its plugins
    assert "  untitled: 54 Blatt (Zwanzigerrufen) + valat-double" in german.splitlines()
    assert "  untitled: 54 cards (calling the XX) + valat-double" in english.splitlines()
    for word in ("installed with", "entry point", "from ", "base ", "plugin ", "cards"):
        assert word not in german, word
    for word in ("installiert", "Einsprungpunkt", "aus ", "Basis", "Plugin ", "Blatt"):
        assert word not in english, word
