"""Plugins: plugins.toml, the worked example plugin, errors before a table, the rules hash.

The example (examples/pagat_club.py) lives outside the installed packages and
is loaded by path from plugins.toml; the hands below show it changing the
54-card game as docs/plugins.md says, with core/ and variants/ untouched.
"""

from __future__ import annotations

import inspect
import re
import sys
import textwrap
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest
from line_items import Line, lines

from tarock.core import hookspecs
from tarock.core.actions import Action, Call, Kontra, Pass, Play
from tarock.core.cards import PAGAT, parse_card
from tarock.core.engine import Hand
from tarock.core.plugin_ids import code_digest, package_root
from tarock.core.plugins import (
    PLUGIN_GROUP,
    VARIANT_GROUP,
    Catalogue,
    PluginError,
    builtin_catalogue,
    default_config,
    load_plugins,
    plugin_version,
    rules_hash,
)
from tarock.core.record import RecordError, record_of, replay
from tarock.core.registry import available_variants, find_variant
from tarock.core.rules import PluginFailure, RuleError, Rules
from tarock.core.state import HandResult

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "plugins_fixtures"
EXAMPLE = REPO / "examples" / "pagat_club.py"
DOC = REPO / "docs" / "plugins.md"


# -- helpers -------------------------------------------------------------------

def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "plugins.toml"
    path.write_text(text, encoding="utf-8")
    return path


def refusal(path: Path, name: str = "house") -> str:
    """Why plugins.toml ``path`` cannot give variant ``name``: a file-wide error or its reason."""
    try:
        catalogue = load_plugins(path)
    except PluginError as exc:
        return str(exc)
    assert name in catalogue.unavailable and name not in catalogue.enabled, catalogue.unavailable
    with pytest.raises(PluginError) as caught:
        catalogue.find(name)
    assert str(caught.value) == f"variant {name!r} is unavailable: {catalogue.unavailable[name]}"
    return catalogue.unavailable[name]


def club(tmp_path: Path, options: str = "{}", name: str = "club", example: Path = EXAMPLE) -> Catalogue:
    """A plugins.toml with the example plugin over tarock54 as variant ``name``."""
    return load_plugins(config(tmp_path, f"""
[plugins]
enabled = ["tarock54", "{name}"]

[[variant]]
name = "{name}"
base = "tarock54"
plugins = [{{ path = '{example}' }}]
options = {options}
"""))


def variant_with(plugin: str | Path, base: str = "tarock54", options: str = "{}") -> str:
    """plugins.toml text: variant ``house`` = ``base`` + one plugin file (a fixture's name)."""
    return f"""
[plugins]
enabled = ["house"]

[[variant]]
name = "house"
base = "{base}"
plugins = [{{ path = '{FIXTURES / plugin if isinstance(plugin, str) else plugin}' }}]
options = {options}
"""


def play(rules: Rules, hands: Sequence[str], talon: Sequence[str]) -> Hand:
    """Play a rigged 54-card hand to the end (see :func:`play_out`)."""
    hand = Hand(rules, 3, [[parse_card(c) for c in h.split()] for h in hands],
                [[parse_card(c) for c in p.split()] for p in talon])
    play_out(hand)
    return hand


def play_out(hand: Hand) -> None:
    """Seat 3 deals, so seat 0 is forehand: it calls, the others pass, nobody
    says Kontra, the first legal discard is laid away, and every seat plays
    the first legal card in the order dealt (cards taken from the talon after
    those), holding its Pagat back as long as it can.
    """
    dealt, piles = hand.deal
    rank = {c: i for h in dealt for i, c in enumerate(h)}
    rank.update({c: 100 + i for i, c in enumerate(c for p in piles for c in p)})
    rank[PAGAT] = 1000
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        legal = hand.legal(seat)
        action: Action
        if hand.state.phase == "bidding":
            calls = [a for a in legal if isinstance(a, Call)]
            action = calls[0] if seat == 0 and calls else Pass(seat)
        elif hand.state.phase == "play":
            action = min(legal, key=lambda a: rank[a.card] if isinstance(a, Play) else -1)
        else:
            action = next((a for a in legal if not isinstance(a, Kontra)), legal[0])
        hand.apply(action)


