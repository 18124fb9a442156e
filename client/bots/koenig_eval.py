"""How the heuristic rates a Königrufen hand (docs/rules.md §15).

Every figure here was fitted on self-play of the heuristic against itself:
deals in which one seat was made the declarer of one game (talon, discard
and card play by the heuristic, no announcements or Kontras but the
Besserrufer's bird), 4,200 to 15,600 hands per game, the declarer a random
seat in some and the seat that rates best for the game in the others, so
the strong hands, where bids happen, are well covered.  Least squares for
points, logistic regression for won or lost.

- :func:`tarock_score` (games where tarocks trump) estimates the card points
  a hand adds: two per tarock, Sküs 6.2, Mond 6.1, XVI-XX 1.6, X-XV a half,
  Pagat 1.5, Kings 3.9, Queens 0.3, 3.9 per void suit and 0.9 per singleton.
  A random hand scores about 20.
- :func:`colour_score` (colour games, tarocks do not trump): Kings 6.7,
  Queens 4, Cavalls 1.7, Jacks 0.6, Sküs 3.9, Mond 3, minus 0.9 per tarock,
  1.5 per void suit.
- :func:`chance` of making a game played for points: a logistic in the
  score per game (``POSITIVE``: the score at which half are won and the
  spread; e.g. the forehand's Rufer is won half the time at 13, a Dreier at
  30, a Solodreier at 41.5).  A game the fits do not name (a house rule's)
  is rated as the fitted game of its shape (``POSITIVE_SHAPES``: partner
  called or alone, tarocks trumping or a colour game, the talon taken), and
  as hard as a solo without talon where no shape fits.  Bettel: a logistic over the cards
  (``BETTEL``: high tarocks, Kings and void suits make tricks).  Piccolo and
  Zwiccolo need one or two sure tricks and a Bettel in the rest: the best
  product of the winners' chances (:func:`sure`; the Sküs is less sure where the
  Märchenstich holds) and the Bettel chance of the other cards, rescaled by
  a logistic fitted per game (``TRICKS``).
- The Besserrufer's announced bird comes off as a logistic in the score
  (``BIRD``: the Pagat half the time at 36, the Marabu at 44).
- :func:`trischaken_value` / :func:`fahrer_value`: the forehand's result in
  game values, linear in the score (Trischaken +4.8 - 0.22 per point of
  score, Fahrer +8.7 - 0.45): better than a Rufer for hands below about 18.
- Kontra on the game (``KONTRA_SCORE``): where the declarer's own hand gives
  him a chance of 60 % or more, his game fails in 60 % of the deals once an
  opponent's score reaches these bars (Rufer 34, Besserrufer 31, Solorufer
  27, talon solos 35; other games by their shape, ``KONTRA_SHAPES``); against
  the solos without talon and the colour games the bots never say Kontra.
- Announcements: with all three Trull cards the Trull was made in 87 % of
  the games with eight tarocks, 98 % with nine; the Pagat with Sküs and
  Mond in 71 % with eight tarocks, 85 % with nine (an announced premium
  needs about two chances in three to beat its silent value).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Literal

from tarock.core.cards import (
    CAVALL,
    JACK,
    KING,
    MOND,
    PAGAT,
    QUEEN,
    SKUS,
    SUIT_OF,
    TRULL,
    VALUE,
    Card,
    rank_of,
    tarock,
)
from tarock.core.contracts import ContractSpec

XX = tarock(20)

Kind = Literal["points", "tricks", "trischaken", "fahrer"]
"""How a game is played and counted, read off its contract: ``points`` for
a party, ``tricks`` an exact number of them (negative games); each for
himself with the talon thrown into the tricks (``trischaken``) or going
with the last trick (``fahrer``)."""


def kind(spec: ContractSpec) -> Kind:
    """The :data:`Kind` of a contract, from its goal and talon."""
    if spec.goal.kind == "tricks":
        return "tricks"
    if spec.goal.kind == "ranking" or spec.partnership == "each":
        return "fahrer" if spec.talon == "last" else "trischaken"
    return "points"


def colour_game(spec: ContractSpec) -> bool:
    """Tarocks win only a trick led in tarock (Farbenspiele)."""
    return spec.tricks.trump == "colour"


Shape = tuple[str, str, str]


def shape(spec: ContractSpec) -> Shape:
    """Partnership, trump mode and talon use: what the fits below differ by."""
    return spec.partnership, spec.tricks.trump, spec.talon

# -- scores ------------------------------------------------------------------------------

TAROCK_WEIGHTS: Mapping[str, float] = {
    "tarocks": 2.0, "skus": 6.2, "mond": 6.1, "big": 1.6, "mid": 0.5, "pagat": 1.5, "kings": 3.9,
    "queens": 0.3, "voids": 3.9, "singles": 0.9,
}
COLOUR_WEIGHTS: Mapping[str, float] = {
    "kings": 6.7, "queens": 4.0, "cavalls": 1.7, "jacks": 0.6, "skus": 3.9, "mond": 3.0, "tarocks": -0.9,
    "voids": 1.5,
}


def _suits(hand: Sequence[Card]) -> list[list[Card]]:
    return [[c for c in hand if SUIT_OF[c] == s] for s in range(4)]


def _ranks(hand: Sequence[Card], rank: int) -> int:
    return sum(1 for c in hand if c >= 22 and rank_of(c) == rank)


def tarock_features(hand: Sequence[Card]) -> dict[str, float]:
    t = [c for c in hand if c < 22]
    suits = _suits(hand)
    return {
        "tarocks": len(t), "skus": float(SKUS in t), "mond": float(MOND in t),
        "big": sum(1 for c in t if 15 <= c <= 19), "mid": sum(1 for c in t if 9 <= c <= 14),
        "pagat": float(PAGAT in t), "kings": _ranks(hand, KING), "queens": _ranks(hand, QUEEN),
        "voids": sum(1 for s in suits if not s), "singles": sum(1 for s in suits if len(s) == 1),
    }


def colour_features(hand: Sequence[Card]) -> dict[str, float]:
    t = [c for c in hand if c < 22]
    return {
        "kings": _ranks(hand, KING), "queens": _ranks(hand, QUEEN), "cavalls": _ranks(hand, CAVALL),
        "jacks": _ranks(hand, JACK), "skus": float(SKUS in t), "mond": float(MOND in t), "tarocks": len(t),
        "voids": sum(1 for s in _suits(hand) if not s),
    }


def negative_features(hand: Sequence[Card]) -> dict[str, float]:
    t = [c for c in hand if c < 22]
    suits = _suits(hand)
    return {
        "1": 1.0, "t_top": sum(1 for c in t if c >= 17), "t_high": sum(1 for c in t if 12 <= c <= 16),
        "t_mid": sum(1 for c in t if 6 <= c <= 11), "t_low": sum(1 for c in t if 1 <= c <= 5),
        "pagat": float(PAGAT in t), "kings": _ranks(hand, KING), "queens": _ranks(hand, QUEEN),
        "cavalls": _ranks(hand, CAVALL), "jacks": _ranks(hand, JACK),
        "voids": sum(1 for s in suits if not s), "singles": sum(1 for s in suits if len(s) == 1),
        "long": sum(max(0, len(s) - 3) for s in suits),
    }


HAND_CACHE = 4096
"""Hands whose scores and chances are remembered (per function): the world sampler
asks the rule of thumb about the same few hands many times over, once per game each."""


def tarock_score(hand: Sequence[Card]) -> float:
    """The tarock score of a hand (module docstring)."""
    return _weighted(tuple(hand), False)


def colour_score(hand: Sequence[Card]) -> float:
    """The colour-game score of a hand (module docstring)."""
    return _weighted(tuple(hand), True)


@lru_cache(maxsize=2 * HAND_CACHE)
def _weighted(hand: tuple[Card, ...], colour: bool) -> float:
    """A hand's features weighed for a colour game or a tarock game."""
    features, weights = (colour_features, COLOUR_WEIGHTS) if colour else (tarock_features, TAROCK_WEIGHTS)
    f = features(hand)
    return sum((w * f[k] for k, w in weights.items()), 0.0)


