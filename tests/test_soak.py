"""The fault soak (``tests/soak.py``) as a test: four real bots in a lab, faults, a checker.

It runs ``TAROCK_SOAK_MINUTES`` (default 3) minutes of faults of every kind (or those of
``TAROCK_SOAK_FAULTS``, e.g. ``kill-seat,netem``; ``TAROCK_SOAK_SEED`` repeats a
schedule), lets the table end, and passes when the checker finds no violation: the same
records, outcomes and standings on every node, every round counted once, nobody named,
the table ended. The soak's summary is printed (``pytest -s`` shows it; on a failure it
is in the message). The whole run is bounded: the soak gets its own bounds plus a
margin, then SIGTERM (its lab tears down), then SIGKILL.

Needs root and iproute2 (the lab): skipped only when :func:`netns.lab_unavailable_reason`
says this machine cannot build one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from netns import lab_unavailable_reason

SOAK = Path(__file__).resolve().parent / "soak.py"
MINUTES = float(os.environ.get("TAROCK_SOAK_MINUTES", "3"))
FAULTS = os.environ.get("TAROCK_SOAK_FAULTS", "")
SEED = os.environ.get("TAROCK_SOAK_SEED", "")
RATE = 200.0  # soak.py's default --rate (rounds per minute of soak)


def bound(minutes: float) -> float:
    """Seconds the soak may take in all: seating (90), the faults, the quiet period
    (soak.py's default: 120 s + 3 times the fault-free time of its rounds), the
    checker and the teardown (300)."""
    rounds = max(3, RATE * minutes)
    return 90 + 60 * minutes + 120 + 3 * 60 * rounds / RATE + 300


def test_soak_with_faults_ends_with_one_consistent_table(tmp_path: Path) -> None:
    reason = lab_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    argv = [sys.executable, str(SOAK), "--minutes", f"{MINUTES:g}", "--keep", str(tmp_path / "soak")]
    if FAULTS:
        argv += ["--faults", FAULTS]
    if SEED:
        argv += ["--seed", SEED]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = proc.communicate(timeout=bound(MINUTES))
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGTERM)  # the soak's lab tears itself down
        try:
            out, _ = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate(timeout=10)
        pytest.fail(f"the soak did not end within {bound(MINUTES):g} s:\n{out[-6000:]}")
    summary = out[out.rfind("== soak summary =="):] if "== soak summary ==" in out else out[-6000:]
    print(summary)
    assert proc.returncode == 0, f"the soak failed (exit {proc.returncode}):\n{summary}"
