"""The line client (``--plain``, the network commands' terminal, ``selfplay``,
``replay``) speaks through the one catalogue too (issue 10: "German by default,
English with --lang en or the locale; every string through one catalogue").

- Played in the pseudo language, no line of a scripted ``tarock play --plain``
  (help, a bad line, the sheet, bids, Kontras, tricks, the settlement, the
  standings), of ``selfplay``, of ``replay`` and of a network seat's and a
  watcher's terminal shows a plain word: a string that bypassed the
  catalogue would.
- German is the default: a whole table played by typing German words only
  (``weiter``, ``rufe kK``, ``drücke ...``, ``ansage vier-könige``,
  ``kontra spiel@2``, ``trumpf herz``, cards as ``tD``), and the English
  words keep working whatever the language shown (scripts write English).
- What a player types means one thing in every language.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from net_procs import CLI
from netns import Procs
from test_i18n import ROMAN, WORD

from tarock.client.bots import make_bot
from tarock.client.human import HumanPlayer, TableView
from tarock.client.i18n import PSEUDO, Catalogue, pseudo, set_language
from tarock.client.players import BotSeat, Player
from tarock.client.session import Session
from tarock.client.words import TYPED, token, typed_words
from tarock.client.written import HELP_WORDS, QUIT_WORDS, _card_words, parse_choice
from tarock.core.actions import Action, Announce, Bid, Call, Discard, Join, Kontra, Pass, Play, Trump
from tarock.core.cards import DECK54, SKUS, SUIT_LETTERS, SUIT_OF, format_card, rank_of
from tarock.core.facts import RuleFacts
from tarock.core.observation import Observation, observe
from tarock.core.plugins import load_plugins

ROOT = Path(__file__).resolve().parent.parent
BOTS = ("Franz", "Hilde", "Sepp", "Resi")
FACTOR = re.compile(r"^x\d+$")
IDENTIFIERS = set(load_plugins(None).variants) | {"tarock", "join"}
"""Variant names (``[tarock40]``) and the command a player types to join a table."""


def tarock(*args: str, env: dict[str, str] | None = None,
           answers: str = "") -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
    return subprocess.run([*CLI, *args], input=answers, capture_output=True,
                          text=True, encoding="utf-8", timeout=300, cwd=ROOT, env=environ)


def plain_words(text: str, names: set[str]) -> list[str]:
    """The words of ``text`` that did not come through the pseudo catalogue
    (options such as ``--no-records``, file paths and roster fingerprints left out)."""
    text = re.sub(r"(?<!\S)--[\w-]+", " ", text)
    text = re.sub(r"\b[0-9a-f]{4}(?:-[0-9a-f]{4})+\b", " ", text)
    text = re.sub(r"\S*/\S*", " ", text)
    out = []
    for word in WORD.findall(text):
        word = word.rstrip("'")
        if ROMAN.match(word) or FACTOR.match(word) or word in names or word in IDENTIFIERS:
            continue
        out.append(word)
    return out


def assert_pseudo(text: str, names: set[str], least: int) -> None:
    plain = [(n, line) for n, line in enumerate(text.splitlines()) if plain_words(line, names)]
    assert not plain, "not from the catalogue:\n" + "\n".join(
        f"{n}: {plain_words(line, names)}  |  {line}" for n, line in plain[:20])
    assert len(text.splitlines()) >= least, text


# -- the pseudo language ---------------------------------------------------------------------------

SCRIPT = "?\nhand\nsheet\nfoo\n99\nplay hX\ndiscard\nkontra re@x\n" + "1\n" * 4000
TYPED_HERE = {w for line in SCRIPT.splitlines() for w in re.findall(r"[A-Za-z]+", line)}
"""What the script types (a message that repeats a bad line shows it as typed)."""


@pytest.mark.parametrize("variant, seats", [("tarock40", 4), ("tarock54", 4), ("koenigrufen-club", 4),
                                            ("koenigrufen-course", 5)])
def test_no_line_of_the_plain_client_bypasses_the_catalogue(variant: str, seats: int, tmp_path: Path) -> None:
    records = tmp_path / "records"
    proc = tarock("play", "--plain", "--lang", PSEUDO, "--variant", variant, "--seed", "5", "--rounds", "3",
                  "--seats", str(seats), "--records", str(records), answers=SCRIPT)
    assert proc.returncode == 0, proc.stderr + proc.stdout[-3000:]
    assert "Traceback" not in proc.stderr
    assert_pseudo(proc.stdout, set(BOTS) | TYPED_HERE, 100)
    assert pseudo("Type the number of a choice, or write it out.") in proc.stdout  # the help was shown
    assert pseudo("Final standings after {n} round:").split("{n}")[0] in proc.stdout
    replayed = tarock("replay", "--lang", PSEUDO, *map(str, sorted(records.glob("*.json"))))
    assert replayed.returncode == 0, replayed.stderr
    assert_pseudo(replayed.stdout, {pseudo("Seat {n}").split()[0]}, 20)


def test_selfplay_and_the_command_line_errors_in_the_pseudo_language() -> None:
    proc = tarock("selfplay", "--lang", PSEUDO, "--variant", "koenigrufen-club", "--hands", "3", "--sheet",
                  "--stats", "--no-records")
    assert proc.returncode == 0, proc.stderr
    kinds = {f"heuristic-{s}" for s in range(4)}
    assert_pseudo(proc.stdout, kinds, 8)
    assert pseudo("Contracts chosen (games, declarers won, lost):") in proc.stdout  # --stats too
    bad = tarock("selfplay", "--lang", PSEUDO, "--bots", "random,random")
    assert bad.returncode == 2 and not plain_words(bad.stderr.partition(":")[2], set())


def test_the_network_seat_and_a_watcher_in_the_pseudo_language(tmp_path: Path) -> None:
    """``tarock host`` with a person and three bots, and ``tarock watch`` on it, over loopback."""
    environ = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT)}
    common = ["--interface", "127.0.0.1", "--heartbeat", "0.5"]
    with Procs(log_dir=tmp_path / "logs", lifetime=240) as procs:
        host = procs.spawn([*CLI, "host", "--lang", PSEUDO, "--bots", "3",
                            "--rounds", "2", "--variant", "tarock54", "--player", "Anna", "--state",
                            str(tmp_path / "h"), *common], name="host", env=environ, cwd=ROOT)
        opened = host.wait_for(r"127\.0\.0\.1:\d+", timeout=60)
        port = re.search(r"127\.0\.0\.1:(\d+)", opened)
        assert port is not None
        watcher = procs.spawn([*CLI, "watch", "--lang", PSEUDO, "--to",
                               f"127.0.0.1:{port[1]}", "--state", str(tmp_path / "w"), *common],
                              name="watch", env=environ, cwd=ROOT)
        watcher.wait_for(re.escape(pseudo("At the table: {names}").split("{")[0]), timeout=60)
        host.send("?\nsheet\nfoo\n" + "1\n" * 600)  # "foo" is shown back as typed
        assert host.wait(timeout=180) == 0, host.tail()
        assert watcher.wait(timeout=60) == 0, watcher.tail()
    names = {"Anna", "foo"}  # the bots are named by the catalogue ("Bot 1")
    assert_pseudo("\n".join(host.lines()), names, 60)
    seen = "\n".join(watcher.lines())
    assert_pseudo(seen, names, 10)
    assert pseudo("Round {n} of {rounds}: dealer {dealer}, forehand {forehand}").split("{n}")[0] in seen


# -- German by default, the words of both languages understood ----------------------------------

GERMAN_SUITS = {"c": "t", "s": "p", "h": "h", "d": "k"}
GERMAN_RANKS = "KDCB"


def german_card(card: int) -> str:
    """A card as a German player writes it (Treff, Pik, Herz, Karo; König, Dame, Cavall, Bube)."""
    if card < 22:
        return format_card(card)
    rank = rank_of(card)
    pip = format_card(card)[1:]
    return GERMAN_SUITS[SUIT_LETTERS[SUIT_OF[card]]] + (GERMAN_RANKS[rank] if rank < 4 else pip)


def german_title(rules: RuleFacts | None, name: str, context: str) -> str:
    if rules is None:
        return name
    spec = rules.contract(name) if context == "game" else rules.premium(name)
    assert spec is not None
    return token(Catalogue("de").get(spec.title, context))


def german(action: Action, obs: Observation) -> str:
    """``action`` written out with German words only (built here, not by the client)."""
    rules = obs.rules
    if isinstance(action, Pass):
        return "gut" if obs.phase == "announce" else "weiter"
    if isinstance(action, Bid):
        if action.contract == "vorhand":
            return "vorhand"
        return " ".join([german_title(rules, action.contract, "game"),
                         *(german_title(rules, n, "premium") for n in reversed(action.announce))])
    if isinstance(action, Announce):
        return " ".join(["ansage", *(german_title(rules, n, "premium") for n in action.announce),
                         *(["gegen", "das", "spiel"] if action.against else [])])
    if isinstance(action, Kontra):
        t = action.target
        if t.declarer is not None:
            return f"kontra spiel@{t.declarer}"
        if t.answer is not None:
            return f"re {t.answer}"
        return f"kontra {german_title(rules, t.name, 'premium')}" if t.name else "kontra"
    if isinstance(action, Call):
        return f"rufe {german_card(action.card)}"
    if isinstance(action, Discard):
        return "drücke " + " ".join(german_card(c) for c in action.cards)
    if isinstance(action, Trump):
        return "trumpf " + {"c": "treff", "s": "pik", "h": "herz", "d": "karo"}[action.suit]
    if isinstance(action, Play):
        return "spiele " + german_card(action.card) if action.card % 2 else german_card(action.card)
    if isinstance(action, Join):
        return f"{german_title(rules, action.contract, 'game')} bei"
    if action.type == "talon":
        return f"talon {int(getattr(action, 'pile', 0)) + 1}"
    if action.type == "give-up":
        return "aufgeben"
    raise AssertionError(f"no German words for {action}")


def varied(obs: Observation, turn: int) -> Action:
    """A legal action, varied so that every kind is typed over a table."""
    legal = list(obs.legal)
    for kind in (Kontra, Announce, Join, Trump, Call, Discard):
        found = [a for a in legal if isinstance(a, kind)]
        if found and turn % 3 == 0:
            return found[turn % len(found)]
    bids = [a for a in legal if isinstance(a, Bid)]
    if bids and turn % 2 == 0:
        return bids[turn % len(bids)]
    others = [a for a in legal if not isinstance(a, (Kontra, Announce))]
    return others[turn % len(others)] if others else legal[0]


@pytest.mark.parametrize("variant", ["tarock40", "tarock54", "koenigrufen-club", "koenigrufen-course"])
async def test_a_table_played_in_german_words(variant: str) -> None:
    """The default language; every action typed in German is understood and taken."""
    out: list[str] = []
    typed: Counter[str] = Counter()
    holder: list[Session] = []
    turns = iter(range(10**6))

    def answer(prompt: str) -> str:
        hand = holder[0].hand
        assert hand is not None
        obs = observe(hand, 0)
        action = varied(obs, next(turns))
        typed[action.type] += 1
        return german(action, obs)

    human = HumanPlayer(read=answer, write=out.append, names=lambda: holder[0].names)
    players: list[Player] = [human, *(BotSeat(make_bot("heuristic", 70 + i, n))
                                      for i, n in enumerate(BOTS[:3]))]
    session = Session(variant, players, seed=6, rounds=8, listener=TableView(0, out.append))
    holder.append(session)
    assert (await session.run()).over
    assert not [line for line in out if line.startswith(("Leider", "Nicht erlaubt"))], \
        [line for line in out if line.startswith(("Leider", "Nicht erlaubt"))]
    assert human.name == "Du"
    assert {"pass", "play"} <= set(typed) and len(typed) >= 4, typed
    assert any(line.startswith("Endstand nach 8 Runden") for line in out)
    assert any(line.startswith("Deine Karten: ") for line in out)


def test_german_is_the_default_of_tarock_play_plain(tmp_path: Path) -> None:
    proc = tarock("play", "--plain", "--variant", "tarock40", "--seed", "3", "--rounds", "1", "--no-records",
                  env={"LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""},
                  answers="?\nweiter\nfoo\n" + "1\n" * 300)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for text in ("Du spielst gegen Franz (Faustregel)", "Deine Karten: ", "Du bist am Zug (Lizitation):",
                 "Weitere Befehle:", "Leider: 'foo' verstehe ich nicht", "Endstand nach 1 Runde:",
                 "Protokolle: nicht geschrieben"):
        assert text in out, text
    english = tarock("play", "--plain", "--variant", "tarock40", "--seed", "3", "--rounds", "1",
                     "--no-records", env={"LANG": "en_GB.UTF-8"}, answers="1\n" * 300)
    assert "Your hand: " in english.stdout and "Final standings after 1 round:" in english.stdout


@pytest.fixture(params=["de", "en"])
def each_language(request: pytest.FixtureRequest) -> Iterator[str]:
    set_language(request.param)
    yield request.param


def test_the_english_words_work_in_german_and_the_german_in_english(each_language: str) -> None:
    """Scripts write English; a German player writes German; either is read in both languages."""
    from test_bots40 import STRONG_SECOND
    from test_tarock40_support import act, rigged
    hand = rigged(STRONG_SECOND, dealer=3)
    obs = observe(hand, 0)
    for text in ("pass", "weiter", "Weiter!"):
        assert parse_choice(text, obs) == Pass(0), text
    for text in ("bid solo", "solo", "lizitiere solo"):
        assert parse_choice(text, obs) == Bid(0, "solo"), text
    assert parse_choice("bid solo pagat", obs) == Bid(0, "solo-pagat")
    assert parse_choice("solo-mit-pagat", obs) == Bid(0, "solo-pagat")
    assert parse_choice("rufspiel vier-könige", obs) == Bid(0, "rufspiel", ("kings",))
    assert parse_choice("bid rufspiel four kings", obs) == Bid(0, "rufspiel", ("kings",))
    for text in ("hK", "♥K", "hk"):
        assert parse_choice(text, obs) == Play(0, 22 + 16), text
    assert parse_choice("kD", obs) == Play(0, 22 + 24 + 1) == parse_choice("dQ", obs)
    assert parse_choice("spiele tB", obs) == Play(0, 22 + 3) == parse_choice("play cJ", obs)
    online = act(rigged(STRONG_SECOND, dealer=3, variant="tarock40-online"), "0 bid rufspiel trull")
    obs1 = observe(online, 1)
    assert parse_choice("kontra trull", obs1) == Kontra(1, "trull") == parse_choice("kontra auf trull", obs1)
    assert parse_choice("ansage absolut gegen das spiel", obs1) == Announce(1, ("absolut",), True)
    assert parse_choice("announce absolut against the game", obs1) == Announce(1, ("absolut",), True)
    assert isinstance(parse_choice("kontra spiel@x", obs1), str)


def test_a_typed_word_means_one_thing_in_every_language() -> None:
    meaning: dict[str, str] = {}
    clashes = []
    for msgid in TYPED:
        for word in typed_words(msgid) - {msgid}:
            if meaning.setdefault(word, msgid) != msgid:
                clashes.append((word, meaning[word], msgid))
    assert not clashes, clashes
    commands = set(meaning) | HELP_WORDS | QUIT_WORDS
    cards = _card_words("de")
    assert not commands & set(cards), commands & set(cards)
    # a card written in any language is that card and no other
    assert len({c for c in cards.values()}) == len(DECK54)
    assert cards["kd"] == cards["dq"] and cards["tb"] == cards["cj"] and cards[Catalogue("de").get(
        "Sküs", "card").casefold()] == SKUS


# -- the player reading is "you" -------------------------------------------------------------------

THIRD_PERSON_YOU = re.compile(r"\bYou(?:'s\b| (?!was\b)[a-z]+s\b)")
"""``You pays``, ``You's trick``: a sentence about the player written as about a third person."""


