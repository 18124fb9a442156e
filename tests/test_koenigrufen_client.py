"""The line client in Königrufen (docs/rules.md §16 and
§17): every new action shown readably and read from its
written form, what lies open on the table, amounts in cents, five at a
table, and whole tables through ``tarock play`` with piped answers.

Seats in the rigged hands: dealer 3, so seat 0 ("You") is the forehand.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from net_procs import CLI
from test_koenigrufen_random import CLUB_NAME, COURSE_NAME, act, cards, gut_all, rigged

from tarock.client.bots import make_bot
from tarock.client.cli import main
from tarock.client.human import HumanPlayer, TableView
from tarock.client.players import BotSeat, Player
from tarock.client.render import sheet_lines, standings_lines, table_lines
from tarock.client.session import Session
from tarock.client.text.actions import action_text, game_text
from tarock.client.text.results import result_lines
from tarock.client.text.rule_words import Terms
from tarock.client.written import choices_lines, help_lines, parse_choice
from tarock.core.actions import Announce, Bid, Call, Discard, Kontra, Pass
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.record import load, replay
from tarock.core.registry import find_variant
from tarock.core.table import Table, standings
from tarock.variants.koenigrufen.actions import Bei, GiveUp, TakeTalon

pytestmark = pytest.mark.usefixtures("english")  # the English words, as with --lang en

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["You", "Franz", "Hilde", "Sepp"]
FH = "cK sK hK I II XV XVI XVII XVIII XIX cQ d4"  # three Kings, Pagat and Uhu, seven tarocks


def terms(hand: Hand) -> Terms:
    return Terms.of(hand.rules.variant_facts)


def shown(hand: Hand, seat: int, phase: str = "") -> str:
    """How the last action looks to seat 0 (``phase``: the phase it was taken in)."""
    view = observe(hand, 0)
    return action_text(view.history[-1], NAMES, view, terms(hand), phase)


def listed(hand: Hand, seat: int) -> str:
    return "\n".join(choices_lines(observe(hand, seat), NAMES, terms(hand)))


# -- the words of the table ---------------------------------------------------------

def test_the_variants_declare_cents_and_re() -> None:
    """docs/rules.md §16: "Die Spiele (Werte in Cent)", "Kontra ist bis Re (4fach) möglich"; §17:
    "Tarif (in Cent)".  The client reads the unit and the level names from the variant's facts."""
    for variant in (CLUB_NAME, COURSE_NAME):
        t = terms(rigged(variant, [FH]))
        assert t == Terms("ct", ("Kontra", "Re"))
        assert (t.amount(30), t.amount(-5), t.unit_name, t.kontra(2)) == ("+30 ct", "-5 ct", "cents", "Re")
    plain = Terms.of(find_variant("tarock54").rules().variant_facts)
    assert (plain.amount(3), plain.kontra(2), plain.kontra(3)) == ("+3", "Rekontra", "Subkontra")


# -- the auction ------------------------------------------------------------------------

def test_vorhand_weiter_and_the_forehands_choice() -> None:
    """docs/rules.md §6.2: "Die Vorhand sagt Vorhand! oder ein Lizitspiel." -- "Weiter!" is a pass."""
    hand = rigged(CLUB_NAME, [FH])
    obs = observe(hand, 0)
    assert "forehand (Forehand!)" in listed(hand, 0)
    for text in ("vorhand", "forehand", "Forehand!", "1"):
        assert parse_choice(text, obs) == Bid(0, "vorhand")
    assert parse_choice("bid dreier", obs) == Bid(0, "dreier")
    assert parse_choice("dreier", obs) == Bid(0, "dreier")  # the verb may be left out
    help_text = "\n".join(help_lines(obs, NAMES, terms(hand)))
    assert "Now (bidding) you may write:" in help_text and "Forehand!" in help_text and "dreier" in help_text
    act(hand, Bid(0, "vorhand"))
    assert shown(hand, 0, "bidding") == "You: Forehand!"
    assert parse_choice("weiter", observe(hand, 1)) == Pass(1)
    act(hand, Pass(1), Pass(2), Pass(3))
    assert shown(hand, 3, "bidding") == "Sepp: Pass"
    assert parse_choice("bid rufer", observe(hand, 0)) == Bid(0, "rufer")