def result(hand: Hand) -> HandResult:
    assert hand.state.result is not None
    return hand.state.result


def tricks(hand: Hand) -> list[list[int]]:
    return [list(t.cards) for t in hand.state.tricks]


# Rigged deals (seat 0 calls the XX; seat 1 holds it in all but one).
ULTIMO_WON = (["c7 c8 c9 c10 h4 XIX XXI Sküs I cQ cC cJ",
               "XX XVIII XVII XVI sK sQ sC sJ s10 s9 s8 s7",
               "XV XIV XIII cK hQ hC hJ h1 h2 h3 hK dK",
               "XII XI X IX VIII dQ dC dJ d1 d2 d3 d4"],
              ["VII VI V", "IV III II"])
"""Seat 0 leads the Pagat into the last trick when nobody has a tarock left."""
LOST_BY_DECLARERS = (["XVI XV sQ dJ dQ IV hC VIII hQ h1 d2 VI",
                      "III sK XX c9 XVII Sküs sC XII hK c7 XIV I",
                      "d4 XVIII s8 cJ dC X h2 V IX cK c10 VII",
                      "XXI h4 cC cQ XIII XI XIX II s10 d1 h3 s7"],
                     ["dK s9 sJ", "c8 d3 hJ"])
"""The partner (seat 1) plays the Pagat in the last trick; seat 2's VII takes it."""
LOST_BY_OPPONENTS = (["cQ sJ d4 hK XX c10 cK d1 hJ IX c9 XXI",
                      "s7 s8 XVIII V VI sC s10 X sK XIII h1 hC",
                      "dQ II III dJ IV d3 h4 Sküs XVII d2 XIV I",
                      "h2 s9 c7 XIX XVI dK XI cC c8 sQ dC cJ"],
                     ["XV VII XII", "h3 hQ VIII"])
"""Seat 0 holds the XX and calls the XIX (seat 3); opponent seat 2's Pagat
falls to seat 0's XII in the last trick."""
TRULL_IN_TRICK_ONE = (["Sküs XIX XVIII XVII c7 c8 c9 c10 h4 cQ cC cJ",
                       "XXI XX XVI XV sK sQ sC sJ s10 s9 s8 s7",
                       "I cK hK hQ hC hJ h1 h2 h3 dK dQ dC",
                       "XIV XIII XII XI X IX VIII dJ d1 d2 d3 d4"],
                      ["VII VI V", "IV III II"])
"""Seat 0 leads the Sküs, seat 1 adds the Mond, seat 2 its only tarock, the Pagat."""


@pytest.fixture(scope="module")
def repo() -> Catalogue:
    """The plugins.toml shipped at the top of the repository."""
    return load_plugins(REPO / "plugins.toml")


# -- the shipped plugins.toml and the example's place ----------------------------------

def test_shipped_config_offers_the_club_variant_from_outside_the_packages(repo: Catalogue) -> None:
    assert {"tarock54", "tarock54-club"} <= set(repo.enabled)
    variant = repo.find("tarock54-club")
    assert variant.lineage == ("tarock54",)
    plugins = variant.plugins()
    assert [p.name for p in plugins] == ["tarock54", "pagat-club"]  # type: ignore[attr-defined]
    assert Path(inspect.getfile(type(plugins[-1]))).resolve() == EXAMPLE
    packages = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    assert EXAMPLE.parent.name not in packages and EXAMPLE.parent.parent == REPO


def test_registry_finds_plugins_toml_variants_only_with_the_config(repo: Catalogue) -> None:
    path = REPO / "plugins.toml"
    assert find_variant("tarock54-club", path).name == "tarock54-club"
    assert find_variant("tarock54-club", repo) is repo.variants["tarock54-club"]
    assert list(available_variants(path)) == list(repo.enabled)
    with pytest.raises(RuleError, match="unknown variant 'tarock54-club'"):
        find_variant("tarock54-club")


