"""Discovery: tables and waiting nodes announced and browsed as ``_tarock._tcp.local.``.

:class:`Discovery` is the one interface the node uses. :func:`open_zeroconf_discovery`
implements it over python-zeroconf; this module is the only place where zeroconf's
threads meet trio:

- zeroconf's listener callbacks run on its own thread and only hand the change to trio
  with ``TrioToken.run_sync_soon`` (thread-safe, never blocks);
- zeroconf's blocking calls (start, register, update, resolve, close) run in
  ``trio.to_thread`` under explicit timeouts.

:mod:`net.manual_discovery` implements the same interface for networks that block
multicast. The TXT keys are in :mod:`net.advert`; interfaces are chosen by :mod:`net.netif`.

Under a flood of adverts (docs/discovery.md, "A flood of adverts") the view stays bounded
(:class:`~net.discovery_view.PeerView`, a segmented LRU); with a ``check`` (the game
protocol's ``info`` exchange) every peer is asked once per boot, port and address: one that
answers is protected from eviction, one that cannot be reached leaves the view and is asked
again only after ``RETRY_FAILED`` s or a new announcement; peers evicted to make room are
offered to the view again, from the names the browser reported, as room appears.
"""

from __future__ import annotations

import collections
import contextlib
import ipaddress
import logging
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

import trio
from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

from tarock.net.advert import SERVICE_TYPE, Advert, AdvertError, Seen, advert_from_txt, advert_to_txt
from tarock.net.discovery_view import AskAdvert, DiscoveryEvent, PeerView, ask_within
from tarock.net.netif import NetworkChoice, choose_network
from tarock.net.newest_first import NewestFirst

__all__ = [
    "SERVICE_TYPE",
    "Advert",
    "Discovery",
    "DiscoveryError",
    "DiscoveryEvent",
    "Seen",
    "ZeroconfDiscovery",
    "instance_name",
    "open_zeroconf_discovery",
]

log = logging.getLogger("tarock.net.discovery")

MAX_NAMES = 4096
"""Service names remembered (those the browser reported, least recently reported forgotten first)."""
PROBES = 8
"""Peers asked at once."""
RESOLVERS = 4
"""Services resolved at once (each in a thread: zeroconf's resolution blocks)."""
RESCAN = 2.0
"""Seconds between offers of remembered names to a view that has room."""
RESCAN_BATCH = 64
"""Names offered at most per rescan."""
RETRY_FAILED = 30.0
"""Seconds before a peer that could not be reached is offered to the view again."""


class DiscoveryError(Exception):
    """Discovery could not start or publish; the message says where and why."""


class Discovery(Protocol):
    """Find peers and be found.  Used as ``async with open_..._discovery(...) as disc``."""

    async def publish(self, advert: Advert) -> None:
        """Announce ``advert`` (the first time), or replace what was announced."""
        ...

    async def withdraw(self) -> None:
        """Stop announcing (peers see the node removed); publish() may follow again."""
        ...

    def current(self) -> Sequence[Seen]:
        """The peers known now, the node itself filtered out."""
        ...

    async def wait_changed(self, *, timeout: float) -> bool:
        """True once the view changed since this last returned, False after ``timeout`` s."""
        ...

    async def next_event(self, *, timeout: float) -> DiscoveryEvent | None:
        """The next added/updated/removed event in order, or None after ``timeout`` s."""
        ...

    def answered(self, node_id: str) -> bool:
        """Whether the node answered when discovery asked it (True where discovery asks nothing)."""
        ...


def instance_name(node_id: str, service_type: str = SERVICE_TYPE) -> str:
    """The mDNS instance name of a node: unique because it holds the node id."""
    return f"tarock-{node_id}.{service_type}"


def _host_name(node_id: str) -> str:
    return f"tarock-{node_id}.local."