# -- chances -------------------------------------------------------------------------------

POSITIVE: Mapping[str, tuple[float, float]] = {
    "rufer": (13.2, 8.9), "besserrufer": (16.5, 8.8), "solorufer": (29.6, 9.1), "dreier": (29.9, 5.0),
    "einschauer": (29.7, 5.0), "sechserdreier": (19.4, 6.8), "sechser": (19.0, 6.9),
    "solodreier": (41.7, 2.7), "solo-eigen": (41.2, 2.6),
    "farbendreier": (24.5, 5.8), "farbensolodreier": (29.7, 3.4), "farberl": (30.0, 3.4),
}
"""Per game played for points: (score at which half are won, spread)."""
POSITIVE_SHAPES: Mapping[Shape, tuple[float, float]] = {
    ("called", "tarock", "half"): POSITIVE["rufer"],
    ("called", "tarock", "none"): POSITIVE["solorufer"],
    ("alone", "tarock", "half"): POSITIVE["dreier"],
    ("alone", "tarock", "all"): POSITIVE["sechserdreier"],
    ("alone", "tarock", "none"): POSITIVE["solodreier"],
    ("alone", "colour", "half"): POSITIVE["farbendreier"],
    ("alone", "colour", "none"): POSITIVE["farbensolodreier"],
}
"""Games the fits do not name, by their :func:`shape`: as the fitted game of that shape."""
DEFAULT_POSITIVE = (41.5, 2.7)
"""Games of no fitted shape are taken as hard as a solo without talon."""


