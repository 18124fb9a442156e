"""The games and premiums of 54-card Königrufen, as data.

A :class:`Game` says declaratively who may bid it, how the parties form, what
happens with the talon, who leads, the play rules, the goal and the value;
the phases and hooks of :mod:`variants.koenigrufen.base` interpret it.  A
:class:`Dialect` is one rule text: its ladder of games, premium tariffs and
the points where the texts differ.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from core.cards import KAKADU, MARABU, PAGAT, UHU, Card

Kind = Literal["points", "tricks", "trischaken", "fahrer"]
"""``points``: 35 1/3 or 35 2/3 to win; ``tricks``: an exact number of tricks
(negative games); ``trischaken`` / ``fahrer``: each plays for himself."""

TalonUse = Literal["half", "all", "none", "trick", "last"]
"""``half``: the declarer chooses one of the two piles; ``all``: he takes all
six; ``none``: the talon goes to the opponents at the end; ``trick``: one
card into each of the first six tricks; ``last``: to the winner of the last
trick."""

KingInTalon = Literal["none", "choose", "half-at-end", "at-end"]
"""What happens when the called King lies in the talon: ``choose`` a half and
play alone, or give up; ``half-at-end``: the declarer plays alone without
knowing it, the talon pile with the King counts for him at the end and no
Kontra counts (seed 002, Solorufer); ``at-end``: he gets the King at the end
for a blank card and loses the simple game value (seed 003, Solo-Rufer)."""

VORHAND = "vorhand"
"""The pseudo-contract of the forehand's "Vorhand!" (seed 002)."""

# premium names (also the words of the ``announce`` action)
PAGAT_ULTIMO = "pagat"
UHU_P = "uhu"
KAKADU_P = "kakadu"
MARABU_P = "marabu"
KING_ULTIMO = "king"
TRULL_P = "trull"
KINGS_P = "kings"
ABSOLUT = "absolut"
GRAMMOPOI = "grammopoi"
MONDFANG = "mondfang"
VALAT = "valat"

PREMIUM_ORDER: tuple[str, ...] = (
    TRULL_P, KINGS_P, ABSOLUT, GRAMMOPOI, KING_ULTIMO, PAGAT_ULTIMO, UHU_P, KAKADU_P, MARABU_P,
    MONDFANG, VALAT,
)
BIRDS: Mapping[str, tuple[Card, int]] = {
    PAGAT_ULTIMO: (PAGAT, 1), UHU_P: (UHU, 2), KAKADU_P: (KAKADU, 3), MARABU_P: (MARABU, 4),
}
"""Bird premium -> (card, its trick counted from the end: 1 = the last)."""
BIRD_NAME: Mapping[Card, str] = {card: name for name, (card, _) in BIRDS.items()}
MATERIAL = frozenset({TRULL_P, KINGS_P, ABSOLUT, GRAMMOPOI})
"""Material premiums (seed 002: "Materialprämien"); the others are game premiums."""

ABSOLUT_THIRDS = 3 * 45 + 2
"""Seed 002: "Absolut (ab 45/2)", 45 points and two cards."""
GRAMMOPOI_THIRDS = 3 * 55 + 2
"""Seed 002: "Grammopoi (ab 55/2)"."""


@dataclass(frozen=True)
class Game:
    """One game of a dialect's ladder."""

    name: str
    title: str
    value: int
    """Cents per opponent (decision 1 of RULES.md)."""
    kind: Kind = "points"
    lost: int | None = None
    """Cents per opponent when lost, where the text says it differs."""
    call: bool = False
    talon: TalonUse = "none"
    talon_open: bool = True
    """Whether the talon is turned up for all (``half``/``all``)."""
    king_in_talon: KingInTalon = "none"
    colour: bool = False
    """Tarocks do not win a trick led in a suit and may be led only without suit cards."""
    stichzwang: bool = False
    tricks: int | None = None
    forehand_only: bool = False
    ouvert: bool = False
    leader: Literal["forehand", "declarer"] = "forehand"
    premiums: frozenset[str] = frozenset()
    doubled: bool = False
    """Premiums count double (solo games)."""
    bird: bool = False
    """Besserrufer: the declarer must hold and announce a bird."""
    bei: bool = False
    """Other players may join ("bei") and play it too (seed 002)."""
    pagat_last: bool = False
    """The Pagat may be played only as the last tarock."""
    max_tarocks: int | None = None
    """At most this many tarocks before and after the talon (seed 002 colour games)."""
    announce_at_once: bool = False
    """The declarer's announcements must be made in his first turn (seed 003, Solo eigen)."""
    auction: int = 0
    """Value in the auction where Bei-games add up (seed 002); 0: the ladder alone decides."""
    kontra: bool = True


@dataclass(frozen=True)
class Dialect:
    """One rule text of Königrufen."""

    name: str
    title: str
    description: str
    games: tuple[Game, ...]
    """The ladder from the lowest to the highest game."""
    win: int
    """Thirds a party needs to win a positive game."""
    premium_values: Mapping[str, tuple[int, int]]
    """Premium -> (silent, announced) in cents, or in multiples of the game
    value for a Valat where ``valat_multiplies``."""
    options: Mapping[str, Any] = field(default_factory=dict)
    vorhand_call: bool = False
    """Seed 002: the forehand opens with "Vorhand!" or a Lizitspiel; forehand
    games are chosen only when all others said "Weiter"."""
    bei_max: int = 0
    multi_besserrufer: bool = False
    maerchenstich: bool = False
    valat_multiplies: bool = False
    """Seed 003: a Valat is worth a multiple of the game value and replaces the
    game and all other premiums."""
    open_discards: bool = False
    """Seed 002: tarocks (suit cards in colour games) are laid away face up."""
    tarocks_only_without_suits: bool = False
    """Seed 003: tarocks may be laid away only when no suit card but Kings is left."""
    bird_before_talon: bool = False
    """Seed 002: the Besserrufer's bird must have been in hand before the talon."""
    giveup_pays_bird: bool = False
    """Seed 002: a Besserrufer who gives up also pays his smallest bird."""
    ouvert_all: bool = False
    """Seed 002: in ouvert games every hand is opened; otherwise the declarer's."""

    def game(self, name: str) -> Game:
        for g in self.games:
            if g.name == name:
                return g
        raise KeyError(f"{self.name} has no game {name!r}")

    def index(self, name: str) -> int:
        return [g.name for g in self.games].index(name)