# -- the example changes the game as documented ---------------------------------------

def test_pagat_ultimo_is_worth_two_for_the_club(tmp_path: Path) -> None:
    """docs/rules.md §12.4: "Pagat Ultimo: Wird der Pagat (I) im letzten Stich ausgespielt und
    gewinnt er ihn, gibt es 1 Punkt extra für die Partei dieses Spielers." The club
    counts 2 (option pagat_ultimo)."""
    base = play(find_variant("tarock54").rules(), *ULTIMO_WON)
    ours = play(club(tmp_path).find("club").rules(), *ULTIMO_WON)
    assert tricks(base) == tricks(ours)
    last = ours.state.tricks[-1]
    assert last.cards[0] == PAGAT and last.winner == 0 and result(ours).declarers == (0, 1)
    game = Line("game", "declarers", True, 1)
    assert lines(result(base)) == [game, Line("pagat-ultimo", "declarers", True, 1)]
    assert lines(result(ours)) == [game, Line("pagat-ultimo", "declarers", True, 2)]
    assert result(base).settlement == (2, 2, -2, -2)
    assert result(ours).settlement == (3, 3, -3, -3)


@pytest.mark.parametrize(("options", "value"), [("{ pagat_ultimo = 3 }", 3), ("{ pagat_ultimo = 1 }", 1)])
def test_the_value_is_an_option_set_in_plugins_toml(tmp_path: Path, options: str, value: int) -> None:
    ours = play(club(tmp_path, options).find("club").rules(), *ULTIMO_WON)
    assert lines(result(ours))[1:] == [Line("pagat-ultimo", "declarers", True, value)]


def test_a_table_option_overrides_the_preset(tmp_path: Path) -> None:
    variant = club(tmp_path, "{ pagat_ultimo = 3 }").find("club")
    assert lines(result(play(variant.rules({"pagat_ultimo": 5}), *ULTIMO_WON)))[1:] == [
        Line("pagat-ultimo", "declarers", True, 5)]


@pytest.mark.parametrize(("deal", "seat", "value"), [
    (LOST_BY_DECLARERS, 1, -1),   # the declarers' Pagat: they pay
    (LOST_BY_OPPONENTS, 2, 1),    # the opponents' Pagat: the declarers earn
])
def test_a_pagat_lost_in_the_last_trick_costs_its_party(
        tmp_path: Path, deal: tuple[list[str], list[str]], seat: int, value: int) -> None:
    """docs/rules.md §12.4: a Pagat that is played in the last trick and loses
    costs nothing in tarock54; the club charges 1 (option pagat_lost)."""
    base = play(find_variant("tarock54").rules(), *deal)
    ours = play(club(tmp_path).find("club").rules(), *deal)
    assert tricks(base) == tricks(ours)
    last = ours.state.tricks[-1]
    assert last.seats[last.cards.index(PAGAT)] == seat and last.winner != seat
    ours_party = seat in ours.state.declarer_party()
    assert ours_party == (value < 0)
    assert result(base).premium_items == ()
    # the Pagat Ultimo attempted and failed: its party pays the club's charge
    assert lines(result(ours))[1:] == [
        Line("pagat-ultimo", "declarers" if ours_party else "opponents", False, value)]
    assert result(ours).settlement[0] == result(base).settlement[0] + value
    assert sum(result(ours).settlement) == 0


def test_pagat_lost_zero_turns_the_charge_off(tmp_path: Path) -> None:
    ours = play(club(tmp_path, "{ pagat_lost = 0 }").find("club").rules(), *LOST_BY_DECLARERS)
    assert result(ours).premium_items == ()


