"""The rules as data: contracts, their trick rules, goals and premiums.

A variant declares its contracts (``tarock_contracts``) and premiums
(``tarock_premium_specs``) as values; a house rule adds, removes or changes
one by wrapping those hooks.  The generic mechanisms of ``core`` (the
auction, the talon, trick play, counting and settlement) read them, and so
do the bots, the client and network peers: nobody needs a variant's name to
know what a game is worth or whether a tarock must be overtrumped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from tarock.core.cards import Card

TrumpMode: TypeAlias = Literal["tarock", "colour", "suit"]
"""``tarock``: the tarocks trump.  ``colour``: a colour game, the tarocks win
only a trick led in tarock and may be led only without suit cards.
``suit``: a suit the declarer names trumps and the tarocks are a plain
suit (Faberl)."""

Partnership: TypeAlias = Literal["called", "alone", "each"]
"""``called``: a called card makes its holder the declarer's secret partner.
``alone``: the declarer against all others.  ``each``: each for himself
(Trischaken, Fahrer)."""

TalonUse: TypeAlias = Literal["none", "pile", "half", "all", "trick", "last"]
"""``pile``: the declarer takes a fixed pile (``ContractSpec.talon_pile``);
``half``: he chooses one of the piles; ``all``: he takes every talon card;
``trick``: one talon card goes into each of the first tricks; ``last``: the
talon goes to the winner of the last trick; ``none``: nobody takes it (it
counts for the opponents)."""

GoalKind: TypeAlias = Literal["points", "tricks", "ranking"]
"""``points``: card points of the declarer party; ``tricks``: an exact number
of tricks for the declarer party (0: no trick, a Bettel; 1: a Piccolo; the
hand size: every trick); ``ranking``: each for himself, ranked by points."""

CallTime: TypeAlias = Literal["bid", "bid-auto", "end", "after"]
"""When a called card is named (:class:`CallRule`)."""


@dataclass(frozen=True, slots=True)
class TrickRules:
    """How cards are played and tricks won in a contract.

    Always: follow the led suit; without it play a trump (a tarock, or in a
    ``suit`` game a card of the named suit); without trumps, anything.
    """

    trump: TrumpMode = "tarock"
    overtrump: bool = False
    """Whoever plays a trump while a trump lies in the trick must beat it if
    able (docs/rules.md §4.3; following a plain suit carries no such duty)."""
    must_win: bool = False
    """Stichzwang: a card that wins the trick so far must be played if there is one."""
    pagat_last: bool = False
    """The Pagat may be played only as the last tarock."""
    trull_trick: bool = False
    """Kaiserstich / Märchenstich: in a trick where the tarocks trump, the Pagat
    wins when Pagat, Mond and Sküs all lie in it."""
    xx_high: bool = False
    """In a ``suit`` game, the literal reading of the Faberl: the XX is
    the tarocks' highest card, the Pagat their lowest (docs/rules.md §4.5)."""


@dataclass(frozen=True, slots=True)
class Holding:
    """A holding requirement: at least / at most so many of ``cards`` in the hand."""

    cards: frozenset[Card]
    at_least: int = 0
    """At least so many of ``cards`` must be in the hand."""
    at_most: int | None = None
    """At most so many of ``cards`` (None: no upper bound)."""
    description: str = ""
    """In words, for messages: "a bird (I, II, III or IIII) in your hand"."""
    code: str = "holding"
    """The reason code when the requirement is not met (``no-bird``)."""

    def met(self, hand: Any) -> bool:
        """Whether ``hand`` (a collection of cards) meets the requirement."""
        n = len(self.cards.intersection(hand))  # a hand holds each card once
        return n >= self.at_least and (self.at_most is None or n <= self.at_most)


@dataclass(frozen=True, slots=True)
class CallRule:
    """Which card a declarer calls for a partner, and when.

    ``cards`` are the callable cards in order of preference.  With
    ``highest`` the declarer must call the first of them he does not hold
    (docs/rules.md §12.1: "den höchsten Tarock vom XX abwärts, den er nicht hat");
    otherwise any he does not hold.  ``when``: ``bid`` (the call is the bid
    itself), ``bid-auto`` (the card follows from the hand and is set, for all
    to see, with the bid), ``end`` (set when the auction is decided) or
    ``after`` (the declarer calls after the auction, in a phase of its own).
    """

    cards: tuple[Card, ...]
    highest: bool = True
    when: CallTime = "after"


@dataclass(frozen=True, slots=True)
class Goal:
    """What the declarer party must achieve.

    ``points``: at least ``points`` card points (in the variant's unit), and
    exactly ``draw`` is a draw where set; ``tricks``: exactly ``tricks``
    tricks; ``ranking``: each for himself, settled by rank.
    """

    kind: GoalKind = "points"
    points: int = 0
    draw: int | None = None
    tricks: int = 0

    def won(self, points: int, tricks: int) -> bool | None:
        """Whether a party with ``points`` card points and ``tricks`` tricks made
        the goal: True, False, or None for a draw (``points`` goals only)."""
        if self.kind == "points":
            return True if points >= self.points else None if points == self.draw else False
        if self.kind == "tricks":
            return tricks == self.tricks
        raise ValueError("a ranking is settled seat by seat, not won by a party")


