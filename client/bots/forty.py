"""The heuristic's reading of the 40-card ladder (``tarock40``, docs/rules.md §13,
the house rules of §14 over it, and house rules over either).

The games are recognised by their shape in the table's rule facts, never by
a name (:func:`ladder_game`): a Rufspiel calls a partner and the tarocks
trump; a Faberl is played alone with a named suit trumping; a Solo alone
with the tarocks trumping; their absolut forms announce the Absolut with
the bid and the Solo mit Pagat the Pagat.  The order of the bids is the
contracts' rank.

Everything here looks at the bot's own hand and the public auction only.

Hand scores estimate the card points the hand makes as a lone declarer (a
least-squares fit on self-play, rounded to whole weights):

- :func:`tarock_score`, where tarocks trump (Rufspiel, Solo): three per
  tarock, Sküs +8, Mond +8, XX +5, XIX +3, XVIII +2, three per King, four
  per void suit.
- :func:`faberl_score`, for a Faberl with a given trump suit: 4, plus seven
  per trump, its King +8, Queen +3, Cavall +1; seven per other King; the
  tarocks, a plain suit there, -2 each but Sküs +6, Mond +5, XX +2; three per
  void suit.  The suit named is the best-rated one (:func:`faberl_suit`).

Thresholds were set from 4,000 deals in which each seat in turn was made
the declarer of a Rufspiel, a Solo and a Faberl against heuristic bots
(Kontra off): the bar of a game is where its mean result per declarer
turns clearly positive (figures at each constant).

- Bidding: the highest game whose bar the hand clears is bid at once, if it
  outbids the game in play; otherwise pass (or Kontra, or an addition).  A
  Rufer who must bid (``tarock40-online``) bids the cheapest game.
- Announcements, only with good chances (announced premiums double and go
  to the other party when they fail, so they need about two chances in
  three): Trull with all three Trull cards and ``TRULL_TAROCKS`` tarocks;
  the Pagat (Ultimo) with Pagat, Mond and Sküs and ``PAGAT_TAROCKS``
  tarocks, Solo mit Pagat likewise; Absolut at the absolut bars; a Valat
  only where :mod:`client.bots.limits` lets it through (its own check).
  Opponents announce "gegen das Spiel" by the same rules (Absolut aside).
- Kontra: on the game when the own hand is strong against it; on an
  announced Trull holding the Sküs, on an announced Pagat holding seven
  tarocks with the Sküs or Mond, on an announced Valat holding the top
  trump; the declarer's party answers the game's Kontra with Rekontra on a
  very strong hand only.  Never beyond Rekontra (:mod:`client.bots.limits`).
- The Faberl option ``faberl_xx_high`` is not in an observation: bots rate
  and play the tarocks in their normal order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tarock.client.bots.limits import VALAT, chain_level
from tarock.core.actions import Announce, Bid, Kontra
from tarock.core.cards import (
    KING,
    MOND,
    PAGAT,
    QUEEN,
    SKUS,
    SUIT_LETTERS,
    SUIT_OF,
    TRULL,
    Card,
    Suit,
    rank_of,
    tarock,
)
from tarock.core.contracts import ContractSpec
from tarock.core.observation import Observation

PAGAT_ANN = "pagat"
TRULL_ANN = "trull"
ABSOLUT_ANN = "absolut"
"""The names of the premiums the heuristic announces (record vocabulary)."""

XX = tarock(20)
XIX = tarock(19)
XVIII = tarock(18)
_TOP = {SKUS: 8, MOND: 8, XX: 5, XIX: 3, XVIII: 2}

RUF_AT = 27
"""Tarock score to bid a Rufspiel: its party won 56 % just above (27-30), 70 % above."""
SOLO_AT = 49
"""Tarock score to bid a Solo: won 62 % just above (49-52), 74 % above."""
ABSOLUT_AT = 62
"""Tarock score for Solo absolut or Absolut with a Solo: 56 points in 74 % at 56-61, more above."""
FABERL_AT = 43
"""Faberl score (best suit) to bid a Faberl: won 69 % just above (43-46), 80 % above."""
FABERL_ABSOLUT_AT = 57
"""Faberl score for Faberl absolut or Absolut with a Faberl: 56 points in 94 % above."""
TRULL_TAROCKS = {False: 6, True: 8}
"""Tarocks needed, with all three Trull cards, to announce Trull (key: a single game);
the Trull was made in 89 % of such Rufspiele, in every such Solo."""
PAGAT_TAROCKS = {False: 8, True: 8}
"""Tarocks needed, with Pagat, Mond and Sküs, to announce the Pagat (key: a single
game); the Ultimo came off in 89 % of such Rufspiele, 74 % of such Solos."""
KONTRA_RUF_AT = 42
"""Tarock score for an opponent to say Kontra against a Rufspiel."""
KONTRA_SOLO_AT = 46
"""Tarock score for an opponent to say Kontra against a Solo."""
KONTRA_FABERL_TRUMPS = 3
"""Trumps (with King or Queen) for an opponent to say Kontra against a named Faberl."""
REKONTRA_MARGIN = 12
"""Score above the game's bar for the declarer's party to answer with Rekontra."""


@dataclass(frozen=True, slots=True)
class LadderGame:
    """What the heuristic reads off a contract of the ladder (:func:`ladder_game`)."""

    spec: ContractSpec
    faberl: bool
    """A named suit trumps (the tarocks are a plain suit)."""
    solo: bool
    """Played alone (else a partner is called)."""
    absolut: bool
    """The bid announces the Absolut (56 points)."""
    pagat: bool
    """The bid announces the Pagat (Solo mit Pagat)."""

    @property
    def bar(self) -> int:
        """The hand score from which the heuristic plays this game."""
        if self.faberl:
            return FABERL_ABSOLUT_AT if self.absolut else FABERL_AT
        if not self.solo:
            return RUF_AT
        return ABSOLUT_AT if self.absolut else SOLO_AT


def ladder_game(spec: ContractSpec) -> LadderGame | None:
    """``spec`` as a game of the 40-card ladder, or None for a contract of
    another shape (played for tricks or by rank, a colour game, a called
    partner in a suit game, each for himself)."""
    if spec.goal.kind != "points" or spec.tricks.trump == "colour":
        return None
    faberl = spec.tricks.trump == "suit"
    if spec.partnership == "called":
        if faberl or spec.announces:
            return None
        return LadderGame(spec, False, False, False, False)
    if spec.partnership != "alone":
        return None
    absolut = ABSOLUT_ANN in spec.announces
    pagat = PAGAT_ANN in spec.announces and not faberl
    return LadderGame(spec, faberl, True, absolut, pagat)


def _ladder(obs: Observation) -> list[LadderGame]:
    """The table's ladder games, lowest rank first."""
    rules = obs.rules
    if rules is None:
        return []
    return [g for g in map(ladder_game, rules.contracts) if g is not None]


