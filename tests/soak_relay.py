"""A user-space "netem" for the lab (this kernel has no sch_netem): an Ethernet relay.

Run inside the lab's hub namespace, it forwards every frame between two interfaces
(raw ``AF_PACKET`` sockets), each direction late by ``--delay`` seconds (order kept)
and each frame dropped with probability ``--loss`` (from a seeded RNG)::

    ip netns exec HUB python tests/soak_relay.py --a p2 --b r2a --delay 0.2 --loss 0.1 --seed 7

The soak puts it between a host's bridge port (taken off the bridge) and a new veth
whose other end is on the bridge, so all of that host's traffic (TCP and mDNS) goes
through it. It prints ``ready`` once both sockets are bound, then a JSON line of
counts when it ends (SIGTERM or SIGINT, or standard input closed).
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import select
import signal
import socket
import sys
import time
from types import FrameType

ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
SOL_PACKET = 263
PACKET_VNET_HDR = 15
SNAP = 65536


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _open(iface: str) -> socket.socket:
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    # Frames come with (and go out with) their virtio-net header: checksums left to the
    # hardware and TSO/GSO super-frames pass through as they are, and the kernel
    # finishes them on the way out.
    sock.setsockopt(SOL_PACKET, PACKET_VNET_HDR, 1)
    sock.bind((iface, ETH_P_ALL))
    sock.setblocking(False)
    return sock


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--a", required=True, help="one interface")
    p.add_argument("--b", required=True, help="the other interface")
    p.add_argument("--delay", type=float, default=0.2, help="seconds each frame is held (default 0.2)")
    p.add_argument("--loss", type=float, default=0.1, help="probability a frame is dropped (default 0.1)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, _stop)
    rng = random.Random(args.seed)
    a, b = _open(args.a), _open(args.b)
    other = {a.fileno(): b, b.fileno(): a}
    pending: list[tuple[float, int, socket.socket, bytes]] = []
    counts = {"forwarded": 0, "dropped": 0, "too_big": 0, "send_errors": 0}
    seq = 0
    print("ready", flush=True)
    watch = [a, b, sys.stdin]
    try:
        while True:
            now = time.monotonic()
            while pending and pending[0][0] <= now:
                _, _, out, frame = heapq.heappop(pending)
                try:
                    out.send(frame)
                    counts["forwarded"] += 1
                except OSError as exc:
                    counts["too_big" if exc.errno == 90 else "send_errors"] += 1
            timeout = max(0.0, pending[0][0] - now) if pending else 1.0
            ready, _, _ = select.select(watch, [], [], timeout)
            for sock in ready:
                if sock is sys.stdin:
                    if not os.read(sys.stdin.fileno(), 4096):
                        raise KeyboardInterrupt
                    continue
                assert isinstance(sock, socket.socket)
                for _ in range(64):
                    try:
                        frame, address = sock.recvfrom(SNAP)
                    except BlockingIOError:
                        break
                    if address[2] == PACKET_OUTGOING:
                        continue  # what this relay sent itself
                    if rng.random() < args.loss:
                        counts["dropped"] += 1
                        continue
                    seq += 1
                    heapq.heappush(pending, (time.monotonic() + args.delay, seq, other[sock.fileno()], frame))
    except KeyboardInterrupt:
        pass
    print(json.dumps(counts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
