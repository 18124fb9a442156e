"""The heuristic in Königrufen (seeds 002 and 003, ``koenigrufen-club``,
``koenigrufen-course`` and house rules over them), from the observation only.

The games are read from the dialects' data (:mod:`variants.koenigrufen`);
a hand is recognised as Königrufen by its contract or the games in its
auction (54 cards).  Hand ratings and thresholds are in
:mod:`client.bots.koenig_eval` (fitted on self-play, figures there); the
card play of negative and each-for-self games in :mod:`client.bots.koenig_play`.

- Auction: every game offered gets the result it promises, in cents: the
  hand's chance to make it (:func:`~client.bots.koenig_eval.chance`) times
  its value, won from or paid to each of three opponents (a calling game's
  declarer: one), the Besserrufer's bird included; Trischaken and Fahrer
  by the forehand's expected result.  The best game is bid if it promises
  more than ``BID_MARGIN`` of the dialect's smallest game value, else pass
  ("Weiter!").  The club's forehand says "Vorhand!" unless a Lizitspiel
  promises more than his forehand games; after three "Weiter!" he chooses
  the best game of all (so a Rufer with a middling hand, Trischaken with a
  weak one, a Dreier or Sechserdreier with a strong one).  The course's
  forehand, who must open, bids his best game.  "Bei" joins a negative game
  like a bid of it.  Several Besserrufer name the bird they would play
  while the game promises a gain, else pass.  So a strong hand never bids a
  negative game and nobody bids a game he is unlikely to make.
- Calling: the King of a suit the hand is void in, else of a short suit
  with its Queen (:func:`~client.bots.koenig_eval.call_preference`); with
  four Kings what the rules offer (a Queen, or an own King).
- Talon: the half after which the hand, with its best discard, rates
  highest, less the points the other half gives the opponents; give up
  only when the called King lies in the talon and the chance alone is
  below ``GIVE_UP_BELOW``.
- Discard: among the legal discards (the rules' limits are in
  ``obs.legal``) the one that leaves the best-rated hand, counting the
  points laid away (in colour games tarocks go first).
- Announcements: the Besserrufer's bird (the one whose trick comes last:
  the Pagat if held); the Trull and the Pagat only with the cards in hand
  and many tarocks (:func:`~client.bots.koenig_eval.premium_wanted`); never
  a Valat (:mod:`client.bots.limits` lets none through in Königrufen),
  König Ultimo, Uhu, Kakadu, Marabu, 4 Könige, Mondfang, Absolut or
  Grammopoi.
- Kontra: on the game by an opponent whose hand makes the game likely to
  fail (:func:`~client.bots.koenig_eval.kontra_wanted`); Re only by the
  declarer himself with a chance of ``koenig_eval.RE_AT``; on an announced bird with
  many high tarocks; never on a negative game (its outcome hangs on the
  declarer's hand, which the own hand does not show), never beyond Re
  (:mod:`client.bots.limits`).  The Fahrer's Kontra only with a hand that
  will hardly take the most points.
- Play: positive games by the heuristic's trick play (in colour games no
  suit trumps; the Märchenstich where it holds); negative and
  each-for-self games by :mod:`client.bots.koenig_play`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from client.bots import koenig_eval as ev
from client.bots.knowledge import FOE, FRIEND, Knowledge
from client.bots.koenig_play import each_play, negative_play
from client.bots.limits import NO_RAISE_FROM, chain_level
from core.actions import Action, Announce, Bid, Call, Discard, Kontra, Pass
from core.cards import VALUE, Card
from core.observation import Observation
from variants.koenigrufen.club import CLUB
from variants.koenigrufen.course import COURSE
from variants.koenigrufen.games import BIRDS, VORHAND, Dialect, Game

DIALECTS: tuple[Dialect, ...] = (CLUB, COURSE)
GAMES: dict[str, Game] = {}
for _dialect in DIALECTS:
    for _game in _dialect.games:
        GAMES.setdefault(_game.name, _game)

BID_MARGIN = 0.15
"""A bid must promise more than this share of the dialect's smallest game value."""
GIVE_UP_BELOW = 0.12
"""Chance alone below which a declarer whose King lies in the talon gives up:
playing on loses less on average even then, but the others see him alone
and a Kontra would double the loss."""
NO_COLOUR = -1
"""The knowledge's trump in colour games: no suit trumps."""


def _contracts(obs: Observation) -> set[str]:
    names = {str(getattr(a, "contract", "")) for a in (*obs.legal, *obs.history) if a.type in ("bid", "bei")}
    if obs.contract is not None:
        names.add(obs.contract.name)
    names.discard("")
    return names


def applies(obs: Observation) -> bool:
    """Whether ``obs`` is a hand of 54-card Königrufen."""
    trick = obs.trick.cards if obs.trick is not None else ()
    cards = sum(obs.hand_sizes) + sum(len(t.cards) for t in obs.tricks) + len(trick)
    if cards <= 40:
        return False
    names = _contracts(obs)
    return bool(names) and all(n in GAMES or n == VORHAND for n in names)


