"""The hint key: what a bot of the table's strength would do here, and why.

:data:`HINT` is the one seam: a function of an observation and a bot
strength that answers a :class:`Hint`.  It is :func:`search_hint`: at a
table of search bots (``medium``, ``hard``) it asks a search bot of that
strength for its decision in the player's own observation and gives the
search's reason (how many sampled deals, the mean amount of the move and of
the best other one); for the other strengths, and where the search fell
back on its rule of thumb, it asks that bot (:func:`heuristic_hint`) and
explains the choice from the observation.  :func:`from_pair` wraps any
other hint function answering ``(action, reason)``.

A hint function is synchronous, like a bot: the screen runs it off its
event loop through :func:`core.players.off_loop`, the adapter that seats bots.

A reason is a catalogue message (an English msgid in context ``hint``,
with ``str.format`` fields), so it is shown in the player's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from tarock.client.bots import BOT_KINDS, SearchBot, make_bot
from tarock.client.bots.levels import LEVELS, Decision
from tarock.client.bots.limits import valat_verdict_for
from tarock.client.i18n import NP_, _, number, p_
from tarock.client.text.actions import action_words
from tarock.client.text.figures import SYMBOLS
from tarock.client.text.rule_words import Terms, pass_text
from tarock.client.ui.hint_reasons import explain as proven
from tarock.core.actions import Action, Pass
from tarock.core.observation import Observation
from tarock.core.valat import ValatVerdict


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and why, as a catalogue message with its fields."""

    action: Action
    reason: str
    fields: Mapping[str, str] = field(default_factory=dict)

    def text(self, names: Sequence[str], obs: Observation | None = None) -> str:
        """``Hint: ♥K — takes the trick``."""
        if isinstance(self.action, Pass) and obs is not None:
            what = pass_text(obs.phase)  # the word the dialog's line shows ("Gut!" among the announcements)
        else:
            what = action_words(self.action, names, obs, style=SYMBOLS)
        fields = dict(self.fields)
        if "seat" in fields and int(fields["seat"]) < len(names):
            fields["name"] = names[int(fields["seat"])]
        why = p_("hint", self.reason).format(**fields) if self.reason else ""
        return (
            _("Hint: {action} — {reason}").format(action=what, reason=why)
            if why
            else _("Hint: {action}").format(action=what)
        )


HintFn = Callable[[Observation, str], Hint]

VALAT_HINT = NP_("hint", "the Valat check made it in {made} of {deals} sampled deals "
                 "(95% interval {low}–{high} %)")
"""Why a Valat: the Valat check's verdict (:class:`core.valat.ValatVerdict`), its figures as fields."""


def heuristic_hint(obs: Observation, strength: str = "heuristic") -> Hint:
    """The choice of a bot of ``strength`` (the heuristic one if it is no bot
    kind), with a reason read off the observation."""
    kind = strength if strength in BOT_KINDS else "heuristic"
    action = make_bot(kind, 0, "hint").decide(obs)
    reason, fields = explain(obs, action)
    return Hint(action, reason, fields)


def search_hint(obs: Observation, strength: str = "heuristic") -> Hint:
    """The choice of a bot of ``strength``: a search bot's with the search's
    reason, any other bot's as :func:`heuristic_hint` gives it."""
    if strength not in LEVELS:
        return heuristic_hint(obs, strength)
    bot = make_bot(strength, 0, "hint")
    assert isinstance(bot, SearchBot)
    decision = bot.explain(obs)
    if decision.valat is not None:  # the verdict the search bot read (in worlds that fit the bids)
        return Hint(decision.action, VALAT_HINT, _valat_figures(decision.valat))
    searched = _searched(obs, decision)
    if searched is not None:
        return Hint(decision.action, *searched)
    reason, fields = explain(obs, decision.action)
    return Hint(decision.action, reason, fields)


def _mean_text(value: float, obs: Observation) -> str:
    """``+2.5 ct`` (``+2,5 ct`` in German): a mean amount per hand."""
    text = number(f"{value:+.1f}")
    unit = Terms.of_rules(obs.rules).unit
    return f"{text} {unit}" if unit else text


def _searched(obs: Observation, decision: Decision) -> tuple[str, dict[str, str]] | None:
    """The search's reason for ``decision`` (None where nothing was searched)."""
    mine = decision.values.get(decision.action)
    if not decision.worlds or mine is None:
        return None
    fields = {"deals": str(decision.worlds), "mine": _mean_text(mine, obs)}
    others = sorted((v for a, v in decision.values.items() if a != decision.action), reverse=True)
    if not others:
        return NP_("hint", "{deals} sampled deals: it averages {mine}"), fields
    fields["other"] = _mean_text(others[0], obs)
    if decision.kept:
        kept = NP_("hint", "{deals} sampled deals: nothing clearly better ({mine}, the best other {other})")
        return kept, fields
    return NP_("hint", "{deals} sampled deals: it averages {mine}, the best other choice {other}"), fields


def _valat_figures(verdict: ValatVerdict) -> dict[str, str]:
    """The Valat verdict's figures as a hint's fields, in the player's decimal mark."""
    return {name: number(value) for name, value in verdict.figures().items()}


def from_pair(fn: Callable[[Observation, str], tuple[Action, str]]) -> HintFn:
    """A hint function answering ``(action, reason)`` as a :data:`HintFn`."""

    def hint(obs: Observation, strength: str) -> Hint:
        action, reason = fn(obs, strength)
        return Hint(action, reason)

    return hint


def explain(obs: Observation, action: Action) -> tuple[str, dict[str, str]]:
    """Why ``action``: the Valat check's figures, or what the observation proves
    (:func:`client.ui.hint_reasons.explain`; no reason where it proves nothing)."""
    verdict = valat_verdict_for(obs, action)
    if verdict is not None:  # the Valat check's own figures, as the rules read them
        return VALAT_HINT, _valat_figures(verdict)
    return proven(obs, action)


HINT: HintFn = search_hint
"""The hint function the client uses (see the module docstring: the one line to change)."""
