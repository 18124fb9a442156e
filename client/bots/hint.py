"""A hint for the human seat: the move a bot would make, and why.

:func:`hint` asks a bot of the strength the player chose (``hard`` by
default) for its decision in the player's own observation, so the hint
knows exactly what the player knows and nothing more.  The reason is a
short sentence: how the search weighed the choice (the mean amount per hand
of the chosen action in the sampled deals and of the best other one), or
that a rule of thumb decided it.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.bots import make_bot
from client.bots.levels import LEVELS, SearchBot
from core.actions import Action
from core.observation import Observation

KINDS: tuple[str, ...] = ("random", "heuristic", *LEVELS)
"""The strengths a hint can be asked of."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The suggested action and a short reason."""

    action: Action
    reason: str
    strength: str

    @property
    def text(self) -> str:
        """One line for the screen: ``play XV: 24 sampled deals ...``."""
        return f"{self.action.describe()}: {self.reason}"


def hint(obs: Observation, strength: str = "hard", seed: int = 0) -> Hint:
    """The action a bot of ``strength`` would take in ``obs`` (one of
    ``obs.legal``) and why.  ``seed`` seeds the bot's sampling, so the same
    observation gets the same hint.  Raises ValueError for an unknown
    strength or an observation with no legal action."""
    if strength not in KINDS:
        raise ValueError(f"unknown strength {strength!r} (known: {', '.join(KINDS)})")
    if not obs.legal:
        raise ValueError(f"seat {obs.seat} has no legal action in phase {obs.phase!r}")
    bot = make_bot(strength, seed, f"hint {strength}")
    if isinstance(bot, SearchBot):
        decision = bot.explain(obs)
        return Hint(decision.action, decision.reason, strength)
    action = bot.decide(obs)
    if len(obs.legal) == 1:
        reason = "the only action allowed"
    elif strength == "random":
        reason = "a random choice among the legal actions"
    else:
        reason = "rule of thumb"
    return Hint(action, reason, strength)
