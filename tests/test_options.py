"""Typed options (core/options.py): declared once, checked wherever a value enters.

Issue 7: "Every option is declared with its type, allowed values, default and
a one-line description. Values are checked when a table is made, a record is
read and ``-o`` is parsed: a wrong type or value is a clear error naming the
option, the value and what is allowed, exit status 2, nothing started. (Today
``-o kontra='"no"'`` silently turns Kontra *on*, and ``-o pagat_ultimo='"two"'``
starts a table that dies in round 3.) Two plugins declaring the same option
is an error at load time naming both."
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.hookspecs import hookimpl
from tarock.core.options import OptionError, OptionSpec, collect, resolve, show_value
from tarock.core.plugins import load_plugins
from tarock.core.record import record_of, replay
from tarock.core.registry import available_variants, find_variant
from tarock.core.rules import RuleError, Rules
from tarock.variants.tarock54 import Tarock54

REPO = Path(__file__).resolve().parent.parent
CATALOGUE = load_plugins(REPO / "plugins.toml")


# -- one option --------------------------------------------------------------------------------

def test_the_type_is_the_defaults() -> None:
    assert OptionSpec("kontra", True, "Kontra on").kind is bool
    assert OptionSpec("rate", 2, "cents").kind is int
    assert OptionSpec("words", ("a", "b"), "words").kind is tuple


@pytest.mark.parametrize(("spec", "value", "allowed"), [
    (OptionSpec("kontra", True, "Kontra on"), "no", "true or false"),
    (OptionSpec("kontra", True, "Kontra on"), 1, "true or false"),
    (OptionSpec("rate", 2, "cents", minimum=0), "two", "an integer of at least 0"),
    (OptionSpec("rate", 2, "cents", minimum=0), -1, "an integer of at least 0"),
    (OptionSpec("rate", 2, "cents", minimum=0), True, "an integer of at least 0"),
    (OptionSpec("rate", 2, "cents", minimum=0), 2.5, "an integer of at least 0"),
    (OptionSpec("rate", 2, "cents", minimum=1, maximum=9), 10, "an integer from 1 to 9"),
    (OptionSpec("four_kings", "queen", "what to call", choices=("queen", "self", "none")), "king",
     'one of "queen", "self", "none"'),
    (OptionSpec("words", ("a",), "words"), ["a", 1], "a list of strings"),
    (OptionSpec("share", 0.5, "a share", maximum=1), "half", "a number of at most 1"),
])
def test_a_wrong_value_names_the_option_the_value_and_what_is_allowed(
        spec: OptionSpec, value: object, allowed: str) -> None:
    with pytest.raises(OptionError) as err:
        spec.check(value)
    message = str(err.value)
    assert f"option {spec.name!r}" in message
    assert f"must be {allowed}" in message
    assert f"not {show_value(value)}" in message


def test_right_values_come_back_in_the_options_type() -> None:
    assert OptionSpec("words", ("a",), "words").check(["b", "c"]) == ("b", "c")  # a list becomes a tuple
    assert OptionSpec("share", 0.5, "a share").check(1) == 1.0 and isinstance(
        OptionSpec("share", 0.5, "a share").check(1), float)
    assert OptionSpec("kontra", True, "Kontra on").check(False) is False


@pytest.mark.parametrize(("make", "message"), [
    (lambda: OptionSpec("x", None, "nothing"), "a default must be a bool, int, float, str or tuple"),  # type: ignore[arg-type]
    (lambda: OptionSpec("x", ("a", 1), "mixed"), "a list default must hold strings only"),  # type: ignore[arg-type]
    (lambda: OptionSpec("x", 1, "  "), "needs a one-line description"),
    (lambda: OptionSpec("x", 5, "rate", maximum=3),
     r"option 'x' \(its default\) must be an integer of at most 3"),
    (lambda: OptionSpec("x", "a", "word", choices=("b",)),
     r"\(its default\) must be one of \"b\", not \"a\""),
])
def test_a_bad_declaration_is_refused(make: Any, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make()


SPECS = [OptionSpec("kontra", True, "Kontra on"), OptionSpec("rate", 2, "cents", minimum=0, maximum=50),
         OptionSpec("mode", "a", "mode", choices=("a", "b")), OptionSpec("words", ("x",), "words"),
         OptionSpec("share", 0.5, "share", minimum=0, maximum=1)]
ANY_VALUE = st.one_of(st.booleans(), st.integers(-100, 100), st.floats(allow_nan=False, allow_infinity=False),
                      st.text(max_size=5), st.sampled_from(["a", "b", "c"]),
                      st.lists(st.text(max_size=2), max_size=3), st.none(),
                      st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))


@settings(max_examples=400, deadline=None, database=None, derandomize=True)
@given(index=st.integers(0, len(SPECS) - 1), value=ANY_VALUE)
def test_any_value_is_taken_as_the_declared_type_or_refused_saying_why(index: int, value: object) -> None:
    spec = SPECS[index]
    try:
        got = spec.check(value)
    except OptionError as exc:
        assert str(exc).startswith(f"option {spec.name!r} must be {spec.allowed()}, not ")
        return
    assert type(got) is spec.kind
    if spec.choices:
        assert got in spec.choices
    if isinstance(got, int | float) and not isinstance(got, bool):
        assert (spec.minimum is None or got >= spec.minimum) and (spec.maximum is None or got <= spec.maximum)
    if isinstance(got, tuple):
        assert all(isinstance(w, str) for w in got)


# -- a ruleset's options ------------------------------------------------------------------------

def test_two_plugins_declaring_one_option_is_an_error_naming_both() -> None:
    class Second:
        name = "second-kontra"

        @hookimpl
        def tarock_options(self) -> Sequence[OptionSpec]:
            return [OptionSpec("kontra", False, "another Kontra switch")]

    with pytest.raises(RuleError, match=r"option 'kontra' is declared twice: by plugin 'tarock54' "
                                        r"and by plugin 'second-kontra'"):
        Rules("clash", [Tarock54(), Second()])


def test_a_clash_in_plugins_toml_is_refused_before_any_table(tmp_path: Path) -> None:
    plugin = tmp_path / "clash.py"
    plugin.write_text(
        "from tarock.core.hookspecs import hookimpl\nfrom tarock.core.options import OptionSpec\n\n\n"
        "class Clash:\n    name = 'clash'\n    version = '1.0'\n\n"
        "    @hookimpl\n    def tarock_options(self):\n"
        "        return [OptionSpec('kontra', False, 'the club has its own Kontra switch')]\n\n\n"
        "PLUGIN = Clash\n", encoding="utf-8")
    config = tmp_path / "plugins.toml"
    config.write_text(f'[plugins]\nenabled = ["house"]\n[[variant]]\nname = "house"\nbase = "tarock54"\n'
                      f"plugins = [{{ path = '{plugin}' }}]\n", encoding="utf-8")
    with pytest.raises(RuleError, match=r"variant 'house': option 'kontra' is declared twice: by plugin "
                                        r"'tarock54' and by plugin 'clash'"):
        load_plugins(config).find("house")  # unavailable, with its reason; the others load


def test_a_house_rule_changes_a_default_of_its_base() -> None:
    """examples/koenigrufen_club_rules.py flips the rulebook's ``mondfang_partners`` through
    ``tarock_option_defaults``; the option stays the rulebook's, with its type and check."""
    house = CATALOGUE.find("koenigrufen-mondfang-club").rules()
    base = CATALOGUE.find("koenigrufen-club").rules()
    assert base.options["mondfang_partners"] is False and house.options["mondfang_partners"] is True
    declared = house.option_specs["mondfang_partners"]
    assert declared.plugin == "koenigrufen-club" and declared.spec.default is True
    assert house.option_specs["trull"].plugin == "mondfang-trull-club"
    with pytest.raises(RuleError, match=r"option 'mondfang_partners' must be true or false, not \"yes\""):
        CATALOGUE.find("koenigrufen-mondfang-club").rules({"mondfang_partners": "yes"})
    assert CATALOGUE.find("koenigrufen-mondfang-club").rules(
        {"mondfang_partners": False}).options["mondfang_partners"] is False


