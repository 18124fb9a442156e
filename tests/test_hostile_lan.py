"""A short run of the hostile-LAN fuzzer (tests/hostile_lan.py) against a real table of four
``tarock bot`` processes in network namespaces, each under a file limit of 256 that the flood
passes: garbage frames, connection floods, held idle connections and half handshakes beyond
that limit, and adverts of made-up nodes.  A seat's node is killed during the flood and must
get back in.  The table goes on: the same records at every node, deals finished during the
flood, no void naming anybody, no traceback."""

from __future__ import annotations

import argparse
from pathlib import Path

from hostile_lan import run
from netns import require_lab


def test_a_table_goes_on_through_a_hostile_lan_beyond_its_file_limit(tmp_path: Path) -> None:
    require_lab()
    opts = argparse.Namespace(seconds=25.0, seed=3, attempts=1500, held=400, adverts=200, parallel=200,
                              sources=8, nofile=256, rounds=40, kill_one=True, logs=str(tmp_path))
    report = run(opts)
    figures = report.figures
    assert report.ok, (report.problems, figures)
    attacker = figures["attacker"]
    assert attacker["held_peak"] + attacker["held_reopened"] > 256  # more than a node's file limit
    assert attacker["adverts"] == 200 and attacker["frames"] > 0
    assert max(figures["peak open descriptors, per node"]) < 256
    assert figures["killed and restarted"] is not None
