"""Everything of the network layer that touches the engine, in one place.

The wire carries engine values (observations, actions, records) only in the
plain form of the rules' :class:`~core.codec.Codec`, so they follow the
dataclasses of ``core`` when those change.  The rest of ``net`` sees a
:class:`Game` and plain data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tarock.core.actions import Action
from tarock.core.codec import RecordError
from tarock.core.deal import active_seats, split
from tarock.core.engine import DealError, Hand
from tarock.core.observation import Observation, observe_public
from tarock.core.plugins import Catalogue, rules_hash
from tarock.core.record import replay
from tarock.core.rules import RuleError, Rules
from tarock.core.state import HandResult
from tarock.core.table import SheetRow, Table, contract_text
from tarock.net.dealing import DealContext, DealingFault, Layout
from tarock.net.schemes import find_scheme

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


CHECKED_KEPT = 16
"""How many records that held this process remembers (:meth:`Game.check`)."""

_checked: dict[tuple[object, ...], tuple[DealContext, Finished]] = {}
"""(rules hash, seats, scheme, canonical record) -> the deal it names, and the check that held."""


def _context_of(raw: Mapping[str, Any], seats: int) -> DealContext:
    """The deal a record's network section names (KeyError, TypeError, ValueError,
    AttributeError if malformed)."""
    net = raw[NET_KEY]
    opening = net["opening"]
    attempt = int(opening.get("attempt", 1)) if isinstance(opening, Mapping) else 1
    return DealContext(str(net["table"]), int(net["epoch"]), int(net["deal"]), seats, attempt)


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
        """Where the final deck's positions are dealt (``core.deal.split`` on positions), and
        the rules' redeal verdict on a deal's hands."""
        rules, seats = self.rules, self.seats
        hands, talon = split(rules, list(range(len(rules.deck))), seats, active)
        return Layout(tuple(rules.deck), tuple(tuple(h) for h in hands), tuple(tuple(p) for p in talon),
                      rules.redeal_reason)

    # -- values on the wire ---------------------------------------------------------------
    def encode_view(self, obs: Observation) -> dict[str, Any]:
        return dict(self.rules.codec.encode(obs, Observation))

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
    def check(self, raw: object, ctx: DealContext | None = None, dealer: int | None = None) -> Finished:
        """Check a record on its own (one a node holds, or one a seat passes to a new host):
        it replays to its end with every action legal, names this table's rules, and its
        dealing opening gives its deal (docs/protocol.md, "Checking a hand").  CheckFailed
        otherwise.

        A record that held for the same rules (hash), seats and scheme is not replayed again
        (only the deal and dealer asked for are compared): on one node the host's own record
        is checked where the host makes it, where its ledger enters it and where its own seat
        gets it."""
        try:
            key: tuple[object, ...] | None = (self.hash, self.seats, self.scheme.name, canonical(raw))
        except (TypeError, ValueError):
            key = None  # not JSON (a peer's bytes): checked, and refused, below
        held = _checked.get(key) if key is not None else None
        if held is None:
            finished = self._check(raw, ctx, dealer)
            if key is not None:
                if len(_checked) >= CHECKED_KEPT:
                    del _checked[next(iter(_checked))]
                # What held with a deal and dealer asked for holds without (they only refuse more).
                _checked[key] = (_context_of(finished.record, self.seats), Finished(
                    finished.deal, finished.round, finished.record, finished.hand.copy(), finished.result))
            return finished
        got, done = held
        if ctx is not None and (got.table, got.epoch, got.deal) != (ctx.table, ctx.epoch, ctx.deal):
            raise CheckFailed(f"the record is of deal {got.hand_id}, not {ctx.hand_id}")
        if dealer is not None and done.hand.state.dealer != dealer:
            raise CheckFailed("the record's seats or dealer are not those of the deal")
        assert isinstance(raw, Mapping)
        return Finished(done.deal, done.round, dict(raw), done.hand.copy(self.rules), done.result)

    def _check(self, raw: object, ctx: DealContext | None, dealer: int | None) -> Finished:
        if not isinstance(raw, Mapping) or not isinstance(raw.get(NET_KEY), Mapping):
            raise CheckFailed("the record has no network section")
        net = raw[NET_KEY]
        try:
            opening = net["opening"]
            got = _context_of(raw, self.seats)
            round_no = int(net["round"])
            bots = [int(i) for i in net["bots"]]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise CheckFailed(f"the record's network section is malformed: {exc!r}") from None
        if ctx is not None and (got.table, got.epoch, got.deal) != (ctx.table, ctx.epoch, ctx.deal):
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
            self.scheme.verify(got, self.layout(hand.state.active), opening, d_hands, d_talon)
        except DealingFault as exc:
            raise CheckFailed(exc.reason, exc.seat) from None
        result = hand.state.result
        assert result is not None
        return Finished(got.deal, round_no, dict(raw), hand, result)

    def sheet_add(self, table: Table, finished: Finished) -> SheetRow | None:
        return table.add(finished.result, contract_text(finished.hand.state))



def public_view(hand: Hand) -> Observation:
    """What a watcher may see (:func:`core.observation.observe_public`)."""
    return observe_public(hand)


@dataclass(frozen=True, slots=True)
class Tally:
    """What the score sheet keeps of a counted hand: the few numbers :meth:`Table.add` reads,
    not the record (that is in the node's store)."""

    deal: int
    declarers: tuple[int, ...]
    settlement: tuple[int, ...]
    passed_out: bool
    next_round_factor: int
    contract: str

    @classmethod
    def of(cls, finished: Finished) -> Tally:
        r = finished.result
        return cls(finished.deal, tuple(r.declarers), tuple(r.settlement), r.passed_out, r.next_round_factor,
                   contract_text(finished.hand.state))

    def add_to(self, table: Table) -> SheetRow | None:
        """Enter the hand on ``table`` again (a result of just what :meth:`Table.add` reads)."""
        result = HandResult(self.declarers, (0, 0), 0, None, (), self.settlement, self.passed_out,
                            next_round_factor=self.next_round_factor)
        return table.add(result, self.contract)


@dataclass
class Sheet:
    """A node's score sheet: the table and the deals it holds the outcome of.

    A counted hand is kept as its :class:`Tally` (a few numbers); its record is in the node's
    store, so the sheet's size does not grow with the records (docs/architecture.md, "Memory").
    """

    table: Table
    counted: dict[int, Tally] = field(default_factory=dict)
    void: set[int] = field(default_factory=set)

    @property
    def done(self) -> int:
        """The last deal number with an outcome (outcomes are held for 1..done)."""
        n = 0
        while n + 1 in self.counted or n + 1 in self.void:
            n += 1
        return n

    def count(self, finished: Finished) -> SheetRow | None:
        """``finished`` counts: on the sheet (the table's row, None when passed out or the table
        is over)."""
        tally = Tally.of(finished)
        self.counted[finished.deal] = tally
        return None if self.table.over else tally.add_to(self.table)

    def uncount(self, deal: int, game: Game) -> bool:
        """``deal`` no longer counts: the table is entered anew without it; False if it did not."""
        if self.counted.pop(deal, None) is None:
            return False
        table = game.new_table()
        for d in sorted(self.counted):
            if not table.over:
                self.counted[d].add_to(table)
        self.table = table
        return True
