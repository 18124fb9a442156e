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
from typing import Any, Literal, TypeAlias

from core.cards import Card

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
of tricks (negative games); ``ranking``: each for himself, ranked by points."""


@dataclass(frozen=True, slots=True)
class TrickRules:
    """How cards are played and tricks won in a contract.

    Always: follow the led suit; without it play a trump (a tarock, or in a
    ``suit`` game a card of the named suit); without trumps, anything.
    """

    trump: TrumpMode = "tarock"
    overtrump: bool = False
    """Whoever plays a trump while a trump lies in the trick must beat it if
    able (seed 000; following a plain suit carries no such duty)."""
    must_win: bool = False
    """Stichzwang: a card that wins the trick so far must be played if there is one."""
    pagat_last: bool = False
    """The Pagat may be played only as the last tarock."""
    trull_trick: bool = False
    """Kaiserstich / Märchenstich: in a trick where the tarocks trump, the Pagat
    wins when Pagat, Mond and Sküs all lie in it."""
    xx_high: bool = False
    """In a ``suit`` game, the literal reading of seed 000's Faberl: the XX is
    the tarocks' highest card, the Pagat their lowest (RULES.md decision 4)."""


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
        n = sum(1 for c in hand if c in self.cards)
        return n >= self.at_least and (self.at_most is None or n <= self.at_most)


@dataclass(frozen=True, slots=True)
class CallRule:
    """Which card a declarer calls for a partner, and when.

    ``cards`` are the callable cards in order of preference.  With
    ``highest`` the declarer must call the first of them he does not hold
    (seed 000: "den höchsten Tarock vom XX abwärts, den er nicht hat");
    otherwise any he does not hold.  ``when``: ``bid`` (the call is the bid
    itself), ``bid-auto`` (the card follows from the hand and is set, for all
    to see, with the bid), ``end`` (set when the auction is decided) or
    ``after`` (the declarer calls after the auction, in a phase of its own).
    """

    cards: tuple[Card, ...]
    highest: bool = True
    when: Literal["bid", "bid-auto", "end", "after"] = "after"


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
    """Others may join the game ("bei") and each plays it too (seed 002)."""
    contest: bool = False
    """Several may bid it at the same time; a contest after the auction decides
    who plays (seed 002: several Besserrufer name their birds)."""
    auction_value: int = 0
    """What the bid counts in an auction where joined games add up (seed 002);
    0 where the rank alone orders the bids."""
    talon: TalonUse = "none"
    talon_pile: int = 0
    """The pile a ``pile`` contract takes (index into the talon piles)."""
    talon_open: bool = True
    """Whether the talon cards the declarer chooses from are turned up for all."""
    leader: Literal["forehand", "declarer"] = "forehand"
    """Who leads the first trick."""
    tricks: TrickRules = field(default_factory=TrickRules)
    goal: Goal = field(default_factory=Goal)
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
    (Trull, Kings, Absolut: seed 002's "Materialprämien").
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
