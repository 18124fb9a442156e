"""``koenigrufen-club``: the club rulebook of docs/rules.md §16 (tariffs in cents).

Vorhandspiele: Rufer 10, Trischaken, Sechserdreier 30 (lost 60); Lizitspiele,
from the lowest: Piccolo 15, Solorufer 20, Bettler 25, Besserrufer 10+Vogel,
Farbendreier 40, Dreier 40, Piccolo ouvert 45, Bettel ouvert 60,
Farbensolodreier 80, Solodreier 80.  35/2 wins a positive game.

Decisions where the text is silent or unclear (docs/rules.md §16 states them all):
- Besserrufer counts 30 in the auction (10 plus the cheapest announced bird),
  between Bettler (25) and Farbendreier (40) as the list has it; a Bei-game
  overbids an interposed game when its summed value is higher, or equal with
  a higher place in the list (Piccolo bei = 30 does not overbid Besserrufer).
- "bis zu 3mal Bei": up to three players join the first, so all four may play
  one negative game; each declarer settles with each other player.  "Bei"
  joins another player's game, never one's own.
- Trischaken is played with Stichzwang, like the negative games.
- A failed Besserrufer that gives up pays 10 plus the announced value of the
  smallest bird he held before the talon, to each of the three others.
- A Valat (docs/rules.md §16.5) keeps the game value; "Spielprämien" all count, material
  premiums only as the text says.
- The Solorufer whose King lies in the talon ("erhält der Solospieler die
  Talonhälfte mit dem König. Kontras zählen dann in keinem Fall"): a Solo
  game leaves the talon untouched, so nobody learns where the King is; the
  declarer plays alone without knowing it, Kontras are said as in any game,
  and at the end the talon half with the King counts for him, he settles
  alone with each of the three (docs/rules.md §10) and every Kontra
  (game and premiums) is void.  (An earlier reading turned the talon
  up, gave him that half to take in and offered no Kontra; but "Kontras
  zählen ... nicht" speaks of Kontras that were said, and taking talon
  cards would make the Solorufer a Dreier-like game with the talon.)
- Silent birds and König Ultimo: played in their trick and winning it earn
  the silent value for the party, played there and losing cost it.
- A called Queen ("kann er eine Dame rufen") cannot be played ultimo: "Ob sie
  ultimo gespielt werden kann, ist noch offen", so König Ultimo needs a King.
- The talon is turned up for all in every game that uses it except the
  Sechserdreier ("Beim Sechserdreier wird der Talon verdeckt aufgenommen").
- Announcements and Kontras come after the discard, starting with the
  declarer; a turn is any number of them closed by "Gut!" (``pass``).

Options (the texts disagree with themselves at the end of the rulebook, docs/rules.md §16.8; the
rulebook's reading is the default):
- ``four_kings``: ``"queen"`` (rulebook: "kann er eine Dame rufen"), ``"none"``
  (the remark "Wer 4 Könige hat, kann nicht rufen": no calling game with four
  Kings) or ``"self"`` (call an own King and play alone).
- ``mondfang_partners``: False (rulebook: "Mondfang unter Partnern zählt
  nicht"); True: a Mond caught by the partner costs its party the Mondfang
  (the remark "zählt sehr wohl auch bei den Spielpartnern").
- ``bei_leader``: ``"first-declarer"`` (rulebook: "Der erste Spielersteher
  spielt aus") or ``"first-negative-bidder"`` (the remark: "derjenige, der als
  erster ein Negativspiel angesagt hat").
"""

from __future__ import annotations

from tarock.core.contracts import ContractSpec
from tarock.variants.koenigrufen.base import dialect_variant
from tarock.variants.koenigrufen.games import (
    ABSOLUT,
    GRAMMOPOI,
    KAKADU_P,
    KING_ULTIMO,
    KINGS_P,
    MARABU_P,
    MONDFANG,
    PAGAT_ULTIMO,
    PREMIUM_ORDER,
    TRULL_P,
    UHU_P,
    VALAT,
    Dialect,
    game,
)

ALL = frozenset(PREMIUM_ORDER)
SOLO = ALL - {KING_ULTIMO}
COLOUR = frozenset({VALAT, ABSOLUT, GRAMMOPOI})


def negative(name: str, title: str, value: int, tricks: int, ouvert: bool = False) -> ContractSpec:
    """docs/rules.md §16.4, "Negativspiele": "Es gilt Stichzwang", "Der Pagat darf nur als letztes Tarock
    gespielt werden", the declarer leads ("bei negativen der Spielersteher"), up to three Bei."""
    return game(name, title, value, kind="tricks", tricks=tricks, stichzwang=True, pagat_last=True,
                leader="declarer", bei=True, ouvert=ouvert, auction=value)


GAMES = (
    game("rufer", "Rufer", 10, call=True, talon="half", king_in_talon="choose", forehand_only=True,
         premiums=ALL),
    game("trischaken", "Trischaken", 10, kind="trischaken", talon="trick", stichzwang=True,
         pagat_last=True, forehand_only=True, kontra=False),
    game("sechserdreier", "Sechserdreier", 30, lost=60, talon="all", talon_open=False,
         forehand_only=True, premiums=SOLO),
    negative("piccolo", "Piccolo", 15, tricks=1),
    game("solorufer", "Solorufer", 20, call=True, king_in_talon="half-at-end", premiums=ALL, doubled=True,
         auction=20),
    negative("bettler", "Bettler", 25, tricks=0),
    game("besserrufer", "Besserrufer", 10, call=True, talon="half", king_in_talon="choose", bird=True,
         premiums=ALL, auction=30),
    game("farbendreier", "Farbendreier", 40, talon="half", colour=True, max_tarocks=6, premiums=COLOUR,
         auction=40),
    game("dreier", "Dreier", 40, talon="half", premiums=SOLO, auction=40),
    negative("piccolo-ouvert", "Piccolo ouvert", 45, tricks=1, ouvert=True),
    negative("bettel-ouvert", "Bettel ouvert", 60, tricks=0, ouvert=True),
    game("farbensolodreier", "Farbensolodreier", 80, colour=True, max_tarocks=6, premiums=COLOUR,
         doubled=True, auction=80),
    game("solodreier", "Solodreier", 80, premiums=SOLO, doubled=True, auction=80),
)

CLUB = Dialect(
    name="koenigrufen-club",
    title="Königrufen (club rulebook)",
    description="54 cards, docs/rules.md §16: Vorhand!, Bei-games, Trischaken, premiums and Kontra per "
                "announcement, tariffs in cents.",
    premium_values={
        TRULL_P: (10, 20), KINGS_P: (10, 20), ABSOLUT: (5, 10), GRAMMOPOI: (5, 10),
        KING_ULTIMO: (10, 20), PAGAT_ULTIMO: (10, 20), UHU_P: (15, 30), KAKADU_P: (20, 40),
        MARABU_P: (25, 50), MONDFANG: (5, 50), VALAT: (80, 160),
    },
    games=GAMES,
    win=3 * 35 + 2,  # "Zum Gewinn eines positiven Spiels braucht man 35/2."
    options={"four_kings": "queen", "mondfang_partners": False, "bei_leader": "first-declarer"},
    vorhand_call=True,
    bei_max=3,
    multi_besserrufer=True,
    maerchenstich=True,
    open_discards=True,
    bird_before_talon=True,
    giveup_pays_bird=True,
    ouvert_all=True,
)

VARIANT = dialect_variant(CLUB, lobby_order=3)
