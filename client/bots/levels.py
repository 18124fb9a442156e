"""Strength levels by search: ``medium`` and ``hard``.

Both decide the card play of the last tricks by search in worlds sampled
from the bot's own information (:mod:`client.bots.worlds`), played by the
table's engine rules (:mod:`client.bots.rulebook`):
:func:`client.bots.cardsearch.search_card` solves every world exactly from
the candidate card to the end (:mod:`client.bots.solver`) and plays the
card with the best mean, unless it is not clearly better than the rule of
thumb's.  Cards the rule of thumb's card beats by two standard errors are
dropped as the worlds come in, and the search ends once only it is left.

The levels differ in how much they search (:class:`Level`): ``medium``
samples 8 worlds and solves the last three tricks (before them the rule of
thumb plays); ``hard`` samples 32 and solves the last four, and searches
from the first trick: each world played out to four tricks left by the
playout player and solved from there (40,000 solver nodes per decision
before the last four tricks, 160,000 in them).  Both judge the auction (bids, holds, calls, "bei")
by the expected settlement in sampled worlds (:mod:`client.bots.judgement`;
``medium`` in 8 worlds with the playout player's cards, ``hard`` in 16
with the rule of thumb's), among the choices the contract's data do not
rule out badly, leaving the rule of thumb's choice unless another is
better by two standard errors (``PlanBudget.confidence``; ``medium`` then
checks a bid of a contract the hand makes less than half the time by its
data in 24 fresh worlds, ``PlanBudget.confirm``, and leaves the rule of
thumb's bid of a game played alone to it: its open-card playouts underrate
a lone declarer, :func:`~client.bots.judgement.underrated`).  Both judge
announcements and Kontra levels the same way, from the worlds of the
announcement phase on (:mod:`client.bots.announce_judgement`; ``medium``
8 worlds, the playout player's cards, proposing only passing and the
material premiums; ``hard`` 16 worlds, the rule of thumb's cards, every
legal choice), a choice other than the rule of thumb's also needing a
quarter of the game's value more.  The talon half, the discard and the
trump are the rule of thumb's: searching them cost too much time (a
Königrufen simulation of the talon on takes tens of milliseconds) or made
no difference.  docs/bots.md has the figures of these levels in duplicate
matches and of every variant of them that was tried.

Work is counted in worlds and nodes, never in seconds, so a decision is a
function of the observation and the seed alone: the same situation gets the
same answer on every machine, in a replay and in both seatings of a
duplicate board.  Each decision draws its worlds from a generator seeded by
the bot's seed and a digest of the observation (:func:`decision_seed`).

Every level keeps the limits all bots keep (:mod:`client.bots.limits`:
no Subkontra or Re-Sub, a Valat only past the Valat check), and once others
have bid it keeps a Valat only if it also passes the check in worlds that
explain their bids (:mod:`client.bots.valat_worlds`).  A table whose
engine rules cannot be found (:func:`client.bots.rulebook.engine_for`), and
a decision for which no world can be drawn, are decided by the heuristic.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace

from tarock.client.bots import announce_judgement
from tarock.client.bots.announce_judgement import AnnounceBudget
from tarock.client.bots.cardsearch import Budget, search_card
from tarock.client.bots.heuristic import HeuristicBot
from tarock.client.bots.judgement import BIDDING, candidates, doubtful, underrated
from tarock.client.bots.limits import says_valat, within_limits
from tarock.client.bots.plans import PlanBudget, PlanChoice, RolloutPolicy, search_action
from tarock.client.bots.rulebook import TableEngine, engine_for
from tarock.client.bots.valat_worlds import keep_valats
from tarock.core.actions import Action, Play
from tarock.core.observation import Observation
from tarock.core.valat import ValatVerdict


@dataclass(frozen=True, slots=True)
class Level:
    """The work one level spends per decision."""

    name: str
    cards: Budget
    """Card play."""
    plans: PlanBudget | None
    """Every other decision (None: the rule of thumb decides them)."""
    policy_rollouts: bool = False
    """Whether card positions too early for the solver are played out by the
    rule of thumb from each seat's own observation (slow) rather than by the
    perfect-information playout player."""
    announce: AnnounceBudget | None = None
    """Announcements and Kontra levels (:mod:`client.bots.announce_judgement`;
    None: the rule of thumb decides them)."""


MEDIUM = Level("medium", Budget(worlds=8, solve_at=3, decision_nodes=20_000, prune_every=4),
               PlanBudget(worlds=8, screen=2, finalists=3, confidence=2.0, kinds=BIDDING,
                          cards_by_policy=False, confirm=24),
               announce=AnnounceBudget(PlanBudget(worlds=8, screen=2, finalists=3, confidence=2.0,
                                                  cards_by_policy=False)))
HARD = Level("hard", Budget(worlds=32, solve_at=4, decision_nodes=160_000, rollouts=True, rollout_solve=4,
                            early_nodes=40_000, prune_every=8),
             PlanBudget(worlds=16, confidence=2.0, kinds=BIDDING),
             announce=AnnounceBudget(PlanBudget(worlds=16, screen=4, finalists=3, confidence=2.0)))
LEVELS: dict[str, Level] = {level.name: level for level in (MEDIUM, HARD)}


def decision_seed(seed: int, obs: Observation) -> int:
    """A seed for one decision: the bot's seed and the observation's own content
    (seat, hand, what it has seen), never anything hidden."""
    parts = [str(seed), str(obs.seat), str(obs.dealer), obs.phase, repr(obs.hand), repr(obs.history),
             repr(obs.talon_seen), repr(obs.talon_shown), repr(obs.context)]
    digest = hashlib.blake2b("|".join(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True, slots=True)
class Decision:
    """A search bot's choice and, in a few words, why."""

    action: Action
    reason: str
    values: dict[Action, float]
    """The mean result of each candidate tried (empty where nothing was searched)."""
    worlds: int = 0
    """Sampled deals the candidates were compared in (0: nothing was searched)."""
    kept: bool = False
    """Another candidate's mean was higher, but not clearly: the rule of thumb's choice stayed."""
    valat: ValatVerdict | None = None
    """The Valat check's verdict read for ``action`` where it announces a Valat
    (:mod:`client.bots.valat_worlds`)."""