def test_a_new_default_is_checked_and_must_name_a_declared_option() -> None:
    def with_defaults(changes: Mapping[str, Any]) -> Rules:
        class Defaults:
            name = "defaults"

            @hookimpl
            def tarock_option_defaults(self) -> Mapping[str, Any]:
                return changes

        return Rules("defaults", [Tarock54(), Defaults()])

    assert with_defaults({"kontra": False}).options["kontra"] is False
    with pytest.raises(RuleError, match=r"option 'kontra' \(default set by plugin 'defaults'\) "
                                        r"must be true or false, not \"off\""):
        with_defaults({"kontra": "off"})
    with pytest.raises(RuleError, match=r"plugin 'defaults' sets a default for option 'kontra_words', "
                                        r"which no plugin declares \(declared: kontra\)"):
        with_defaults({"kontra_words": ["K"]})


def test_collect_and_resolve() -> None:
    declared = collect([("base", [OptionSpec("rate", 2, "cents")]),
                        ("house", [OptionSpec("mode", "a", "m")])], [("house", {"rate": 3})])
    assert {n: (d.plugin, d.spec.default) for n, d in declared.items()} == {"rate": ("base", 3),
                                                                            "mode": ("house", "a")}
    assert resolve(declared, {"mode": "a"}, "v") == {"rate": 3, "mode": "a"}
    with pytest.raises(OptionError, match=r"unknown option\(s\) for v: speed \(known: mode, rate\)"):
        resolve(declared, {"speed": 1}, "v")
    with pytest.raises(OptionError, match="is not an OptionSpec"):
        collect([("base", [{"rate": 2}])], [])  # type: ignore[list-item]


