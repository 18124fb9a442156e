"""Strength levels by search: ``medium`` and ``hard``.

Both decide the card play of the last tricks by search in worlds sampled
from the bot's own information (:mod:`client.bots.worlds`), played by the
table's engine rules (:mod:`client.bots.rulebook`):
:func:`client.bots.cardsearch.search_card` solves every world exactly from
the candidate card to the end (:mod:`client.bots.solver`) and plays the
card with the best mean, unless it is not clearly better than the rule of
thumb's.  Before the last tricks the rule of thumb plays: perfect-information
playouts from the first trick (``Budget.rollouts``) were measured in
duplicate matches (100 boards each) and did not beat it on ``tarock54``
(-0.21 points per board, 95% interval [-0.61, +0.08]), ``tarock40``
(-0.31, [-0.91, +0.28]) or ``tarock40-online`` (-0.17, [-0.71, +0.35]),
though they did on ``koenigrufen-club`` (+9.15 ct, [+2.05, +16.15]).

What ``hard`` might do beyond ``medium``'s card play was measured against
``medium`` on the 54-card games (``tarock arena --bots X,medium --seed S``;
mean per board in points, 95% interval, X's p95 per decision on a machine
shared with other work, so slower than alone); none excluded zero, so
``hard`` still only solves one trick more in twice the worlds:

- the last five tricks solved (160k nodes a decision): ``tarock54``, 40
  boards, seed 2026: -0.025 [-0.20, +0.125], 318 ms; the last six (200k):
  -0.025 [-0.225, +0.15], 1.7 s, slowest 10.4 s (too slow);
- playouts from the first trick (``Budget.rollouts``, the playout player to
  the end, the last four tricks solved), seed 11, 40 boards: ``tarock54``
  +0.025 [-0.175, +0.25], ``tarock54-club`` +0.075 [-0.075, +0.25],
  ``tarock40`` +0.225 [-0.625, +1.125] (311 ms); 150 boards, seed 2026:
  ``tarock54`` +0.127 [0.000, +0.327] (172 ms), ``tarock54-club`` -0.093
  [-0.393, +0.187] (154 ms);
- the same playouts handed over to the solver at three tricks left
  (``Budget.rollout_solve``): ``tarock54-club`` seed 11, 40 boards, +0.15
  [-0.05, +0.375] (463 ms); 150 boards, seed 2026: ``tarock54-club`` -0.013
  [-0.32, +0.273] (411 ms), ``tarock54`` +0.013 [-0.227, +0.26] (334 ms);
- the rule of thumb playing every seat from its own observation in the
  playouts (``Level.policy_rollouts``): 8 worlds, ``tarock54``, 20 boards,
  seed 2026: -0.05 [-0.15, 0.00] (207 ms); 16 worlds, 40 boards, seed 11:
  -0.10 [-0.25, +0.025] (592 ms, slowest 3.1 s).

In ``tarock54`` a game is worth one point (a Valat thirteen), and in the
40-board screens the two levels scored differently on 5 or 6 boards of 40:
such means are a handful of hands won or lost, not a measured edge.

Every other decision (bids and contract choice, calls, talon half and
discard, announcements, Kontra, trump) can be searched the same way
(:func:`client.bots.plans.search_action`, a :class:`PlanBudget`), but no
level searches them all: measured in duplicate matches on ``tarock40`` (60
boards each) every budget tried lost to the rule of thumb's own bidding
(between -0.4 and -2.0 points per board), so ``medium`` leaves those
decisions to it (``Level.plans`` is None) and ``hard`` searches the calls
only (below).

Nor did searching one kind of decision alone (``PlanBudget.kinds``, the
others left to the rule of thumb; 16 worlds, the policy playing the cards,
confidence 1.0; seed 2026).  Against ``hard`` as it is, so that only the
searched decisions differ, 60 boards: ``tarock54`` Kontra -0.067 [-0.20,
+0.033] (3 boards differ), the call +0.233 [-0.117, +0.75] (16 differ, one
a Valat worth +13), the discard 0.00 (none differ); ``tarock40`` Kontra
+0.067 [-0.83, +1.03] (9 differ), bids -0.117 [-0.65, +0.30] (5 differ);
``koenigrufen-course`` talon half +0.217 ct [0.00, +0.65] (one board),
Kontra +0.267 [-0.18, +0.78] (7 differ).  Against ``medium``, hard with the
search of: the call on ``tarock54``, 150 boards, +0.033 [-0.233, +0.293]
(41 boards differ: it calls hands of strength 9 to 16 and passes some of
30; more noise, no edge), Kontra on ``tarock54``, 150 boards, -0.033
[-0.10, +0.027], Kontra on ``koenigrufen-course``, 300 boards, +0.217 ct
[-0.16, +0.59] (p95 355 ms), no better than ``hard`` without it (below).
The call searched with the sense of risk ``hard`` now has (confidence 2.0)
did better (``tarock arena --variant V --bots hard,medium --boards N --seed
2026``): ``tarock54`` 150 boards +0.047 [-0.02, +0.12] (23 boards differ,
16 of them won), 300 boards +0.10 [+0.017, +0.213] (one of the 44 boards
that differ is a Valat worth +12; without it about +0.06), hard's p95
185 ms, slowest 2.4 s; ``tarock54-club`` 150 boards +0.04 [-0.04, +0.12]
(without the search +0.02 [-0.027, +0.073]), p95 190 ms;
``koenigrufen-course`` 150 boards +0.327 ct [-0.133, +0.82] (without it
+0.32 [-0.13, +0.81]: the King's call rarely changes), p95 347 ms.  On
``tarock40`` nobody calls, so nothing changed there.  With it, 300 boards
each (three arenas at once on two cores, so the times are high):
``tarock54-club`` +0.12 [+0.027, +0.24] (p95 239 ms, slowest 2.3 s),
``koenigrufen-club`` +2.85 ct [+0.87, +4.92] and
``koenigrufen-mondfang-club`` +2.83 ct [+0.80, +4.93] (p95 586 and 594 ms,
slowest 4.8 and 5.4 s); 600 boards: ``koenigrufen-course`` +0.417 ct [+0.197,
+0.647] (p95 357 ms, slowest 4.4 s, five runs at once on two cores).

On ``tarock40`` hard and medium play alike on most boards (boards 600-824 of
seed 2026: 26 of 225 differ, +0.049).  Against ``hard`` as it is, 200 boards,
seed 2026: 32 worlds in the card search (160k nodes a decision) +0.06 [-0.01,
+0.145]; confidence 0.5 instead of 1.0 -0.015 [-0.11, +0.055]; the last five
tricks solved (80k nodes) +0.085 [-0.21, +0.38] (p95 1.3 s, too slow); bids
searched at confidence 2.0, 100 boards, -0.01 [-0.32, +0.22]; announcements and
the trump searched, 60 boards: no board differs.  ``hard`` with 32 worlds
against ``medium``, 600 boards: +0.17 [+0.037, +0.305] (78 boards differ).
The same 32 worlds against ``medium`` elsewhere (seed 2026, two processes on
two cores, nothing else running): ``tarock54`` 300 boards +0.09 [+0.007,
+0.203] (p95 285 ms), ``tarock54-club`` 300 boards +0.113 [+0.02, +0.237]
(p95 296 ms), ``tarock40-online`` 600 boards +0.198 [+0.048, +0.363] (p95
992 ms, slowest 6.0 s), but on ``koenigrufen-club`` the p95 was 1.06 and
1.16 s in the first 25 boards of two runs (slowest 6.8 s): over the 1 s
``hard`` must keep.  On the same boards and day 16 worlds had p95 593 and
663 ms, and 32 worlds at 120k nodes 1.19 and 1.17 s: the slow decisions did
not reach the node bound.  Profiled, the solver spent its time in the
engine's legal-play hook and in scoring the leaves; making those cheaper
without changing any answer (a seat's last card played without asking the
rules, a cheaper copy of the finished state and cheaper hook calls and
counting: the same decisions and means, recorded on the first boards of all
seven variants) brought the first four ``koenigrufen-club`` boards from
19.0 to 11.4 s with 16 worlds, and 32 worlds to p95 0.86 s there.  So
``hard`` now samples 32 worlds.  Its figures against ``medium`` (``tarock
arena --variant V --bots hard,medium --boards N --seed 2026``, two processes
on two cores): the four above, which its decisions reproduce, and
``koenigrufen-club`` 300 boards +2.68 ct [+0.57, +4.93] (p95 771 ms, slowest
6.0 s), ``koenigrufen-mondfang-club`` 300 boards +2.65 ct [+0.42, +4.98] (p95
759 ms), ``koenigrufen-course`` 600 boards +0.457 ct [+0.202, +0.723] (p95
630 ms), ``medium``'s p95 58-69 ms, on a slow day (a bare Python loop of 10M
additions took 1.69 s) with the sped-up code.  The same day, the first boards
of the 40-card games: ``tarock40`` 50 boards p95 850 ms, ``tarock40-online``
130 boards p95 1.005 s (slowest 4.7 s), at the bound: the leaves' scoring by
the engine is most of what is left to make cheaper.

More boards, ``hard`` before it searched the calls (``tarock arena --variant V --bots A,B
--boards 300 --seed 2026 --json``): ``medium`` - ``heuristic`` on
``koenigrufen-club`` +2.47 ct [+0.77, +4.23] (150 boards: +1.70 [-0.53,
+4.13]), on ``koenigrufen-mondfang-club`` +2.52 ct [+0.77, +4.35] (150:
+1.67 [-0.60, +4.10]), medium's p95 46 and 50 ms; ``hard`` - ``medium`` on
``koenigrufen-course`` +0.25 ct [-0.06, +0.57] (150: +0.32 [-0.13, +0.81]),
hard's p95 198 ms, slowest 2.3 s; on ``tarock54-club`` +0.093 points
[+0.013, +0.207] (150: +0.02 [-0.027, +0.073]; so boards 150-299 alone
averaged about +0.17), hard's p95 91 ms, slowest 1.4 s.  On ``tarock40`` +0.127 points
[-0.053, +0.303] (150: +0.09 [-0.13, +0.31]), hard's p95 215 ms, slowest
3.7 s; on ``tarock40-online`` +0.16 [-0.023, +0.343] (150: +0.04 [-0.17,
+0.27]), hard's p95 320 ms, slowest 3.5 s.  In 600
boards: ``tarock40-online`` +0.168 [+0.017, +0.332] (p95 287 ms), ``tarock40``
+0.085 [-0.053, +0.238] (p95 196 ms).

The levels differ in how much they search (:class:`Level`): ``medium``
samples 8 worlds and solves the last three tricks; ``hard`` samples 32 and
solves the last four, and searches the decisions that offer a call (a
Rufspiel's call of a tarock, the King called in Königrufen) in 16 worlds,
leaving the rule of thumb's choice unless another is better by two
standard errors (``PlanBudget.confidence``): a call is risked, or passed,
only where the simulations clearly say so.
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

from client.bots.cardsearch import Budget, search_card
from client.bots.heuristic import HeuristicBot
from client.bots.limits import within_limits
from client.bots.plans import PlanBudget, RolloutPolicy, search_action
from client.bots.rulebook import TableEngine, engine_for
from client.bots.valat_worlds import keep_valats
from core.actions import Action, Play
from core.observation import Observation
from core.valat import ValatVerdict


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


MEDIUM = Level("medium", Budget(worlds=8, solve_at=3, decision_nodes=20_000), None)
HARD = Level("hard", Budget(worlds=32, solve_at=4, decision_nodes=160_000),
             PlanBudget(worlds=16, confidence=2.0, kinds=frozenset({"call"})))
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
        if not self.level.plans.searches(legal):
            return Decision(default, "rule of thumb (this level does not search this kind of decision)", {})
        plan = search_action(obs, table, rng, self.level.plans, default, self._policy, self._model)
        if plan is None:
            return Decision(default, "rule of thumb (no deal agrees with what was seen)", {})
        kept = " (kept: nothing clearly better than the rule of thumb's choice)" if plan.kept_default else ""
        return Decision(plan.action, f"{plan.worlds} sampled deals played on: "
                        f"{_compare(plan.values, plan.action, unit)}{kept}", plan.values, plan.worlds,
                        plan.kept_default)
