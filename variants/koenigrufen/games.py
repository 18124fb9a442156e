"""The games and premiums of 54-card Königrufen, as data.

:func:`game` makes one game a :class:`~core.contracts.ContractSpec`: who may
bid it, how the parties form, what happens with the talon, who leads, the
play rules, the goal and the value; core's generic mechanisms and the hooks
of :mod:`variants.koenigrufen.base` interpret it (what core does not read is
in the contract's ``extra``).  A :class:`Dialect` is one rule text: its ladder
of games, premium tariffs and the points where the texts differ.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from tarock.core.cards import KAKADU, KING, MARABU, PAGAT, UHU, Card, suit_card
from tarock.core.contracts import CallRule, ContractSpec, Goal, Holding, TrickRules

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
Kontra counts (docs/rules.md §16.6, Solorufer); ``at-end``: he gets the King at the end
for a blank card and loses the simple game value (docs/rules.md §17.6, Solo-Rufer)."""


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
"""Material premiums (docs/rules.md §16.5: "Materialprämien"); the others are game premiums."""

ABSOLUT_THIRDS = 3 * 45 + 2
"""docs/rules.md §9.3: "Absolut (ab 45/2)", 45 points and two cards."""
GRAMMOPOI_THIRDS = 3 * 55 + 2
"""docs/rules.md §9.3: "Grammopoi (ab 55/2)"."""


TAROCKS: frozenset[Card] = frozenset(range(22))
BIRD_SET: frozenset[Card] = frozenset({PAGAT, UHU, KAKADU, MARABU})
KINGS: tuple[Card, ...] = tuple(suit_card(s, KING) for s in range(4))


def game(name: str, title: str, value: int, *, kind: Kind = "points", lost: int | None = None,
         call: bool = False, talon: TalonUse = "none", talon_open: bool = True,
         king_in_talon: KingInTalon = "none", colour: bool = False, stichzwang: bool = False,
         tricks: int | None = None, forehand_only: bool = False, ouvert: bool = False,
         leader: Literal["forehand", "declarer"] = "forehand", premiums: frozenset[str] = frozenset(),
         doubled: bool = False, bird: bool = False, bei: bool = False, pagat_last: bool = False,
         max_tarocks: int | None = None, announce_at_once: bool = False, auction: int = 0,
         kontra: bool = True, description: str = "") -> ContractSpec:
    """One game of a dialect's ladder, as a contract (rank and the dialect's
    Märchenstich and contest are set when the dialect is built).

    ``kind``: ``points`` (35 1/3 or 35 2/3 to win), ``tricks`` (exactly
    ``tricks`` tricks, negative games), ``trischaken`` / ``fahrer`` (each for
    himself).  ``king_in_talon``: what happens when the called King lies in
    the talon (:data:`KingInTalon`).  ``bird``: the Besserrufer must hold and
    announce a bird.  ``bei``: others may join.  ``max_tarocks``: at most this
    many tarocks before and after the talon (the club's colour games, docs/rules.md §16.3).
    ``announce_at_once``: the declarer's announcements in his first turn only.
    ``auction``: the value in an auction where joined games add up.
    """
    requires = []
    if bird:
        requires.append(Holding(BIRD_SET, 1, description="a bird (I, II, III or IIII) in your hand",
                                code="no-bird"))
    if max_tarocks is not None:
        requires.append(Holding(TAROCKS, 0, max_tarocks, code="too-many-tarocks",
                                description=f"at most {max_tarocks} tarocks in your hand"))
    if kind == "tricks":
        goal = Goal("tricks", tricks=tricks or 0)
    elif kind == "points":
        goal = Goal("points")
    else:
        goal = Goal("ranking")
    return ContractSpec(
        name, title, rank=0, value=value, lost=lost, description=description,
        forehand_only=forehand_only, requires=tuple(requires),
        partnership="called" if call else "each" if kind in ("trischaken", "fahrer") else "alone",
        call=CallRule(KINGS, highest=False, when="after") if call else None,
        joinable=bei, auction_value=auction, talon=talon, talon_open=talon_open, leader=leader,
        tricks=TrickRules("colour" if colour else "tarock", must_win=stichzwang, pagat_last=pagat_last),
        goal=goal, kontra=2 if kontra else 0, premiums=premiums, premium_scale=2 if doubled else 1,
        ouvert=ouvert,
        extra={"kind": kind, "king_in_talon": king_in_talon, "bird": bird, "max_tarocks": max_tarocks,
               "announce_at_once": announce_at_once})


