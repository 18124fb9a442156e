"""The auction (Lizitation) as a generic mechanism driven by the contracts' data.

In turn from the forehand each player bids a contract that outranks the
highest bid so far, or passes; passing is final ("Wer passt, ist draußen").
A player whose bid was outbid may bid again; nobody outbids himself (his
turn is skipped while he holds the highest bid).  The auction ends when
every player still in holds the highest bid, or at once when a bid no
contract outranks is made (where the style says so); when everybody passed
the deal is void.  The contracts say who may bid what (rank, forehand only,
holding requirements, a card to call) and a narrow hook
(``tarock_bid_verdict``) says what data cannot.

An :class:`AuctionStyle` gives the variations of the rule texts:

- the forehand must open instead of passing (docs/rules.md §6.2: "Abgeben der Vorhand
  ist unzulässig"; §15.2);
- "Vorhand!" (docs/rules.md §6.2): the forehand's opening word, below every game; when
  all others then pass he chooses any game, the forehand games included,
  which are bid only that way;
- joining a game another player bid ("Piccolo bei", docs/rules.md §6.3): the joined
  values add up in the auction (``ContractSpec.auction_value``);
- several players bidding the same contract where it allows a contest
  (several Besserrufer, docs/rules.md §6.4), decided after the auction;
- announcements made with a bid (docs/rules.md §6.5: "Zusätzlich ansagen").

A contract whose call is made with the bid (``CallRule.when == "bid"``, seed
000 54 cards: "ruft den XX") is bid by the :class:`~core.actions.Call`
action; every other by :class:`~core.actions.Bid` naming it, and a join by
:class:`~core.actions.Join`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

from tarock.core.actions import Action, Bid, Call, Join, Pass, pass_
from tarock.core.cards import format_card
from tarock.core.contracts import ContractSpec
from tarock.core.phases import BIDDING, Phase
from tarock.core.state import Announcement, Contract, HandState, Reason

if TYPE_CHECKING:
    from tarock.core.rules import Rules

VORHAND: Final = "vorhand"
"""The contract word of the forehand's "Vorhand!" (docs/rules.md §6.2)."""

KEY: Final = "auction"
"""Where the auction keeps its bookkeeping in ``HandState.data``."""

Key = tuple[int, int]


@dataclass(frozen=True, slots=True)
class AuctionStyle:
    """How one rule text runs its auction (see the module docstring)."""

    opening_pass: bool = True
    """The forehand may pass at his first turn; four passes void the deal."""
    ends_at_top: bool = True
    """A bid that no contract outranks ends the auction at once."""
    vorhand: bool = False
    """The forehand may open with "Vorhand!" (docs/rules.md §6.2)."""
    max_joiners: int = 0
    """Up to so many players may join a joinable game ("bei", docs/rules.md §6.3)."""
    additions: bool = False
    """Bids may carry announcements (``Bid.announce``)."""


@lru_cache(maxsize=4096)
def bid_action(seat: int, contract: str, announce: tuple[str, ...] = ()) -> Bid:
    """The bid as one value per seat, contract and announcements: the legal lists
    offer the same bids turn after turn, and a frozen action is built slowly."""
    return Bid(seat, contract, announce)


def auction_info(state: HandState) -> dict[str, Any]:
    """The auction's bookkeeping: ``bids`` (seat -> contract held), ``passed``
    (seats out), ``log`` ((seat, contract) in bidding order), ``choosing``
    (the forehand chooses after "Vorhand!"), ``announce`` (seat -> the
    announcements of its bid), ``contest`` (the seats of a contest)."""
    info: dict[str, Any] = state.data[KEY]
    return info


