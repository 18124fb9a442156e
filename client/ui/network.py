"""Tables over the network at the full-screen client: the node, the tables found, a seat on the screen.

Everything here runs in trio, as a guest of the screen's asyncio loop
(:mod:`client.ui.bridge`); it uses issue 8's network layer (``net/``) as
the ``tarock host|join|watch`` commands do:

- :class:`Network` is this client's node (its crash-safe store, its
  listener) and the discovery of tables; the lobby lists what it finds;
- :class:`ScreenSeat` plays a seat through the screen: the node awaits it,
  it asks the :class:`~client.ui.model.TableModel` on the asyncio loop and
  awaits the player's answer there;
- :class:`ScreenListener` turns what the seat is told (the roster, each
  observation, tricks, results, the table's end) into the model's events;
- :meth:`Network.host`, :meth:`Network.join` and :meth:`Network.resume`
  play a table to its end (or until the client closes: the node's store
  keeps the seat, and the next start resumes it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from tarock.client.bots import make_bot
from tarock.client.errors import error_text, net_text
from tarock.client.i18n import _, p_
from tarock.client.players import BotSeat, Policy
from tarock.client.ui.bridge import Portal
from tarock.client.ui.lobby_model import LobbyModel, TableEntry
from tarock.client.ui.model import TableModel
from tarock.core.actions import Action
from tarock.core.observation import Observation
from tarock.core.plugins import Catalogue
from tarock.core.rules import RuleError
from tarock.net.advert import Seen
from tarock.net.dealing import COMMIT_REVEAL, DEFAULT_DEALING
from tarock.net.discovery import Discovery, DiscoveryError, open_zeroconf_discovery
from tarock.net.effects import (
    Acted,
    HandBegins,
    HandOver,
    Joined,
    Leave,
    Refusal,
    Shown,
    TableOver,
    TrickOver,
    Voided,
)
from tarock.net.game import Game
from tarock.net.lobby import (
    PLAYERS,
    Seated,
    advert_of_info,
    host_table,
    is_private,
    join_table,
    new_table,
    resume_seat,
)
from tarock.net.manual_discovery import open_manual_discovery
from tarock.net.node import Node
from tarock.net.protocol.limits import Timing
from tarock.net.seat import SeatCore
from tarock.net.transport import ConnectError, PeerAddress, TcpTransport

log = logging.getLogger("tarock.ui")
SEATS = 4


class NetError(Exception):
    """A table that cannot be opened, joined or watched (says what and why)."""


class ScreenSeat:
    """A seat played through the screen (a :class:`~client.players.Player` the node awaits).

    The node's trio task asks the :class:`~client.ui.model.TableModel` on the
    asyncio loop through :meth:`Portal.wait_asyncio <client.ui.bridge.Portal.wait_asyncio>`:
    the question is an asyncio task whose end wakes the trio task; cancelling the trio
    task (the table ends, the client closes) cancels the question.
    """

    def __init__(self, name: str, model: TableModel, portal: Portal) -> None:
        self.name = name
        self.model = model
        self.portal = portal

    async def decide(self, observation: Observation) -> Action:
        return await self.portal.wait_asyncio(self.model.ask(observation))


class ScreenListener:
    """What the node tells a seat, as the model's events (called in trio, in the screen's thread)."""

    def __init__(self, model: TableModel, catalogue: Catalogue) -> None:
        self.model = model
        self.catalogue = catalogue
        self.joined = False

    def __call__(self, event: Shown) -> None:
        model = self.model
        if isinstance(event, Joined):
            names = [_("Seat {n}").format(n=s + 1) for s in range(event.info.seats)]
            for s in event.roster:
                names[s.seat] = s.name
            model.names = names
            if event.seat is not None:
                model.seat = event.seat
            model.watching = event.seat is None
            model.rounds = event.info.rounds
            variant = self.catalogue.variants.get(event.info.variant)
            model.title = f"{event.info.name} · " + (
                p_("variant", variant.title) if variant else event.info.variant
            )
            if variant is not None and not model.option_specs:
                with contextlib.suppress(RuleError):
                    model.option_specs = dict(variant.rules(dict(event.info.options)).option_specs)
            free = event.info.seats - len(event.roster)
            if free and model.obs is None:
                model.message = _("Waiting for players: {n} of {seats} seated.").format(
                    n=len(event.roster), seats=event.info.seats
                )
            elif model.message.startswith(_("Waiting for players: {n} of {seats} seated.").split("{")[0]):
                model.message = ""
            model.note(_("At the table: {names}").format(names=", ".join(n for n in names)))
            if event.fingerprint:
                text = _("Roster fingerprint {fingerprint}: every player at this table sees the same one.")
                model.note(text.format(fingerprint=event.fingerprint))
            self.joined = True
            model.changed()
        elif isinstance(event, HandBegins):
            model.hand_started(event.obs, event.round, event.deal_in_round)
            if model.seat in event.bots:
                model.note(_("A bot plays your seat in this deal; you play again from the next one."))
            others = [s for s in event.bots if 0 <= s < len(model.names) and s != model.seat]
            away = ", ".join(model.names[s] for s in others)
            if away:
                model.note(_("Away: {names}. A bot plays for them until they return.").format(names=away))
        elif isinstance(event, Acted):
            seen = event.obs.history[-1] if event.obs.history else None
            if seen is not None:
                model.action_taken(event.obs, seen)
        elif isinstance(event, TrickOver):
            model.trick_done(event.obs, event.trick)
        elif isinstance(event, HandOver):
            model.hand_over(event.obs, event.table if event.row is not None else None)
            if event.bots and model.seat in event.bots:
                model.note(_("A bot played for you while you were away."))
        elif isinstance(event, Voided):
            reason = net_text(event.reason, model.names)
            model.note(_("The deal is void and is dealt again: {reason}").format(reason=reason))
            model.changed()
        elif isinstance(event, Refusal):
            if event.code not in ("stale", "not-now"):
                model.message = _("The host did not accept that: {reason}").format(reason=event.message)
                model.changed()
        elif isinstance(event, TableOver):
            model.table_over(event.table)


@dataclass
class NetSettings:
    """How this client's node reaches the network (the ``tarock host`` options of the same names)."""

    state: Path
    port: int = 0
    bind: str = "0.0.0.0"
    interfaces: Sequence[str] | None = None
    to: str | None = None
    """Ask this ``HOST:PORT`` for its table instead of browsing (networks that block multicast)."""
    timing: Timing = field(default_factory=Timing)
    records: Path | None = None