def game_in_play(obs: Observation) -> LadderGame | None:
    return ladder_game(obs.contract.spec) if obs.contract is not None else None


def tarocks(hand: Sequence[Card]) -> list[Card]:
    return [c for c in hand if c < 22]


def tarock_score(hand: Sequence[Card]) -> int:
    """A hand's score for the games where tarocks trump (module docstring)."""
    mine = tarocks(hand)
    suits = {SUIT_OF[c] for c in hand}
    kings = sum(1 for c in hand if c >= 22 and rank_of(c) == KING)
    voids = sum(1 for s in range(4) if s not in suits)
    return 3 * len(mine) + sum(_TOP.get(c, 0) for c in mine) + 3 * kings + 4 * voids


def faberl_score(hand: Sequence[Card], suit: Suit) -> int:
    """A hand's score for a Faberl with ``suit`` trumps (module docstring)."""
    trumps = [c for c in hand if SUIT_OF[c] == suit]
    score = 4 + 7 * len(trumps)
    for card in trumps:
        score += (8, 3, 1, 0, 0)[rank_of(card)]
    held = {SUIT_OF[c] for c in hand}
    for card in hand:
        if card >= 22 and SUIT_OF[card] != suit and rank_of(card) == KING:
            score += 7
        elif card < 22:
            score += {SKUS: 8, MOND: 7, XX: 4}.get(card, 0) - 2
    return score + 3 * sum(1 for s in range(4) if s != suit and s not in held)


def faberl_suit(hand: Sequence[Card]) -> Suit:
    """The suit to name as trump: the best :func:`faberl_score`, then the longest."""
    return max(range(4), key=lambda s: (faberl_score(hand, s), sum(1 for c in hand if SUIT_OF[c] == s), -s))


def _pagat_hope(hand: Sequence[Card], single: bool) -> bool:
    return PAGAT in hand and SKUS in hand and MOND in hand and len(tarocks(hand)) >= PAGAT_TAROCKS[single]