class Auction(Phase):
    """The generic auction of one :class:`AuctionStyle` over the table's contracts."""

    name = BIDDING

    def __init__(self, style: AuctionStyle | None = None) -> None:
        self.style = style or AuctionStyle()

    # -- ranking -------------------------------------------------------------
    @staticmethod
    def key(spec: ContractSpec, players: int = 1) -> Key:
        """A bid's place: joined values add up where the contract counts them."""
        value = spec.auction_value * (players if spec.joinable else 1)
        return (value, spec.rank)

    @staticmethod
    def groups(info: dict[str, Any]) -> dict[str, list[int]]:
        """Current bids: contract -> the seats still holding it, in bidding order."""
        out: dict[str, list[int]] = {}
        bids = info["bids"]
        for seat, name in info["log"]:
            if bids.get(seat) == name:
                seats = out.get(name)
                if seats is None:
                    out[name] = [seat]
                elif seat not in seats:
                    seats.append(seat)
        return out

    def top(self, rules: Rules, info: dict[str, Any]) -> tuple[str, list[int], Key] | None:
        """The highest bid: its contract, the seats holding it, its key."""
        if not info["bids"]:
            return None
        best: tuple[str, list[int], Key] | None = None
        alone = self._key_of(rules)
        for name, seats in self.groups(info).items():
            if name == VORHAND:
                k: Key = (0, -1 << 30)
            elif len(seats) == 1:
                k = alone[name]
            else:
                spec = rules.contract(name)
                assert spec is not None
                k = self.key(spec, len(seats))
            if best is None or k > best[2]:
                best = (name, seats, k)
        return best

    _keyed_of: tuple[tuple[ContractSpec, ...], tuple[tuple[ContractSpec, Key], ...],
                     dict[str, Key], Key | None] | None = None

    def _keyed(self, rules: Rules) -> tuple[tuple[ContractSpec, Key], ...]:
        """The table's contracts, each with its :meth:`key` alone (looked up once per
        contracts: the legal list asks them in every turn)."""
        known = self._keyed_of
        if known is None or known[0] is not rules.contracts:
            keyed = tuple((c, self.key(c)) for c in rules.contracts)
            known = self._keyed_of = (rules.contracts, keyed, {c.name: k for c, k in keyed},
                                      max((k for _, k in keyed), default=None))
        return known[1]

    def _key_of(self, rules: Rules) -> dict[str, Key]:
        """:meth:`_keyed` by the contracts' names."""
        self._keyed(rules)
        assert self._keyed_of is not None
        return self._keyed_of[2]

    def _is_top(self, rules: Rules, spec: ContractSpec) -> bool:
        """Whether no contract of the table outranks ``spec`` (the highest key looked up once
        per contracts: asked of every bid)."""
        self._keyed(rules)
        assert self._keyed_of is not None
        highest = self._keyed_of[3]
        return highest is None or highest <= self.key(spec)

    # -- who may bid what ------------------------------------------------------
    def refusal(self, state: HandState, rules: Rules, seat: int, spec: ContractSpec) -> Reason | None:
        """Why ``seat`` may not play ``spec`` at all with this hand (None: it may)."""
        return game_refusal(state, rules, seat, spec)

    def _additions(self, state: HandState, rules: Rules, seat: int, spec: ContractSpec) -> list[str]:
        """The announcements ``seat`` may make with a bid of ``spec``."""
        if not self.style.additions:
            return []
        out = []
        for name in rules.premium_specs:
            if name in spec.premiums and name not in spec.announces and rules.premium_specs[name].announced:
                verdict = rules.announce_verdict(state, seat, name, spec)
                if verdict is None or verdict.allowed:
                    out.append(name)
        return out

    def _bids(self, state: HandState, rules: Rules, seat: int, spec: ContractSpec) -> list[Action]:
        if spec.call is not None and spec.call.when == "bid":
            return [Call(seat, card) for card in rules.callable(state, seat, spec)]
        names = self._additions(state, rules, seat, spec)
        if not names:
            return [bid_action(seat, spec.name, ())]
        out: list[Action] = []
        for k in range(len(names) + 1):
            out.extend(bid_action(seat, spec.name, combo) for combo in combinations(names, k))
        return out

    # -- phase -------------------------------------------------------------
    def start(self, state: HandState, rules: Rules) -> None:
        state.data[KEY] = {"bids": {}, "passed": [], "log": [], "choosing": False, "announce": {},
                           "contest": []}
        state.to_move = state.forehand

    def legal(self, state: HandState, rules: Rules, seat: int) -> list[Action]:
        if seat != state.to_move:
            return []
        info = auction_info(state)
        style = self.style
        if info["choosing"]:
            out: list[Action] = []
            for spec in rules.contracts:
                if self.refusal(state, rules, seat, spec) is None:
                    out.extend(self._bids(state, rules, seat, spec))
            return out
        out = []
        if info["log"] or style.opening_pass:
            out.append(pass_(seat))
        elif style.vorhand:
            out.append(bid_action(seat, VORHAND))
        top = self.top(rules, info)
        barred = style.vorhand or seat != state.forehand  # from the forehand's games
        plain = not style.additions
        for spec, key in self._keyed(rules):
            if spec.forehand_only and barred:
                continue
            if top is not None and key <= top[2] and not (spec.contest and top[0] == spec.name):
                continue
            if self.refusal(state, rules, seat, spec) is None:
                call = spec.call
                if plain and (call is None or call.when != "bid"):  # _bids() of a bid without additions
                    out.append(bid_action(seat, spec.name, ()))
                else:
                    out.extend(self._bids(state, rules, seat, spec))
        if style.max_joiners and top is not None:
            for name, seats in self.groups(info).items():
                joined = rules.contract(name) if name != VORHAND else None
                if (joined is not None and joined.joinable and seat not in seats
                        and len(seats) <= style.max_joiners and self.key(joined, len(seats) + 1) > top[2]
                        and self.refusal(state, rules, seat, joined) is None):
                    out.append(Join(seat, name))
        return out

    def check(self, state: HandState, rules: Rules, action: Action) -> Reason | None:
        if action in self.legal(state, rules, action.seat):
            return None
        info = auction_info(state)
        seat = action.seat
        if isinstance(action, Pass):
            if info["choosing"]:
                return Reason("must-choose", "all others passed: choose the game you play")
            opening = "say Vorhand! or bid a game" if self.style.vorhand else "bid a game"
            return Reason("must-bid", f"the forehand must open: {opening}")
        if isinstance(action, Call):
            spec = next((c for c in rules.contracts if c.call is not None and c.call.when == "bid"), None)
            if spec is None:
                return Reason("wrong-phase", "no game here is bid by calling a card: bid a game by name")
            reason = self.refusal(state, rules, seat, spec)
            if reason is not None:
                return reason
            want = rules.callable(state, seat, spec)
            if action.card not in want:
                return Reason("must-call-highest", f"you must call {format_card(want[0])}, the highest card "
                              "you may call that you do not hold")
            return self._rank_reason(state, rules, seat, spec, info)
        if not isinstance(action, Bid | Join):
            return Reason("wrong-phase", f"bid or pass now, not {action.describe()}")
        if action.contract == VORHAND and self.style.vorhand and isinstance(action, Bid):
            return Reason("vorhand-opening", "only the forehand says Vorhand!, as his opening word")
        spec = rules.contract(action.contract)
        if spec is None:
            names = [c.name for c in rules.contracts] + ([VORHAND] if self.style.vorhand else [])
            return Reason("unknown-contract", f"there is no game {action.contract!r} "
                          f"(games: {', '.join(names)})")
        if isinstance(action, Bid) and spec.call is not None and spec.call.when == "bid":
            return Reason("wrong-phase", f"{spec.title} is bid by calling a card (call), not by name")
        reason = self.refusal(state, rules, seat, spec)
        if reason is not None:
            return reason
        if isinstance(action, Join):
            seats = self.groups(info).get(action.contract, [])
            if seat in seats:
                return Reason("bei-own", "you cannot join your own game: bid a higher one or pass")
            if not spec.joinable or not seats or not self.style.max_joiners:
                return Reason("no-bei", f"nobody plays {action.contract} now that you could join")
            if len(seats) > self.style.max_joiners:
                return Reason("bei-full", f"{action.contract} is played by {len(seats)} already")
        if info["choosing"]:
            return Reason("cannot-play", f"you cannot play {action.contract} with this hand")
        if spec.forehand_only and seat != state.forehand:
            return Reason("forehand-game", f"only the forehand may play {spec.title}")
        if spec.forehand_only and self.style.vorhand:
            return Reason("forehand-game",
                          f"{spec.title} is a Vorhandspiel: after Vorhand! and three passes only")
        if isinstance(action, Bid):
            reason = self._announce_reason(state, rules, seat, spec, action.announce)
            if reason is not None:
                return reason
        return self._rank_reason(state, rules, seat, spec, info) or Reason(
            "bid-not-allowed", f"{action.describe()} is not allowed now")

    def _announce_reason(self, state: HandState, rules: Rules, seat: int, spec: ContractSpec,
                         names: tuple[str, ...]) -> Reason | None:
        if names and not self.style.additions:
            return Reason("no-additions", "nothing is announced with a bid here")
        if len(set(names)) != len(names):
            return Reason("announced-twice", "each premium can be announced once")
        for name in names:
            premium = rules.premium_specs.get(name)
            if premium is None or not premium.announced:
                known = [n for n, p in rules.premium_specs.items() if p.announced]
                return Reason("unknown-announcement",
                              f"{name!r} cannot be announced (only {', '.join(known) or 'nothing'})")
            verdict = rules.announce_verdict(state, seat, name, spec)
            if verdict is not None and not verdict.allowed:
                return verdict.reason or Reason("announce-not-allowed", f"{name} cannot be announced now")
            if name not in spec.premiums or name in spec.announces:
                return Reason("not-with-this-game", f"{name} cannot be announced with {spec.title}")
        return None

    def _rank_reason(self, state: HandState, rules: Rules, seat: int, spec: ContractSpec,
                     info: dict[str, Any]) -> Reason | None:
        top = self.top(rules, info)
        if top is None or self.key(spec) > top[2] or (spec.contest and top[0] == spec.name):
            return None
        if top[0] == VORHAND:
            return None
        held = rules.contract(top[0])
        title = held.title if held is not None else top[0]
        return Reason("bid-too-low", f"{spec.title} does not outbid {title}")

    def apply(self, state: HandState, rules: Rules, action: Action) -> None:
        info = auction_info(state)
        seat = action.seat
        if isinstance(action, Pass):
            info["passed"].append(seat)
            info["bids"].pop(seat, None)
        else:
            if isinstance(action, Call):
                spec = next(c for c in rules.contracts if c.call is not None and c.call.when == "bid")
                name = spec.name
                info["called"] = action.card
            else:
                assert isinstance(action, Bid | Join)
                name = action.contract
            if isinstance(action, Bid):
                info["announce"][seat] = list(action.announce)
            if info["choosing"]:
                self.finish(state, rules, name, [seat])
                return
            info["bids"][seat] = name
            info["log"].append((seat, name))
            spec_now = rules.contract(name)
            if spec_now is not None and self.style.ends_at_top and self._is_top(rules, spec_now) \
                    and not spec_now.contest and not spec_now.joinable:
                self.finish(state, rules, name, [seat])
                return
        top = self.top(rules, info)
        holders = top[1] if top is not None else []
        nxt = state.next_seat(seat)
        for _ in range(len(state.players)):
            if nxt not in info["passed"] and nxt not in holders:
                state.to_move = nxt
                return
            nxt = state.next_seat(nxt)
        if top is None:
            state.passed_out = True
            state.to_move = None
            return
        if top[0] == VORHAND:
            info["choosing"] = True
            state.to_move = state.forehand
            return
        self.finish(state, rules, top[0], top[1])

    def finish(self, state: HandState, rules: Rules, name: str, seats: list[int]) -> None:
        """The auction is decided: ``seats`` play ``name`` (a contest first where several bid it)."""
        state.to_move = None
        spec = rules.contract(name)
        assert spec is not None
        info = auction_info(state)
        if spec.contest and len(seats) > 1:
            info["contest"] = list(seats)
            return
        declare(state, rules, spec, seats, info["announce"].get(seats[0], []), info.get("called"))


