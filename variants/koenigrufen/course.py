"""``koenigrufen-course``: the Tarock course of docs/rules.md §17 (tariffs in cents).

Fourteen games, from the lowest (section 6, "Gesamtüberblick"): Fahrer 1,
Vorhandrufer 2, Zwiccolo 3, Piccolo 4, Besserrufer (A-Rufer) 2, Solo-Rufer 4,
Bettel 5, Einschauer 6, Sechser 6 (lost 12), Farberl 6, Zwiccolo ouvert 6,
Piccolo ouvert 8, Bettel ouvert 10, Solo eigen 10.  Fahrer, Rufer and Sechser
are forehand games.  35/1 wins ("35 Punkte plus 1 Blatt").  Five may sit at
the table; the dealer then sits out (2.6).

Decisions where the course is silent (docs/rules.md §17 states them all):
- Premiums ("Ansagen in Cent": König 2, Spatz 2, Uhu 4, Dreier 6, Vierer 8,
  Trull 2, Valat 6x) also count silently ("heimlich", 5.2) at half their
  announced value; a Valat is worth 6 times the game value announced, 3 times
  silent, and replaces the game and the other premiums.
- Kontra and Re per announcement as in the base (the course names Kontra only
  for Fahrer and Solo-Rufer); no Märchenstich (the course does not know it).
- Calling: a King one does not hold; with all four Kings one calls an own
  King and plays alone (option ``four_kings``: ``"self"``; ``"queen"`` or
  ``"none"`` as in docs/rules.md §16.8).
- Ouvert: the declarer's cards are laid open after the first trick.
- Fahrer: several players tied for the most points all pay; with several
  Jungfrauen each receives the whole sum ("erhält die gesamte Summe"); the
  following round counts double (``HandResult.next_round_factor``).
- Solo eigen: "Ansagen ... müssen aber sofort gemeldet werden": the declarer
  announces in his first turn of the announcements only.
- Farberl, listed as "Negativ" in the overview, is played for points (35/1)
  with Stichzwang and the declarer leading, as its row says; its Kontra counts
  for the party like every game played for points (individual Kontra is for
  the games played for a number of tricks).
- Fahrer: only the forehand's opponents' Kontras (one each) count, as the
  course says; there are no announcements in a Fahrer or a negative game.
"""

from __future__ import annotations

from tarock.core.contracts import ContractSpec
from tarock.variants.koenigrufen.base import dialect_variant
from tarock.variants.koenigrufen.games import (
    KAKADU_P,
    KING_ULTIMO,
    MARABU_P,
    PAGAT_ULTIMO,
    TRULL_P,
    UHU_P,
    VALAT,
    Dialect,
    game,
)

ALL = frozenset({KING_ULTIMO, PAGAT_ULTIMO, UHU_P, KAKADU_P, MARABU_P, TRULL_P, VALAT})
SOLO = ALL - {KING_ULTIMO}  # "Alle Ansagen außer König möglich"


def negative(name: str, title: str, value: int, tricks: int, ouvert: bool = False) -> ContractSpec:
    """3.2/4.3: "bei allen negativen Spielen Stichzwang", "Spieler spielt aus", no talon."""
    return game(name, title, value, kind="tricks", tricks=tricks, stichzwang=True, leader="declarer",
                ouvert=ouvert)


GAMES = (
    game("fahrer", "Fahrer", 1, kind="fahrer", talon="last", stichzwang=True, pagat_last=True,
         forehand_only=True),
    game("rufer", "Vorhandrufer", 2, call=True, talon="half", king_in_talon="choose", forehand_only=True,
         premiums=ALL),
    negative("zwiccolo", "Zwiccolo", 3, tricks=2),
    negative("piccolo", "Piccolo", 4, tricks=1),
    game("besserrufer", "Besserrufer (A-Rufer)", 2, call=True, talon="half", king_in_talon="choose",
         bird=True, premiums=ALL),
    game("solorufer", "Solo-Rufer", 4, call=True, king_in_talon="at-end", premiums=ALL, doubled=True),
    negative("bettel", "Bettel", 5, tricks=0),
    game("einschauer", "Einschauer", 6, talon="half", premiums=SOLO),
    game("sechser", "Sechser", 6, lost=12, talon="all", forehand_only=True, premiums=SOLO),
    game("farberl", "Farberl", 6, colour=True, stichzwang=True, leader="declarer",
         premiums=frozenset({VALAT})),
    negative("zwiccolo-ouvert", "Zwiccolo ouvert", 6, tricks=2, ouvert=True),
    negative("piccolo-ouvert", "Piccolo ouvert", 8, tricks=1, ouvert=True),
    negative("bettel-ouvert", "Bettel ouvert", 10, tricks=0, ouvert=True),
    game("solo-eigen", "Solo eigen", 10, premiums=SOLO, doubled=True, announce_at_once=True),
)

COURSE = Dialect(
    name="koenigrufen-course",
    title="Königrufen (Tarock course)",
    description="54 cards, docs/rules.md §17: 14 games from Fahrer to Solo eigen, premiums and Kontra, "
                "tariffs in cents, four or five at a table.",
    games=GAMES,
    win=3 * 35 + 1,  # "35 Punkte plus 1 Blatt"
    premium_values={
        KING_ULTIMO: (1, 2), PAGAT_ULTIMO: (1, 2), UHU_P: (2, 4), KAKADU_P: (3, 6), MARABU_P: (4, 8),
        TRULL_P: (1, 2), VALAT: (3, 6),
    },
    options={"four_kings": "self"},
    valat_multiplies=True,
    tarocks_only_without_suits=True,
)

VARIANT = dialect_variant(COURSE, lobby_order=4)