def positive_fit(spec: ContractSpec) -> tuple[float, float]:
    """The (half-won score, spread) of a game played for points."""
    found = POSITIVE.get(spec.name)
    return found if found is not None else POSITIVE_SHAPES.get(shape(spec), DEFAULT_POSITIVE)

BETTEL: Mapping[bool, Mapping[str, float]] = {
    False: {"1": 2.35, "t_top": -2.9, "t_high": -1.32, "t_mid": -0.72, "t_low": -0.35, "pagat": -0.29,
            "kings": -0.63, "queens": -0.33, "cavalls": -0.19, "jacks": -0.13, "voids": -1.79,
            "singles": -0.18, "long": 0.08},
    True: {"1": 1.32, "t_top": -1.9, "t_high": -0.83, "t_mid": -0.41, "t_low": -0.28, "pagat": -0.28,
           "kings": -0.58, "queens": -0.23, "cavalls": -0.15, "jacks": -0.07, "voids": -1.92,
           "singles": -0.16, "long": 0.08},
}
"""Bettel (no trick), plain and ouvert: the logistic's weights over :func:`negative_features`."""
TRICKS: Mapping[tuple[int, bool], tuple[float, float]] = {
    (1, False): (-2.68, 5.92), (1, True): (-2.68, 6.08), (2, False): (-1.19, 3.18), (2, True): (-1.25, 2.34),
}
"""Piccolo and Zwiccolo, plain and ouvert: logistic (a, b) over the product of
sure winners and the Bettel chance of the rest.  The Piccolo's intercepts are
the fit's (-1.98) lowered by 0.7, about the logit of the rate its bids were won
against the rate the fit promised them: in self-play of the rule of thumb
(``koenigrufen-ooe``, 2,000 hands, seed 2026) the Piccolo bid at a fitted chance of
0.5 to 0.8 won 12 of 28 and the Piccolo ouvert in duplicate matches 10 of 25
(docs/bots.md)."""
BIRD: Mapping[str, tuple[float, float]] = {
    "pagat": (36.0, 8.0), "uhu": (35.0, 6.0), "kakadu": (40.0, 7.0), "marabu": (44.0, 7.0),
}
"""Score at which the Besserrufer's announced bird comes off half the time, and the spread."""

MAX_CHANCE = 0.97
"""No game is taken for certain."""


def _logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def sure(card: Card, maerchen: bool) -> float:
    """How surely ``card`` makes a trick in a negative game (when its holder wants it)."""
    if card == SKUS:
        return 0.85 if maerchen else 0.97
    if card == MOND:
        return 0.6
    if card == XX:
        return 0.4
    return 0.45 if card >= 22 and rank_of(card) == KING else 0.0


def bettel_chance(hand: Sequence[Card], ouvert: bool) -> float:
    return _bettel_chance(tuple(hand), ouvert)


@lru_cache(maxsize=HAND_CACHE)
def _bettel_chance(hand: tuple[Card, ...], ouvert: bool) -> float:
    f = negative_features(hand)
    return _logistic(sum((w * f[k] for k, w in BETTEL[ouvert].items()), 0.0))


