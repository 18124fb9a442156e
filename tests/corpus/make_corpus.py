"""Write the replay corpus: random hands per variant, with the results of the engine that made them.

Run once, at commit d42b0fe (main before the rules-as-data rework of issue 7), as
``python tests/corpus/make_corpus.py``; ``tests/test_corpus.py`` then checks that
every hand still replays to the settlement recorded here, except the hands the
rule fixes of that issue change, which it names.  Each line of
``<variant>.jsonl.gz`` is ``{"record": ..., "expect": ...}``.

Hands are played by a mix of uniformly random and heuristic bots (chosen per
seat from the hand's seed), with every option at its default and a few others.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tarock.client.bots import make_bot  # noqa: E402
from tarock.core.deal import active_seats, deal  # noqa: E402
from tarock.core.engine import Hand  # noqa: E402
from tarock.core.observation import observe  # noqa: E402
from tarock.core.plugins import load_plugins  # noqa: E402
from tarock.core.record import record_of  # noqa: E402

HANDS = 2000
OUT = Path(__file__).resolve().parent

# variant -> list of (options, seats); hands are spread evenly over them
CONFIGS: dict[str, list[tuple[dict[str, Any], int]]] = {
    "tarock54": [({}, 4), ({"kontra": False}, 4)],
    "tarock40": [({}, 4), ({"kontra": False}, 4), ({"faberl_xx_high": True}, 4)],
    "tarock40-online": [({}, 4), ({"kontra": False}, 4), ({"faberl_xx_high": True}, 4)],
    "koenigrufen-club": [({}, 4), ({"four_kings": "none"}, 4), ({"four_kings": "self"}, 4),
                         ({"mondfang_partners": True, "bei_leader": "first-negative-bidder"}, 4)],
    "koenigrufen-course": [({}, 4), ({}, 5), ({"four_kings": "queen"}, 4)],
    "tarock54-club": [({}, 4), ({"pagat_lost": 0, "kaiserstich": False}, 4)],
    "koenigrufen-mondfang-club": [({}, 4), ({"trull": 12, "trull_announced": 24}, 4)],
}


def expect(hand: Hand) -> dict[str, Any]:
    result = hand.state.result
    assert result is not None
    return {
        "settlement": list(result.settlement),
        "points": list(result.points),
        "declarers": list(result.declarers),
        "won": result.won,
        "game": result.game,
        "factor": result.factor,
        "premiums": [[p.name, p.value, p.announced, p.kontra] for p in result.premiums],
        "note": result.note,
        "seat_points": list(result.seat_points),
        "next_round_factor": result.next_round_factor,
        "contract": hand.state.contract.name if hand.state.contract else None,
    }


def main() -> None:
    catalogue = load_plugins(ROOT / "plugins.toml")
    for name, configs in CONFIGS.items():
        variant = catalogue.find(name)
        lines = []
        for i in range(HANDS):
            options, seats = configs[i % len(configs)]
            rules = variant.rules(dict(options))
            rng = random.Random(f"{name}/{i}")
            dealer = rng.randrange(seats)
            active = active_seats(seats, dealer, rules.players_per_hand)
            hands, talon = deal(rules, rng, seats, active)
            hand = Hand(rules, dealer, hands, talon, seats, active)
            kinds = [rng.choice(("random", "heuristic")) for _ in range(seats)]
            if i % 4 == 0:
                kinds = ["random"] * seats
            elif i % 4 == 1:
                kinds = ["heuristic"] * seats
            bots = [make_bot(k, rng.randrange(1 << 30)) for k in kinds]
            while not hand.done:
                seat = hand.state.to_move
                assert seat is not None
                hand.apply(bots[seat].decide(observe(hand, seat)))
            rec = record_of(hand).to_json()
            lines.append(json.dumps({"record": rec, "expect": expect(hand), "bots": kinds},
                                    ensure_ascii=False, separators=(",", ":")))
        path = OUT / f"{name}.jsonl.gz"
        with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as fh:
            fh.write("\n".join(lines) + "\n")
        print(f"{path.name}: {len(lines)} hands, {path.stat().st_size:,} bytes", flush=True)


if __name__ == "__main__":
    main()
