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
from tarock.client.text.rule_words import Terms
from tarock.client.ui.cards import card_text
from tarock.core.actions import Action, Announce, Bid, Call, Discard, Kontra, Pass, Play, Trump
from tarock.core.cards import SUIT_OF, TAROCK, Card
from tarock.core.observation import Observation
from tarock.core.tricks import winner
from tarock.core.valat import ValatVerdict


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and why, as a catalogue message with its fields."""

    action: Action
    reason: str
    fields: Mapping[str, str] = field(default_factory=dict)

    def text(self, names: Sequence[str], obs: Observation | None = None) -> str:
        """``Hint: ♥K — takes the trick``."""
        what = action_words(self.action, names, obs, style=SYMBOLS)
        why = p_("hint", self.reason).format(**self.fields) if self.reason else ""
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


ACTION_HINTS: tuple[tuple[type[Action], str], ...] = (
    (Bid, NP_("hint", "the hand is strong enough for this game")),
    (Call, NP_("hint", "its holder becomes your partner")),
    (Discard, NP_("hint", "keeps the tarocks and high cards, counts for you")),
    (Kontra, NP_("hint", "the hand is strong against this game")),
    (Trump, NP_("hint", "the longest and strongest suit of the hand")),
    (Announce, NP_("hint", "the hand can make it")),
)
"""Why a bot takes an action of each kind, where nothing more particular is known."""
TAG_HINTS = {"talon": NP_("hint", "the half that fits the hand best")}
"""The same for the actions a variant adds, by their record tag."""


def explain(obs: Observation, action: Action) -> tuple[str, dict[str, str]]:
    """Why ``action`` in a few words (a msgid of context ``hint`` and its fields)."""
    if isinstance(action, Play):
        return _explain_play(obs, action.card)
    if isinstance(action, Pass):
        if any(isinstance(a, Kontra) for a in obs.legal):
            return NP_("hint", "the hand is not strong enough for a Kontra"), {}
        if obs.phase == "announce":
            return NP_("hint", "nothing more the hand can promise"), {}
        return NP_("hint", "the hand is not strong enough to bid"), {}
    verdict = valat_verdict_for(obs, action)
    if verdict is not None:  # the Valat check's own figures, as the rules read them
        return VALAT_HINT, _valat_figures(verdict)
    by_kind = (text for kind, text in ACTION_HINTS if isinstance(action, kind))
    return next(by_kind, TAG_HINTS.get(action.type, "")), {}


def _explain_play(obs: Observation, card: Card) -> tuple[str, dict[str, str]]:
    contract = obs.contract
    trick = obs.trick
    if contract is None or trick is None or not trick.cards:
        if SUIT_OF[card] == TAROCK and contract is not None and contract.spec.tricks.trump == "tarock":
            return NP_("hint", "a high trump draws the others' trumps"), {}
        return NP_("hint", "a lead the others must follow"), {}
    cards = (*trick.cards, card)
    wins = winner(cards, contract.spec.tricks, contract.suit) == len(cards) - 1
    if wins:
        return NP_("hint", "takes the trick"), {}
    leader = trick.seats[winner(trick.cards, contract.spec.tricks, contract.suit)]
    friends = _friends(obs)
    values = obs.rules.facts.card_values if obs.rules is not None else ()
    if leader in friends and values and values[card] > 1:
        return NP_("hint", "your partner wins the trick: {card} adds points to it"), {"card": card_text(card)}
    return NP_("hint", "the trick cannot be won: the cheapest card"), {}


def _friends(obs: Observation) -> set[int]:
    if obs.declarer is None:
        return set()
    if obs.seat == obs.declarer:
        return {obs.partner} if obs.partner is not None else set()
    if obs.partner == obs.seat:
        return {obs.declarer}
    if obs.partner is not None:
        return {s for s in range(obs.seats) if s not in (obs.declarer, obs.partner, obs.seat)}
    return set()


HINT: HintFn = search_hint
"""The hint function the client uses (see the module docstring: the one line to change)."""
