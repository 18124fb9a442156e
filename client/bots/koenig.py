"""The heuristic in Königrufen (docs/rules.md §15, ``koenigrufen-club``,
``koenigrufen-course`` and house rules over them), from the observation only.

The games are read from the table's rule facts: a table is played by
these rules when one of its contracts calls a King
(:mod:`client.bots.table`); each game's kind, value, talon, trick rules
(Stichzwang, colour game, Märchenstich) and premiums come from its
contract, the birds' values from the premiums.  Hand ratings and thresholds are in
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

from tarock.client.bots import contract_odds
from tarock.client.bots import koenig_eval as ev
from tarock.client.bots.knowledge import FOE, FRIEND, Knowledge
from tarock.client.bots.koenig_play import each_play, negative_play
from tarock.client.bots.limits import NO_RAISE_FROM, chain_level
from tarock.client.bots.table import table_facts
from tarock.core.actions import Action, Announce, Bid, Call, Discard, Join, Kontra, Pass
from tarock.core.auction import VORHAND
from tarock.core.cards import KAKADU, MARABU, PAGAT, UHU, VALUE, Card
from tarock.core.contracts import ContractSpec
from tarock.core.facts import RuleFacts
from tarock.core.observation import Observation
from tarock.core.phases import ANNOUNCE, KONTRA
from tarock.core.state import declarer_seats

BIRDS: dict[str, tuple[Card, int]] = {"pagat": (PAGAT, 1), "uhu": (UHU, 2), "kakadu": (KAKADU, 3),
                                      "marabu": (MARABU, 4)}
"""The bird premiums (record vocabulary) -> (card, its trick counted from the end: 1 = the last)."""
BIRD_CARDS = frozenset(card for card, _ in BIRDS.values())
BIRDS_PHASE = "birds"
"""The phase in which several Besserrufer name their birds (docs/records.md)."""

BID_MARGIN = 0.15
"""A bid must promise more than this share of the smallest game value."""
GIVE_UP_BELOW = 0.12
"""Chance alone below which a declarer whose King lies in the talon gives up:
playing on loses less on average even then, but the others see him alone
and a Kontra would double the loss."""
NO_COLOUR = -1
"""The knowledge's trump in colour games: no suit trumps."""


def applies(obs: Observation) -> bool:
    """Whether ``obs`` is a hand played by Königrufen's rules (a contract calls a King)."""
    return obs.rules is not None and table_facts(obs).strategy == "koenig"


def bird_game(spec: ContractSpec) -> bool:
    """Besserrufer: the declarer must hold a bird (and announces it)."""
    return any(h.at_least > 0 and h.cards and h.cards <= BIRD_CARDS for h in spec.requires)


def game_of(obs: Observation) -> ContractSpec | None:
    return obs.contract.spec if obs.contract is not None else None


def declarers(obs: Observation) -> tuple[int, ...]:
    return declarer_seats(obs.contract, obs.declarer)


def maerchenstich(spec: ContractSpec) -> bool:
    """The Pagat takes a trick holding the whole Trull in this game (docs/rules.md §4.8)."""
    return spec.tricks.trull_trick


def _rules(obs: Observation) -> RuleFacts:
    return table_facts(obs).rules


# -- decisions but card play ------------------------------------------------------------

def decide(obs: Observation) -> Action | None:
    """A decision outside card play, or None where the generic heuristic decides."""
    legal = obs.legal
    kinds = {a.type for a in legal}
    if obs.phase == BIRDS_PHASE:
        return _bird(obs)
    if kinds & {Bid.type, Join.type}:
        return _auction(obs)
    if Call.type in kinds:
        return _call(obs)
    if kinds & {"talon", "give-up"}:
        return _talon(obs)
    if Discard.type in kinds:
        return _discard(obs)
    if obs.phase == ANNOUNCE:
        return _announce(obs)
    if obs.phase == KONTRA and Kontra.type in kinds:
        return _fahrer_kontra(obs)
    return None


