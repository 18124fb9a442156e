"""A node's memory does not grow with the hands it played (issue 20).

Four nodes play in this process over loopback TCP (the host agreement among them, as in
``tarock bot``); tracemalloc traces from hand :data:`START` on (what a node allocates once,
its caches and buffers, is allocated by hand :data:`FROM`), and what is allocated between
hand :data:`FROM` and hand :data:`TO` and still held is the growth of the four nodes over
those hands.  Before the finished hands moved out of memory it was about 240 KiB a hand (the
Raft log, the score sheets' records and replayed hands, a seat's decisions and round trips);
after, about 12 KiB.  The bound is far below the one and far above the other (``python
tests/mem_growth.py --in-process`` prints the figures).
"""

from __future__ import annotations

import trio
from mem_growth import in_process

START, FROM, TO = 10, 20, 45
BOUND_KIB_PER_HAND = 48
"""For all four nodes together (what is left: the score sheets' rows and tallies, a few hundred
bytes a hand each, and caches still filling up: the latest round trips, trio's timer heap)."""


async def test_memory_does_not_grow_with_the_hands_played() -> None:
    figures: list[dict[str, int]] = []
    with trio.fail_after(900):
        await in_process(TO, "commit-reveal/1", (START, FROM, TO), report=figures.append)
    _, first, last = figures
    assert (first["hand"], last["hand"]) == (FROM, TO)
    per_hand = (last["traced_kb"] - first["traced_kb"]) / (TO - FROM)
    print(f"traced growth {per_hand:.1f} KiB a hand (hands {FROM}..{TO}, four nodes)")
    assert per_hand < BOUND_KIB_PER_HAND, figures