PLAYER_STORE = "player"
"""The store of the lobby's node, whatever the player's name: the seat it holds is reclaimed by the
node's identity (its key, kept there), so a new name keeps the seat."""


def _bot_for(seed: int) -> Callable[[int], Policy]:
    def make(seat: int) -> Policy:
        return make_bot("heuristic", seed * 10 + seat, _("Bot for seat {n}").format(n=seat + 1))

    return make


class Network:
    """This client's node and the tables it sees (module docstring); lives in the trio guest."""

    def __init__(self, name: str, catalogue: Catalogue, settings: NetSettings) -> None:
        self.name = name
        self.catalogue = catalogue
        self.settings = settings
        self.node: Node | None = None
        self.discovery: Discovery | None = None
        self.note = ""
        self.ready = trio.Event()
        self.lobby: LobbyModel | None = None
        self.portal: Portal | None = None
        self._stop = trio.Event()

    # -- the node's life -------------------------------------------------------------------
    async def run(self) -> None:
        """Listen and discover until :meth:`stop` (start it with the portal's ``start_soon``)."""
        s = self.settings
        try:
            transport = TcpTransport(s.bind, s.port)
            node = Node(self.name, self.catalogue, transport, s.state, timing=s.timing, records_dir=s.records,
                        store=PLAYER_STORE)
        except (ValueError, OSError) as exc:
            self.note = _("The network is not available: {reason}").format(reason=str(exc))
            self.ready.set()
            return
        self.node = node
        async with trio.open_nursery() as nursery:
            node.nursery = nursery
            try:
                await nursery.start(node.serve)
            except OSError as exc:
                self.note = _("The network is not available: {reason}").format(reason=str(exc))
                self.node = None
                self.ready.set()
                return
            try:
                async with self._open_discovery(node) as disc:
                    self.discovery = disc
                    self.ready.set()
                    nursery.start_soon(self._watch_tables, disc)
                    await self._stop.wait()
            except DiscoveryError as exc:
                self.note = _("Tables cannot be found on this network: {reason}").format(reason=str(exc))
                self.ready.set()
                await self._stop.wait()
            finally:
                self.discovery = None
                nursery.cancel_scope.cancel()

    def stop(self) -> None:
        self._stop.set()

    @contextlib.asynccontextmanager
    async def _open_discovery(self, node: Node) -> AsyncIterator[Discovery]:
        async def ask(address: PeerAddress) -> Any:
            return advert_of_info(await node.ask_info(address), address.port)

        to = self.settings.to
        if to:
            async with open_manual_discovery([PeerAddress.parse(to)], ask, interval=1.0) as manual:
                yield manual
            return
        # ``check``: every peer is asked once; those that answer stay in view under a flood.
        async with open_zeroconf_discovery(interfaces=self.settings.interfaces, check=ask) as disc:
            node.addresses = tuple(disc.network.advertise)
            node.lookup = lambda node_id: [a for seen in disc.current() if seen.advert.node_id == node_id
                                           for a in seen.endpoints]
            yield disc

    async def _watch_tables(self, disc: Discovery) -> None:
        while True:
            self._show_tables(disc)
            await disc.wait_changed(timeout=1.0)

    def entries(self) -> list[TableEntry]:
        disc = self.discovery
        if disc is None:
            return []
        out = []
        for seen in disc.current():
            a = seen.advert
            if a.kind != "table":
                continue
            variant = self.catalogue.variants.get(a.variant)
            title = p_("variant", variant.title) if variant is not None else a.variant
            players = tuple(p.strip() for p in a.extra.get(PLAYERS, "").split(",") if p.strip())
            out.append(
                TableEntry(a.name, a.variant, title, a.free_seats, players, a.rounds, seen, is_private(a))
            )
        return sorted(out, key=lambda e: e.name)

    def _show_tables(self, disc: Discovery) -> None:
        lobby = self.lobby
        if lobby is not None:
            lobby.set_tables(self.entries(), self.note)

    # -- tables ----------------------------------------------------------------------------
    def _node(self) -> Node:
        if self.node is None:
            raise NetError(self.note or _("The network is not available."))
        return self.node

    def saved_table(self) -> str:
        """The name of the network table this node's store holds a seat at (empty: none)."""
        info = self._saved_info()
        return info.name if info is not None else ""

    def saved_private(self) -> bool:
        """Whether the network table this node's store holds a seat at is private."""
        info = self._saved_info()
        return info is not None and info.private

    def _saved_info(self) -> Any:
        node = self.node
        if node is None:
            return None
        core = SeatCore(node.me, node.name, node.catalogue, node.store)
        if not core.restore() or core.over or core.info is None:
            return None
        return core.info

    def _use_pin(self, node: Node, pin: str) -> None:
        """The PIN this node opens, joins or goes on at a table with (empty: none)."""
        if len(pin) > 64:
            raise NetError(_("A PIN has at most 64 characters."))
        node.pin = pin or None

    def _left(self, node: Node, driver: Any, left: Leave, name: str) -> Leave:
        """What a seat's run ended with; a PIN the table refused is the lobby's message."""
        if driver in node.seats and left.code == "pin":
            node.seats.remove(driver)
        if left.code == "pin":
            log.info("%s", left.reason)
            raise NetError(_("“{name}” did not take that PIN: ask its host and try again.").format(name=name))
        return left

    async def host(
        self,
        model: TableModel,
        variant: str,
        options: dict[str, Any],
        rounds: int,
        name: str,
        bots: Sequence[str],
        pin: str = "",
    ) -> Leave:
        """Open a table (private with a ``pin``), seat the player and a bot of each kind of
        ``bots``, play it until it ends."""
        node = self._node()
        try:
            game = Game.make(self.catalogue, variant, options, SEATS, rounds, DEFAULT_DEALING)
        except RuleError as exc:
            raise NetError(error_text(exc)) from None
        self._use_pin(node, pin)
        info = new_table(game, name, private=bool(pin))
        seed = random.SystemRandom().randrange(1_000_000)
        names = [_("Bot {n}").format(n=k + 1) for k in range(len(bots))]
        robots = [Seated(BotSeat(make_bot(kind, seed + k, names[k])), lambda event: None)
                  for k, kind in enumerate(bots)]
        seat = self._screen_seat(model)
        disc = self.discovery
        publish = disc.publish if disc is not None else None
        try:
            return await host_table(
                node,
                game,
                info,
                Seated(seat, ScreenListener(model, self.catalogue), True),
                robots,
                _bot_for(seed),
                publish=publish,
            )
        finally:
            if disc is not None:
                with contextlib.suppress(Exception):
                    await disc.withdraw()

    async def join(self, model: TableModel, entry: TableEntry, watch: bool = False, pin: str = "") -> Leave:
        """Take a seat at (or watch) a table the lobby listed (a private one with its ``pin``)."""
        node = self._node()
        self._use_pin(node, pin)
        seen = entry.key
        if not isinstance(seen, Seen):
            raise NetError(_("That table is not on the network any more."))
        info = None
        address = None
        for endpoint in seen.endpoints:
            try:
                info = await node.ask_info(endpoint)
                address = endpoint
                break
            except ConnectError as exc:
                log.info("%s", exc)
        if info is None or address is None:
            raise NetError(_("The table {name} does not answer.").format(name=entry.name))
        self._check_rules(info)
        seat = self._screen_seat(model)
        driver = await join_table(
            node,
            address,
            info.table,
            info.rules,
            Seated(seat, ScreenListener(model, self.catalogue), True),
            _bot_for(0),
            watch=watch,
        )
        return self._left(node, driver, await driver.run(address), entry.name)

    async def resume(self, model: TableModel, pin: str = "") -> Leave | None:
        """Take again the seat this node's store holds, if its table is not over (a private
        table's with its ``pin``)."""
        node = self._node()
        self._use_pin(node, pin)
        seat = self._screen_seat(model)
        driver = resume_seat(node, Seated(seat, ScreenListener(model, self.catalogue), True), _bot_for(0))
        if driver is None:
            return None
        name = driver.core.info.name if driver.core.info is not None else ""
        return self._left(node, driver, await driver.run(None), name)

    def _screen_seat(self, model: TableModel) -> ScreenSeat:
        """The player's seat on the screen (called in trio, in the asyncio loop's thread)."""
        return ScreenSeat(self.name, model, self.portal or Portal(asyncio.get_running_loop()))

    def _check_rules(self, info: Any) -> None:
        try:
            game = Game.make(
                self.catalogue, info.variant, info.options, SEATS, max(1, info.rounds), COMMIT_REVEAL
            )
        except RuleError as exc:
            raise NetError(
                _("That table plays {variant}, which this installation cannot: {reason}").format(
                    variant=info.variant, reason=str(exc)
                )
            ) from None
        if game.hash != info.rules:
            raise NetError(
                _("That table plays {variant} with other plugins or plugin versions than here.").format(
                    variant=info.variant
                )
            )