def _expected(obs: Observation, game: ContractSpec) -> float:
    """The expected result of playing ``game`` with this hand, in the table's unit per hand."""
    k = ev.kind(game)
    if k == "trischaken":
        return ev.trischaken_value(obs.hand) * game.value
    if k == "fahrer":
        return ev.fahrer_value(obs.hand) * game.value
    p = ev.chance(game, obs.hand, maerchenstich(game))
    per = 1 if game.call is not None else len([s for s in range(obs.seats) if obs.hand_sizes[s] > 0]) - 1
    result = per * (p * game.value - (1 - p) * (game.lost or game.value))
    if bird_game(game):  # the bird it would announce, won or paid per opponent
        bird = _bird_to_name(obs.hand)
        premium = _rules(obs).premium(bird) if bird is not None else None
        if bird is None or premium is None:
            return result
        q = ev.bird_chance(bird, obs.hand)
        result += per * (2 * q - 1) * premium.announced
    return result


def _bird_to_name(hand: Sequence[Card]) -> str | None:
    """The bird a Besserrufer names: the one whose trick comes last (most time
    to draw the others' tarocks), the Pagat first."""
    held = [name for name, (card, _) in BIRDS.items() if card in hand]
    return min(held, key=lambda name: BIRDS[name][1], default=None)


def _auction(obs: Observation) -> Action:
    rules = _rules(obs)
    options: list[tuple[float, Action]] = []
    passing: Action | None = None
    vorhand: Action | None = None
    for action in obs.legal:
        if isinstance(action, Pass):
            passing = action
        elif isinstance(action, Bid) and action.contract == VORHAND:
            vorhand = action
        elif isinstance(action, (Bid, Join)) and not (isinstance(action, Bid) and action.announce):
            game = rules.contract(action.contract)
            if game is not None and (not game.ouvert or contract_odds.sane(game, obs.hand)):
                options.append((_expected(obs, game), action))  # "bei" joins a game like a bid of it
    best = max(options, key=lambda o: o[0], default=None)
    floor = BID_MARGIN * min((g.value for g in rules.contracts), default=1)
    if vorhand is not None:
        later = max((_expected(obs, g) for g in rules.contracts if g.forehand_only), default=0.0)
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
    game = game_of(obs) or next((g for g in _rules(obs).contracts if g.contest and bird_game(g)), None)
    if passing is None or (names and game is not None and _expected(obs, game) > 0):
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
    colour = game is not None and ev.colour_game(game)

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
    colour = game is not None and ev.colour_game(game)
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
    for kontra in sorted((a for a in legal if isinstance(a, Kontra)), key=lambda a: not a.target.game):
        if chain_level(obs, kontra.target) < NO_RAISE_FROM and _wants_kontra(obs, kontra, game):
            return kontra
    return passing


def _wants_kontra(obs: Observation, kontra: Kontra, game: ContractSpec | None) -> bool:
    if game is None:
        return False
    target = kontra.target
    mine = obs.seat in declarers(obs)
    if target.answer is not None:  # the declarer's Re on one opponent's Kontra
        return mine and ev.chance(game, obs.hand, maerchenstich(game)) >= ev.RE_AT
    if target.declarer is not None:
        return False  # a negative game's Kontra needs more than the own hand shows
    level = chain_level(obs, target)
    if target.game:
        if level == 1:
            return mine and ev.chance(game, obs.hand) >= ev.RE_AT
        return level == 0 and not mine and obs.called not in obs.hand and ev.kontra_wanted(obs.hand, game)
    owner = next((a.seat for a in obs.announcements if a.name == target.name), None)
    if target.name in BIRDS and level == 0 and owner is not None and owner != obs.seat and not mine:
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
    if game is not None and ev.colour_game(game):
        k = replace(k, trump=NO_COLOUR)
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
    kind = ev.kind(game)
    if kind == "tricks":
        return negative_play(obs, k, cards, game.goal.tricks, declarers(obs))
    if kind in ("trischaken", "fahrer"):
        return each_play(obs, k, cards, talon_last=game.talon == "last")
    return None