@pytest.mark.parametrize("variant", sorted(available_variants()))
def test_every_installed_option_is_declared_with_a_description(variant: str) -> None:
    rules = find_variant(variant).rules()
    assert rules.option_specs, variant
    for name, declared in rules.option_specs.items():
        assert declared.spec.name == name and declared.spec.description.strip()
        assert rules.options[name] == declared.spec.default
    with pytest.raises(TypeError):
        rules.options["kontra"] = False  # type: ignore[index]  # read-only


# -- where values enter -----------------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "options", "message"), [
    # the two: a string "no" for the Kontra switch, a word for a club's point value
    ("tarock54", {"kontra": "no"}, r"option 'kontra' must be true or false, not \"no\""),
    ("tarock54-club", {"pagat_ultimo": "two"}, r"option 'pagat_ultimo' must be an integer of at least 0, not "
                                               r"\"two\""),
    ("tarock40", {"pflichtkontra": 0}, r"option 'pflichtkontra' must be true or false, not 0"),
    ("koenigrufen-club", {"four_kings": "king"}, r"option 'four_kings' must be one of \"queen\", \"self\", "
                                                r"\"none\", not \"king\""),
    ("tarock54", {"direction": "clockwise"},
     r"unknown option\(s\) for tarock54: direction \(known: kontra\)"),
])
def test_a_table_with_a_bad_option_is_not_made(variant: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        CATALOGUE.find(variant).rules(options)


def test_a_record_with_a_bad_option_is_refused() -> None:
    rules = find_variant("tarock54").rules()
    hand = Hand(rules, 0, *deal(rules, random.Random(3)))
    data = json.loads(record_of(hand).dumps())
    data["options"] = {"kontra": "no"}
    with pytest.raises(Exception, match=r"option 'kontra' must be true or false, not \"no\"") as err:
        replay(data)
    assert type(err.value).__name__ == "RecordError"
    # a first-format record's retired client settings are dropped, not refused
    data = json.loads(record_of(hand).dumps())
    old = {"format": "tarock-record/1", "variant": "tarock54", "options": {"kontra": True, "direction": "x"},
           "dealer": data["dealer"], "hands": data["hands"], "talon": data["talon"], "actions": []}
    assert replay(old).hand is not None


@pytest.mark.parametrize(("argv", "message"), [
    (["rules", "tarock54", "-o", 'kontra="no"'], 'option \'kontra\' must be true or false, not "no"'),
    (["rules", "tarock54-club", "-o", 'pagat_ultimo="two"'], "must be an integer of at least 0"),
    (["rules", "tarock54", "-o", "kontra"], "--option wants KEY=VALUE"),
])
def test_a_bad_dash_o_exits_with_status_2_and_no_traceback(argv: list[str], message: str) -> None:
    command = [sys.executable, "-m", "tarock.client.cli", *argv, "--lang", "en", "--plugins",
               str(REPO / "plugins.toml")]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=120, encoding="utf-8", cwd=REPO)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""