def test_sentences_about_you_are_in_the_second_person(english: None) -> None:
    from tarock.client.text.actions import target_text
    from tarock.client.text.results import item_line
    from tarock.client.text.rule_words import Terms, note_text
    from tarock.core.actions import KontraTarget
    from tarock.core.settlement import Item

    names = ["You", "Franz", "Hilde"]
    assert item_line(Item("game", (1,), (0,), 15), names, Terms("ct", ())) == \
        "Game by Franz: won, 15: You pay 15 ct to Franz"
    assert item_line(Item("game", (0,), (1, 2), 2, made=False), names, Terms()).endswith(
        "You pay 2 to each of Franz and Hilde")
    assert item_line(Item("game", (1,), (0, 2), 2), names, Terms()).endswith(
        "You and Hilde pay 2 each to Franz")
    assert target_text(KontraTarget(declarer=0), names, Terms()) == "on your game"
    assert target_text(KontraTarget(declarer=1), names, Terms()) == "on Franz's game"
    assert note_text("seat 0's game", names) == "your game"
    assert note_text("seat 2's game", names) == "Hilde's game"


def test_a_table_in_english_and_in_german_says_you_and_du() -> None:
    """Königrufen throws the talon into the last trick and pays item by item:
    seed 11 gives the human such a trick and a payment of their own."""
    args = ("play", "--plain", "--variant", "koenigrufen-club", "--seed", "11", "--rounds", "6",
            "--no-records")
    english = tarock(*args, "--lang", "en", answers="1\n" * 3000)
    assert english.returncode == 0, english.stderr
    assert not THIRD_PERSON_YOU.findall(english.stdout), THIRD_PERSON_YOU.findall(english.stdout)
    for text in ("Your turn (bidding):", "goes to your trick", ": You pay "):
        assert text in english.stdout, text
    german = tarock(*args, env={"LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""},
                    answers="1\n" * 3000)
    assert german.returncode == 0, german.stderr
    for text in ("in den Stich (Du)", "Offene Karten (Du)", "von Du", "auf das Spiel (Du)"):
        assert text not in german.stdout, text
    for text in ("Du bist am Zug (Lizitation):", "in deinen Stich", ": Du an "):
        assert text in german.stdout, text