def _unit(obs: Observation) -> str:
    money = obs.rules.facts.money if obs.rules is not None else ""
    return money or "points"


def _compare(values: dict[Action, float], chosen: Action, unit: str) -> str:
    others = sorted(((v, a) for a, v in values.items() if a != chosen), key=lambda t: -t[0])
    mine = values.get(chosen)
    if mine is None:
        return ""
    text = f"{chosen.describe()} averages {mine:+.2f} {unit}"
    if others:
        text += f", the best other ({others[0][1].describe()}) {others[0][0]:+.2f}"
    return text


class SearchBot:
    """A bot of one :class:`Level` (see the module docstring)."""

    def __init__(self, level: Level, seed: int, name: str | None = None) -> None:
        self.level = level
        self.seed = seed
        self.name = name or f"{level.name.capitalize()} {seed}"
        self._fallback = HeuristicBot(seed, self.name)
        self._policy = RolloutPolicy(HeuristicBot(seed, "policy"))
        """Plays the other decisions of every seat in the simulations."""
        self._model = HeuristicBot(seed, "model")
        """Whom the worlds take the others for when weighing their bids."""

    def decide(self, obs: Observation) -> Action:
        """Choose one of ``obs.legal``."""
        return self.explain(obs).action

    def explain(self, obs: Observation) -> Decision:
        """Choose one of ``obs.legal`` and say why (the decision :meth:`decide` takes)."""
        if not obs.legal:
            raise ValueError(f"seat {obs.seat} has no legal action in phase {obs.phase!r}")
        legal = within_limits(obs)
        table = engine_for(obs.rules)
        valats: dict[Action, ValatVerdict] = {}
        if table is not None:  # a Valat also past the check in worlds that explain the others' bids
            legal, valats = keep_valats(obs, legal, table, self._model, decision_seed(self.seed, obs))
        decision = self._explain(obs, legal, table)
        verdict = valats.get(decision.action)
        return replace(decision, valat=verdict) if verdict is not None else decision

    def _explain(self, obs: Observation, legal: tuple[Action, ...], table: TableEngine | None) -> Decision:
        if len(legal) == 1:
            only = "the only action allowed" if len(obs.legal) == 1 else \
                "the only action within the bots' limits"
            return Decision(legal[0], only, {})
        whole = obs  # the worlds agree with every action the table offers
        if legal != obs.legal:
            obs = replace(obs, legal=legal)
        default = self._fallback.decide(obs)
        if table is None:
            return Decision(default, "rule of thumb (the search does not know this table's rules)", {})
        rng = random.Random(decision_seed(self.seed, obs))
        unit = _unit(obs)
        if all(isinstance(a, Play) for a in legal):
            card = default.card if isinstance(default, Play) else None
            choice = search_card(obs, table, rng, self.level.cards, card, self._model,
                                 self._policy if self.level.policy_rollouts else None)
            if choice is None:
                return Decision(default, "rule of thumb (too early in the hand to solve it)", {})
            action = Play(obs.seat, choice.card)
            if not choice.worlds:
                return Decision(action, "the cards it may play are all worth the same", {})
            values: dict[Action, float] = {Play(obs.seat, c): v for c, v in choice.values.items()}
            how = "solved to the end" if choice.solved else "played out"
            kept = " (kept: no card clearly better than the rule of thumb's)" if choice.kept_default else ""
            return Decision(action, f"{choice.worlds} sampled deals {how}: "
                            f"{_compare(values, action, unit)}{kept}", values, choice.worlds,
                            choice.kept_default)
        if self.level.plans is None:
            return Decision(default, "rule of thumb (this level searches the card play only)", {})
        if not self.level.plans.cards_by_policy and underrated(obs, default):
            return Decision(default, "rule of thumb (open-card playouts underrate a game played alone)", {})
        announce = self.level.announce
        if announce is not None and announce_judgement.judged(legal) and not says_valat(default):
            return _planned(announce_judgement.judge(whole, obs, table, rng, announce, default, self._policy,
                                                     self._model), default, unit)
        if not self.level.plans.searches(legal):
            return Decision(default, "rule of thumb (this level does not search this kind of decision)", {})
        if says_valat(default):  # the Valat check decided it (client.bots.limits), every level alike
            return Decision(default, "rule of thumb (a Valat past the Valat check)", {})
        plan = search_action(whole, table, rng, self.level.plans, default, self._policy, self._model,
                             candidates(obs, legal, default, not self.level.plans.cards_by_policy),
                             lambda action: doubtful(obs, action))
        return _planned(plan, default, unit)


def _planned(plan: PlanChoice | None, default: Action, unit: str) -> Decision:
    """The decision a search outside card play came to (None: no world was drawn)."""
    if plan is None:
        return Decision(default, "rule of thumb (no deal agrees with what was seen)", {})
    if not plan.worlds:
        return Decision(plan.action, "rule of thumb (nothing else worth trying)", {})
    kept = " (kept: nothing clearly better than the rule of thumb's choice)" if plan.kept_default else ""
    if plan.unconfirmed:
        kept = " (kept: the best was not better again in fresh deals)"
    return Decision(plan.action, f"{plan.worlds} sampled deals played on: "
                    f"{_compare(plan.values, plan.action, unit)}{kept}", plan.values, plan.worlds,
                    plan.kept_default)
