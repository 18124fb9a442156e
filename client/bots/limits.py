"""What every bot keeps to, whatever else it does.

- No Subkontra, no Re-Sub, in any Kontra chain: the game's chain
  (``Kontra(target=GAME)``, level ``Observation.kontra_level``) and the chain
  of each announcement (level ``Announcement.kontra``).  docs/rules.md §11.1: "Bots
  wagen kein Subkontra und kein Re-Sub."
- A Valat is announced only with a nearly unbeatable hand (docs/rules.md §11: "Bots
  sagen nur einen Valat an, und nur mit einer nahezu unschlagbaren Hand").
  The bar is :mod:`core.valat`: the bot's own hand
  must make every trick on its own, played by the trick rules of the game
  the Valat is announced in (from the observation's rule facts).  The rules
  ask that check only of a Solo or Faberl declarer; bots ask it of every
  Valat they announce, the Rufspiel's too (the partner's help is not
  counted on) and an opponent's "Gegen das Spiel" (his hand alone must make
  all tricks against the declarer's trumps: against a suit game whose suit
  is not named yet, for every suit).  Where no check exists (a deck with a
  talon, a colour game) bots never announce a Valat.

The check uses the seat's place in the first trick (the forehand leads) and
a full hand; its answers are cached per hand.  Its answer is the
:class:`~core.valat.ValatVerdict` the rules read too (:func:`valat_verdict_for`:
deals played and made, the 95 % interval), so a bot's Valat and its hint
give the same figures as the rules' refusal.
"""

from __future__ import annotations

from tarock.core.actions import Action, Announce, Bid, Kontra, KontraTarget
from tarock.core.cards import SUIT_LETTERS, TAROCK, Suit
from tarock.core.contracts import ContractSpec, TrickRules
from tarock.core.observation import Observation
from tarock.core.valat import ValatVerdict, valat_verdict, valat_verdict_any_suit, valat_verdict_every_suit

NO_RAISE_FROM = 2
"""Kontra level from which bots never raise a chain (no Subkontra, no Re-Sub)."""

VALAT = "valat"
"""The name of the Valat premium (all tricks) in the record vocabulary."""


def chain_level(obs: Observation, target: KontraTarget) -> int:
    """The Kontra level of the chain ``target`` names: the game's for the game,
    else the announcement's own (:meth:`core.observation.Observation.chain_level`)."""
    return obs.chain_level(target)


def raises_too_far(obs: Observation, action: Action) -> bool:
    """Whether ``action`` would be a Subkontra or Re-Sub on its chain."""
    return isinstance(action, Kontra) and chain_level(obs, action.target) >= NO_RAISE_FROM


def says_valat(action: Action) -> bool:
    """Whether ``action`` announces a Valat (with a bid or on its own)."""
    return isinstance(action, (Bid, Announce)) and VALAT in action.announce


def first_trick_place(obs: Observation) -> int:
    """The seat's place in the first trick: 0 for the forehand, who leads."""
    return (obs.seat - obs.forehand) % obs.seats


def valat_game(obs: Observation, action: Action) -> tuple[TrickRules, tuple[Suit, ...], bool] | None:
    """The game a Valat of ``action`` would be checked in: its trick rules,
    the trump suits to try and whether every one of them must pass (an
    opponent's Valat against a suit not named yet) rather than one (the
    declarer names it); None where ``action`` announces no Valat or no check
    applies (a hand not full, a colour game)."""
    if not says_valat(action):
        return None
    rules = obs.rules
    spec: ContractSpec | None
    if isinstance(action, Bid):
        spec = rules.contract(action.contract) if rules is not None else None
        suit, mine = None, True
    else:
        if obs.contract is None:
            return None
        spec, suit = obs.contract.spec, obs.contract.trump
        mine = obs.declarer == obs.seat
    if spec is None or rules is None or len(obs.hand) != rules.hand_size:
        return None
    tricks = spec.tricks
    if tricks.trump == "tarock":
        return tricks, (TAROCK,), False
    if tricks.trump != "suit":
        return None
    if suit is not None:
        named = SUIT_LETTERS.find(suit)
        return (tricks, (named,), False) if named >= 0 else None
    # the declarer names the suit afterwards (see valat_suit); an opponent must beat every one
    return tricks, tuple(range(len(SUIT_LETTERS))), not mine


def valat_verdict_for(obs: Observation, action: Action) -> ValatVerdict | None:
    """The Valat check's verdict on the bot's hand for ``action``'s game (see
    the module docstring and :func:`valat_game`); None where ``action``
    announces no Valat or no check exists for its game."""
    game = valat_game(obs, action)
    if game is None or obs.rules is None:
        return None
    tricks, suits, every = game
    place, deck = first_trick_place(obs), obs.rules.deck
    if len(suits) == 1:
        return valat_verdict(obs.hand, tricks, suits[0], place, deck)
    over_suits = valat_verdict_every_suit if every else valat_verdict_any_suit
    return over_suits(obs.hand, tricks, place, deck)


def valat_passes(obs: Observation, action: Action) -> bool:
    """Whether the bot's hand clears the Valat bar for ``action``'s game: the
    verdict allows it (:func:`valat_verdict_for`).  Actions that announce no
    Valat pass trivially."""
    if not says_valat(action):
        return True
    verdict = valat_verdict_for(obs, action)
    return verdict is not None and verdict.allowed


def valat_suit(obs: Observation) -> int | None:
    """A trump suit (0..3) with which the bot's hand makes a Valat on its own
    in the suit game in play, if any (the first suit whose verdict allows it)."""
    rules = obs.rules
    if rules is None or obs.contract is None or len(obs.hand) != rules.hand_size:
        return None
    tricks, place = obs.contract.spec.tricks, first_trick_place(obs)
    for suit in range(len(SUIT_LETTERS)):
        verdict = valat_verdict(obs.hand, tricks, suit, place, rules.deck)
        if verdict is not None and verdict.allowed:
            return suit
    return None


def valat_filter(obs: Observation) -> tuple[Action, ...]:
    """``obs.legal`` without the Valat announcements the hand does not clear
    (one check per game named); ``obs.legal`` itself if nothing were left."""
    legal = obs.legal
    if not any(says_valat(a) for a in legal):
        return legal
    cleared: dict[str, bool] = {}

    def keep(action: Action) -> bool:
        if not says_valat(action):
            return True
        key = action.contract if isinstance(action, Bid) else ""
        if key not in cleared:
            cleared[key] = valat_passes(obs, action)
        return cleared[key]
    return tuple(a for a in legal if keep(a)) or legal


def within_limits(obs: Observation) -> tuple[Action, ...]:
    """``obs.legal`` without what bots never do: Valats below the bar and
    Kontras onto level 3 or 4 (``obs.legal`` itself if nothing were left)."""
    legal = valat_filter(obs)
    return tuple(a for a in legal if not raises_too_far(obs, a)) or legal