class ZeroconfDiscovery:
    """Discovery over mDNS/DNS-SD with python-zeroconf; make it with :func:`open_zeroconf_discovery`."""

    def __init__(
        self,
        zc: Zeroconf,
        network: NetworkChoice,
        *,
        service_type: str,
        resolve_timeout: float,
        op_timeout: float,
        check: AskAdvert | None = None,
        probe_timeout: float = 2.0,
        max_peers: int = 256,
    ) -> None:
        self.network = network
        self._zc = zc
        self._type = service_type
        self._resolve_timeout = resolve_timeout
        self._op_timeout = op_timeout
        self._token = trio.lowlevel.current_trio_token()
        self._view = PeerView(max_peers=max_peers)
        self._pending: dict[str, ServiceStateChange] = {}
        self._pending_wake = trio.Event()
        # The names the browser reported and not removed, least recently reported first,
        # with the generation of their latest change (a resolution of an older one is stale).
        self._generation: collections.OrderedDict[str, int] = collections.OrderedDict()
        self._changes = 0
        self._check = check
        self._probe_timeout = probe_timeout
        # Both queues hand out the newest announcement first: a flood waits, not a newcomer.
        self._resolving = NewestFirst(2 * MAX_NAMES)
        self._probing = NewestFirst(2 * MAX_NAMES)
        self._failed: collections.OrderedDict[str, float] = collections.OrderedDict()
        self._info: ServiceInfo | None = None
        self._own_node: str | None = None
        self._own_keys: set[str] = set()  # instance names we announce or announced
        self._lock = trio.Lock()
        self._refused: dict[str, str] = {}

    # -- zeroconf's thread ----------------------------------------------------------

    def on_service_state_change(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        """zeroconf's listener callback (on its thread): hand the change to trio, nothing more."""
        with contextlib.suppress(trio.RunFinishedError):  # trio is gone: nobody listens any more
            self._token.run_sync_soon(self._note, name, state_change)

    # -- trio -------------------------------------------------------------------------

    def _note(self, name: str, state_change: ServiceStateChange) -> None:
        key = name.lower()
        self._pending[key] = state_change
        self._changes += 1
        self._generation[key] = self._changes
        self._generation.move_to_end(key)
        self._failed.pop(key, None)  # announced anew: worth asking again
        while len(self._generation) > MAX_NAMES:
            forgotten, _ = self._generation.popitem(last=False)
            self._refused.pop(forgotten, None)
            self._failed.pop(forgotten, None)
        self._pending_wake.set()

    async def pump(self) -> None:
        """Turn noted changes into view changes, resolving added and updated services; ask
        peers (with a ``check``) and offer remembered names to a view with room."""
        async with trio.open_nursery() as nursery:
            if self._check is not None:
                for _ in range(PROBES):
                    nursery.start_soon(self._prober)
            for _ in range(RESOLVERS):
                nursery.start_soon(self._resolver)
            nursery.start_soon(self._rescan)
            while True:
                await self._pending_wake.wait()
                self._pending_wake = trio.Event()
                pending, self._pending = self._pending, {}
                for key, state in pending.items():
                    if self._is_own(key):
                        continue
                    if state is ServiceStateChange.Removed:
                        self._view.drop(key)
                        self._refused.pop(key, None)
                        self._generation.pop(key, None)
                    elif key in self._generation:
                        self._resolving.put(key, self._generation[key])

    async def _rescan(self) -> None:
        """Offer names the view lost (evicted, or unreachable ``RETRY_FAILED`` s ago) while it has room."""
        while True:
            await trio.sleep(RESCAN)
            room = min(RESCAN_BATCH, self._view.room)
            if room <= 0:
                continue
            now = trio.current_time()
            while self._failed and now - next(iter(self._failed.values())) >= RETRY_FAILED:
                self._failed.popitem(last=False)
            offer = [key for key in self._generation
                     if self._view.get(key) is None and key not in self._failed and key not in self._refused
                     and key not in self._pending and key not in self._resolving
                     and not self._is_own(key)][:room]
            for key in offer:
                self._generation.move_to_end(key)  # round robin over what does not fit
                self._resolving.put(key, self._generation[key])

    async def _prober(self) -> None:
        """Ask queued peers for their advert: protect those that answer, drop the others."""
        assert self._check is not None
        while True:
            key = await self._probing.get()
            seen = self._view.get(key)
            if seen is None or self._view.confirmed(key):
                continue
            why = await self._probe(seen)
            if self._view.get(key) != seen:
                continue  # changed meanwhile (and queued again) or gone
            if why is None:
                self._view.confirm(key)
            else:
                log.info("%s (%s) leaves the view: %s", key, seen.advert.name, why)
                self._failed[key] = trio.current_time()
                self._failed.move_to_end(key)
                while len(self._failed) > MAX_NAMES:
                    self._failed.popitem(last=False)
                self._view.drop(key)

    async def _probe(self, seen: Seen) -> str | None:
        """None when the node answers as the advert's node at one of its endpoints, else why not."""
        assert self._check is not None
        why = "no address"
        for address in seen.endpoints[:2]:
            got = await ask_within(self._check, address, self._probe_timeout)
            if got is None:
                why = f"no answer at {address} within {self._probe_timeout:g} s"
            elif isinstance(got, Exception):
                why = f"{address}: {got}"
            elif got.node_id == seen.advert.node_id:
                return None
            else:
                why = f"{address} answers as node {got.node_id[:16]}"
        return why

    def _is_own(self, key: str) -> bool:
        return key in self._own_keys

    def _request(self, key: str) -> ServiceInfo | None:
        """Resolve one service (blocking: run in a thread). None when it did not resolve."""
        info = ServiceInfo(self._type, key)
        try:
            if info.request(self._zc, int(self._resolve_timeout * 1000)):
                return info
        except Exception as exc:  # zeroconf closing under us, or a socket error
            log.debug("could not resolve %s: %r", key, exc)
        return None

    async def _resolver(self) -> None:
        """Resolve queued services, the newest announcement first."""
        while True:
            key = await self._resolving.get()
            generation = self._generation.get(key)
            if generation is None:  # removed meanwhile
                continue
            with trio.move_on_after(self._resolve_timeout + 1):
                info = await trio.to_thread.run_sync(self._request, key, abandon_on_cancel=True)
                if self._generation.get(key) == generation:  # else a newer change supersedes this one
                    self._accept(key, info)

    def _refuse(self, key: str, reason: str) -> None:
        if self._refused.get(key) != reason:  # one log line per peer and reason
            log.warning("ignored the advert of %s: %s", key, reason)
        self._refused[key] = reason
        self._view.drop(key)

    def _accept(self, key: str, info: ServiceInfo | None) -> None:
        if self._is_own(key):
            return
        if info is None:
            log.info("%s did not resolve within %g s", key, self._resolve_timeout)
            return
        if info.port is None:
            self._refuse(key, "no port in its SRV record")
            return
        try:
            advert = advert_from_txt(info.text or b"", port=info.port)
        except AdvertError as exc:
            self._refuse(key, str(exc))
            return
        if advert.node_id == self._own_node:
            return
        # Sorted: zeroconf lists addresses newest first, which would make equal views differ.
        addresses = tuple(sorted(info.parsed_addresses(IPVersion.V4Only), key=ipaddress.IPv4Address))
        if not addresses:
            self._refuse(key, "no IPv4 address")
            return
        self._refused.pop(key, None)
        self._view.put(key, Seen(advert, addresses))
        if self._check is not None and self._view.get(key) is not None and not self._view.confirmed(key):
            self._probing.put(key, self._generation.get(key, 0))

    # -- the Discovery interface -------------------------------------------------------

    def current(self) -> Sequence[Seen]:
        return self._view.current()

    def answered(self, node_id: str) -> bool:
        return self._check is None or self._view.node_confirmed(node_id)

    async def wait_changed(self, *, timeout: float) -> bool:
        return await self._view.wait_changed(timeout=timeout)

    async def next_event(self, *, timeout: float) -> DiscoveryEvent | None:
        return await self._view.next_event(timeout=timeout)

    async def publish(self, advert: Advert) -> None:
        info = ServiceInfo(
            self._type,
            instance_name(advert.node_id, self._type),
            port=advert.port,
            properties=advert_to_txt(advert),
            server=_host_name(advert.node_id),
            parsed_addresses=list(self.network.advertise),
        )
        async with self._lock:
            # Known before zeroconf registers, so our own announcement is filtered out
            # even when it arrives while register_service() still runs.
            self._own_keys.add(info.key)
            self._own_node = advert.node_id
            self._view.drop(info.key)
            self._view.drop_node(advert.node_id)
            with _bounded(self._op_timeout, f"announcing {info.name} took longer than {self._op_timeout:g} s",
                          lambda exc: f"announcing {info.name} failed: {exc!r}"):
                if self._info is not None and self._info.key == info.key:
                    await trio.to_thread.run_sync(self._zc.update_service, info)
                else:
                    if self._info is not None:
                        await trio.to_thread.run_sync(self._zc.unregister_service, self._info)
                        self._info = None
                    # Unique instance names (they hold the node id) make probing
                    # unnecessary; it would delay the first announcement by 1.6 s.
                    await trio.to_thread.run_sync(
                        lambda: self._zc.register_service(info, cooperating_responders=True)
                    )
            self._info = info

    async def withdraw(self) -> None:
        async with self._lock:
            if self._info is None:
                return
            info, self._info = self._info, None
            try:
                with trio.fail_after(self._op_timeout):
                    await trio.to_thread.run_sync(self._zc.unregister_service, info)
            except trio.TooSlowError:
                log.warning("withdrawing %s took longer than %g s", info.name, self._op_timeout)
            except Exception as exc:
                log.warning("withdrawing %s failed: %r", info.name, exc)


@contextlib.contextmanager
def _bounded(timeout: float, slow: str, failed: Callable[[Exception], str],
             errors: type[Exception] = Exception) -> Iterator[None]:
    """A block that must end within ``timeout`` seconds: a DiscoveryError saying ``slow`` when
    it does not, ``failed(exc)`` when it raises one of ``errors``."""
    try:
        with trio.fail_after(timeout):
            yield
    except trio.TooSlowError:
        raise DiscoveryError(slow) from None
    except errors as exc:
        raise DiscoveryError(failed(exc)) from exc


def _start_zeroconf(network: NetworkChoice) -> Zeroconf:
    return Zeroconf(interfaces=list(network.bind), ip_version=IPVersion.V4Only)


@asynccontextmanager
async def open_zeroconf_discovery(
    *,
    interfaces: Sequence[str] | None = None,
    addresses: Sequence[str] | None = None,
    service_type: str = SERVICE_TYPE,
    resolve_timeout: float = 3.0,
    op_timeout: float = 5.0,
    close_timeout: float = 5.0,
    check: AskAdvert | None = None,
    max_peers: int = 256,
) -> AsyncIterator[ZeroconfDiscovery]:
    """Browse (at once) and, after ``publish()``, announce over mDNS.

    ``interfaces`` (names or IPv4 addresses) and ``addresses`` (what to advertise) default
    to :func:`net.netif.choose_network`'s choice. Leaving the block withdraws with a
    goodbye, so peers see the node removed at once. ``check`` asks a peer for its advert
    (the module docstring); ``max_peers`` bounds the view. Raises DiscoveryError (or ValueError
    for a bad interface name) when mDNS cannot start.
    """
    network = choose_network(interfaces, addresses)
    bind = ", ".join(network.bind)
    with _bounded(op_timeout, f"mDNS did not start on {bind} within {op_timeout:g} s",
                  lambda exc: f"mDNS could not start on {bind}: {exc}", OSError):
        zc = await trio.to_thread.run_sync(_start_zeroconf, network)
    log.info("mDNS on %s, advertising %s", ", ".join(network.bind), ", ".join(network.advertise))
    browser: ServiceBrowser | None = None
    try:
        disc = ZeroconfDiscovery(
            zc, network, service_type=service_type, resolve_timeout=resolve_timeout, op_timeout=op_timeout,
            check=check, max_peers=max_peers,
        )
        async with trio.open_nursery() as nursery:
            nursery.start_soon(disc.pump)
            handler: Any = disc.on_service_state_change
            with trio.fail_after(op_timeout):
                browser = await trio.to_thread.run_sync(
                    lambda: ServiceBrowser(zc, service_type, handlers=[handler])
                )
            yield disc
            nursery.cancel_scope.cancel()
    finally:
        with trio.move_on_after(close_timeout) as scope:
            scope.shield = True
            if browser is not None:
                await trio.to_thread.run_sync(browser.cancel, abandon_on_cancel=True)
            # close() unregisters what we announced (goodbye packets) and stops the threads.
            await trio.to_thread.run_sync(zc.close, abandon_on_cancel=True)
        if scope.cancelled_caught:
            log.warning("mDNS did not close within %g s", close_timeout)