NO_GOAL: Final = Goal()
"""The goal of a contract that gives none (zero card points); refused by :func:`unplayable`."""


@dataclass(frozen=True, slots=True)
class ContractSpec:
    """One contract (game) of a variant, declaratively.

    ``rank`` orders the auction: a bid must rank higher than the highest
    bid so far (equal ranks do not outbid each other).  ``value`` is the
    game value per opponent in the variant's unit (points or cents),
    ``lost`` where losing costs a different amount.  ``requires`` are
    holding requirements to bid it; ``forehand_only`` games only the
    forehand may bid.  ``premiums`` names the premiums that count in it and
    ``premium_scale`` multiplies them (2: single games double them).
    ``kontra`` is the highest Kontra level (0: no Kontra; 2: up to Rekontra;
    4: up to Re-Sub).  ``announces`` are the announcements the bid itself
    makes (an Absolut game announces the Absolut).  ``extra`` holds a
    variant's own facts about the contract that the core does not read.
    """

    name: str
    """The contract's word in actions and records (``solo``); unique in a ruleset."""
    title: str
    """Its name for players (``Solo``)."""
    rank: int
    value: int
    lost: int | None = None
    description: str = ""
    """One sentence for players: what the game is."""
    forehand_only: bool = False
    requires: tuple[Holding, ...] = ()
    partnership: Partnership = "alone"
    call: CallRule | None = None
    joinable: bool = False
    """Others may join the game ("bei") and each plays it too (docs/rules.md §6.3)."""
    contest: bool = False
    """Several may bid it at the same time; a contest after the auction decides
    who plays (docs/rules.md §6.4: several Besserrufer name their birds)."""
    auction_value: int = 0
    """What the bid counts in an auction where joined games add up (docs/rules.md §16.2);
    0 where the rank alone orders the bids."""
    talon: TalonUse = "none"
    talon_pile: int = 0
    """The pile a ``pile`` contract takes (index into the talon piles)."""
    talon_open: bool = True
    """Whether the talon cards the declarer chooses from are turned up for all."""
    leader: Literal["forehand", "declarer"] = "forehand"
    """Who leads the first trick."""
    tricks: TrickRules = field(default_factory=TrickRules)
    goal: Goal = field(default=NO_GOAL)
    """What the declarer's side must make. Left out, it is :data:`NO_GOAL`, refused when the
    plugin loads (:func:`unplayable`): as zero card points every hand would make it."""
    kontra: int = 4
    premiums: frozenset[str] = frozenset()
    premium_scale: int = 1
    announces: tuple[str, ...] = ()
    ouvert: bool = False
    """The declarer's hand (in some rules every hand) is laid open after the first trick."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def single(self) -> bool:
        """Whether the declarer plays without a partner (solo, or each for himself)."""
        return self.partnership != "called"

    def lost_value(self) -> int:
        """What the declarer pays per opponent when the game is lost."""
        return self.value if self.lost is None else self.lost


@dataclass(frozen=True, slots=True)
class PremiumSpec:
    """One premium (Prämie): its values silent and announced.

    ``silent`` counts when it is made without being announced (0: only
    announced), ``announced`` when announced (0: it cannot be announced),
    ``silent_lost`` when a silent attempt fails where the rules charge that
    (None: the same as ``silent``).  ``material`` marks material premiums
    (Trull, Kings, Absolut: "Materialprämien", docs/rules.md §16.5).
    """

    name: str
    """The premium's word in announcements, items and records (``pagat``)."""
    title: str
    """Its name for players (``Pagat Ultimo``)."""
    silent: int
    announced: int = 0
    silent_lost: int | None = None
    material: bool = False
    description: str = ""
    """One sentence for players: what it takes."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What happened to a premium in a finished hand.

    ``declarers``: the party it was made by (or, with ``made`` False,
    attempted and failed by): True for the declarer party, False for the
    opponents.
    """

    declarers: bool
    made: bool = True


def contract_named(contracts: tuple[ContractSpec, ...], name: str) -> ContractSpec | None:
    """The contract called ``name``, or None."""
    for spec in contracts:
        if spec.name == name:
            return spec
    return None