def game_refusal(state: HandState, rules: Rules, seat: int, spec: ContractSpec) -> Reason | None:
    """Why ``seat`` may not play ``spec`` at all with this hand, in any auction (None: it may):
    a card the game requires, a card to call, the rules' verdict on the bid."""
    hand = state.hands[seat]
    for need in spec.requires:
        if not need.met(hand):
            return Reason(need.code, f"{spec.title} needs {need.description}")
    if spec.call is not None and not rules.callable(state, seat, spec):
        if spec.call.when == "bid":
            return Reason("cannot-call", "you hold every card that may be called")
        return Reason("cannot-call", f"{spec.title}: there is no card you may call")
    verdict = rules.bid_verdict(state, seat, spec)
    if verdict is not None and not verdict.allowed:
        return verdict.reason or Reason("bid-not-allowed", f"you may not bid {spec.title} now")
    return None


def declare(state: HandState, rules: Rules, spec: ContractSpec, seats: list[int],
            announce: list[str] | tuple[str, ...] = (), called: int | None = None) -> None:
    """Make ``seats`` the declarers of ``spec`` (several in a joined game), with
    the announcements the contract makes and ``announce`` made with the bid,
    and the called card where it is known now."""
    declarer = seats[0]
    state.declarer = declarer
    state.contract = Contract(spec, declarers=tuple(seats) if len(seats) > 1 else ())
    explicit = [n for n in rules.premium_specs if n in announce]
    state.announcements = [Announcement(n, declarer) for n in (*spec.announces, *explicit)]
    state.called = state.partner = None
    state.partner_known = False
    rule = spec.call
    if rule is not None and rule.when != "after":
        card = called
        if card is None:
            options = rules.callable(state, declarer, spec)
            card = options[0] if options else None
        if card is not None:
            set_called(state, card)


def set_called(state: HandState, card: int) -> None:
    """The declarer calls ``card``: its holder (if not the declarer) is the partner."""
    state.called = card
    holder = state.holder(card)
    state.partner = holder if holder is not None and holder != state.declarer else None
