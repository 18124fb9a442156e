"""Königrufen by the Upper-Austrian tournament rules (docs/rules.md §18), over
``koenigrufen-club``: the club's phases, other data, other options.

Money in cents at 10 ct per point (docs/rules.md §18).  The ladder, lowest first (§18.1):
Trischaken 1 and Rufer 1 (the forehand's, after "Vorhand" and three passes), Piccolo 2,
Bettel 2, Solorufer 2, Besserrufer 1 + bird, Farbendreier 3, Sechserdreier 4 / lost 8 (the
forehand's first word only), Dreier 4, Farbensolo 6, Piccolo ouvert 6, Bettel ouvert 7,
Solodreier 8; no Bei-games, one Besserrufer bid, no tarock limit in the colour games.
Premiums (docs/rules.md §18.5): Trull, Vier Könige, König Ultimo, Pagat, Uhu, Kakadu, Quapil at 1/2, 1/2,
1/2, 1/2, 2/4, 3/6, 4/8 points, doubled in solo games; no Absolut, Grammopoi, Mondfang;
the colour games know only Vier Könige and Valat.  The Sküs wins a Trull trick (§18.3).
Options set here: the forehand may hold ("ich halte", docs/rules.md §18.2); with four Kings no
calling game (§18.2); tarocks (in the Farbendreier suit cards) are laid away only when no other
card is left (§18.3); the declarer opens the announcements, each player announces only in his
first turn, after a Kontra only more Kontras and "Gut" (§18.4); Kontra, Rekontra, Subkontra
per item, per opponent in negative games; in the colour games a defender kontras or announces
Valat (§18.4); König Ultimo is its party's last trick, announcing it shows the partner (§18.5,
§15.3); a failed silent premium costs
nothing (§18.5); Valat is game value × 4 silent / × 8 announced and replaces the game item,
only announced premiums beside it (§18.6); Trischaken: the loser pays (§18.7).

Decisions where the profile is open (docs/rules.md §18.8):
- A Kontra may come at any of one's turns while the item stands (no first-turn window).
- A Kontra between hidden partners counts nothing (the club's rule).
- A Kontra on the game does not raise silent premiums.  Two Jungfrauen share, rounded up.
- The Sechserdreier's lost value is 8.  Schleifen pays game + the smallest
  bird held before the talon.  The Solorufer's King half goes to him at the end
  and every Kontra is void (the Book).  The talon stays with the defenders after a
  Valat.  A failed defenders' Valat costs them × 8.
- The Solodreier's declarer announces in his first turn; the forehand may hold it.
- The declarer's Rekontra against all defenders is one turn of Rekontras, one per defender.
- An announced card is kept for its trick (the club's duty), never played early.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import replace
from typing import Any

from tarock.core.contracts import ContractSpec, PremiumSpec
from tarock.core.facts import VariantFacts
from tarock.core.hookspecs import hookimpl

LADDER: dict[str, tuple[str, int, int | None]] = {
    "trischaken": ("Trischaken", 10, None), "rufer": ("Rufer", 10, None),
    "piccolo": ("Piccolo", 20, None), "bettler": ("Bettel", 20, None),
    "solorufer": ("Solorufer", 20, None), "besserrufer": ("Besserrufer", 10, None),
    "farbendreier": ("Farbendreier", 30, None), "sechserdreier": ("Sechserdreier", 40, 80),
    "dreier": ("Dreier", 40, None), "farbensolodreier": ("Farbensolo", 60, None),
    "piccolo-ouvert": ("Piccolo ouvert", 60, None), "bettel-ouvert": ("Bettel ouvert", 70, None),
    "solodreier": ("Solodreier", 80, None),
}
"""Game -> (title, cents, cents when lost), in the order of the bids (docs/rules.md §18.1)."""
PREMIUMS = {"trull": (10, 20), "kings": (10, 20), "king": (10, 20), "pagat": (10, 20),
            "uhu": (20, 40), "kakadu": (30, 60), "marabu": (40, 80), "valat": (4, 8)}
"""Premium -> (silent, announced) in cents; the Valat's are multiples of the game (docs/rules.md
§18.5, §18.6)."""
COLOUR = frozenset({"kings", "valat"})


def ooe_game(spec: ContractSpec, rank: int) -> ContractSpec:
    """One club game as the profile has it: its value, place and premiums."""
    title, value, lost = LADDER[spec.name]
    extra = dict(spec.extra, max_tarocks=None)
    if spec.name == "sechserdreier":
        extra["forehand_bid"] = "opening"  # docs/rules.md §18.2: only as the forehand's first word
    if spec.name == "solodreier":
        extra["announce_at_once"] = True  # docs/rules.md §18.4: the declarer announces with the bid
    colour = spec.tricks.trump == "colour"
    return replace(
        spec, title=title, rank=rank, value=value, lost=lost, auction_value=0, joinable=False,
        contest=False, kontra=3 if spec.kontra else 0, extra=extra,
        talon="last" if spec.name == "trischaken" else spec.talon,  # docs/rules.md §18.3: to the last trick
        requires=tuple(r for r in spec.requires if r.code != "too-many-tarocks"),
        tricks=replace(spec.tricks, trull_trick=False),
        premiums=COLOUR if colour else spec.premiums & frozenset(PREMIUMS))


class KoenigrufenOoe:
    """Upper-Austrian tournament Königrufen (docs/rules.md §18)."""

    name = "koenigrufen-ooe"
    version = "2.0"
    applies_to = ("koenigrufen-club",)

    @hookimpl
    def tarock_option_defaults(self) -> Mapping[str, Any]:
        return {"four_kings": "none", "forehand_hold": True, "discards": "plain-first",
                "announce_first": "declarer", "announce_once": True, "kontra_ends_turn": True,
                "colour_kontra_or_valat": True, "king_ultimo": "party", "ultimo_reveals": True,
                "valat": "replaces-game",
                "trischaken": "loser-pays"}

    @hookimpl(wrapper=True)
    def tarock_contracts(self, options: Mapping[str, Any]) -> Generator[None, Any, list[ContractSpec]]:
        games = {c.name: c for c in (yield)}
        return [ooe_game(games[name], rank) for rank, name in enumerate(LADDER, start=1)]

    @hookimpl(wrapper=True)
    def tarock_premium_specs(self, options: Mapping[str, Any]) -> Generator[None, Any, list[PremiumSpec]]:
        return [replace(p, silent=PREMIUMS[p.name][0], announced=PREMIUMS[p.name][1], silent_lost=0,
                        title="Quapil" if p.name == "marabu" else p.title)
                for p in (yield) if p.name in PREMIUMS]

    @hookimpl(wrapper=True)
    def tarock_variant_facts(self, options: Mapping[str, Any]) -> Generator[None, Any, VariantFacts]:
        facts: VariantFacts = yield
        return replace(facts, kontra_words=("Kontra", "Rekontra", "Subkontra"))


PLUGIN = KoenigrufenOoe
