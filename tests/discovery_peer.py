"""A process that runs our mDNS discovery and prints what it sees, one JSON object a line.

Run by the multi-host discovery tests inside a lab host::

    python tests/discovery_peer.py --node 0123abcd... --name bot0 [--lifetime 60]

Prints ``{"event": "publishing"}`` when it starts to announce, ``{"event": "ready", ...}``
once zeroconf has sent its announcements (about 0.45 s later), then
``{"event": "added"|"updated"|"removed", "node": ..., "boot": ..., "addresses": [...]}``
for each change, with ``"t"``: ``time.monotonic()`` (shared by all namespaces). SIGTERM or
the end of standard input closes discovery cleanly (goodbye packets) and exits 0.
Lines on standard input are commands (``free N``, ``withdraw``, ``publish``), each
answered with ``{"event": "done", ...}``.

``--rogue-txt HEX`` instead announces a service with that raw TXT data with zeroconf
directly (no validation), to play a peer that sends malformed adverts.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import trio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarock.net.advert import SERVICE_TYPE, Advert, new_boot_nonce
from tarock.net.discovery import instance_name, open_zeroconf_discovery


def emit(event: str, **fields: Any) -> None:
    print(json.dumps({"event": event, "t": time.monotonic(), **fields}), flush=True)


Commands = trio.MemorySendChannel[str]


async def until_stopped(cancel: trio.CancelScope, commands: Commands) -> None:
    """Pass standard input's lines on as commands; cancel ``cancel`` at its end or on SIGTERM/SIGINT."""
    async with trio.open_nursery() as nursery:

        async def stdin() -> None:
            # Read in trio (no thread: a thread blocked on stdin aborts the interpreter at exit).
            buffer = b""
            async with trio.lowlevel.FdStream(os.dup(sys.stdin.fileno())) as stream:
                while chunk := await stream.receive_some(4096):
                    buffer += chunk
                    *lines, buffer = buffer.split(b"\n")
                    for line in lines:
                        commands.send_nowait(line.decode().strip())
            cancel.cancel()

        nursery.start_soon(stdin)
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as received:
            async for _ in received:
                cancel.cancel()


async def discover(args: argparse.Namespace, commands: trio.MemoryReceiveChannel[str]) -> None:
    """Browse and announce until cancelled; leaving closes discovery with goodbyes.

    Commands: ``free N`` (publish the advert with N free seats), ``withdraw``, ``publish``.
    """
    async with open_zeroconf_discovery(interfaces=args.interface or None) as disc:
        advert = Advert(
            node_id=args.node,
            kind="waiting",
            name=args.name,
            table_id="",
            variant=args.variant,
            rules_hash="0" * 64,
            free_seats=3,
            protocol=(1, 1),
            boot=new_boot_nonce(),
            port=args.port,
        )
        async with trio.open_nursery() as nursery:

            async def report() -> None:
                while True:
                    event = await disc.next_event(timeout=3600)
                    if event is not None:
                        seen = event.seen
                        emit(
                            event.kind,
                            node=seen.advert.node_id,
                            name=seen.advert.name,
                            boot=seen.advert.boot,
                            free=seen.advert.free_seats,
                            addresses=list(seen.addresses),
                            port=seen.advert.port,
                        )

            nursery.start_soon(report)
            emit("publishing", node=advert.node_id)
            await disc.publish(advert)
            emit("ready", node=advert.node_id, boot=advert.boot, advertise=list(disc.network.advertise))
            async for command in commands:
                words = command.split()
                if words[:1] == ["free"] and len(words) == 2:
                    advert = dataclasses.replace(advert, free_seats=int(words[1]))
                    await disc.publish(advert)
                elif words == ["withdraw"]:
                    await disc.withdraw()
                elif words == ["publish"]:
                    await disc.publish(advert)
                else:
                    emit("error", command=command)
                    continue
                emit("done", command=command)


async def run(args: argparse.Namespace) -> None:
    # Signals are taken over first, so that a SIGTERM at any moment ends with goodbyes.
    send, receive = trio.open_memory_channel[str](100)
    async with trio.open_nursery() as nursery:
        nursery.cancel_scope.deadline = trio.current_time() + args.lifetime
        nursery.start_soon(until_stopped, nursery.cancel_scope, send)
        await discover(args, receive)
    emit("closed")


def run_rogue(args: argparse.Namespace) -> None:
    from zeroconf import IPVersion, ServiceInfo, Zeroconf

    from tarock.net.netif import choose_network

    network = choose_network(args.interface or None)
    zc = Zeroconf(interfaces=list(network.bind), ip_version=IPVersion.V4Only)
    info = ServiceInfo(
        SERVICE_TYPE,
        instance_name(args.node),
        port=args.port,
        properties=bytes.fromhex(args.rogue_txt),
        server=f"rogue-{args.node}.local.",
        addresses=[socket.inet_aton(a) for a in network.advertise],
    )
    zc.register_service(info, cooperating_responders=True)
    emit("ready", node=args.node, rogue=True)
    stop = False

    def on_signal(signum: int, frame: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_signal)
    deadline = time.monotonic() + args.lifetime
    while not stop and time.monotonic() < deadline:
        time.sleep(0.1)
    zc.close()
    emit("closed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node", required=True)
    parser.add_argument("--name", default="peer")
    parser.add_argument("--variant", default="tarock54")
    parser.add_argument("--port", type=int, default=7654)
    parser.add_argument("--lifetime", type=float, default=60.0)
    parser.add_argument("--interface", action="append", help="interface name or address (repeatable)")
    parser.add_argument("--rogue-txt", help="announce this raw TXT data (hex) instead")
    parser.add_argument("--debug", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    logging.getLogger("zeroconf").setLevel(logging.WARNING)
    if args.rogue_txt is not None:
        run_rogue(args)
    else:
        trio.run(run, args)


if __name__ == "__main__":
    main()
