"""The heuristic's reading of the 40-card games (``tarock40``, ``tarock40-online``).

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

from client.bots.limits import chain_level
from core.actions import Announce, Bid, Kontra
from core.cards import (
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
from core.observation import Observation
from variants.tarock40 import (
    ABSOLUT_ANN,
    FABERL,
    FABERL_ABSOLUT,
    GAMES,
    PAGAT_ANN,
    RUFSPIEL,
    SOLO,
    SOLO_ABSOLUT,
    SOLO_PAGAT,
    TRULL_ANN,
    VALAT_ANN,
)

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


def game_bars(hand: Sequence[Card]) -> dict[str, bool]:
    """Which games of the 40-card ladder this hand would play."""
    t = tarock_score(hand)
    f = faberl_score(hand, faberl_suit(hand))
    return {
        RUFSPIEL: t >= RUF_AT,
        FABERL: f >= FABERL_AT,
        SOLO: t >= SOLO_AT,
        FABERL_ABSOLUT: f >= FABERL_ABSOLUT_AT,
        SOLO_ABSOLUT: t >= ABSOLUT_AT,
        SOLO_PAGAT: t >= SOLO_AT and _pagat_hope(hand, True),
    }


def wanted_additions(hand: Sequence[Card], game: str) -> set[str]:
    """What the hand would announce for its own party in ``game`` (Valat aside)."""
    out: set[str] = set()
    info = GAMES[game]
    if not info.faberl:
        if _trull_hope(hand, info.solo):
            out.add(TRULL_ANN)
        if _pagat_hope(hand, info.solo):
            out.add(PAGAT_ANN)
    bars = game_bars(hand)
    if (bars[FABERL_ABSOLUT] if info.faberl else bars[SOLO_ABSOLUT]) and game != RUFSPIEL:
        out.add(ABSOLUT_ANN)
    return out


def choose_bid(obs: Observation, bids: Sequence[Bid], must: bool) -> Bid | None:
    """The bid to make among ``bids`` (Valat bids already limited), or None to pass."""
    named = {b.contract for b in bids}
    offered = [g for g in GAMES if g in named]  # in ladder order
    if not offered:
        return None
    bars = game_bars(obs.hand)
    fine = [g for g in offered if bars[g]]
    if not fine:
        if not must:
            return None
        return next(b for b in bids if b.contract == offered[0] and not b.announce)
    top = max(GAMES[g].level for g in fine)
    best = [g for g in fine if GAMES[g].level == top]
    game = SOLO_PAGAT if SOLO_PAGAT in best else best[0]
    wanted = wanted_additions(obs.hand, game) | {VALAT_ANN}
    options = [b for b in bids if b.contract == game and set(b.announce) <= wanted]
    return max(options, key=lambda b: len(b.announce))


def choose_addition(obs: Observation, announces: Sequence[Announce]) -> Announce | None:
    """An addition to announce in the online auction (for either party), or None."""
    if obs.contract is None or obs.contract.name not in GAMES:
        return None
    wanted = wanted_additions(obs.hand, obs.contract.name) - {ABSOLUT_ANN} | {VALAT_ANN}
    if obs.seat == obs.declarer:
        wanted |= wanted_additions(obs.hand, obs.contract.name)
    fitting = [a for a in announces if set(a.announce) <= wanted]
    return max(fitting, key=lambda a: len(a.announce)) if fitting else None


def _game_bar(game: str) -> int:
    return {RUFSPIEL: RUF_AT, SOLO: SOLO_AT, SOLO_ABSOLUT: ABSOLUT_AT, SOLO_PAGAT: SOLO_AT,
            FABERL: FABERL_AT, FABERL_ABSOLUT: FABERL_ABSOLUT_AT}[game]


def wants_kontra(obs: Observation, kontra: Kontra, our_side: bool | None) -> bool:
    """Whether to raise the chain ``kontra.target`` names (level 0 or 1 only)."""
    if obs.contract is None or obs.contract.name not in GAMES:
        return False
    game = GAMES[obs.contract.name]
    level = chain_level(obs, kontra.target)
    hand = obs.hand
    trump = obs.contract.trump
    if our_side:
        if level != 1 or kontra.target:
            return False
        score = faberl_score(hand, SUIT_LETTERS.index(trump)) if game.faberl and trump else \
            tarock_score(hand)
        return score >= _game_bar(game.name) + REKONTRA_MARGIN
    if level != 0:
        return False
    if not kontra.target:
        if game.faberl:
            if trump is None:
                return False
            suit = SUIT_LETTERS.index(trump)
            mine = [c for c in hand if SUIT_OF[c] == suit]
            return len(mine) >= KONTRA_FABERL_TRUMPS and rank_of(mine[0]) <= QUEEN
        bar = KONTRA_RUF_AT if game.name == RUFSPIEL else KONTRA_SOLO_AT
        return tarock_score(hand) >= bar
    if kontra.target == TRULL_ANN:
        return not game.faberl and SKUS in hand
    if kontra.target == PAGAT_ANN:
        return (SKUS in hand or MOND in hand) and len(tarocks(hand)) >= 7
    if kontra.target == VALAT_ANN:
        if not game.faberl:
            return SKUS in hand
        return trump is not None and any(SUIT_OF[c] == SUIT_LETTERS.index(trump) and rank_of(c) == KING
                                         for c in hand)
    return False
