"""A table in this process: the player at one seat, bots at the others.

The engine runs here (one truth: the state changes only by actions); each
seat sees only its observation.  Bots think in a worker thread, so the
screen stays live.  After every action the table is saved
(:class:`SavedTable`: the records of the finished hands and of the hand in
play, which replay to the identical state), so a closed client loses
nothing: opened again, the table goes on at the same action.  Finished
hands are also written to the records folder as ``tarock-record/2`` files.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from tarock.client.bots import make_bot
from tarock.client.i18n import _
from tarock.client.players import BotSeat, Player, Policy
from tarock.client.text.rule_words import reason_text
from tarock.client.ui.model import TableModel
from tarock.client.ui.undo import Undone, replayed, undo_point
from tarock.core.actions import Action
from tarock.core.codec import RecordError
from tarock.core.deal import active_seats, deal
from tarock.core.engine import Hand, IllegalAction
from tarock.core.observation import Observation, TrickView, observe
from tarock.core.plugins import Catalogue
from tarock.core.record import record_of, replay
from tarock.core.rules import PluginFailure, RuleError, Rules
from tarock.core.state import Reason
from tarock.core.table import SheetRow, Table, contract_text
from tarock.net.store import write_file

FORMAT = "tarock-ui-table/1"
SAVE_NAME = "local-table.json"


def state_dir() -> Path:
    """Where the client keeps what it must not lose: ``$TAROCK_STATE`` or the user's state folder."""
    return Path(os.environ.get("TAROCK_STATE") or platformdirs.user_state_dir("tarock"))


class SaveError(Exception):
    """A saved table that cannot be read or resumed (says what and why)."""