def test_bei_games_are_joined_and_shown_with_each_declarer() -> None:
    """docs/rules.md §6.3: "Alle Negativspiele können bis zu 3mal Bei gespielt werden"
    (e.g. "Piccolo bei")."""
    hand = rigged(CLUB_NAME, [FH])
    act(hand, Bid(0, "vorhand"), Bid(1, "piccolo"))
    obs = observe(hand, 2)
    assert "piccolo bei (play that game too, each for himself)" in listed(hand, 2)
    for text in ("piccolo bei", "bei piccolo", "bei"):
        assert parse_choice(text, obs) == Bei(2, "piccolo")
    assert parse_choice("bei bettler", obs) == Bei(2, "bettler")  # not offered: the engine says why
    assert hand.why_not(Bei(2, "bettler")) is not None
    act(hand, Bei(2, "piccolo"))
    assert shown(hand, 2) == "Hilde: Piccolo bei (plays it too)"
    act(hand, Pass(3), Pass(0))
    assert hand.state.phase == "announce"
    assert game_text(observe(hand, 0), NAMES, terms(hand)).startswith(
        "Game: Piccolo by Franz and Hilde, each for himself")


# -- calling, the talon, giving up -----------------------------------------------------------

async def test_the_talon_halves_are_shown_and_chosen_by_number() -> None:
    """docs/rules.md §15.4: "Der Talon wird umgedreht. Der Spieler darf sich nun eine Hälfte ...
    aufnehmen"."""
    hand = rigged(CLUB_NAME, [FH, "dK"], talon=["XX c10 c9", "s10 s9 s8"])
    act(hand, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3), Bid(0, "rufer"))
    obs = observe(hand, 0)
    assert parse_choice("call dK", obs) == Call(0, cards("dK")[0])
    act(hand, Call(0, cards("dK")[0]))
    obs = observe(hand, 0)
    assert "talon 1: XX c10 c9" in listed(hand, 0)
    assert "Talon (turned up): half 1: XX c10 c9; half 2: s10 s9 s8" in table_lines(obs, NAMES)
    for text in ("talon 2", "take talon half 2", "half 2", "2"):
        assert parse_choice(text, obs) == TakeTalon(0, 1)
    assert parse_choice("talon 3", obs) == TakeTalon(0, 2)  # the engine rejects it
    out: list[str] = []
    said = iter(["talon 3", "give up", "talon 1"])
    human = HumanPlayer("You", read=lambda prompt: next(said), write=out.append)
    human.explain_with(hand.why_not)
    assert await human.decide(obs) == TakeTalon(0, 0)
    assert "Not allowed: take talon half 1 or 2" in out
    assert any(line.startswith("Sorry: you cannot give up now") for line in out)
    act(hand, TakeTalon(0, 0))
    assert shown(hand, 0) == "You: takes talon half 1 (XX c10 c9)"


def test_giving_up_when_the_called_king_lies_in_the_talon() -> None:
    """docs/rules.md §15.3: "Liegt der gerufene König, kann man die Hälfte frei wählen ... oder aufgeben."."""
    hand = rigged(CLUB_NAME, [FH], talon=["dK c10 c9", "s10 s9 s8"])
    act(hand, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3), Bid(0, "rufer"), Call(0, cards("dK")[0]))
    obs = observe(hand, 0)
    assert "give up (pay the game without playing it)" in listed(hand, 0)
    for text in ("give up", "give-up", "aufgeben", "schleifen"):
        assert parse_choice(text, obs) == GiveUp(0)
    act(hand, GiveUp(0))
    view = observe(hand, 1)
    assert action_text(view.history[-1], NAMES, view, terms(hand), "talon") == "You: gives up (schleift)"
    lines = result_lines(view, NAMES, terms(hand))
    assert "Settlement: You -30 ct, Franz +10 ct, Hilde +10 ct, Sepp +10 ct" in lines
    assert "Note: given up" in lines


def test_tarocks_laid_away_face_up_are_shown() -> None:
    """docs/rules.md §16.3: "Trullstücke und Könige dürfen nie verlegt werden, andere Tarock nur offen"."""
    hand = rigged(CLUB_NAME, [FH, "dK"], talon=["XX c10 c9", "s10 s9 s8"])
    act(hand, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3), Bid(0, "rufer"), Call(0, cards("dK")[0]),
        TakeTalon(0, 0))
    away = Discard(0, tuple(sorted(cards("XV c10 c9"))))
    assert parse_choice("discard XV c10 c9", observe(hand, 0)) == away
    act(hand, away)
    view = observe(hand, 2)
    assert action_text(view.history[-1], NAMES, view, terms(hand)) == "You: discards (face up: XV)"
    assert "Laid away face up by You: XV" in table_lines(view, NAMES)