def kind(spec: ContractSpec) -> Kind:
    """How the game is played and counted, from its goal (a house rule that
    changes a game's goal changes its kind): points, tricks, or a ranking,
    which is a Fahrer where ``extra`` says so or the talon goes to the last
    trick, else Trischaken's ranking."""
    if spec.goal.kind != "ranking":
        return spec.goal.kind
    named = spec.extra.get("kind")
    if named in ("trischaken", "fahrer"):
        k: Kind = named
        return k
    return "fahrer" if spec.talon == "last" else "trischaken"


def king_in_talon(spec: ContractSpec) -> KingInTalon:
    k: KingInTalon = spec.extra.get("king_in_talon", "none")
    return k


def is_bird_game(spec: ContractSpec) -> bool:
    return bool(spec.extra.get("bird"))


def max_tarocks(spec: ContractSpec) -> int | None:
    n: int | None = spec.extra.get("max_tarocks")
    return n


def announce_at_once(spec: ContractSpec) -> bool:
    return bool(spec.extra.get("announce_at_once"))


@dataclass(frozen=True)
class Dialect:
    """One rule text of Königrufen."""

    name: str
    title: str
    description: str
    games: tuple[ContractSpec, ...]
    """The ladder from the lowest to the highest game (as :func:`game` builds them)."""
    win: int
    """Thirds a party needs to win a positive game."""
    premium_values: Mapping[str, tuple[int, int]]
    """Premium -> (silent, announced) in cents, or in multiples of the game
    value for a Valat where ``valat_multiplies``."""
    options: Mapping[str, Any] = field(default_factory=dict)
    vorhand_call: bool = False
    """docs/rules.md §6.2: the forehand opens with "Vorhand!" or a Lizitspiel; forehand
    games are chosen only when all others said "Weiter"."""
    bei_max: int = 0
    multi_besserrufer: bool = False
    maerchenstich: bool = False
    valat_multiplies: bool = False
    """docs/rules.md §17.5: a Valat is worth a multiple of the game value and replaces the
    game and all other premiums."""
    open_discards: bool = False
    """docs/rules.md §16.3: tarocks (suit cards in colour games) are laid away face up."""
    tarocks_only_without_suits: bool = False
    """docs/rules.md §17.3: tarocks may be laid away only when no suit card but Kings is left."""
    bird_before_talon: bool = False
    """docs/rules.md §15.5: the Besserrufer's bird must have been in hand before the talon."""
    giveup_pays_bird: bool = False
    """docs/rules.md §16.6: a Besserrufer who gives up also pays his smallest bird."""
    ouvert_all: bool = False
    """docs/rules.md §4.9: in ouvert games every hand is opened; otherwise the declarer's."""

    def contracts(self) -> tuple[ContractSpec, ...]:
        """The games as the table's contracts: ranked in ladder order, with the
        dialect's winning points, Märchenstich and (several Besserrufer) contest."""
        out = []
        for rank, spec in enumerate(self.games, start=1):
            tricks = replace(spec.tricks, trull_trick=self.maerchenstich)
            goal = replace(spec.goal, points=self.win) if spec.goal.kind == "points" else spec.goal
            out.append(replace(spec, rank=rank, tricks=tricks, goal=goal,
                               contest=self.multi_besserrufer and is_bird_game(spec)))
        return tuple(out)

    def game(self, name: str) -> ContractSpec:
        for g in self.contracts():
            if g.name == name:
                return g
        raise KeyError(f"{self.name} has no game {name!r}")
