"""Everything of the network layer that touches the engine, in one place.

The wire carries engine values (observations, actions, records) only in the
plain form of the rules' :class:`~core.codec.Codec`, so they follow the
dataclasses of ``core`` when those change.  The rest of ``net`` sees a
:class:`Game` and plain data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.actions import Action
from core.codec import RecordError
from core.deal import active_seats, split
from core.engine import DealError, Hand, IllegalAction
from core.observation import Observation, observe, observe_public
from core.plugins import Catalogue, rules_hash
from core.record import record_of, replay
from core.rules import RuleError, Rules
from core.state import HandResult
from core.table import SheetRow, Table, contract_text
from net.dealing import DealContext, DealingFault, Layout, find_scheme

NET_KEY = "net"
"""The key of the network section in a record (``tarock-record/1`` readers ignore it)."""


class GameError(ValueError):
    """Engine data from a peer that does not fit these rules (malformed)."""


class CheckFailed(Exception):
    """A record that does not hold up; ``host`` True when the host is at fault,
    else ``seat`` names the seat."""

    def __init__(self, reason: str, seat: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seat = seat


@dataclass(frozen=True, slots=True)
class Finished:
    """A checked finished deal: its record (plain data), hand and result."""

    deal: int
    round: int
    record: dict[str, Any]
    hand: Hand
    result: HandResult


def canonical(value: object) -> str:
    """The JSON text every node writes for a record: keys sorted, no spaces."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class Game:
    """The rules of one table and the engine operations the network needs."""

    def __init__(self, rules: Rules, seats: int, rounds: int, dealing: str) -> None:
        self.rules = rules
        self.seats = seats
        self.rounds = rounds
        self.scheme = find_scheme(dealing)
        self.hash = rules_hash(rules)
        # The codec checks action seats against the seats of the table it last decoded for.
        rules.codec.decode_action({"type": "pass", "seat": 0}, seats)
        try:
            active_seats(seats, 0, rules.players_per_hand)
        except ValueError as exc:
            raise RuleError(f"{rules.variant}: {exc}") from None

    @classmethod
    def make(cls, catalogue: Catalogue, variant: str, options: Mapping[str, Any], seats: int,
             rounds: int, dealing: str) -> Game:
        """Rules from a catalogue; RuleError naming what is unknown."""
        rules = catalogue.find(variant).rules(dict(options))
        return cls(rules, seats, rounds, dealing)

    @property
    def variant(self) -> str:
        return self.rules.variant

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.rules.options)

    def new_table(self) -> Table:
        return Table(seats=self.seats, rounds=self.rounds)

    def active(self, dealer: int) -> tuple[int, ...]:
        return active_seats(self.seats, dealer, self.rules.players_per_hand)

    def layout(self, active: tuple[int, ...]) -> Layout:
        rules, seats = self.rules, self.seats

        def lay_out(order: Sequence[int]) -> tuple[list[list[int]], list[list[int]]] | None:
            hands, talon = split(rules, order, seats, active)
            return None if rules.redeal_reason(hands) is not None else (hands, talon)
        return Layout(tuple(rules.deck), lay_out)

    def hand(self, dealer: int, active: tuple[int, ...], hands: list[list[int]],
             talon: list[list[int]]) -> Hand:
        return Hand(self.rules, dealer, hands, talon, self.seats, active)

    # -- values on the wire ---------------------------------------------------------------
    def view(self, hand: Hand, seat: int | None) -> dict[str, Any]:
        """The plain observation of ``seat``; ``None``: the public one (a watcher's)."""
        return dict(self.rules.codec.encode(public_view(hand) if seat is None else observe(hand, seat),
                                            Observation))

    def read_view(self, raw: object) -> Observation:
        try:
            obs: Observation = self.rules.codec.decode(raw, Observation, "obs")
        except RecordError as exc:
            raise GameError(str(exc)) from None
        return obs

    def encode_action(self, action: Action) -> dict[str, Any]:
        return dict(self.rules.codec.encode_action(action))

    def read_action(self, raw: object) -> Action:
        try:
            action: Action = self.rules.codec.decode_action(raw, self.seats, "action")
        except RecordError as exc:
            raise GameError(str(exc)) from None
        return action

    # -- records -----------------------------------------------------------------------------
    def record(self, hand: Hand, ctx: DealContext, round_no: int, opening: Mapping[str, Any],
               bots: Sequence[int]) -> dict[str, Any]:
        """The full record of a finished deal: ``tarock-record/1`` plus the network section."""
        out = record_of(hand).to_json()
        out[NET_KEY] = {"table": ctx.table, "epoch": ctx.epoch, "deal": ctx.deal, "round": round_no,
                        "rules": self.hash, "opening": dict(opening), "bots": list(bots)}
        return out

    def check(self, raw: object, ctx: DealContext | None = None, dealer: int | None = None,
              seen: Mapping[int, str] | None = None, views: Sequence[Mapping[str, Any]] = (),
              seat: int | None = None) -> Finished:
        """Check a record as every node does at a hand's end (docs/protocol.md,
        "Checking a hand"); CheckFailed names the culprit (the host, or a seat).

        ``ctx``/``dealer``: what this node was told at the deal's begin;
        ``seen``: the commitments it received; ``views``: observations it was
        sent (as plain data), each compared with the one the record implies.
        """
        if not isinstance(raw, Mapping) or not isinstance(raw.get(NET_KEY), Mapping):
            raise CheckFailed("the record has no network section")
        net = raw[NET_KEY]
        try:
            got = DealContext(str(net["table"]), int(net["epoch"]), int(net["deal"]), self.seats)
            round_no = int(net["round"])
            bots = [int(i) for i in net["bots"]]
            opening = net["opening"]
        except (KeyError, TypeError, ValueError) as exc:
            raise CheckFailed(f"the record's network section is malformed: {exc!r}") from None
        if ctx is not None and got != ctx:
            raise CheckFailed(f"the record is of deal {got.hand_id}, not {ctx.hand_id}")
        if net.get("rules") != self.hash:
            raise CheckFailed("the record's rules hash is not the table's")
        try:
            rep = replay(raw, rules=self.rules)
        except (RecordError, DealError, RuleError) as exc:
            raise CheckFailed(f"the record does not replay: {exc}") from None
        hand = rep.hand
        if rep.error_index is not None or hand is None or not hand.done:
            where = f"action {rep.error_index}: {rep.reason}" if rep.reason else "the hand is not over"
            raise CheckFailed(f"the record does not replay to its end ({where})")
        if hand.state.seats != self.seats or (dealer is not None and hand.state.dealer != dealer):
            raise CheckFailed("the record's seats or dealer are not those of the deal")
        if hand.state.active != self.active(hand.state.dealer):
            raise CheckFailed("the record's active seats are not those the dealer implies")
        if any(not 0 <= i < len(hand.state.actions) for i in bots):
            raise CheckFailed("the record names a bot action that does not exist")
        d_hands, d_talon = hand.deal
        try:
            self.scheme.verify(got, self.layout(hand.state.active), opening, d_hands, d_talon, seen)
        except DealingFault as exc:
            raise CheckFailed(exc.reason, exc.seat) from None
        if seat is not None or views:
            self._compare_views(hand, seat, views)
        result = hand.state.result
        assert result is not None
        return Finished(got.deal, round_no, dict(raw), hand, result)

    def _compare_views(self, hand: Hand, seat: int | None, views: Sequence[Mapping[str, Any]]) -> None:
        """Every observation sent (by its number of actions) against the one the record implies."""
        state = hand.state
        sent: dict[int, list[Mapping[str, Any]]] = {}
        for raw in views:
            history = raw.get("history")
            n = len(history) if isinstance(history, list) else -1
            if not 0 <= n <= len(state.actions):
                raise CheckFailed("an observation the host sent has more actions than the record")
            sent.setdefault(n, []).append(raw)
        again = Hand(self.rules, state.dealer, *hand.deal, state.seats, state.active)
        for n in range(len(state.actions) + 1):
            if n in sent:
                want = self.view(again, seat)
                if any(dict(raw) != want for raw in sent[n]):
                    raise CheckFailed(f"the host sent an observation after {n} actions that is not the "
                                      "one the record implies")
            if n < len(state.actions):
                again.apply(state.actions[n])

    def sheet_add(self, table: Table, finished: Finished) -> SheetRow | None:
        return table.add(finished.result, contract_text(finished.hand.state))

    def applies(self, hand: Hand, action: Action) -> str | None:
        """Apply ``action``; the refusal reason (``code: message``) if illegal."""
        try:
            hand.apply(action)
        except IllegalAction as exc:
            return f"{exc.reason.code}: {exc.reason.message}"
        return None


def public_view(hand: Hand) -> Observation:
    """What a watcher may see (:func:`core.observation.observe_public`)."""
    return observe_public(hand)


@dataclass
class Sheet:
    """A node's score sheet: the table and the deals it holds the outcome of."""

    table: Table
    finished: dict[int, Finished] = field(default_factory=dict)
    void: set[int] = field(default_factory=set)

    @property
    def done(self) -> int:
        """The last deal number with an outcome (outcomes are held for 1..done)."""
        n = 0
        while n + 1 in self.finished or n + 1 in self.void:
            n += 1
        return n