@dataclass(frozen=True, slots=True)
class Playable:
    """The contract data a variant's phases and scoring can play (``VariantFacts.playable``).

    A contract asking for anything else is refused when the rules are built,
    naming the plugin, the contract and the field, so it is never played
    wrongly.  ``goals``: each goal kind with the partnerships it is played
    with; ``trumps``, ``talon`` and ``calls`` (``CallRule.when``): the values
    the variant's phases honour; ``joinable``: the goal kinds of games others
    may join; ``contest``: whether several may bid one game and contest it.
    The default is what core's auction, trick play and Kontra chain play
    without a talon.
    """

    goals: frozenset[tuple[GoalKind, Partnership]] = frozenset({("points", "alone"), ("points", "called")})
    trumps: frozenset[TrumpMode] = frozenset({"tarock", "colour"})
    talon: frozenset[TalonUse] = frozenset({"none"})
    calls: frozenset[CallTime] = frozenset({"bid", "bid-auto", "end"})
    joinable: frozenset[GoalKind] = frozenset()
    contest: bool = False
    extras: tuple[tuple[str, tuple[str | bool | int | None, ...] | None], ...] = ()
    """The keys of ``ContractSpec.extra`` the variant reads, each with the values it
    plays (None: any value; the variant reads it as documented there).  A contract
    with another key, or a value not listed, is refused: a misspelt or unknown datum
    is never ignored."""


def goal_pairs(goals: tuple[GoalKind, ...], partnerships: tuple[Partnership, ...]
               ) -> frozenset[tuple[GoalKind, Partnership]]:
    """Every goal kind of ``goals`` with every partnership of ``partnerships``."""
    return frozenset((g, p) for g in goals for p in partnerships)


def _listed(values: Any) -> str:
    return ", ".join(sorted(str(v) for v in values)) or "none"


def unplayable(spec: ContractSpec, playable: Playable, deck: tuple[Card, ...], hand_size: int,
               talon_piles: tuple[int, ...], premiums: frozenset[str]) -> tuple[str, str] | None:
    """``(field, why)`` for the first datum of ``spec`` the variant cannot play, or None.

    ``playable`` says what the variant's phases and scoring honour; the deck,
    the deal layout and the premium names are the table's.
    """
    goal, tricks = spec.goal, spec.tricks
    kinds = {g for g, _ in playable.goals}
    if goal.kind not in kinds:
        return "goal.kind", f"the goal {goal.kind!r} is not played here (goals: {_listed(kinds)})"
    if (goal.kind, spec.partnership) not in playable.goals:
        with_goal = {p for g, p in playable.goals if g == goal.kind}
        return "partnership", (f"a {goal.kind!r} goal is not played {spec.partnership!r} here "
                               f"(partnerships: {_listed(with_goal)})")
    if goal is NO_GOAL:
        return "goal", ("no goal given (it would be 0 card points, made by every hand): say what the "
                        "declarer's side must make, e.g. Goal('points', N) or Goal('tricks', tricks=0)")
    if goal.kind == "tricks" and not 0 <= goal.tricks <= hand_size:
        return "goal.tricks", f"{goal.tricks} tricks: a hand has 0 to {hand_size} tricks"
    if (spec.partnership == "called") != (spec.call is not None):
        return "call", ("a called partnership needs a CallRule" if spec.call is None
                        else f"a CallRule makes a partner, but the partnership is {spec.partnership!r}")
    if spec.call is not None:
        if spec.call.when not in playable.calls:
            return "call.when", (f"a card called {spec.call.when!r} is not played here "
                                 f"(calls: {_listed(playable.calls)})")
        foreign = [c for c in spec.call.cards if c not in deck]
        if foreign or not spec.call.cards:
            return "call.cards", "the cards to call must be cards of the deck"
    if tricks.trump not in playable.trumps:
        return "tricks.trump", (f"the trump {tricks.trump!r} is not played here "
                                f"(trumps: {_listed(playable.trumps)})")
    if spec.talon not in playable.talon:
        return "talon", f"the talon use {spec.talon!r} is not played here (talon: {_listed(playable.talon)})"
    if spec.talon != "none" and not talon_piles:
        return "talon", f"the talon use {spec.talon!r} needs a talon, and this deal has none"
    if spec.talon == "pile" and not 0 <= spec.talon_pile < len(talon_piles):
        return "talon_pile", f"pile {spec.talon_pile}: the talon has piles 0 to {len(talon_piles) - 1}"
    if spec.joinable and (goal.kind not in playable.joinable or spec.partnership != "alone"):
        return "joinable", (f"others cannot join a {goal.kind!r} game played {spec.partnership!r} here "
                            f"(joinable goals, played alone: {_listed(playable.joinable)})")
    if spec.contest and not playable.contest:
        return "contest", "several bidders of one game cannot contest it here"
    known = dict(playable.extras)
    for key, value in spec.extra.items():
        if key not in known:
            return f"extra.{key}", (f"no datum {key!r} is read here "
                                       f"(extra keys: {_listed(frozenset(known)) if known else 'none'})")
        allowed = known[key]
        if allowed is not None and not any(value == a and type(value) is type(a) for a in allowed):
            shown = ", ".join(map(repr, allowed))
            return f"extra.{key}", f"{value!r} is not played here (values: {shown})"
    for name, named in (("premiums", spec.premiums), ("announces", frozenset(spec.announces))):
        missing = sorted(named - premiums)
        if missing:
            return name, f"no premium is called {missing[0]!r} (premiums: {_listed(premiums)})"
    return None
