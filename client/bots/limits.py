"""What every bot keeps to, whatever else it does.

- No Subkontra, no Re-Sub, in any Kontra chain: the game's chain
  (``Kontra(target="")``, level ``Observation.kontra_level``) and the chain
  of each announcement (level ``Announcement.kontra``).  Seed 000: "Bots
  wagen kein Subkontra und kein Re-Sub."
- A Valat is announced only with a nearly unbeatable hand (seed 000: "Bots
  sagen nur einen Valat an, und nur mit einer nahezu unschlagbaren Hand";
  RULES.md decision 8).  The bar is :mod:`variants.valat_check`: the bot's
  own hand must make all ten tricks on its own.  The rules ask that check
  only of a Solo or Faberl declarer; bots ask it of every Valat they
  announce, the Rufspiel's too (the partner's help is not counted on) and
  an opponent's "Gegen das Spiel" (his hand alone must make all tricks
  against the declarer's trumps: against a Faberl whose suit is not named
  yet, for every suit).  Where no check exists (a deck other than the 40
  cards) bots never announce a Valat.

The check uses the default card order (option ``faberl_xx_high`` is not in
an observation), the seat's place in the first trick (the forehand leads)
and a hand of ten cards; its answers are cached per hand.
"""

from __future__ import annotations

from core.actions import Action, Announce, Bid, Kontra
from core.cards import SUIT_LETTERS, TAROCK
from core.observation import Observation
from variants.tarock40 import GAMES, VALAT_ANN
from variants.valat_check import faberl_valat_on_own, valat_on_own

NO_RAISE_FROM = 2
"""Kontra level from which bots never raise a chain (no Subkontra, no Re-Sub)."""


def chain_level(obs: Observation, target: str) -> int:
    """The Kontra level of the chain ``target`` names: the game's for ``""``,
    else the announcement's own (the highest, if several share the name)."""
    if not target:
        return obs.kontra_level
    levels = [a.kontra for a in obs.announcements if a.name == target]
    return max(levels) if levels else obs.kontra_level


def raises_too_far(obs: Observation, action: Action) -> bool:
    """Whether ``action`` would be a Subkontra or Re-Sub on its chain."""
    return isinstance(action, Kontra) and chain_level(obs, action.target) >= NO_RAISE_FROM


def says_valat(action: Action) -> bool:
    """Whether ``action`` announces a Valat (with a bid or on its own)."""
    return isinstance(action, (Bid, Announce)) and VALAT_ANN in action.announce


def first_trick_place(obs: Observation) -> int:
    """The seat's place in the first trick: 0 for the forehand, who leads."""
    return (obs.seat - obs.forehand) % obs.seats


def _forty(obs: Observation) -> bool:
    return sum(obs.hand_sizes) + sum(len(t.cards) for t in obs.tricks) == 40 and len(obs.hand) == 10


def valat_passes(obs: Observation, action: Action) -> bool:
    """Whether the bot's hand clears the Valat bar for ``action``'s game (see
    the module docstring).  Actions that announce no Valat pass trivially."""
    if not says_valat(action):
        return True
    if isinstance(action, Bid):
        name, suit, mine = action.contract, None, True
    else:
        if obs.contract is None:
            return False
        name, suit = obs.contract.name, obs.contract.trump
        mine = obs.declarer == obs.seat
    game = GAMES.get(name)
    if game is None or not _forty(obs):
        return False
    place = first_trick_place(obs)
    if not game.faberl:
        return valat_on_own(obs.hand, TAROCK, place)
    if suit is not None:
        return suit in SUIT_LETTERS and valat_on_own(obs.hand, SUIT_LETTERS.index(suit), place)
    if mine:  # the declarer names the suit afterwards (see valat_suit)
        return faberl_valat_on_own(obs.hand, place)
    return all(valat_on_own(obs.hand, s, place) for s in range(4))


def valat_suit(obs: Observation) -> int | None:
    """A trump suit (0..3) with which the bot's hand makes a Valat on its own, if any."""
    if not _forty(obs):
        return None
    place = first_trick_place(obs)
    return next((s for s in range(4) if valat_on_own(obs.hand, s, place)), None)


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