def dialect_of(obs: Observation) -> Dialect:
    """The rule text of this hand: by the variant's name, else by its auction --
    only the club's forehand says "Vorhand!", only the course's opens with a
    forehand game, and games only one text knows (the club's when unsure)."""
    for d in DIALECTS:
        if obs.variant == d.name:
            return d
    names = _contracts(obs)
    if VORHAND in names:
        return CLUB
    opening = next((a for a in obs.history if isinstance(a, Bid)), None)
    if opening is not None and any(g.name == opening.contract and g.forehand_only for g in COURSE.games):
        return COURSE
    for d in DIALECTS:
        others = {g.name for o in DIALECTS if o is not d for g in o.games}
        if any(g.name in names and g.name not in others for g in d.games):
            return d
    return CLUB


def game_of(obs: Observation) -> Game | None:
    if obs.contract is None:
        return None
    d = dialect_of(obs)
    return next((g for g in d.games if g.name == obs.contract.name), GAMES.get(obs.contract.name))


def declarers(obs: Observation) -> tuple[int, ...]:
    if obs.contract is not None and obs.contract.declarers:
        return obs.contract.declarers
    return (obs.declarer,) if obs.declarer is not None else ()


# -- decisions but card play ------------------------------------------------------------

def decide(obs: Observation) -> Action | None:
    """A decision outside card play, or None where the generic heuristic decides."""
    legal = obs.legal
    kinds = {a.type for a in legal}
    if obs.phase == "birds":
        return _bird(obs)
    if kinds & {"bid", "bei"}:
        return _auction(obs)
    if "call" in kinds:
        return _call(obs)
    if kinds & {"talon", "give-up"}:
        return _talon(obs)
    if "discard" in kinds:
        return _discard(obs)
    if obs.phase == "announce":
        return _announce(obs)
    if obs.phase == "kontra" and "kontra" in kinds:
        return _fahrer_kontra(obs)
    return None


def _expected(obs: Observation, d: Dialect, name: str) -> float:
    """The expected result of playing ``name`` with this hand, in cents per hand."""
    game = next((g for g in d.games if g.name == name), GAMES[name])
    if game.kind == "trischaken":
        return ev.trischaken_value(obs.hand) * game.value
    if game.kind == "fahrer":
        return ev.fahrer_value(obs.hand) * game.value
    p = ev.chance(game, obs.hand, d.maerchenstich)
    per = 1 if game.call else len([s for s in range(obs.seats) if obs.hand_sizes[s] > 0]) - 1
    result = per * (p * game.value - (1 - p) * (game.lost or game.value))
    if game.bird:  # the bird it would announce, won or paid per opponent
        bird = _bird_to_name(obs.hand)
        if bird is None:
            return result
        q = ev.bird_chance(bird, obs.hand)
        result += per * (2 * q - 1) * d.premium_values[bird][1]
    return result


def _bird_to_name(hand: Sequence[Card]) -> str | None:
    """The bird a Besserrufer names: the one whose trick comes last (most time
    to draw the others' tarocks), the Pagat first."""
    held = [name for name, (card, _) in BIRDS.items() if card in hand]
    return min(held, key=lambda name: BIRDS[name][1], default=None)


def _auction(obs: Observation) -> Action:
    d = dialect_of(obs)
    options: list[tuple[float, Action]] = []
    passing: Action | None = None
    vorhand: Action | None = None
    for action in obs.legal:
        if isinstance(action, Pass):
            passing = action
        elif isinstance(action, Bid) and action.contract == VORHAND:
            vorhand = action
        elif isinstance(action, Bid) and not action.announce and action.contract in GAMES:
            options.append((_expected(obs, d, action.contract), action))
        elif action.type == "bei":
            options.append((_expected(obs, d, str(getattr(action, "contract", ""))), action))
    best = max(options, key=lambda o: o[0], default=None)
    floor = BID_MARGIN * min((g.value for g in d.games), default=1)
    if vorhand is not None:
        later = max((_expected(obs, d, g.name) for g in d.games if g.forehand_only), default=0.0)
        if best is None or best[0] <= max(later, floor):
            return vorhand
    if best is not None and (best[0] > floor or passing is None):
        return best[1]
    return passing if passing is not None else obs.legal[0]


def _bird(obs: Observation) -> Action:
    """Several Besserrufer: the lowest bird that beats the last named, if worth it."""
    names = sorted((a for a in obs.legal if isinstance(a, Announce)),
                   key=lambda a: BIRDS[a.announce[0]][0] if a.announce[0] in BIRDS else 99)
    passing = next((a for a in obs.legal if isinstance(a, Pass)), None)
    if passing is None or (names and _expected(obs, dialect_of(obs), "besserrufer") > 0):
        return names[0] if names else obs.legal[0]
    return passing


def _call(obs: Observation) -> Action:
    calls = [a for a in obs.legal if isinstance(a, Call)]
    return max(calls, key=lambda a: ev.call_preference(obs.hand, a.card))


