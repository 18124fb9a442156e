"""Which interfaces mDNS runs on, and which addresses a node advertises.

zeroconf's ``InterfaceChoice.Default`` fails (ENODEV) where there is no default or
multicast route, and ``InterfaceChoice.All`` also joins ``lo``; so we pass zeroconf an
explicit list of interface addresses and advertise exactly those. Only IPv4 for now.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Sequence
from pathlib import Path

import ifaddr

from tarock.net.values import value

__all__ = ["Interface", "NetworkChoice", "choose_network", "list_interfaces"]

log = logging.getLogger("tarock.net.discovery")

_IFF_UP = 0x1
_IFF_LOOPBACK = 0x8
_IFF_MULTICAST = 0x1000
LOOPBACK = "127.0.0.1"


@value
class Interface:
    """One IPv4 address of a network interface."""

    name: str
    address: str
    up: bool
    multicast: bool
    loopback: bool


@value
class NetworkChoice:
    """Where zeroconf listens (``bind``: interface addresses) and what we advertise."""

    bind: tuple[str, ...]
    advertise: tuple[str, ...]
    loopback_only: bool


def _flags(name: str) -> int | None:
    """The interface flags from Linux's sysfs, or None where there is none."""
    try:
        return int(Path("/sys/class/net", name, "flags").read_text().strip(), 16)
    except (OSError, ValueError):
        return None


def list_interfaces() -> list[Interface]:
    """Every IPv4 address on this machine, with the state of its interface."""
    found: list[Interface] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):  # IPv6 comes as a tuple
                continue
            loopback = ipaddress.IPv4Address(ip.ip).is_loopback
            flags = _flags(adapter.name)
            if flags is None:  # not Linux: listed addresses are assumed usable
                up, multicast = True, not loopback
            else:
                up, multicast = bool(flags & _IFF_UP), bool(flags & _IFF_MULTICAST)
                loopback = loopback or bool(flags & _IFF_LOOPBACK)
            found.append(Interface(adapter.name, ip.ip, up, multicast, loopback))
    return found


def _ipv4(text: str, what: str) -> str:
    try:
        return str(ipaddress.IPv4Address(text))
    except ValueError:
        raise ValueError(f"{what} {text!r} is not an IPv4 address (IPv6 is not supported yet)") from None


def choose_network(
    interfaces: Sequence[str] | None = None,
    addresses: Sequence[str] | None = None,
    *,
    available: Sequence[Interface] | None = None,
) -> NetworkChoice:
    """Choose the interfaces for mDNS and the addresses to advertise.

    ``interfaces``: interface names or IPv4 addresses to use (default: every interface
    that is up, multicast-capable and not loopback; loopback alone when there is none).
    ``addresses``: the addresses to advertise (default: those of the chosen interfaces).
    ``available`` replaces the machine's interface list (for tests).
    Raises ValueError naming what was asked for and not found.
    """
    have = list(list_interfaces() if available is None else available)
    if interfaces is not None:
        chosen: list[str] = []
        for wanted in interfaces:
            matches = [i.address for i in have if wanted in (i.name, i.address)]
            if not matches:
                names = ", ".join(sorted({f"{i.name} ({i.address})" for i in have})) or "none"
                raise ValueError(f"no IPv4 interface {wanted!r} here; the interfaces are: {names}")
            chosen += [m for m in matches if m not in chosen]
    else:
        chosen = [i.address for i in have if i.up and i.multicast and not i.loopback]
        if not chosen:
            log.info("no multicast-capable interface besides loopback: discovery stays on this machine")
            chosen = [LOOPBACK]
    bind = tuple(chosen)
    loopback_only = all(ipaddress.IPv4Address(a).is_loopback for a in bind)
    if addresses is not None:
        advertise = tuple(_ipv4(a, "advertised address") for a in addresses)
        if not advertise:
            raise ValueError("the list of addresses to advertise is empty")
    elif loopback_only:
        advertise = bind
    else:
        advertise = tuple(a for a in bind if not ipaddress.IPv4Address(a).is_loopback)
    return NetworkChoice(bind=bind, advertise=advertise, loopback_only=loopback_only)