# -- announcements and Kontra ------------------------------------------------------------------

def announce_phase() -> Hand:
    """A Rufer of seat 0 with seat 1 as partner (he holds the Diamond King and the Mond)."""
    hand = rigged(CLUB_NAME, [FH, "dK XXI III"], talon=["c10 c9 c8", "s10 s9 s8"])
    act(hand, Bid(0, "vorhand"), Pass(1), Pass(2), Pass(3), Bid(0, "rufer"), Call(0, cards("dK")[0]),
        TakeTalon(0, 0), Discard(0, tuple(sorted(cards("c10 c9 c8")))))
    assert hand.state.phase == "announce"
    return hand


def test_gut_announcements_kontra_and_re() -> None:
    """docs/rules.md §15.5: "so lange Prämien und Kontras ansagen, bis dreimal Gut! kommt";
    "Kontra ist bis Re (4fach) möglich"."""
    hand = announce_phase()
    obs = observe(hand, 0)
    assert "gut (Gut!)" in listed(hand, 0)
    assert parse_choice("gut", obs) == Pass(0) and parse_choice("Gut!", obs) == Pass(0)
    for text, name in (("announce trull", "trull"), ("announce spatz", "pagat"), ("pagat ultimo", "pagat"),
                       ("announce 4 könige", "kings"), ("trull", "trull"), ("announce uhu", "uhu")):
        assert parse_choice(text, obs) == Announce(0, (name,)), text
    help_text = "\n".join(help_lines(obs, NAMES, terms(hand)))
    assert "gut" in help_text and "Trull (Pagat, Mond and Sküs" in help_text
    assert "Uhu (the II wins the second-last trick)" in help_text
    act(hand, Announce(0, ("uhu",)))
    assert shown(hand, 0, "announce") == "You: announce Uhu"
    act(hand, Pass(0))
    assert shown(hand, 0, "announce") == "You: Gut!"
    # the partner holds the King ultimo's card
    assert parse_choice("announce könig ultimo", observe(hand, 1)) == Announce(1, ("king",))
    act(hand, Pass(1))
    obs2 = observe(hand, 2)
    assert "kontra (Kontra)" in listed(hand, 2) and "kontra uhu (Kontra)" in listed(hand, 2)
    assert parse_choice("kontra", obs2) == Kontra(2, "")
    assert parse_choice("kontra uhu", obs2) == Kontra(2, "uhu")
    act(hand, Kontra(2, ""))
    assert shown(hand, 2) == "Hilde: Kontra"
    act(hand, Pass(2), Pass(3))
    assert "kontra (Re)" in listed(hand, 0)  # the declarer's answer
    assert parse_choice("re", observe(hand, 0)) == Kontra(0, "")
    act(hand, Kontra(0, ""))
    assert shown(hand, 0) == "You: Re"
    assert game_text(observe(hand, 3), NAMES, terms(hand)) == (
        "Game: Rufer, called dK by You, Re x4; announced: Uhu (You)")


def test_kontra_per_declarer_in_a_negative_game() -> None:
    """docs/rules.md §15.6: Kontra "zählt bei positiven Spielen für die Partei, bei negativen individuell":
    ``game@N`` is a Kontra on declarer N's game, ``re@N`` his Re on seat N's Kontra."""
    hand = rigged(CLUB_NAME, [FH])
    act(hand, Bid(0, "vorhand"), Bid(1, "piccolo"), Bei(2, "piccolo"), Pass(3), Pass(0))
    act(hand, Pass(1), Pass(2))  # the declarers say Gut!
    obs = observe(hand, 3)
    text = listed(hand, 3)
    assert "kontra game@1 (Kontra on Franz's game: doubles it between Franz and you only)" in text
    assert "kontra game@2 (Kontra on Hilde's game" in text
    assert parse_choice("kontra game@1", obs) == Kontra(3, "game@1")
    assert parse_choice("kontra 2", obs) == Kontra(3, "game@2")
    assert parse_choice("kontra", obs).startswith("kontra on what?")  # type: ignore[union-attr]
    help_text = "\n".join(help_lines(obs, NAMES, terms(hand)))
    assert "kontra game@1         Kontra on Franz's game: doubles it between Franz and" in help_text
    act(hand, Kontra(3, "game@1"))
    assert shown(hand, 3) == "Sepp: Kontra on Franz's game"
    act(hand, Pass(3), Pass(0))
    obs1 = observe(hand, 1)
    assert "kontra re@3 (Re on Sepp's Kontra: doubles it again between Sepp and you)" in listed(hand, 1)
    assert parse_choice("re", obs1) == Kontra(1, "re@3") == parse_choice("re 3", obs1)
    act(hand, Kontra(1, "re@3"))
    assert shown(hand, 1) == "Franz: Re on Sepp's Kontra"
    assert "Sepp on Franz Re x4" in game_text(observe(hand, 0), NAMES, terms(hand))