def _trull_hope(hand: Sequence[Card], single: bool) -> bool:
    return set(hand) >= TRULL and len(tarocks(hand)) >= TRULL_TAROCKS[single]


def clears(hand: Sequence[Card], game: LadderGame) -> bool:
    """Whether this hand would play ``game`` (its bar; a Solo mit Pagat also
    needs the hope for the Ultimo)."""
    if game.faberl:
        return faberl_score(hand, faberl_suit(hand)) >= game.bar
    score = tarock_score(hand)
    return score >= game.bar and (not game.pagat or _pagat_hope(hand, True))


def _absolut_bar(hand: Sequence[Card], faberl: bool) -> bool:
    if faberl:
        return faberl_score(hand, faberl_suit(hand)) >= FABERL_ABSOLUT_AT
    return tarock_score(hand) >= ABSOLUT_AT


def wanted_additions(hand: Sequence[Card], game: LadderGame) -> set[str]:
    """What the hand would announce for its own party in ``game`` (Valat aside)."""
    out: set[str] = set()
    if not game.faberl:
        if _trull_hope(hand, game.solo):
            out.add(TRULL_ANN)
        if _pagat_hope(hand, game.solo):
            out.add(PAGAT_ANN)
    if game.solo and _absolut_bar(hand, game.faberl):
        out.add(ABSOLUT_ANN)
    return out


def choose_bid(obs: Observation, bids: Sequence[Bid], must: bool) -> Bid | None:
    """The bid to make among ``bids`` (Valat bids already limited), or None to pass."""
    named = {b.contract for b in bids}
    offered = [g for g in _ladder(obs) if g.spec.name in named]  # in ladder order
    if not offered:
        return None
    fine = [g for g in offered if clears(obs.hand, g)]
    if not fine:
        if not must:
            return None
        return next(b for b in bids if b.contract == offered[0].spec.name and not b.announce)
    top = max(g.spec.rank for g in fine)
    best = [g for g in fine if g.spec.rank == top]
    game = next((g for g in best if g.pagat), best[0])
    wanted = wanted_additions(obs.hand, game) | {VALAT}
    options = [b for b in bids if b.contract == game.spec.name and set(b.announce) <= wanted]
    return max(options, key=lambda b: len(b.announce))


def choose_addition(obs: Observation, announces: Sequence[Announce]) -> Announce | None:
    """An addition to announce in the online auction (for either party), or None."""
    game = game_in_play(obs)
    if game is None:
        return None
    wanted = wanted_additions(obs.hand, game) - {ABSOLUT_ANN} | {VALAT}
    if obs.seat == obs.declarer:
        wanted |= wanted_additions(obs.hand, game)
    fitting = [a for a in announces if set(a.announce) <= wanted]
    return max(fitting, key=lambda a: len(a.announce)) if fitting else None


def wants_kontra(obs: Observation, kontra: Kontra, our_side: bool | None) -> bool:
    """Whether to raise the chain ``kontra.target`` names (level 0 or 1 only)."""
    game = game_in_play(obs)
    if game is None:
        return False
    target = kontra.target
    level = chain_level(obs, target)
    hand = obs.hand
    trump = obs.contract.trump if obs.contract is not None else None
    if our_side:
        if level != 1 or not target.game:
            return False
        score = faberl_score(hand, SUIT_LETTERS.index(trump)) if game.faberl and trump else \
            tarock_score(hand)
        return score >= game.bar + REKONTRA_MARGIN
    if level != 0:
        return False
    if target.game:
        if game.faberl:
            if trump is None:
                return False
            suit = SUIT_LETTERS.index(trump)
            mine = [c for c in hand if SUIT_OF[c] == suit]
            return len(mine) >= KONTRA_FABERL_TRUMPS and rank_of(mine[0]) <= QUEEN
        bar = KONTRA_SOLO_AT if game.solo else KONTRA_RUF_AT
        return tarock_score(hand) >= bar
    if target.name == TRULL_ANN:
        return not game.faberl and SKUS in hand
    if target.name == PAGAT_ANN:
        return (SKUS in hand or MOND in hand) and len(tarocks(hand)) >= 7
    if target.name == VALAT:
        if not game.faberl:
            return SKUS in hand
        return trump is not None and any(SUIT_OF[c] == SUIT_LETTERS.index(trump) and rank_of(c) == KING
                                         for c in hand)
    return False
