"""One decision of a real deal on the real screen: a model asked for ``obs``, keys in, the screen out.

:func:`at_decision` shows the table at a seat's observation (a hand stepped
by bots to that point), asks the model for the seat's decision as a table
driver would, and runs ``script`` against the terminal; the action the
player chose (if any) is returned.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence

from ui_harness import Driver, run
from ui_play import until

from tarock.client.bots import make_bot
from tarock.client.ui.app import run_table
from tarock.client.ui.hint import HINT
from tarock.client.ui.local import LocalTable, TableSetup
from tarock.client.ui.model import TableModel
from tarock.core.actions import Action
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import Observation, observe
from tarock.core.plugins import load_plugins

NAMES = ["Du", "Franz", "Hilde", "Sepp"]


def dealt(variant: str, seed: int, seats: int = 4) -> Hand:
    rules = load_plugins(None).find(variant).rules({})
    hands, talon = deal(rules, random.Random(seed), seats, ())
    return Hand(rules, seats - 1, hands, talon, seats, ())


def step_until(
    hand: Hand, test: Callable[[Observation], bool], limit: int = 400, seats: int = 4
) -> Observation | None:
    """Bots play ``hand`` until the seat to move sees an observation passing ``test`` (None: never)."""
    bots = [make_bot("heuristic", s, str(s)) for s in range(seats)]
    for _ in range(limit):
        seat = hand.state.to_move
        if seat is None:
            return None
        obs = observe(hand, seat)
        if test(obs):
            return obs
        hand.apply(bots[seat].decide(obs))
    return None


def find(variant: str, test: Callable[[Observation], bool], seeds: range = range(60)) -> Observation:
    for seed in seeds:
        obs = step_until(dealt(variant, seed), test)
        if obs is not None:
            return obs
    raise AssertionError("no deal reached the decision")


def against_bots(variant: str, rounds: int, seed: int, names: Sequence[str] = NAMES) -> TableSetup:
    """A table of ``variant`` for the player at seat 0 and three rule-of-thumb bots."""
    return TableSetup(variant, {}, list(names), ["", "heuristic", "heuristic", "heuristic"], rounds, seed)


async def model_of(ref: dict[str, object]) -> TableModel:
    """The model :func:`keeper` kept, once the table has started."""
    await until(lambda: "model" in ref)
    model = ref["model"]
    assert isinstance(model, TableModel)
    return model


def keeper(ref: dict[str, object]) -> Callable[[LocalTable, TableModel], None]:
    """What ``play_local(seen=...)`` is given: keeps the table and the model in ``ref``."""

    def keep(table: LocalTable, model: TableModel) -> None:
        ref["table"], ref["model"] = table, model

    return keep


def at_decision(
    obs: Observation,
    script: Callable[[Driver, TableModel], Awaitable[None]],
    cols: int = 80,
    rows: int = 24,
    names: Sequence[str] = NAMES,
    ask: bool = True,
    **fields: object,
) -> Action | None:
    """Show ``obs``, ask for its decision (unless not ``ask``: a watcher), run ``script``;
    ``fields`` set the model's (``watching``, ``network``)."""
    seat_names = [names[(s - obs.seat) % len(names)] if s != obs.seat else names[0] for s in range(obs.seats)]
    model = TableModel(seat=obs.seat, names=seat_names, title="Tarock", hint_fn=HINT)
    for name, value in fields.items():
        setattr(model, name, value)
    chosen: list[Action] = []

    async def drive(model: TableModel) -> None:
        model.hand_started(obs, 1, 1)
        if ask:
            chosen.append(await model.ask(obs))

    async def whole(d: Driver) -> None:
        await script(d, model)
        d.press("c-c")

    run(lambda: run_table(model, drive), whole, cols=cols, rows=rows, timeout=120)
    return chosen[0] if chosen else None