# -- what lies open ------------------------------------------------------------------------------

def test_ouvert_hands_are_shown_after_the_first_trick() -> None:
    """docs/rules.md §4.9: "Bei den Ouvertspielen legen alle Spieler vor dem zweiten Ausspielen ihre
    Karten auf."."""
    hand = rigged(CLUB_NAME, [FH])
    act(hand, Bid(0, "bettel-ouvert"), Pass(1), Pass(2), Pass(3))
    gut_all(hand)
    assert not [line for line in table_lines(observe(hand, 2), NAMES) if line.startswith("Open hand")]
    for _ in range(4):
        seat = hand.state.to_move
        assert seat is not None
        act(hand, hand.legal(seat)[0])
    lines = table_lines(observe(hand, 2), NAMES)
    for seat in (0, 1, 3):
        assert any(line.startswith(f"Open hand of {NAMES[seat]}: ") for line in lines)


async def test_the_table_view_tells_the_talon_open_hands_and_trischaken_talon_cards() -> None:
    """docs/rules.md §16.7, Trischaken: "Der Talon wird einzeln zu den ersten 6 Stichen zugeworfen."."""
    out: list[str] = []
    players: list[Player] = [BotSeat(make_bot("heuristic", s, n)) for s, n in enumerate(NAMES)]
    session = Session(CLUB_NAME, players, seed=3, rounds=12, listener=TableView(0, out.append))
    await session.run()
    text = "\n".join(out)
    assert "Forehand!" in text and ": Gut!" in text
    assert "ct" in text and "(amounts in cents; the running total in brackets)" in text
    if any("trischaken" in row.contract for row in session.table.rows):
        assert "From the talon: " in text


# -- cents on the sheet ------------------------------------------------------------------------

def test_results_sheet_and_standings_in_cents() -> None:
    """docs/rules.md §10.3: "Es wird um Geld gespielt und in der Tabelle mit plus und minus
    mitgeschrieben."."""
    hand = rigged(CLUB_NAME, [FH], talon=["c10 c9 c8", "s10 s9 s8"])
    act(hand, Bid(0, "dreier"), Pass(1), Pass(2), Pass(3), TakeTalon(0, 1),
        Discard(0, tuple(sorted(cards("s10 s9 s8")))))
    gut_all(hand)
    while not hand.done:
        seat = hand.state.to_move
        assert seat is not None
        act(hand, hand.legal(seat)[0])
    result = hand.state.result
    assert result is not None
    lines = result_lines(observe(hand, 0), NAMES, terms(hand))
    assert lines[0].startswith("Result: You played Dreier: ") and " ct)" in lines[0]
    assert re.search(r"^Settlement: You [+-]\d+ ct, Franz [+-]\d+ ct", lines[-1], re.M)
    table = Table()
    table.add(result, "dreier")
    sheet = sheet_lines(table, NAMES, terms(hand))
    assert sheet[-1] == "  (amounts in cents; the running total in brackets)"
    ranks = standings_lines(standings(table.totals), NAMES, terms(hand))
    assert all(line.endswith(" ct") for line in ranks)
    assert sheet_lines(table, NAMES)[-1] != sheet[-1]  # game points: no unit line


# -- five at the table ---------------------------------------------------------------------------

