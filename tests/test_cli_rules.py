"""The command line on the rules as data: variants, rules pages, bad options, mismatched records.

Issue 7: bad option values, a clash of option names and a record whose rules
hash does not match are each a clear message and exit status 2, with
nothing started; ``tarock variants`` says where each variant came from and
``tarock rules VARIANT`` prints its contracts, premiums and options from
its data.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tarock.client.cli import main
from tarock.core.engine import Hand
from tarock.core.plugins import load_plugins
from tarock.core.record import record_of

ROOT = Path(__file__).resolve().parent.parent
PLUGINS = str(ROOT / "plugins.toml")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_variants_names_where_each_came_from(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "variants", "--lang", "en", "--plugins", PLUGINS)
    assert status == 0
    assert "tarock54: " in out
    assert "installed with tarock (entry point tarock.variants.tarock54:VARIANT)" in out
    assert "tarock54-club" in out and "pagat_club.py" in out and "base tarock54" in out
    assert "not enabled: " in out and "tarock54-solo" in out
    status, out, _ = run(capsys, "variants", "--plugins", PLUGINS)  # German by default
    assert status == 0 and "Varianten (" in out and "aber nicht eingeschaltet: " in out
    assert "tarock40: 40 Blatt (Überbieten)" in out


def test_rules_page_is_generated_from_the_data(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "tarock40", "--lang", "en", "--plugins", PLUGINS)
    assert status == 0
    for text in ("40 cards (outbidding) [tarock40]", "Rufspiel [rufspiel]: 1",
                 "Solo mit Pagat [solo-pagat]: 4", "premiums count double",
                 "Four Kings [kings] (material): silent 1",
                 "Valat [valat]: silent 6, announced 12", "pflichtkontra (bool, default true"):
        assert text in out, text
    status, out, _ = run(capsys, "rules", "tarock54-club", "--lang", "en", "--plugins", PLUGINS,
                         "-o", "pagat_ultimo=3")
    assert status == 0
    assert "the Pagat wins a trick with the whole Trull" in out  # the house rule's Kaiserstich
    assert "Pagat Ultimo [pagat-ultimo]: silent 3, a silent attempt that fails 1" in out
    assert "pagat_ultimo (int, default 2, here 3; allowed: an integer of at least 0)" in out


def test_the_rules_page_speaks_german_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    """The same page from the same data, in the catalogue's German (``tarock rules``)."""
    status, out, _ = run(capsys, "rules", "tarock40", "--plugins", PLUGINS)
    assert status == 0
    for text in ("40 Blatt (Überbieten) [tarock40]", "Spiele, vom niedrigsten an:", "Rufspiel [rufspiel]: 1",
                 "Vier Könige [kings] (Materialprämie): still 1", "Prämien zählen doppelt",
                 "pflichtkontra (bool, Vorgabe true; erlaubt: true oder false)"):
        assert text in out, text


@pytest.mark.parametrize("option,words", [
    ('kontra="no"', "option 'kontra' must be true or false, not \"no\""),
    ("kontra=no", "option 'kontra' must be true or false, not \"no\""),
    ('pagat_ultimo="two"', "option 'pagat_ultimo' must be an integer of at least 0, not \"two\""),
    ("pagat_ultimo=-1", "option 'pagat_ultimo' must be an integer of at least 0, not -1"),
    ("shortdeck=true", "unknown option(s) for tarock54-club: shortdeck"),
])
def test_a_bad_option_is_refused_before_anything_starts(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         option: str, words: str) -> None:
    status, out, err = run(capsys, "selfplay", "--lang", "en", "--variant", "tarock54-club", "--plugins",
                           PLUGINS,
                           "--records", str(tmp_path), "-o", option)
    assert status == 2
    assert words in err
    assert "Traceback" not in err and not any(tmp_path.iterdir()) and "Final standings" not in out


def test_two_plugins_declaring_one_option_is_an_error_naming_both(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    plugin = tmp_path / "kontra_again.py"
    plugin.write_text(
        "from tarock.core.hookspecs import hookimpl\n"
        "from tarock.core.options import OptionSpec\n\n\n"
        "class KontraAgain:\n"
        "    name = 'kontra-again'\n    version = '1.0'\n\n"
        "    @hookimpl\n"
        "    def tarock_options(self):\n"
        "        return [OptionSpec('kontra', False, 'our club plays without Kontra')]\n\n\n"
        "PLUGIN = KontraAgain\n", encoding="utf-8")
    toml = tmp_path / "plugins.toml"
    toml.write_text('[plugins]\nenabled = ["club"]\n\n[[variant]]\nname = "club"\nbase = "tarock54"\n'
                    f'plugins = [{{ path = "{plugin.name}" }}]\n', encoding="utf-8")
    status, out, _ = run(capsys, "variants", "--plugins", str(toml))
    assert status == 2  # listed as unavailable, with its reason
    assert "option 'kontra' is declared twice: by plugin 'tarock54' and by plugin 'kontra-again'" in out


def played(name: str) -> dict[str, object]:
    variants = load_plugins(ROOT / "plugins.toml").variants
    rules = variants[name].rules()
    rng = random.Random(4)
    from tarock.core.deal import deal

    hands, talon = deal(rules, rng)
    hand = Hand(rules, 0, hands, talon)
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        hand.apply(rng.choice(hand.legal(seat)))
    data: dict[str, object] = json.loads(record_of(hand).dumps())
    return data


def test_a_record_played_with_other_rules_is_refused_saying_what_differs(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = played("tarock54-club")
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(capsys, "replay", "--plugins", PLUGINS, str(path))
    assert status == 0 and "tarock54-club" in out
    changed = json.loads(json.dumps(data))
    name, here = data["rules"]["plugins"][-1][:2]
    assert name == "pagat-club" and here != "1.0"
    changed["rules"]["plugins"][-1][1] = "1.0"  # the record says: pagat-club 1.0
    changed["rules"]["hash"] = "0" * 64
    path.write_text(json.dumps(changed), encoding="utf-8")
    status, out, err = run(capsys, "replay", "--plugins", PLUGINS, str(path))
    assert status == 2
    assert f"plugin 'pagat-club' is version {here} here, 1.0 in the record" in err
    status, out, _ = run(capsys, "replay", "--json", "--plugins", PLUGINS, str(path))
    assert status == 2 and "other rules" in json.loads(out)["error"]["message"]
    other = json.loads(json.dumps(data))
    other["options"]["pagat_ultimo"] = 5   # the options differ from what the hash covers
    path.write_text(json.dumps(other), encoding="utf-8")
    status, _, err = run(capsys, "replay", "--plugins", PLUGINS, str(path))
    assert status == 2 and "the options or the table context differ" in err


def test_replay_json_includes_the_settlement_items(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(played("tarock40")), encoding="utf-8")
    status, out, _ = run(capsys, "replay", "--json", "--plugins", PLUGINS, str(path))
    assert status == 0
    answer = json.loads(out)
    items = answer["items"]
    assert items and items[0]["name"] == "game"
    seats = len(answer["settlement"])
    total = [0] * seats
    for item in items:
        for s in item["opposite"]:
            total[s] -= item["amount"]
        for s in item["side"]:
            total[s] += item["amount"] * len(item["opposite"]) // len(item["side"])
    assert total == answer["settlement"]