def _talon(obs: Observation) -> Action:
    halves = [a for a in obs.legal if a.type == "talon"]
    give_up = next((a for a in obs.legal if a.type == "give-up"), None)
    piles = obs.talon_shown
    game = game_of(obs)
    colour = game is not None and game.colour

    def worth(action: Action) -> float:
        pile = int(getattr(action, "pile", 0))
        if pile >= len(piles) or not piles[pile]:
            return 0.0
        other = sum(VALUE[c] for i, p in enumerate(piles) if i != pile for c in p)
        return ev.after_talon(obs.hand, piles[pile], colour) - other
    if give_up is not None:
        best = max(halves, key=worth) if halves else None
        taken = list(piles[int(getattr(best, "pile", 0))]) if best is not None and piles else []
        if ev.alone_chance([*obs.hand, *taken]) < GIVE_UP_BELOW:
            return give_up
    return max(halves, key=worth) if halves else obs.legal[0]


def _discard(obs: Observation) -> Action:
    game = game_of(obs)
    colour = game is not None and game.colour
    discards = [a for a in obs.legal if isinstance(a, Discard)]
    if not discards:
        return obs.legal[0]
    rate = ev.Layaway(obs.hand, colour)
    return max(discards, key=lambda a: rate.value(a.cards))


def _announce(obs: Observation) -> Action:
    legal = obs.legal
    passing = next((a for a in legal if isinstance(a, Pass)), None)
    announces = [a for a in legal if isinstance(a, Announce)]
    if passing is None:  # the Besserrufer's bird: the one with the most tricks to come
        birds = [a for a in announces if a.announce[0] in BIRDS]
        if birds:
            return min(birds, key=lambda a: BIRDS[a.announce[0]][1])
        return legal[0]
    game = game_of(obs)
    if game is not None:
        for a in announces:
            if ev.premium_wanted(obs.hand, a.announce[0], game, obs.seat in declarers(obs)):
                return a
    for kontra in sorted((a for a in legal if isinstance(a, Kontra)), key=lambda a: a.target != ""):
        if chain_level(obs, kontra.target) < NO_RAISE_FROM and _wants_kontra(obs, kontra, game):
            return kontra
    return passing


def _wants_kontra(obs: Observation, kontra: Kontra, game: Game | None) -> bool:
    if game is None:
        return False
    target = kontra.target
    mine = obs.seat in declarers(obs)
    if target.startswith("re@"):
        return mine and ev.chance(game, obs.hand, dialect_of(obs).maerchenstich) >= ev.RE_AT
    if target.startswith("game@"):
        return False  # a negative game's Kontra needs more than the own hand shows
    level = chain_level(obs, target)
    if not target:
        if level == 1:
            return mine and ev.chance(game, obs.hand) >= ev.RE_AT
        return level == 0 and not mine and obs.called not in obs.hand and ev.kontra_wanted(obs.hand, game)
    owner = next((a.seat for a in obs.announcements if a.name == target), None)
    if target in BIRDS and level == 0 and owner is not None and owner != obs.seat and not mine:
        return obs.called not in obs.hand and ev.bird_kontra(obs.hand)
    return False


def _fahrer_kontra(obs: Observation) -> Action:
    passing = next((a for a in obs.legal if isinstance(a, Pass)), obs.legal[0])
    kontra = next((a for a in obs.legal if isinstance(a, Kontra)), None)
    if kontra is not None and ev.fahrer_value(obs.hand) >= ev.FAHRER_KONTRA_AT:
        return kontra
    return passing


# -- card play ---------------------------------------------------------------------------

def knowledge(obs: Observation, k: Knowledge) -> Knowledge:
    """The heuristic's knowledge adjusted to Königrufen: no trump suit in colour
    games; a declarer whose called King lies open in the talon plays alone."""
    game = game_of(obs)
    if game is not None and game.colour:
        k = replace(k, trump=NO_COLOUR)
    elif game is not None and dialect_of(obs).maerchenstich:
        k = replace(k, kaiser=True)  # seed 002's Märchenstich: the Pagat takes the Trull
    called = obs.called
    if called is not None and obs.declarer is not None and any(called in p for p in obs.talon_shown):
        mine = obs.seat == obs.declarer
        relation = tuple(FRIEND if (s == obs.declarer) == mine else FOE for s in range(obs.seats))
        k = replace(k, relation=relation, declarer_side=mine)
    return k


def play(obs: Observation, k: Knowledge, cards: Sequence[Card]) -> Card | None:
    """A card in a negative or each-for-self game; None for games played for points."""
    game = game_of(obs)
    if game is None or len(cards) == 1:
        return cards[0] if len(cards) == 1 else None
    if game.kind == "tricks":
        return negative_play(obs, k, cards, game.tricks or 0, declarers(obs))
    if game.kind in ("trischaken", "fahrer"):
        return each_play(obs, k, cards, talon_last=game.kind == "fahrer")
    return None