async def test_five_at_the_table_the_dealer_sits_out() -> None:
    """docs/rules.md §3.5: "Der jeweilige Kartengeber spielt selbst nicht mit und setzt aus."."""
    out: list[str] = []
    names = ["You", "Franz", "Hilde", "Sepp", "Resi"]
    players: list[Player] = [BotSeat(make_bot("heuristic", s, n)) for s, n in enumerate(names)]
    session = Session(COURSE_NAME, players, seed=9, rounds=5, listener=TableView(0, out.append))
    await session.run()
    assert "You sit out this hand and watch." in out
    assert any(line.endswith("; Franz sits out") for line in out)
    assert any(line.endswith("; you sit out") for line in out)
    assert any(line.startswith("Settlement: ") and line.endswith("(You sat out)") for line in out)


# -- whole tables through the command line ----------------------------------------------------

def play_cli(tmp_path: Path, variant: str, answers: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [*CLI, "play", "--lang", "en", "--variant", variant, "--seed", "7",
         "--records", str(tmp_path / "records"), *extra],
        input=answers, capture_output=True, text=True, encoding="utf-8", timeout=300, cwd=ROOT, env=env)


@pytest.mark.parametrize("variant,extra", [(CLUB_NAME, ()), (COURSE_NAME, ("--seats", "5"))])
def test_a_whole_koenigrufen_table_from_piped_answers(tmp_path: Path, variant: str,
                                                        extra: tuple[str, ...]) -> None:
    """``tarock play`` end to end: twelve rounds, the final standings in cents, the records replay
    and add up to them."""
    proc = play_cli(tmp_path, variant, "?\nnonsense\n" + "1\n" * 3000, *extra)
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr + out[-2000:]
    assert out.count("Sorry:") == 1 and "Round 12 of 12" in out
    assert "Now (bidding) you may write:" in out
    assert "Score sheet (cents):" in out
    tail = out[out.index("Final standings after 12 rounds (sub points in cents):"):]
    rows = re.findall(r"^\s*(\d)\. (\w+)\s+MP (\S+)\s+TP (\S+) ct$", tail, re.M)
    seats = 5 if extra else 4
    names = ["You", "Franz", "Hilde", "Sepp", "Resi"][:seats]
    sub = {name: int(sp) for _, name, _, sp in rows}
    assert sorted(sub) == sorted(names) and sum(sub.values()) == 0
    table = Table(seats=seats, rounds=12)  # the sheet again, from the records (a Fahrer doubles a round)
    for path in sorted((tmp_path / "records").glob("table-*.json")):
        rep = replay(load(path))
        assert rep.error_index is None and rep.hand is not None and rep.hand.done, path
        result = rep.hand.state.result
        assert result is not None
        table.add(result)
    assert table.over
    assert dict(zip(names, table.totals, strict=True)) == sub
    if extra:
        assert "You sit out this hand and watch." in out


async def test_records_replay_with_the_koenigrufen_words(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``tarock replay`` shows a recorded hand in the same words as the table did."""
    players: list[Player] = [BotSeat(make_bot("heuristic", s, n)) for s, n in enumerate(NAMES)]
    session = Session(CLUB_NAME, players, seed=2, rounds=4, records_dir=tmp_path)
    await session.run()
    assert main(["replay", "--lang", "en", *map(str, session.records)]) == 0
    out = capsys.readouterr().out
    assert "Seat 0: Forehand!" in out or "Seat 1: Forehand!" in out
    assert ": Gut!" in out and " ct" in out
    assert "Settlement: " in out


def test_the_fahrers_kontras_double_again_and_are_no_re() -> None:
    """docs/rules.md §17.7, Fahrer: "Jeder Spieler außer der Vorhand darf das Spiel kontrieren. Hat ein
    Spieler kontriert, wird der Spielwert verdoppelt, bei zwei Spielern vervierfacht"."""
    hand = rigged(COURSE_NAME, [FH])
    act(hand, Bid(0, "fahrer"), Pass(1), Pass(2), Pass(3))
    assert hand.state.phase == "kontra"
    assert "kontra (Kontra)" in listed(hand, 1)
    act(hand, Kontra(1, ""))
    assert shown(hand, 1) == "Franz: Kontra"
    assert "kontra (Kontra: doubles it again, x4)" in listed(hand, 2)
    act(hand, Kontra(2, ""))
    assert shown(hand, 2) == "Hilde: Kontra (x4)"
    act(hand, Pass(3))
    assert shown(hand, 3, "kontra") == "Sepp: Pass"