def test_kaiserstich_the_pagat_takes_the_trull(tmp_path: Path) -> None:
    """docs/rules.md §4.8 (40 Blatt): "Kaiserstich: Liegen Pagat, Mond und Sküs im selben
    Stich, gewinnt der Pagat (nicht im Faberl)." The club plays it with 54 cards;
    tarock54 alone lets the Sküs win ("der Sküs schlägt alle")."""
    base = play(find_variant("tarock54").rules(), *TRULL_IN_TRICK_ONE)
    ours = play(club(tmp_path).find("club").rules(), *TRULL_IN_TRICK_ONE)
    first = [parse_card(c) for c in ("Sküs", "XXI", "I", "XIV")]
    assert tricks(base)[0] == tricks(ours)[0] == first
    assert base.state.tricks[0].winner == 0
    assert ours.state.tricks[0].winner == 2
    assert result(base).points != result(ours).points


def test_kaiserstich_off_plays_like_tarock54(tmp_path: Path) -> None:
    base = play(find_variant("tarock54").rules(), *TRULL_IN_TRICK_ONE)
    ours = play(club(tmp_path, "{ kaiserstich = false }").find("club").rules(), *TRULL_IN_TRICK_ONE)
    assert tricks(base) == tricks(ours)
    assert result(base) == result(ours)


def test_a_club_hand_replays_from_its_record(repo: Catalogue) -> None:
    hand = play(repo.find("tarock54-club").rules(), *ULTIMO_WON)
    data = record_of(hand).to_json()
    assert data["variant"] == "tarock54-club" and data["options"]["pagat_ultimo"] == 2
    again = replay(data, find_variant(data["variant"], repo).rules(data["options"]))
    assert again.error_index is None and again.hand is not None
    assert again.hand.state.result == result(hand)


# -- stacking house rules ----------------------------------------------------------------

def test_house_rules_stack_over_a_variant_defined_above(tmp_path: Path) -> None:
    catalogue = load_plugins(config(tmp_path, f"""
[plugins]
enabled = ["club", "club-valat"]

[[variant]]
name = "club"
base = "tarock54"
plugins = [{{ path = '{EXAMPLE}' }}]
options = {{ pagat_ultimo = 3 }}

[[variant]]
name = "club-valat"
base = "club"
title = "Club rules, Valat double"
plugins = [{{ path = '{FIXTURES / "valat_double.py"}' }}]
"""))
    variant = catalogue.find("club-valat")
    assert variant.lineage == ("club", "tarock54") and variant.title == "Club rules, Valat double"
    rules = variant.rules()
    assert rules.plugin_names == ["core", "tarock54", "pagat-club", "valat-double"]
    assert rules.options["pagat_ultimo"] == 3  # inherited preset


def test_a_variant_without_plugins_is_an_option_preset(tmp_path: Path) -> None:
    catalogue = load_plugins(config(tmp_path, """
[plugins]
enabled = ["no-kontra"]

[[variant]]
name = "no-kontra"
base = "tarock54"
options = { kontra = false }
"""))
    rules = catalogue.find("no-kontra").rules()
    assert rules.plugin_names == ["core", "tarock54"] and rules.options == {"kontra": False}


# -- the rules hash --------------------------------------------------------------------------

def test_rules_hash_is_stable_for_the_same_setup(tmp_path: Path) -> None:
    one = rules_hash(club(tmp_path, "{ pagat_ultimo = 3, kaiserstich = false }").find("club").rules())
    two = rules_hash(club(tmp_path, "{ kaiserstich = false, pagat_ultimo = 3 }").find("club").rules())
    assert one == two and re.fullmatch(r"[0-9a-f]{64}", one)
    variant = club(tmp_path).find("club")
    assert rules_hash(variant.rules()) == rules_hash(variant.rules({"pagat_ultimo": 2}))  # the default