@lru_cache(maxsize=HAND_CACHE)
def _tricks_chance(hand: tuple[Card, ...], need: int, ouvert: bool, maerchen: bool) -> float:
    winners = [c for c in hand if sure(c, maerchen) > 0]
    best = 0.0
    for chosen in combinations(winners, need):
        p = math.prod(sure(c, maerchen) for c in chosen)
        best = max(best, p * bettel_chance([c for c in hand if c not in chosen], ouvert))
    a, b = TRICKS.get((need, ouvert), TRICKS[(min(2, need), False)])
    return _logistic(a + b * best)


def chance(game: ContractSpec, hand: Sequence[Card], maerchen: bool = False) -> float:
    """The chance that ``hand`` makes ``game`` as its declarer (module docstring);
    ``maerchen``: the Märchenstich holds (the Sküs can be caught)."""
    if game.goal.kind == "tricks":
        need = game.goal.tricks
        if need == 0:
            return min(MAX_CHANCE, bettel_chance(hand, game.ouvert))
        return min(MAX_CHANCE, _tricks_chance(tuple(hand), need, game.ouvert, maerchen))
    mid, spread = positive_fit(game)
    score = colour_score(hand) if colour_game(game) else tarock_score(hand)
    return min(MAX_CHANCE, _logistic((score - mid) / spread))


ALONE = (29.9, 5.0)
"""A declarer alone with half the talon (his King in the talon): as a Dreier."""


def alone_chance(hand: Sequence[Card]) -> float:
    """The chance to win alone with ``hand`` (the talon half taken included)."""
    mid, spread = ALONE
    return _logistic((tarock_score(hand) - mid) / spread)


def bird_chance(name: str, hand: Sequence[Card]) -> float:
    """The chance that the Besserrufer's announced bird ``name`` comes off."""
    mid, spread = BIRD.get(name, BIRD["marabu"])
    return _logistic((tarock_score(hand) - mid) / spread)


TRISCHAKEN = (4.8, -0.22)
"""The forehand's Trischaken result in game values: a + b * tarock score."""
FAHRER = (8.7, -0.45)
"""The forehand's Fahrer result in game values: a + b * tarock score."""


def trischaken_value(hand: Sequence[Card]) -> float:
    a, b = TRISCHAKEN
    return a + b * tarock_score(hand)


def fahrer_value(hand: Sequence[Card]) -> float:
    a, b = FAHRER
    return a + b * tarock_score(hand)


# -- calling, talon, discard ------------------------------------------------------------------

def call_preference(hand: Sequence[Card], card: Card) -> float:
    """Calling a King of a suit one is void in won most Rufer games (73 %),
    then a short suit with its Queen (70-72 %), then other short suits; long
    suits least (65 %)."""
    suit = [c for c in hand if SUIT_OF[c] == SUIT_OF[card]]
    if card in hand:
        return -100.0
    queen = any(rank_of(c) == QUEEN for c in suit)
    return (3.0 if not suit else 0.0) - len(suit) + (1.5 if queen else 0.0)


def _layaway_candidates(hand: Sequence[Card], colour: bool, count: int) -> list[Card]:
    """The cards worth trying to lay ``count`` away: suit cards but Kings, then
    the lowest tarocks outside the Trull (in colour games every such tarock)."""
    plain = [c for c in hand if c >= 22 and rank_of(c) != KING]
    tarocks = sorted(c for c in hand if c < 22 and c not in TRULL)
    if colour:
        return tarocks + plain
    return plain + tarocks[:max(0, count - len(plain) + 2)]


class Layaway:
    """Rates the discards from one hand fast: every score here is a sum of
    per-card weights and per-suit shape terms (voids, singletons), so laying
    cards away only subtracts their weights and shortens their suits."""

    def __init__(self, hand: Sequence[Card], colour: bool) -> None:
        weights = COLOUR_WEIGHTS if colour else TAROCK_WEIGHTS
        self.colour = colour
        self.weight = {c: sum((weights.get(k, 0.0) * v for k, v in _card_features(c, colour).items()), 0.0)
                       for c in hand}
        self.base = sum(self.weight.values(), 0.0)
        self.counts = [sum(1 for c in hand if SUIT_OF[c] == s) for s in range(4)]

    def _shape(self, count: int) -> float:
        if self.colour:
            return COLOUR_WEIGHTS["voids"] if count == 0 else 0.0
        return TAROCK_WEIGHTS["voids"] if count == 0 else TAROCK_WEIGHTS["singles"] if count == 1 else 0.0

    def value(self, away: Sequence[Card]) -> float:
        """The hand's score without ``away``, plus the points laid away (they
        count for the declarer)."""
        counts = list(self.counts)
        total = self.base
        for c in away:
            total += VALUE[c] - 2 / 3 - self.weight[c]
            if c >= 22:
                counts[SUIT_OF[c]] -= 1
        return total + sum((self._shape(n) for n in counts), 0.0)


