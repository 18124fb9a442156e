"""Timers around the dealing's work inside a real node, for ``tarock bench --net``.

``python -m tarock.tools.bench_probe OUT bot ARGS...`` runs ``tarock bot ARGS...`` (as
the benchmark starts them) with the functions of both dealing schemes wrapped,
and at its exit writes to the file OUT, as JSON, the CPU seconds each measure
took and how often it ran.  Nothing changes in the node but the clock reads
around those calls.  The measures (inclusive: a measure's time contains the
calls it makes):

* ``deal``: every step of the node's dealer during the hand (start, the dealing
  entries, the shares it makes and takes, its opening and the others');
* ``shuffle``: mental poker's permute-and-re-mask (``barnett_smart.shuffle``);
* ``proofs made`` / ``proofs checked``: Schnorr key proofs and Chaum–Pedersen
  token proofs;
* ``points validated``: every point received, checked to be in the group;
* ``reveal tokens``: computing a token (``x·C1``) and opening a card with the
  tokens, outside the audit;
* ``audit``: the end-of-hand audit of a seat (the dealer's check of every
  opening and position, and the replay through the engine); ``host audit``: the
  host's own;
* ``node``: the process's CPU time in all (start-up, discovery and play included).

Besides, ``hand_cpu`` lists the process's CPU time at the end of every hand (each
``hand`` or ``void`` event the bot's view emits), so the CPU a node spends per hand
in steady play is the difference between two of them.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tarock.client import netargs, netcli, netview
from tarock.net import barnett_smart, commit_reveal, group, host_run, mental_poker, seat_hand, secp256k1

MEASURES = ("deal", "shuffle", "proofs made", "proofs checked", "points validated", "reveal tokens", "audit",
            "host audit")
DEALER_STEPS = ("start", "entry", "shares", "take", "open", "opening")


class Probe:
    """CPU seconds and calls per measure."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(MEASURES, 0.0)
        self.calls = dict.fromkeys(MEASURES, 0)
        self.auditing = 0
        self.hand_cpu: list[float] = []
        """The process's CPU seconds at the end of each hand, in order."""

    def wrap(self, owner: Any, name: str, measure: str, outside_audit: bool = False,
             put: Callable[[Any, str, Any], None] = setattr) -> None:
        inner: Callable[..., Any] = getattr(owner, name)
        probe = self
        is_audit = measure in ("audit", "host audit")

        @functools.wraps(inner)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if outside_audit and probe.auditing:
                return inner(*args, **kwargs)
            start = time.process_time()
            probe.auditing += is_audit
            try:
                return inner(*args, **kwargs)
            finally:
                probe.auditing -= is_audit
                probe.seconds[measure] += time.process_time() - start
                probe.calls[measure] += 1

        put(owner, name, timed)

    def install(self, put: Callable[[Any, str, Any], None] = setattr) -> None:
        """Wrap every measured function (``put``: how to set an attribute, e.g. a test's
        monkeypatch.setattr, so that it is undone)."""
        for cls in (mental_poker.MentalDealer, commit_reveal.CommitRevealDealer):
            for step in DEALER_STEPS:
                self.wrap(cls, step, "deal", put=put)
        self.wrap(barnett_smart, "shuffle", "shuffle", put=put)
        self.wrap(mental_poker, "prove_key", "proofs made", put=put)
        self.wrap(mental_poker, "prove_token", "proofs made", put=put)
        self.wrap(mental_poker, "check_key", "proofs checked", put=put)
        self.wrap(mental_poker, "check_token", "proofs checked", put=put)
        for grp in (group.Edwards25519, secp256k1.Secp256k1):
            self.wrap(grp, "point", "points validated", put=put)
        self.wrap(barnett_smart, "token", "reveal tokens", outside_audit=True, put=put)
        self.wrap(barnett_smart, "unmask", "reveal tokens", outside_audit=True, put=put)
        self.wrap(seat_hand, "audit", "audit", put=put)
        self.wrap(host_run, "audit", "host audit", put=put)
        self._stamp_hands(put)

    def _stamp_hands(self, put: Callable[[Any, str, Any], None]) -> None:
        """Note the CPU time whenever the bot's view reports a hand's end."""
        inner: Callable[..., None] = netview.BotView._emit
        probe = self

        @functools.wraps(inner)
        def emit(view: netview.BotView, event: str, text: str, **data: object) -> None:
            if event in ("hand", "void"):
                probe.hand_cpu.append(time.process_time())
            inner(view, event, text, **data)

        put(netview.BotView, "_emit", emit)

    def dump(self) -> dict[str, Any]:
        """The measures, and the process's CPU seconds in all (``node``)."""
        return {"seconds": {**self.seconds, "node": time.process_time()}, "calls": {**self.calls, "node": 1},
                "hand_cpu": self.hand_cpu}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or args[1] != "bot":
        print("usage: python -m tarock.tools.bench_probe OUT bot BOT-ARGS...", file=sys.stderr)
        return 2
    out = Path(args[0])
    parser = argparse.ArgumentParser(prog="tarock bot")
    netargs.bot_args(parser)
    bot = parser.parse_args(args[2:], argparse.Namespace(command="bot"))
    probe = Probe()
    probe.install()
    try:
        return netcli.main(bot)
    finally:
        out.write_text(json.dumps(probe.dump()))


if __name__ == "__main__":
    sys.exit(main())
