"""What the sans-IO table cores ask their driver to do.

The cores (:mod:`net.host`, :mod:`net.seat`) never touch a socket or a clock:
they return effects, and the trio node carries them out.
"""

from __future__ import annotations

from typing import Any

from tarock.core.facts import VariantFacts
from tarock.core.observation import Observation, TrickView
from tarock.core.table import SheetRow, Table
from tarock.net.agreement.outcome import Outcome
from tarock.net.protocol.messages import SeatInfo, Signed, TableInfo
from tarock.net.values import value


@value
class Send:
    """Send ``body`` to the node ``to`` (a seat's or a watcher's node id)."""

    to: str
    body: Signed


@value
class Drop:
    """Close the connection of ``to`` (logged with ``reason``): it broke the protocol, or
    this host stops hosting (``code`` ``resigned``)."""

    to: str
    code: str
    reason: str


@value
class Note:
    """A line for the node's log."""

    text: str


@value
class ToHost:
    """(Seat) send ``body`` to the host."""

    body: Signed


@value
class Decide:
    """(Seat) the player must choose one of ``obs.legal``; answer with ``SeatCore.decided``.
    (Host) the bot of an away seat (``obs.seat``) must; answer with ``HostCore.stand_in_decided``."""

    obs: Observation
    deal: int
    index: int


@value
class Leave:
    """(Seat) this node leaves the table: ``done`` when it is over, else why."""

    code: str
    reason: str


@value
class TableDone:
    """(Host) every round is played and checked: the table is over."""


@value
class Propose:
    """(Host) append ``outcome`` to the table's log; it counts once a majority holds it, and
    the host hears of that by :meth:`~net.host.HostCore.committed`."""

    outcome: Outcome


@value
class StepDown:
    """(Host) a newer host exists (``epoch``): stop hosting and join it as a seat."""

    epoch: int
    host: str


# -- what a player's screen shows (seat side) ------------------------------------------

@value
class Joined:
    info: TableInfo
    roster: tuple[SeatInfo, ...]
    seat: int | None
    epoch: int
    host: str
    facts: VariantFacts
    """What a screen needs of the rules (money unit, Kontra words, direction of play)."""
    fingerprint: str = ""
    """The roster's fingerprint (``3fa2-91c0-7d15``): the same on every player's screen
    when everyone sits at the same table with the same keys."""


@value
class HandBegins:
    obs: Observation
    round: int
    rounds: int
    deal_in_round: int
    bots: tuple[int, ...] = ()
    """The seats a bot of the host's node plays in this deal: their players are away."""


@value
class Acted:
    obs: Observation
    phase_before: str


@value
class TrickOver:
    obs: Observation
    trick: TrickView


@value
class HandOver:
    obs: Observation
    row: SheetRow | None
    table: Table
    bots: tuple[int, ...]


@value
class Voided:
    deal: int
    reason: str
    culprit: str


@value
class Refusal:
    """This seat's action was not taken (the engine refused it: ``code`` and why)."""

    code: str
    message: str


@value
class TableOver:
    table: Table


@value
class FirstCard:
    """The first card of the table was played (for benchmarks)."""

    deal: int
    index: int


Shown = Joined | HandBegins | Acted | TrickOver | HandOver | Voided | Refusal | TableOver | FirstCard


@value
class Show:
    """(Seat) something for the player's screen."""

    event: Shown


Effect = Send | Drop | Note | ToHost | Decide | Leave | TableDone | Propose | StepDown | Show
Plain = Any