def test_rules_hash_differs_when_the_rules_differ(tmp_path: Path) -> None:
    newer = tmp_path / "newer" / "pagat_club.py"
    newer.parent.mkdir()
    text = EXAMPLE.read_text()
    assert 'version = "2.1"' in text
    newer.write_text(text.replace('version = "2.1"', 'version = "2.2"'))
    variant = club(tmp_path).find("club")
    hashes = {
        "club": rules_hash(variant.rules()),
        "option": rules_hash(variant.rules({"kaiserstich": False})),
        "name": rules_hash(club(tmp_path, name="other").find("other").rules()),
        "version": rules_hash(club(tmp_path, example=newer).find("club").rules()),
        "plugins": rules_hash(find_variant("tarock54").rules()),
    }
    assert len(set(hashes.values())) == len(hashes), hashes


def test_plugins_without_a_version_hash_their_package_version() -> None:
    class Unversioned:
        name = "unversioned"

    Unversioned.__module__ = "tarock.variants.tarock54"  # a plugin class shipped in the tarock package
    assert re.fullmatch(r"tarock==\S+", plugin_version(Unversioned()))
    from tarock.variants.tarock54 import Tarock54
    assert plugin_version(Tarock54()) == Tarock54.version


# -- errors before a table starts ------------------------------------------------------------

def test_bad_toml_names_the_file_and_line(tmp_path: Path) -> None:
    path = config(tmp_path, '[plugins]\nenabled = ["tarock54"]\nkontra off\n')
    with pytest.raises(PluginError, match=rf"{re.escape(str(path))} is not valid TOML: .*line 3"):
        load_plugins(path)


def test_a_missing_config_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match=r"cannot read .*nowhere\.toml"):
        load_plugins(tmp_path / "nowhere.toml")


def test_a_missing_plugin_file_names_the_variant_and_path(tmp_path: Path) -> None:
    path = config(tmp_path, variant_with("gone.py"))
    assert re.search(r"variant 'house', plugins\[0\]: plugin file .*gone\.py does not exist", refusal(path))


def test_a_relative_plugin_path_is_relative_to_plugins_toml(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "club.py").write_text(EXAMPLE.read_text())
    catalogue = load_plugins(config(tmp_path, """
[plugins]
enabled = ["club"]
[[variant]]
name = "club"
base = "tarock54"
plugins = [{ path = "rules/club.py" }]
"""))
    assert catalogue.find("club").rules().plugin_names == ["core", "tarock54", "pagat-club"]


