"""The random stream both dealing schemes draw from, and the shuffle they draw with.

The stream is SHA-256 of a key and a counter; the shuffle is Fisher–Yates from the end.
Commit-reveal shuffles the deck with the stream of all seeds (:mod:`net.commit_reveal`);
a mental-poker seat permutes the deck with the stream of its own seed
(:func:`net.barnett_smart.permutation`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence


class Stream:
    """Bytes SHA-256(key || counter as 8 bytes big-endian), counter 0, 1, 2 ... (the random
    stream of commit-reveal's deal and of a mental-poker seat's shuffle)."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.counter = 0
        self._buf = b""

    def take(self, n: int) -> bytes:
        while len(self._buf) < n:
            self._buf += hashlib.sha256(self.key + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def below(self, m: int) -> int:
        """A uniform integer 0..m-1: 4 bytes big-endian, rejected at or above the
        largest multiple of m below 2**32."""
        bound = (1 << 32) - (1 << 32) % m
        while True:
            x = int.from_bytes(self.take(4), "big")
            if x < bound:
                return x % m


def shuffle(deck: Sequence[int], stream: Stream) -> list[int]:
    """``deck`` shuffled by ``stream``: Fisher-Yates from the end, for i = n-1 .. 1 swap items
    i and below(i + 1)."""
    order = list(deck)
    for i in range(len(order) - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order