def _card_features(card: Card, colour: bool) -> dict[str, float]:
    """One card's share of :func:`tarock_features` / :func:`colour_features` (no shape terms)."""
    f = colour_features([card]) if colour else tarock_features([card])
    f.pop("voids", None)
    f.pop("singles", None)
    return f


def kept_value(hand: Sequence[Card], away: Sequence[Card], colour: bool) -> float:
    """The hand's score once ``away`` is laid away, plus the points laid away."""
    return Layaway(hand, colour).value(away)


def after_talon(hand: Sequence[Card], pile: Sequence[Card], colour: bool) -> float:
    """The best :func:`kept_value` after taking ``pile`` and laying as many away."""
    full = [*hand, *pile]
    rate = Layaway(full, colour)
    count = len(pile)
    cands = _layaway_candidates(full, colour, count)
    if len(cands) < count:
        return rate.value(cands)
    return max(rate.value(away) for away in combinations(cands, count))


# -- announcements and Kontra -------------------------------------------------------------------

TRULL_TAROCKS = 8
"""Tarocks (with all three Trull cards) to announce the Trull: made in 87 %."""
PAGAT_TAROCKS = 9
"""Tarocks (with Pagat, Sküs and Mond) to announce the Pagat: made in 85 %."""
RE_AT = 0.9
"""The declarer's own chance to answer a Kontra with Re."""
KONTRA_SCORE: Mapping[str, float] = {
    "rufer": 34.0, "besserrufer": 31.0, "solorufer": 27.0, "dreier": 35.0, "einschauer": 35.0,
    "sechserdreier": 35.0, "sechser": 35.0,
}
"""An opponent's tarock score to say Kontra on the game (module docstring)."""
KONTRA_SHAPES: Mapping[Shape, float] = {
    ("called", "tarock", "half"): KONTRA_SCORE["rufer"],
    ("called", "tarock", "none"): KONTRA_SCORE["solorufer"],
    ("alone", "tarock", "half"): KONTRA_SCORE["dreier"],
    ("alone", "tarock", "all"): KONTRA_SCORE["sechserdreier"],
}
"""Games the fits do not name, by their :func:`shape` (none for solos without talon)."""
BIRD_KONTRA_TAROCKS = 7
"""Tarocks (two of them above the XVII) to Kontra an announced bird."""
FAHRER_KONTRA_AT = 3.0
"""Own Fahrer rating (game values, as if forehand) to Kontra a Fahrer: a hand
that will hardly take the most points."""


def premium_wanted(hand: Sequence[Card], name: str, game: ContractSpec, ours: bool) -> bool:
    """Whether to announce ``name`` for the own party: only the Trull and the
    Pagat, with the cards in hand and many tarocks (module docstring)."""
    if not ours or name not in game.premiums:
        return False
    t = [c for c in hand if c < 22]
    if name == "trull":
        return set(hand) >= TRULL and len(t) >= TRULL_TAROCKS
    if name == "pagat":
        return PAGAT in hand and SKUS in hand and MOND in hand and len(t) >= PAGAT_TAROCKS
    return False


def kontra_wanted(hand: Sequence[Card], game: ContractSpec) -> bool:
    """Whether an opponent's own hand makes the declarer's game likely to fail."""
    bar = KONTRA_SCORE.get(game.name, KONTRA_SHAPES.get(shape(game)))
    return bar is not None and not colour_game(game) and tarock_score(hand) >= bar


def bird_kontra(hand: Sequence[Card]) -> bool:
    t = [c for c in hand if c < 22]
    return len(t) >= BIRD_KONTRA_TAROCKS and sum(1 for c in t if c >= 17) >= 2