def test_a_plugin_file_that_does_not_parse(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("class Broken(:\n    pass\n")
    path = config(tmp_path, variant_with(tmp_path / "broken.py"))
    assert re.search(r"broken\.py failed to import: SyntaxError", refusal(path))


@pytest.mark.parametrize(("fixture", "message"), [
    ("import_error.py", r"import_error\.py failed to import: ModuleNotFoundError: .*tarock_no_such_module"),
    ("no_plugin.py", r"no_plugin\.py defines no PLUGIN"),
    ("no_version.py", r"plugin 'unversioned' .*set a version"),
    ("no_hookimpl.py", r"plugin 'forgetful' .*hook 'tarock_premium_specs': the method lacks @hookimpl"),
    ("unknown_hook.py", r"plugin 'typo' implements the hook 'tarock_trick_winer', which does not exist"),
    ("wrong_args.py", r"plugin 'wrong-args', hook 'tarock_trick_winner': Argument\(s\) \{'cards'\}"
                      r".*the hook takes \(state, trick\)"),
    ("for_tarock40.py", r"plugin 'forty-only' .*is written for tarock40, "
                        r"so it cannot be used over 'tarock54'"),
    ("fails_in_options.py", r"plugin 'fails-early', hook 'tarock_options' failed .*ZeroDivisionError"),
])
def test_a_broken_plugin_is_named_with_its_hook(tmp_path: Path, fixture: str, message: str) -> None:
    reason = refusal(config(tmp_path, variant_with(fixture)))
    assert re.search(message, reason) and reason.startswith(f"{tmp_path / 'plugins.toml'}: variant 'house'")


def test_an_option_no_plugin_declares(tmp_path: Path) -> None:
    path = config(tmp_path, variant_with("valat_double.py", options="{ pagat_ultimo = 2 }"))
    assert re.search(r"variant 'house': option 'pagat_ultimo' is declared by no plugin of it "
                     r"\(known: kontra\)", refusal(path))


def test_an_option_of_the_wrong_kind_names_its_plugin(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match=r"option 'pagat_ultimo' \(declared by plugin 'pagat-club'\) "
                                          r"must be an integer of at least 0, not \"two\""):
        club(tmp_path, '{ pagat_ultimo = "two" }').find("club")


@pytest.mark.parametrize(("text", "name", "message"), [
    ('[plugins]\nenabled = ["tarock45"]\n', "tarock45",
     r"\[plugins\] enabled: no installed package or \[\[variant\]\] defines 'tarock45' \(known: .*tarock54"),
    ('[plugins]\nenabled = ["tarock54", "tarock54"]\n', None, "lists tarock54 more than once"),
    ('[plugins]\nenable = ["tarock54"]\n', None,
     r"\[plugins\]: unknown key\(s\) enable \(allowed: enabled\)"),
    ('[plugin]\nenabled = ["tarock54"]\n', None, r"unknown key\(s\) plugin \(allowed: plugins, variant\)"),
    ('[[variant]]\nname = "x"\nbase = "tarock99"\n', "x", r"variant 'x': unknown base variant 'tarock99'"),
    ('[[variant]]\nname = "tarock54"\nbase = "tarock54"\n', "[[variant]] #1",
     r"variant 'tarock54' is already defined"),
    ('[[variant]]\nname = "x y"\nbase = "tarock54"\n', "x y", r"the name 'x y' must be letters"),
    ('[[variant]]\nname = "x"\n', "x", r"variant 'x': give a base variant, plugins, or both"),
    ('[[variant]]\nname = "x"\nbase = "tarock54"\nplugins = [{ path = "a.py", entry_point = "b" }]\n', "x",
     r"plugins\[0\]: give exactly one of path"),
    ('[[variant]]\nname = "x"\nbase = "tarock54"\nplugins = [{ entry_point = "no-such-rule" }]\n', "x",
     rf"no installed package offers the plugin 'no-such-rule' \(entry-point group '{PLUGIN_GROUP}'"),
])
def test_config_mistakes_are_clear(tmp_path: Path, text: str, name: str | None, message: str) -> None:
    """A file that is not laid out as documented is refused whole; a variant
    that cannot be used is set aside with its reason (the others load)."""
    path = config(tmp_path, text)
    if name is None:
        with pytest.raises(PluginError, match=message):
            load_plugins(path)
    else:
        assert re.search(message, refusal(path, name))


def test_a_plugin_failing_during_play_is_named_with_its_hook(tmp_path: Path) -> None:
    rules = load_plugins(config(tmp_path, variant_with("fails_in_scoring.py"))).find("house").rules()
    hand = Hand(rules, 3, [[parse_card(c) for c in h.split()] for h in ULTIMO_WON[0]],
                [[parse_card(c) for c in p.split()] for p in ULTIMO_WON[1]])
    with pytest.raises(PluginFailure, match=r"^plugin 'fails-late' failed in hook tarock_premium_outcomes "
                                            r"\(round 1, deal 1; on seat \d: play \S+, which was not "
                                            r"taken\): KeyError: 'bonus'$") as caught:
        play_out(hand)
    assert isinstance(caught.value, RuleError) and isinstance(caught.value.__cause__, KeyError)
    # the last card of the hand was refused; the hand stands as before it
    assert not hand.done and len(hand.state.tricks) == 11
    assert hand.state.trick is not None and len(hand.state.trick.cards) == 3


def test_not_enabled_is_not_offered(tmp_path: Path) -> None:
    catalogue = load_plugins(config(tmp_path, f"""
[plugins]
enabled = ["tarock54"]
[[variant]]
name = "club"
base = "tarock54"
plugins = [{{ path = '{EXAMPLE}' }}]
"""))
    assert list(catalogue.offered()) == ["tarock54"] and "club" in catalogue.variants
    with pytest.raises(RuleError, match=r"variant 'club' is installed but not enabled in .*plugins\.toml"):
        catalogue.find("club")


# -- entry points -------------------------------------------------------------------------

@pytest.fixture
def installed_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package 'club-rules' on sys.path offering a house rule and a broken variant."""
    site = tmp_path / "site"
    info = site / "club_rules-2.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: club-rules\nVersion: 2.0\n")
    (info / "entry_points.txt").write_text(
        f"[{PLUGIN_GROUP}]\nvalat-double = club_rules_pkg:ValatDouble\n\n"
        f"[{VARIANT_GROUP}]\nbroken-variant = club_rules_pkg:NO_SUCH_NAME\n")
    (site / "club_rules_pkg.py").write_text((FIXTURES / "valat_double.py").read_text())
    monkeypatch.syspath_prepend(str(site))
    return tmp_path


BY_ENTRY_POINT = """
[plugins]
enabled = ["tarock54", "valat-double"]
[[variant]]
name = "valat-double"
base = "tarock54"
plugins = [{ entry_point = "valat-double" }]
"""
"""A plugins.toml with the installed package's house rule over tarock54."""


def test_a_house_rule_found_by_entry_point(installed_package: Path) -> None:
    catalogue = load_plugins(config(installed_package, BY_ENTRY_POINT))
    assert catalogue.find("valat-double").rules().plugin_names == ["core", "tarock54", "valat-double"]


def test_an_installed_plugin_changed_without_a_new_version_refuses_old_records(
        installed_package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules hash covers an installed package's plugin code as it does a plugin file's, so a
    changed plugin refuses its old records, naming itself, until its version says it changed;
    tarock's own variants stay identified by their versions."""
    toml = config(installed_package, BY_ENTRY_POINT)
    module = installed_package / "site" / "club_rules_pkg.py"

    def fresh() -> Catalogue:
        monkeypatch.delitem(sys.modules, "club_rules_pkg", raising=False)
        return load_plugins(toml)

    catalogue = fresh()
    rules = catalogue.find("valat-double").rules()
    assert list(rules.sources) == ["valat-double"]
    assert rules.sources["valat-double"][1] == str(module.resolve())  # its code, named in refusals
    data = record_of(play(rules, *ULTIMO_WON)).to_json()
    assert list(data["rules"]["sources"]) == ["valat-double"]
    assert replay(data, variants=fresh().variants).hand is not None  # the same code: it replays
    module.write_text(module.read_text().replace("2 * p.silent", "3 * p.silent"))
    with pytest.raises(RecordError) as caught:
        replay(data, variants=fresh().variants)
    assert str(caught.value) == (
        "the record was played with other rules than valat-double here: plugin 'valat-double' "
        f"({module.resolve()}) changed since the record was written, though its version is still 1.0 "
        "(give a changed rule a new version; the record replays only with the file as it was)")
    module.write_text(module.read_text().replace('version = "1.0"', 'version = "1.1"'))
    with pytest.raises(RecordError, match=r"plugin 'valat-double' is version 1\.1 here, 1\.0 in the record"):
        replay(data, variants=fresh().variants)
    assert not find_variant("tarock54").rules().sources  # tarock's own: by its version


def test_a_broken_installed_variant_only_matters_when_enabled(installed_package: Path) -> None:
    assert list(load_plugins(config(installed_package, '[plugins]\nenabled = ["tarock54"]\n')).enabled) == [
        "tarock54"]
    path = config(installed_package, '[plugins]\nenabled = ["broken-variant", "tarock54"]\n')
    assert re.search(r"variant plugin 'broken-variant' .*failed to load", refusal(path, "broken-variant"))
    assert load_plugins(path).enabled == ("tarock54",)
    # without a plugins.toml too: the others load, and asking for it names its error
    assert "broken-variant" not in available_variants() and "tarock54" in available_variants()
    with pytest.raises(RuleError, match=r"variant plugin 'broken-variant' .*failed to load"):
        find_variant("broken-variant")


def test_a_plugin_packages_digest_covers_every_module_of_the_package(tmp_path: Path) -> None:
    package = tmp_path / "clubpkg"
    (package / "parts").mkdir(parents=True)
    for name in ("__init__.py", "rule.py", "parts/__init__.py", "parts/helpers.py"):
        (package / name).write_text(f"# {name}\n")
    root = package_root(package / "rule.py")
    assert root == package and package_root(tmp_path / "alone.py") == tmp_path / "alone.py"
    before = code_digest(root)
    (package / "parts" / "helpers.py").write_text("# changed\n")
    assert code_digest(root) != before and code_digest(root) == code_digest(package_root(package / "parts"
                                                                                          / "helpers.py"))


# -- where plugins.toml is found ------------------------------------------------------------

def test_default_config_prefers_the_current_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert default_config(tmp_path) == REPO / "plugins.toml"  # a source checkout's
    path = config(tmp_path, '[plugins]\nenabled = ["tarock54"]\n')
    assert default_config(tmp_path) == path
    monkeypatch.chdir(tmp_path)
    catalogue = load_plugins()
    assert catalogue.source == path and catalogue.enabled == ("tarock54",)


def test_builtin_catalogue_enables_every_installed_variant() -> None:
    catalogue = builtin_catalogue()
    assert catalogue.source is None and "tarock54" in catalogue.enabled
    assert sorted(catalogue.enabled) == sorted(catalogue.variants)
    # without a plugins.toml the lobby still preselects the 40-card game (docs/rules.md §3.6)
    assert catalogue.enabled[:3] == ("tarock40", "tarock40-online", "tarock54")


# -- docs/plugins.md ----------------------------------------------------------------------------

HOOKS_DOC = REPO / "docs" / "hooks.md"


def _sections() -> dict[str, str]:
    parts = re.split(r"^## (tarock_\w+)\s*$", HOOKS_DOC.read_text(encoding="utf-8"), flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def test_the_guide_shows_every_hook_with_an_example() -> None:
    """docs/plugins.md sends the reader to docs/hooks.md, where every hook has an example
    implementing it (the signatures and kinds are checked by test_hooks_documented)."""
    assert "(hooks.md)" in DOC.read_text(encoding="utf-8")
    hooks = {n for n in vars(hookspecs) if n.startswith("tarock_")}
    sections = _sections()
    assert set(sections) == hooks
    for name, body in sections.items():
        examples = re.findall(r"```python\n(.*?)```", body, flags=re.S)
        assert any(f"def {name}(self" in e for e in examples), f"docs/hooks.md: no example of {name}"


def test_the_guides_code_is_valid() -> None:
    text = DOC.read_text(encoding="utf-8")
    for block in re.findall(r"```python\n(.*?)```", text, flags=re.S):
        compile(textwrap.dedent(block), "docs/plugins.md", "exec")
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.S)
    assert blocks
    for block in blocks:
        tomllib.loads(block)
    example = EXAMPLE.read_text(encoding="utf-8")
    quoted = re.findall(r"<!-- from examples/pagat_club.py -->\n```python\n(.*?)```", text, flags=re.S)
    assert quoted
    for block in quoted:
        assert block in example, f"docs/plugins.md quotes code not in examples/pagat_club.py:\n{block}"


def test_the_guide_names_the_entry_point_groups() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert f'"{PLUGIN_GROUP}"' in text and f'"{VARIANT_GROUP}"' in text


def test_a_plugin_that_imports_the_old_top_level_names_is_told_the_new_ones() -> None:
    """Before the one namespace, a plugin imported ``core.contracts``; now it is ``tarock.core.contracts``."""
    from tarock.core.plugins import _renamed_hint
    hint = _renamed_hint(ModuleNotFoundError("No module named 'core'", name="core.contracts"))
    assert "import tarock.core.contracts instead" in hint
    assert _renamed_hint(ModuleNotFoundError("x", name="numpy")) == ""
