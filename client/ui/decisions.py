"""A decision as the player is asked it: only the legal choices, explained.

:func:`decision_of` reads an observation's legal actions (and nothing
else: no variant is named) and says how to ask for them:

- ``play``: the hand, legal cards lit, the others dimmed;
- ``discard``: the hand, cards toggled until as many as must go are chosen;
- ``dialog``: a list of options (pass, each game with its description and
  tariff, calls, talon halves, Kontras in the table's words, trump suits,
  joining a game, announcing) and, where a bid or an announcement may carry
  several additions, the additions as toggles.  :meth:`Decision.resolve`
  turns the option and the toggled additions into the one legal action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from tarock.client.i18n import _
from tarock.client.text.actions import action_meaning, kontra_label
from tarock.client.text.cards import suit_text
from tarock.client.text.figures import SYMBOLS, factor_text
from tarock.client.text.rule_words import (
    Terms,
    game_description,
    game_title,
    pass_meaning,
    pass_text,
    premium_description,
    premium_title,
    premium_values,
    tariff_text,
)
from tarock.client.ui.cards import card_text
from tarock.client.ui.rules_page import summary
from tarock.core.actions import Action, Announce, Bid, Call, Discard, Join, Kontra, Pass, Play, Trump
from tarock.core.auction import VORHAND
from tarock.core.cards import Card, sort_key
from tarock.core.observation import Observation

Kind = Literal["play", "discard", "dialog"]
OptionKind = Literal["pass", "bid", "announce", "kontra", "call", "trump", "talon", "give-up", "bei", "other"]


@dataclass(frozen=True, slots=True)
class Row:
    """What a row of a dialog shows: its label, a line of detail and what it is worth."""

    label: str
    detail: str = ""
    tariff: str = ""


@dataclass(frozen=True, slots=True)
class Option(Row):
    """One row of a dialog: what it says and the action (or group of actions) it stands for."""

    kind: OptionKind = field(kw_only=True)
    cards: tuple[Card, ...] = ()
    """Cards shown with the label (a talon half, a called card)."""
    actions: tuple[Action, ...] = ()
    """The legal actions of this row: one, or (bids and announcements with
    additions) one per combination of additions."""
    toggles: bool = False
    """Whether the additions ticked in the dialog go with this row."""

    def additions_possible(self) -> frozenset[str]:
        out: set[str] = set()
        for action in self.actions:
            out.update(_additions(action))
        return frozenset(out)

    def action_for(self, chosen: frozenset[str]) -> Action | None:
        """The legal action of this row with exactly ``chosen`` additions."""
        if not self.toggles:
            return self.actions[0] if self.actions else None
        for action in self.actions:
            if frozenset(_additions(action)) == chosen:
                return action
        return None

    def can_add(self, chosen: frozenset[str], name: str) -> bool:
        """Whether ``name`` may join ``chosen`` additions on this row (some legal action has both)."""
        want = chosen | {name}
        return any(want <= frozenset(_additions(a)) for a in self.actions)


@dataclass(frozen=True, slots=True)
class Addition(Row):
    """A premium that may be announced with a bid or an announcement (a toggle)."""

    name: str = field(kw_only=True)


@dataclass(frozen=True, slots=True)
class Decision:
    """How to ask ``obs.seat`` for one of ``obs.legal``."""

    kind: Kind
    title: str
    options: tuple[Option, ...] = ()
    additions: tuple[Addition, ...] = ()
    playable: frozenset[Card] = frozenset()
    discard_count: int = 0
    discards: tuple[frozenset[Card], ...] = field(default=())

    def resolve(self, index: int, chosen: frozenset[str] = frozenset()) -> Action | None:
        """The action of option ``index`` with the ``chosen`` additions (None: not legal)."""
        if not 0 <= index < len(self.options):
            return None
        return self.options[index].action_for(chosen)

    # -- discards -----------------------------------------------------------------
    def may_add(self, chosen: frozenset[Card], card: Card) -> bool:
        """Whether ``card`` may join the cards ``chosen`` to lay away (a legal discard has them all)."""
        want = chosen | {card}
        return any(want <= legal for legal in self.discards)

    def discard_action(self, seat: int, chosen: frozenset[Card]) -> Discard | None:
        if chosen in self.discards:
            return Discard(seat, tuple(sorted(chosen)))
        return None


def _additions(action: Action) -> tuple[str, ...]:
    if isinstance(action, Bid | Announce):
        return action.announce
    return ()


def _title(obs: Observation, kinds: set[str]) -> str:
    if obs.phase == "birds":
        return _("Which bird do you name?")
    if "bid" in kinds or "bei" in kinds:
        return _("Your bid")
    if "call" in kinds and obs.phase == "bidding":
        return _("Call or pass")
    if "call" in kinds:
        return _("Call a King for a partner")
    if "trump" in kinds:
        return _("Choose the trump suit")
    if "talon" in kinds or "give-up" in kinds:
        return _("Choose a talon half")
    if "announce" in kinds:
        return _("Announcements")
    if "kontra" in kinds:
        return _("Kontra?")
    return _("Your turn")


def decision_of(obs: Observation, names: Sequence[str]) -> Decision:
    """The decision ``obs.legal`` asks of ``obs.seat``."""
    legal = obs.legal
    if legal and all(isinstance(a, Play) for a in legal):
        return Decision(
            "play", _("Play a card"), playable=frozenset(a.card for a in legal if isinstance(a, Play))
        )
    if legal and all(isinstance(a, Discard) for a in legal):
        sets = tuple(frozenset(a.cards) for a in legal if isinstance(a, Discard))
        return Decision("discard", _("Lay cards away"), discard_count=len(next(iter(sets))), discards=sets)
    kinds = {a.type for a in legal}
    options = _options(obs, names)
    additions = _additions_of(obs, options)
    return Decision("dialog", _title(obs, kinds), tuple(options), tuple(additions))


def _options(obs: Observation, names: Sequence[str]) -> list[Option]:
    rules = obs.rules
    out: list[Option] = []
    bids: dict[str, list[Action]] = {}
    announces: dict[bool, list[Action]] = {}
    for action in obs.legal:
        if isinstance(action, Bid):
            bids.setdefault(action.contract, []).append(action)
        elif isinstance(action, Announce):
            announces.setdefault(action.against, []).append(action)
    passes = [a for a in obs.legal if isinstance(a, Pass)]
    if passes:
        meaning = pass_meaning(obs.phase, any(isinstance(a, Kontra) for a in obs.legal))
        out.append(Option(pass_text(obs.phase), meaning, kind="pass", actions=(passes[0],)))
    if VORHAND in bids:
        out.append(
            Option(
                _("Vorhand!"),
                action_meaning("vorhand"),
                kind="bid",
                actions=tuple(bids.pop(VORHAND)),
            )
        )
    specs = {s.name: s for s in rules.contracts} if rules is not None else {}
    order = [s.name for s in rules.contracts] if rules is not None else []
    for name in sorted(bids, key=lambda n: order.index(n) if n in order else len(order)):
        spec = specs.get(name)
        group = tuple(bids[name])
        detail = (
            (game_description(spec) or summary(spec, rules)) if spec is not None and rules is not None else ""
        )
        out.append(
            Option(
                game_title(spec or name, rules),
                detail,
                tariff_text(spec, rules, SYMBOLS) if spec else "",
                kind="bid",
                actions=group,
                toggles=any(_additions(a) for a in group),
            )
        )
    for action in obs.legal:
        if isinstance(action, Join):
            spec = specs.get(action.contract)
            out.append(
                Option(
                    _("{game} too (bei)").format(game=game_title(spec or action.contract, rules)),
                    action_meaning("bei"),
                    tariff_text(spec, rules, SYMBOLS) if spec else "",
                    kind="bei",
                    actions=(action,),
                )
            )
    out.extend(_announce_options(obs, announces))
    for action in obs.legal:
        if isinstance(action, Kontra):
            level = obs.chain_level(action.target) + 1
            label = kontra_label(action.target, names, Terms.of_rules(rules), level, rules, SYMBOLS)
            chain = action.target.declarer is None and action.target.answer is None
            factor = factor_text(2**level if chain else 2, SYMBOLS)
            detail = _kontra_detail(obs, action, names)
            out.append(Option(label, detail, factor, kind="kontra", actions=(action,)))
    calls = sorted((a for a in obs.legal if isinstance(a, Call)), key=lambda a: sort_key(a.card))
    for action in calls:
        out.append(
            Option(
                _("Call {card}").format(card=card_text(action.card)),
                action_meaning("call"),
                kind="call",
                cards=(action.card,),
                actions=(action,),
            )
        )
    for action in obs.legal:
        if isinstance(action, Trump):
            out.append(
                Option(
                    suit_text(action.suit, SYMBOLS),
                    _("this suit trumps; the tarocks are a plain suit"),
                    kind="trump",
                    actions=(action,),
                )
            )
    for action in obs.legal:
        if action.type == "talon":
            pile = int(getattr(action, "pile", 0))
            shown = obs.talon_shown[pile] if pile < len(obs.talon_shown) else ()
            out.append(
                Option(_("Talon half {n}").format(n=pile + 1), kind="talon", cards=tuple(shown),
                       actions=(action,))
            )
    for action in obs.legal:
        if action.type == "give-up":
            out.append(
                Option(_("Give up"), action_meaning("give-up"), kind="give-up", actions=(action,))
            )
    known = (Pass, Bid, Announce, Kontra, Call, Trump, Join, Play, Discard)
    for action in obs.legal:
        if not isinstance(action, known) and action.type not in ("talon", "give-up"):
            out.append(Option(action.describe(), kind="other", actions=(action,)))
    out.sort(key=lambda o: _RANK[o.kind])
    return out


_RANK = {
    "pass": 0,
    "bid": 1,
    "bei": 2,
    "announce": 3,
    "kontra": 4,
    "call": 5,
    "trump": 6,
    "talon": 7,
    "give-up": 8,
    "other": 9,
}


def _announce_options(obs: Observation, announces: dict[bool, list[Action]]) -> list[Option]:
    rules = obs.rules
    out: list[Option] = []
    singles = all(
        len(a.announce) == 1 for group in announces.values() for a in group if isinstance(a, Announce)
    )
    for against in sorted(announces):
        group = announces[against]
        if singles:
            for action in group:
                assert isinstance(action, Announce)
                name = action.announce[0]
                label = premium_title(name, rules)
                if obs.phase == "birds":
                    label = _("Name {bird}").format(bird=label)
                elif against:
                    label = _("{premium} (against the game)").format(premium=label)
                out.append(
                    Option(
                        label,
                        premium_description(name, rules),
                        premium_values(name, rules, SYMBOLS),
                        kind="announce",
                        actions=(action,),
                    )
                )
        else:
            label = _("Announce (against the game)") if against else _("Announce")
            out.append(
                Option(label, _("the additions ticked below"), kind="announce", actions=tuple(group),
                       toggles=True)
            )
    return out


def _additions_of(obs: Observation, options: Sequence[Option]) -> list[Addition]:
    names: list[str] = []
    for option in options:
        if option.toggles:
            for action in option.actions:
                for name in _additions(action):
                    if name not in names:
                        names.append(name)
    order = [p.name for p in obs.rules.premiums] if obs.rules is not None else []
    names.sort(key=lambda n: order.index(n) if n in order else len(order))
    return [
        Addition(
            premium_title(n, obs.rules),
            premium_description(n, obs.rules),
            premium_values(n, obs.rules, SYMBOLS),
            name=n,
        )
        for n in names
    ]



def _kontra_detail(obs: Observation, action: Kontra, names: Sequence[str]) -> str:
    target = action.target
    if target.declarer is not None:
        return _("doubles that game between its declarer and you")
    if target.answer is not None:
        return _("doubles it again between that player and you")
    if target.name:
        return _("doubles the announced {premium}").format(premium=premium_title(target.name, obs.rules))
    if obs.rules is not None and obs.rules.facts.kontra_scope == "game":
        return _("doubles the game and every premium")
    return _("doubles the game")