@dataclass
class TableSetup:
    """What a local table is: rules, players, bots, rounds, the seed of its deals."""

    variant: str
    options: dict[str, Any]
    names: list[str]
    bots: list[str]
    """The bot kind of each seat; ``""`` for the player's own seat."""
    rounds: int = 12
    seed: int = field(default_factory=lambda: random.SystemRandom().randrange(1_000_000))
    human: int = 0
    stamp: str = field(default_factory=lambda: time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2))

    @property
    def seats(self) -> int:
        return len(self.names)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "options": self.options,
            "names": self.names,
            "bots": self.bots,
            "rounds": self.rounds,
            "seed": self.seed,
            "human": self.human,
            "stamp": self.stamp,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> TableSetup:
        try:
            setup = cls(
                str(raw["variant"]),
                dict(raw["options"]),
                [str(n) for n in raw["names"]],
                [str(b) for b in raw["bots"]],
                int(raw["rounds"]),
                int(raw["seed"]),
                int(raw["human"]),
                str(raw["stamp"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(_("the saved table is incomplete ({error})").format(error=exc)) from None
        if len(setup.bots) != setup.seats or not 0 <= setup.human < setup.seats:
            raise SaveError(_("the saved table's seats do not add up"))
        return setup


class SavedTable:
    """The file a local table is kept in, written atomically after every action."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def exists(self) -> bool:
        return self.path.exists()

    def write(
        self, setup: TableSetup, finished: Sequence[dict[str, Any]], current: dict[str, Any] | None
    ) -> None:
        data = {"format": FORMAT, "setup": setup.to_json(), "finished": list(finished), "current": current}
        write_file(self.path, json.dumps(data, ensure_ascii=False), "state folder")  # StoreError if it cannot

    def read(self) -> tuple[TableSetup, list[dict[str, Any]], dict[str, Any] | None]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except OSError as exc:
            message = _("cannot read {path}: {error}").format(path=self.path, error=exc.strerror)
            raise SaveError(message) from None
        except json.JSONDecodeError as exc:
            raise SaveError(_("{path} is not JSON: {error}").format(path=self.path, error=exc)) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveError(_("{path} is not a saved table ({format})").format(path=self.path, format=FORMAT))
        finished = data.get("finished")
        current = data.get("current")
        if not isinstance(finished, list) or not (current is None or isinstance(current, dict)):
            raise SaveError(_("{path}: the hands are malformed").format(path=self.path))
        return TableSetup.from_json(data.get("setup") or {}), finished, current

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)

    def summary(self) -> tuple[TableSetup, int] | None:
        """The saved table's setup and the rounds it has played, or None if there is none to resume."""
        if not self.exists():
            return None
        try:
            setup, finished, _current = self.read()
        except SaveError:
            return None
        played = sum(1 for rec in finished if not _passed_out(rec))
        return setup, played


def _passed_out(record: Mapping[str, Any]) -> bool:
    return bool(record.get("passed_out"))


class LocalTable:
    """Runs a table of ``setup`` for a :class:`TableModel` (the player's seat)."""

    def __init__(
        self,
        setup: TableSetup,
        catalogue: Catalogue,
        save: SavedTable | None,
        records_dir: Path | None = None,
        pace: float = 0.0,
        bot_factory: Callable[[str, int, str], Policy] = make_bot,
    ) -> None:
        self.setup = setup
        self.variant = catalogue.find(setup.variant)
        self.rules: Rules = self.variant.rules(setup.options)
        try:
            active_seats(setup.seats, 0, self.rules.players_per_hand)
        except ValueError as exc:
            raise RuleError(f"{setup.variant}: {exc}") from None
        self.save = save
        self.records_dir = records_dir
        self.pace = pace
        self.players: list[Player | None] = [
            None if s == setup.human else BotSeat(bot_factory(kind, setup.seed * 8 + s, setup.names[s]))
            for s, kind in enumerate(setup.bots)
        ]
        self.table = Table(seats=setup.seats, rounds=setup.rounds)
        self.finished: list[dict[str, Any]] = []
        self.hand: Hand | None = None
        self._undo: tuple[int, int | None] = (-1, None)
        self.resumed = False
        self.stopped = False
        self._restored: list[tuple[Hand, SheetRow]] = []

    # -- resuming ------------------------------------------------------------------------
    def restore(self, finished: Sequence[dict[str, Any]], current: dict[str, Any] | None) -> None:
        """Replay the saved hands: the table's sheet and context, and the hand in play."""
        for raw in finished:
            hand = self._replayed(raw)
            result = hand.state.result
            if not hand.done or result is None:
                raise SaveError(_("a finished hand of the saved table does not replay to its end"))
            row = self.table.add(
                result, contract_text(hand.state), self.rules.next_context(hand.state, result)
            )
            if row is not None:
                self._restored.append((hand, row))
            self.finished.append(raw)
        if current is not None:
            hand = self._replayed(current)
            if hand.context != self.table.context:
                raise SaveError(_("the saved hand in play does not follow the finished ones"))
            self.hand = None if hand.done else hand
        self.resumed = True

    def restored_rounds(self) -> list[tuple[Observation, SheetRow]]:
        """The rounds replayed by :meth:`restore`, as the player saw each at its end."""
        return [(observe(hand, self.setup.human), row) for hand, row in self._restored]

    def _replayed(self, raw: dict[str, Any]) -> Hand:
        record = {k: v for k, v in raw.items() if k != "passed_out"}
        try:
            rep = replay(record, rules=self.rules)
        except RecordError as exc:
            raise SaveError(_("a saved hand cannot be replayed: {error}").format(error=exc)) from None
        if rep.hand is None or rep.error_index is not None:
            why = reason_text(rep.reason) or _("unknown")
            message = _("a saved hand stops at action {n}: {reason}").format(n=rep.error_index, reason=why)
            raise SaveError(message)
        return rep.hand

    # -- playing -------------------------------------------------------------------------
    def _new_hand(self) -> Hand:
        seats = self.setup.seats
        rng = random.Random(f"{self.setup.seed}/{self.table.deals}")
        active = active_seats(seats, self.table.dealer, self.rules.players_per_hand)
        hands, talon = deal(self.rules, rng, seats, active)
        return Hand(self.rules, self.table.dealer, hands, talon, seats, active, self.table.context)

    def _persist(self, hand: Hand | None) -> None:
        if self.save is None:
            return
        current = record_of(hand).to_json() if hand is not None else None
        self.save.write(self.setup, self.finished, current)

    def why_not(self, hand: Hand, seat: int) -> Callable[[Action], Reason | None]:
        def check(action: Action) -> Reason | None:
            if action.seat != seat:
                return Reason("not-your-seat", "you can only act for your own seat")
            return hand.why_not(action)

        return check

    async def run(self, model: TableModel) -> Table:
        """Play until the table is over (or :meth:`stop`); return the table.

        A plugin that fails (:class:`~core.rules.PluginFailure`) ends the table
        with its round, deal and seed named; the hand stands as before it.
        """
        try:
            return await self._run(model)
        except PluginFailure as exc:
            raise exc.at(self.table.round, self.table.passed_out + 1, self.setup.seed) from exc.__cause__

    async def _run(self, model: TableModel) -> Table:
        while not self.table.over and not self.stopped:
            hand = self.hand or self._new_hand()
            self.hand = hand
            self._persist(hand)
            self._retell(hand, model)
            while not hand.done:
                seat = hand.state.to_move
                assert seat is not None
                obs = observe(hand, seat)
                player = self.players[seat]
                if player is None:
                    try:
                        action = await model.ask(obs, self.why_not(hand, seat))
                    except Undone:
                        hand = self._take_back(hand, model)
                        continue
                else:
                    if self.pace:
                        await asyncio.sleep(self.pace)
                    action = await player.decide(obs)
                tricks = len(hand.state.tricks)
                try:
                    hand.apply(action)
                except IllegalAction as exc:  # a bot's mistake must not end the table
                    raise RuntimeError(f"seat {seat} chose an illegal action: {exc}") from exc
                self._persist(hand)
                self._tell(hand, action, tricks, model)
                if len(hand.state.tricks) > tricks and self.pace and not hand.done:
                    await asyncio.sleep(self.pace * 2)
            await self._finish(hand, model)
            await model.acknowledge()
        model.table_over(self.table)
        if self.table.over and self.save is not None:
            self.save.remove()
        return self.table

    # -- undo ----------------------------------------------------------------------------
    def undo_point(self) -> int | None:
        """How many actions of the hand in play stay if the player takes back the last own
        action now (None: not now; see :mod:`client.ui.undo`)."""
        hand = self.hand
        if hand is None:
            return None
        if self._undo[0] != len(hand.state.actions):  # drawn often: worked out once per action
            self._undo = (len(hand.state.actions), undo_point(hand, self.setup.human))
        return self._undo[1]

    def undo(self, model: TableModel) -> None:
        """Take back the player's last action, if it may be (the model's question is withdrawn)."""
        if self.undo_point() is not None:
            model.withdraw(Undone())
        else:
            model.message = _("Nothing to take back: a card has been seen since, or it is not your turn.")
            model.changed()

    def _take_back(self, hand: Hand, model: TableModel) -> Hand:
        point = self.undo_point()
        if point is None:
            return hand
        self.hand = replayed(hand, point)
        self._persist(self.hand)
        self._retell(self.hand, model)
        model.note(_("You took back your last action."))
        return self.hand

    def _tell(self, hand: Hand, action: Action, tricks: int, model: TableModel) -> None:
        """Tell the screen ``action`` (applied to ``hand``, which had ``tricks`` tricks before)."""
        me = self.setup.human
        model.action_taken(observe(hand, me), action)
        if len(hand.state.tricks) > tricks:
            t = hand.state.tricks[-1]
            model.trick_done(observe(hand, me), TrickView(t.leader, tuple(t.seats), tuple(t.cards), t.winner))

    def _retell(self, hand: Hand, model: TableModel) -> None:
        """Start the hand on the screen; a resumed hand's actions so far are told again
        (from its deal), so its log reads as it did before the table was closed."""
        s = hand.state
        hands, talon = hand.deal
        dealt = [list(h) for h in hands], [list(p) for p in talon]
        start = Hand(self.rules, s.dealer, *dealt, s.seats, s.active, hand.context)
        model.hand_started(observe(start, self.setup.human), self.table.round, self.table.passed_out + 1)
        for action in s.actions:
            tricks = len(start.state.tricks)
            start.apply(action)
            self._tell(start, action, tricks, model)

    async def _finish(self, hand: Hand, model: TableModel) -> None:
        result = hand.state.result
        assert result is not None
        record = record_of(hand).to_json()
        if self.records_dir is not None:
            round_no, deal_no = self.table.round, self.table.passed_out + 1
            path = self.records_dir / f"table-{self.setup.stamp}-r{round_no:02d}-h{deal_no:02d}.json"
            # StoreError if it cannot: the saved table still holds the hand, finished again on resume
            write_file(path, json.dumps(record, ensure_ascii=False) + "\n", "records folder")
        self.table.add(result, contract_text(hand.state), self.rules.next_context(hand.state, result))
        self.finished.append({**record, "passed_out": result.passed_out} if result.passed_out else record)
        self.hand = None
        self._persist(None)
        model.hand_over(observe(hand, self.setup.human), self.table)

    def stop(self) -> None:
        """The player ends the table now: the save is removed, the standings are final as they are."""
        self.stopped = True
        if self.save is not None:
            self.save.remove()
