"""Running a table in one process: deal, ask the players, record, score.

A :class:`Session` owns the whole truth (the engine's hands) and the table;
each player sees only its :func:`~core.observation.observe` view.  Every deal,
passed-out ones included, is written to the records folder as one
``tarock-record/1`` file.  A :class:`SessionListener` hears what happens, for
a client to show it.  The players are awaited (:class:`~core.players.Player`):
bots through :class:`~core.players.BotSeat`, a person through the line.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from tarock.client.players import Player
from tarock.client.text.rule_words import Terms
from tarock.core.actions import Action
from tarock.core.deal import active_seats, deal
from tarock.core.engine import Hand
from tarock.core.observation import TrickView, observe
from tarock.core.record import record_of
from tarock.core.registry import Variant, find_variant
from tarock.core.rules import PluginFailure, RuleError
from tarock.core.state import HandResult, Reason
from tarock.core.table import SheetRow, Table, contract_text
from tarock.net.store import write_file

MAX_VOID_DEALS = 1000
"""Passed-out deals in a row after which a session gives up."""

WhyNot = Callable[[Action], Reason | None]


@runtime_checkable
class WantsReasons(Protocol):
    """A player that can explain a rejected choice (a human seat).

    Before each of its decisions the session hands it a checker bound to its
    own seat: it answers for that seat's actions only, so it tells nothing
    about the other hands.
    """

    def explain_with(self, why_not: WhyNot) -> None: ...


class SessionListener:
    """What a client hears from a session; every method does nothing here."""

    def hand_started(self, session: Session, hand: Hand) -> None:
        """A new deal is on the table (``session.round`` / ``session.deal_no``)."""

    def action_taken(self, session: Session, hand: Hand, action: Action) -> None:
        """``action`` was applied (a client shows its seat's view of it)."""

    def trick_done(self, session: Session, hand: Hand, trick: TrickView) -> None:
        """A trick is complete."""

    def hand_over(self, session: Session, outcome: HandOutcome) -> None:
        """A deal is over, scored and recorded."""

    def table_over(self, session: Session) -> None:
        """All rounds are played."""


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One finished deal: its hand, result, sheet row (None when passed out)
    and record file (None when not recording)."""

    hand: Hand
    result: HandResult
    row: SheetRow | None
    path: Path | None
    round: int
    deal: int


def _stamp(records_dir: Path) -> str:
    """The time and a random part: two tables started in the same second into one folder
    (two processes) still write under names of their own."""
    while True:
        stamp = time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)
        if not any(records_dir.glob(f"table-{stamp}-*")):
            return stamp


class Session:
    """One table of ``rounds`` rounds for ``players`` (seat = index).

    ``seed`` makes the deals reproducible (bots bring their own seeds).
    ``records_dir`` None means no records are written.
    """

    def __init__(self, variant: str | Variant, players: Sequence[Player], *, seed: int,
                 records_dir: Path | None = None, rounds: int = 12,
                 options: Mapping[str, Any] | None = None,
                 listener: SessionListener | None = None, first_dealer: int = 0, keep: bool = False) -> None:
        found = find_variant(variant) if isinstance(variant, str) else variant
        self.rules = found.rules(dict(options or {}))
        self.variant = found.name
        self.players = list(players)
        self._explained: list[WantsReasons | None] = [
            p if isinstance(p, WantsReasons) else None for p in self.players]
        """Per seat, the player that wants reasons (asked once here, not per decision)."""
        try:
            active_seats(len(self.players), first_dealer, self.rules.players_per_hand)
        except ValueError as exc:
            raise RuleError(f"{found.name}: {exc}") from None
        self.seed = seed
        self.rng = random.Random(seed)
        self.table = Table(seats=len(self.players), rounds=rounds, dealer=first_dealer)
        self.listener = listener or SessionListener()
        self.records_dir = records_dir
        self.stamp = ""
        if records_dir is not None:
            records_dir.mkdir(parents=True, exist_ok=True)
            self.stamp = _stamp(records_dir)
        self.records: list[Path] = []
        self.finished: list[dict[str, Any]] | None = [] if keep else None
        """With ``keep``: each finished hand's record, a passed-out one marked (the table is kept:
        :meth:`client.tables.Tables.keep`)."""
        self.hand: Hand | None = None

    @property
    def round(self) -> int:
        """The number of the round being played."""
        return self.table.round

    @property
    def deal_no(self) -> int:
        """The deal within the round: 1, or more after passed-out deals."""
        return self.table.passed_out + 1

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def direction(self) -> str:
        """How play goes round the table (a fact of the variant): ``counterclockwise``
        or ``clockwise``; the next seat is always seat + 1."""
        return self.rules.variant_facts.direction

    @property
    def terms(self) -> Terms:
        """How this table's amounts and Kontra levels are written (its options)."""
        return Terms.of(self.rules.variant_facts)

    def record_pattern(self) -> str:
        """The glob pattern of this session's record files."""
        return f"table-{self.stamp}-*.json"

    async def play_hand(self) -> HandOutcome:
        """Deal and play one hand to its end; score and record it.

        A plugin that fails (:class:`~core.rules.PluginFailure`) ends it with
        the round, deal and seed named; the table stays as before the hand.
        """
        try:
            return await self._play_hand()
        except PluginFailure as exc:
            raise exc.at(self.round, self.deal_no, self.seed) from exc.__cause__

    async def _play_hand(self) -> HandOutcome:
        seats = len(self.players)
        active = active_seats(seats, self.table.dealer, self.rules.players_per_hand)
        hands, talon = deal(self.rules, self.rng, seats, active)
        hand = Hand(self.rules, self.table.dealer, hands, talon, seats, active, self.table.context)
        self.hand = hand
        round_no, deal_no = self.round, self.deal_no
        self.listener.hand_started(self, hand)
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None, "the engine names who moves until the hand is over"
            explained = self._explained[seat]
            if explained is not None:
                explained.explain_with(self._checker(hand, seat))
            action = await self.players[seat].decide(observe(hand, seat))
            tricks = len(hand.state.tricks)
            hand.apply(action)
            self.listener.action_taken(self, hand, action)
            if len(hand.state.tricks) > tricks:
                t = hand.state.tricks[-1]
                self.listener.trick_done(self, hand, TrickView(t.leader, tuple(t.seats),
                                                               tuple(t.cards), t.winner))
        result = hand.state.result
        assert result is not None
        path = self._write(hand, round_no, deal_no)
        if self.finished is not None:
            record = record_of(hand).to_json()
            self.finished.append({**record, "passed_out": True} if result.passed_out else record)
        row = self.table.add(result, contract_text(hand.state), self.rules.next_context(hand.state, result))
        if self.table.passed_out >= MAX_VOID_DEALS:
            raise RuntimeError(f"{MAX_VOID_DEALS} deals in a row were passed out")
        outcome = HandOutcome(hand, result, row, path, round_no, deal_no)
        self.listener.hand_over(self, outcome)
        return outcome

    async def run(self) -> Table:
        """Play hands until the table is over; return the table (in trio or asyncio)."""
        while not self.table.over:
            await self.play_hand()
        self.listener.table_over(self)
        return self.table

    @staticmethod
    def _checker(hand: Hand, seat: int) -> WhyNot:
        def why_not(action: Action) -> Reason | None:
            if action.seat != seat:
                return Reason("not-your-seat", "you can only act for your own seat")
            return hand.why_not(action)
        return why_not

    def _write(self, hand: Hand, round_no: int, deal_no: int) -> Path | None:
        if self.records_dir is None:
            return None
        path = self.records_dir / f"table-{self.stamp}-r{round_no:02d}-h{deal_no:02d}.json"
        write_file(path, record_of(hand).dumps() + "\n", "records folder")  # StoreError if it cannot
        self.records.append(path)
        return path
