"""Peers that try to stop waiting bots from forming a table, for the formation tests.

Run inside a lab host (tests/netns.py)::

    python tests/lobby_nemesis.py silent --rounds 1 [--interface IP]
    python tests/lobby_nemesis.py flood --count 1000 --rounds 1 [--interface IP]

``silent``: a real node (net.node.Node, so it answers ``info`` like any node) that
announces itself ``waiting`` with the rules of ``tarock bot --rounds N`` and the smallest
node id there is (``00...``), and never invites anyone: without passing it over, the
waiting bots would wait for it for ever.

``flood``: ``--count`` valid ``waiting`` adverts with the same rules, node ids smaller than
any real one, registered with python-zeroconf (so they answer mDNS queries), at ports where
nothing listens (``--hang``: where connections hang, so that asking each takes a timeout).

Prints ``{"event": "ready", ...}`` once everything is announced; standard input's end,
SIGTERM or ``--lifetime`` ends it (with goodbyes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import trio

from tarock.core.plugins import load_plugins
from tarock.net.advert import SERVICE_TYPE, Advert, advert_to_txt, new_boot_nonce
from tarock.net.dealing import DEFAULT_DEALING
from tarock.net.discovery import instance_name, open_zeroconf_discovery
from tarock.net.game import Game
from tarock.net.lobby import waiting_advert
from tarock.net.node import Node, Waiting
from tarock.net.protocol.limits import PROTOCOL_MAX, PROTOCOL_MIN
from tarock.net.transport import TcpTransport

ROOT = Path(__file__).resolve().parent.parent


def emit(event: str, **fields: Any) -> None:
    print(json.dumps({"event": event, "t": time.monotonic(), **fields}), flush=True)


CATALOGUE = load_plugins(str(ROOT / "plugins.toml"))


def game(args: argparse.Namespace) -> Game:
    return Game.make(CATALOGUE, args.variant or CATALOGUE.enabled[0], {}, 4, args.rounds, DEFAULT_DEALING)


async def silent(args: argparse.Namespace) -> None:
    g = game(args)
    with tempfile.TemporaryDirectory() as state:
        node = Node("silent", CATALOGUE, TcpTransport("0.0.0.0", 0), Path(state))
        node.me = "0" * 32  # the smallest id: the one every other waiting node expects to invite
        async with trio.open_nursery() as nursery:
            nursery.cancel_scope.deadline = trio.current_time() + args.lifetime
            node.nursery = nursery
            await nursery.start(node.serve)
            node.waiting = Waiting(g)  # answers info as a waiting node; never looks at invitations
            async with open_zeroconf_discovery(interfaces=args.interface or None) as disc:
                await disc.publish(waiting_advert(node, g))
                emit("ready", node=node.me, port=node.port)
                await _until_stopped()
            nursery.cancel_scope.cancel()


async def _until_stopped() -> None:
    async with trio.open_nursery() as nursery:

        async def stdin() -> None:
            async with trio.lowlevel.FdStream(os.dup(sys.stdin.fileno())) as stream:
                while await stream.receive_some(4096):
                    pass
            nursery.cancel_scope.cancel()

        nursery.start_soon(stdin)
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as received:
            async for _ in received:
                nursery.cancel_scope.cancel()


def flood(args: argparse.Namespace) -> None:
    from zeroconf import IPVersion, ServiceInfo
    from zeroconf.asyncio import AsyncZeroconf

    from tarock.net.netif import choose_network

    g = game(args)
    network = choose_network(args.interface or None)
    closed = socket.socket()  # a port bound and never listened on: connections are refused
    closed.bind((network.advertise[0], 0))
    if args.hang:  # listened on and never accepted: connections hang (once the backlog is full)
        closed.listen(0)
    port = closed.getsockname()[1]

    async def main() -> None:
        aiozc = AsyncZeroconf(interfaces=list(network.bind), ip_version=IPVersion.V4Only)
        infos = []
        for i in range(args.count):
            node = f"{i:08x}" + secrets.token_hex(8)  # below any real id but those of 00000000...
            advert = Advert(node, "waiting", f"flood{i}", "", g.variant, g.hash, 0,
                            (PROTOCOL_MIN, PROTOCOL_MAX), new_boot_nonce(), port, g.rounds)
            infos.append(ServiceInfo(SERVICE_TYPE, instance_name(node), port=port,
                                     properties=advert_to_txt(advert), server=f"flood-{node}.local.",
                                     parsed_addresses=list(network.advertise)))
        started = time.monotonic()
        for k in range(0, len(infos), 100):
            tasks = [await aiozc.async_register_service(info, cooperating_responders=True)
                     for info in infos[k:k + 100]]
            await asyncio.gather(*tasks)
        emit("ready", count=len(infos), port=port, seconds=round(time.monotonic() - started, 3))
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        fd = sys.stdin.fileno()
        loop.add_reader(fd, lambda: None if os.read(fd, 4096) else stop.set())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=args.lifetime)
        await aiozc.async_close()
        emit("closed")

    asyncio.run(main())
    closed.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["silent", "flood"])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--variant")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--lifetime", type=float, default=120.0)
    parser.add_argument("--interface", action="append")
    parser.add_argument("--hang", action="store_true", help="flood: a port that never answers instead")
    args = parser.parse_args()
    if args.mode == "silent":
        trio.run(silent, args)
    else:
        flood(args)


if __name__ == "__main__":
    main()
