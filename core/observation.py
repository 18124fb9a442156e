"""What one seat may know: the only view bots, clients and peers get."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tarock.core.actions import Action, Discard, KontraTarget
from tarock.core.cards import Card, sort_key
from tarock.core.context import TableContext
from tarock.core.engine import Hand
from tarock.core.facts import RuleFacts
from tarock.core.state import Announcement, Contract, HandResult, PhaseId, Trick


@dataclass(frozen=True, slots=True)
class TrickView:
    """A trick as everyone saw it."""

    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int | None


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a hand.

    Hidden: the other hands, the talon (except what this seat took), other
    seats' discards, and the partner until the partnership is public (the
    partner knows it from the start).  After the hand everything is public.
    """

    seat: int
    variant: str
    seats: int
    dealer: int
    forehand: int
    phase: PhaseId
    to_move: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    contract: Contract | None
    declarer: int | None
    called: Card | None
    partner: int | None
    talon_seen: tuple[Card, ...]
    discards: tuple[Card, ...]
    kontra_level: int
    tricks: tuple[TrickView, ...]
    trick: TrickView | None
    history: tuple[Action, ...]
    legal: tuple[Action, ...]
    result: HandResult | None
    announcements: tuple[Announcement, ...] = ()
    """Premiums announced so far (public), with their Kontra levels."""
    talon_shown: tuple[tuple[Card, ...], ...] = ()
    """Per talon pile, the cards turned up for everyone (all of them after the hand)."""
    open_hands: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    """``(seat, cards)`` of the other hands that lie open on the table (ouvert)."""
    active: tuple[int, ...] = ()
    """The seats that take part in this hand (all seats when empty)."""
    context: TableContext = field(default_factory=TableContext)
    """What the table carried into this hand (public)."""
    rules: RuleFacts | None = None
    """The table's rules as data (contracts, premiums, trick rules), the same
    value for every observation of a table; None only in hand-made observations."""

    def chain_level(self, target: KontraTarget) -> int:
        """The Kontra level the chain ``target`` names has reached: the game's
        for the game, else the announcement's own (the highest, if several
        share the name); 0 where no Kontra was said on it."""
        if not target.name:
            return self.kontra_level
        levels = [a.kontra for a in self.announcements if a.name == target.name]
        return max(levels) if levels else self.kontra_level


def _view(trick: Trick) -> TrickView:
    return TrickView(trick.leader, tuple(trick.seats), tuple(trick.cards), trick.winner)


def observe(hand: Hand, seat: int) -> Observation:
    """The view of ``seat`` on ``hand``."""
    s = hand.state
    over = hand.done
    mine = seat == s.declarer
    partner = s.partner if (over or s.partner_known or seat == s.partner) else None
    rules = hand.rules
    shown = frozenset(rules.discards_shown(s))
    history = tuple(
        a if (over or a.seat == seat or not isinstance(a, Discard))
        else Discard(a.seat, tuple(c for c in a.cards if c in shown))
        for a in s.actions
    )
    talon = hand.deal[1] if over else rules.talon_shown(s)
    open_seats = range(s.seats) if over else rules.open_hands(s)
    return Observation(
        seat=seat,
        variant=s.variant,
        seats=s.seats,
        dealer=s.dealer,
        forehand=s.forehand,
        phase=s.phase,
        to_move=s.to_move,
        hand=tuple(sorted(s.hands[seat], key=sort_key)),
        hand_sizes=tuple(len(h) for h in s.hands),
        contract=s.contract,
        declarer=s.declarer,
        called=s.called,
        partner=partner,
        talon_seen=tuple(s.talon_taken) if (mine or over) else (),
        discards=tuple(s.discards) if (mine or over) else tuple(c for c in s.discards if c in shown),
        kontra_level=s.kontra_level,
        tricks=tuple(_view(t) for t in s.tricks),
        trick=_view(s.trick) if s.trick is not None else None,
        history=history,
        legal=tuple(hand.legal(seat)),
        result=s.result,
        announcements=tuple(s.announcements),
        talon_shown=tuple(tuple(p) for p in talon),
        open_hands=tuple((o, tuple(sorted(s.hands[o], key=sort_key))) for o in open_seats if o != seat),
        active=s.active,
        context=s.context,
        rules=rules.facts,
    )


def observe_public(hand: Hand) -> Observation:
    """What a spectator may see: the view of no seat (no hand, nothing taken from
    the talon, other seats' discards only as every seat sees them, the partner
    once public, no legal actions); after the hand everything is public."""
    obs = observe(hand, -1)  # seat -1 holds nothing and is nobody's partner
    return replace(obs, hand=(), legal=())
