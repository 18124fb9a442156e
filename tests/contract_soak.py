"""Self-play of a variant's hands, checked against what its contracts' data promise.

Every hand is played by bots (a mix of the heuristic and the random bot, so
that every contract gets bid), then written as a record and replayed; it
must replay to the identical result, settle to zero, and keep the data:

- a game whose goal is a number of tricks is won exactly when the declarer
  party took that many (``declarer-took-a-trick-and-won`` for a Bettel);
- in a colour game (``TrickRules.trump == "colour"``) no tarock wins a trick
  led in a suit;
- in an ouvert game every other seat sees the declarer's hand from the
  second trick on;
- no settlement item's Kontra level passes its contract's chain
  (``ContractSpec.kontra``).  It also counts holds (a game bid again by
  another seat, not a join or contest) and Valat items in the game's place.

Run ``python tests/contract_soak.py --hands 2000 --variant tarock54-bettel
--variant tarock54-farbensolo --variant koenigrufen-ooe`` (issue 22's acceptance;
``--bots`` names the four seats' bots); it prints the figures and exits 1 on a
violation.  tests/test_contract_data.py runs a short version of each.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tarock.client.bots import make_bot  # noqa: E402
from tarock.core.cards import SUIT_OF, TAROCK  # noqa: E402
from tarock.core.context import TableContext  # noqa: E402
from tarock.core.deal import deal  # noqa: E402
from tarock.core.engine import Hand  # noqa: E402
from tarock.core.observation import observe  # noqa: E402
from tarock.core.plugins import Catalogue, load_plugins  # noqa: E402
from tarock.core.record import record_of, replay  # noqa: E402

BOTS = ("heuristic", "random", "heuristic", "random")


@dataclass
class Figures:
    """What a soak saw: hands per contract, the goal checks, and every violation."""

    variant: str
    hands: int = 0
    passed_out: int = 0
    contracts: Counter[str] = field(default_factory=Counter)
    trick_goals: int = 0
    """Hands of a game whose goal is a number of tricks."""
    missed_goal: int = 0
    """Of those, hands the declarer party took another number of tricks in (all must be lost)."""
    suit_leads: int = 0
    """Tricks of colour games led in a suit (no tarock may win one)."""
    ouvert_views: int = 0
    """Decisions of other seats in an ouvert game after the first trick (each sees the declarer's hand)."""
    kontra_levels: Counter[int] = field(default_factory=Counter)
    """Settlement items by their Kontra level (none may pass its contract's ``kontra``)."""
    holds: int = 0
    """Bids of a game another seat bid before (a hold, where the rules allow one)."""
    valat_for_game: int = 0
    """Hands settled with a Valat item and no game item (a Valat in the game's place)."""
    violations: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        played = ", ".join(f"{name} {n}" for name, n in sorted(self.contracts.items()))
        return [
            f"{self.variant}: {self.hands} hands ({self.passed_out} passed out): {played}",
            f"  goal of tricks: {self.trick_goals} declarers; the goal missed in {self.missed_goal} "
            f"(all lost: {'yes' if not self.violations else 'see below'}), made in "
            f"{self.trick_goals - self.missed_goal} (all won)",
            f"  colour games: {self.suit_leads} tricks led in a suit, none won by a tarock"
            if not self.violations else f"  colour games: {self.suit_leads} tricks led in a suit",
            f"  ouvert: {self.ouvert_views} views after the first trick, each showing the declarer's hand",
            f"  Kontra levels of the items: {dict(sorted(self.kontra_levels.items()))}, none past the "
            f"contract's chain; holds: {self.holds}; a Valat in the game's place: {self.valat_for_game}",
            f"  replayed identically and zero-sum: {self.hands} of {self.hands}"
            if not self.violations else f"  violations: {len(self.violations)}",
            *(f"  ! {v}" for v in self.violations[:20]),
        ]


def check_hand(hand: Hand, catalogue: Catalogue, figures: Figures, index: int) -> None:
    """Replay ``hand`` and check its result against its contract's data."""
    state, result = hand.state, hand.state.result
    assert result is not None
    where = f"hand {index}"
    if sum(result.settlement) != 0:
        figures.violations.append(f"{where}: settlement {result.settlement} is not zero-sum")
    again = replay(json.loads(record_of(hand).dumps()), variants=catalogue.variants)
    if again.error_index is not None or again.hand is None or again.hand.state.result != result:
        figures.violations.append(f"{where}: the record does not replay to the same result")
    if result.passed_out or state.contract is None:
        figures.passed_out += 1
        return
    spec = state.contract.spec
    figures.contracts[spec.name] += 1
    for item in result.items:
        figures.kontra_levels[item.kontra] += 1
        if item.kontra > spec.kontra:
            figures.violations.append(f"{where}: {item.name} at Kontra level {item.kontra}, "
                                      f"past the contract's {spec.kontra}")
    names = {item.name for item in result.items}
    figures.valat_for_game += "valat" in names and "game" not in names
    bid_by: dict[str, int] = {}
    for seat, name in state.data.get("auction", {}).get("log", []):
        bid = hand.rules.contract(name)
        shared = bid is None or bid.joinable or bid.contest
        figures.holds += bid_by.get(name, seat) != seat and not shared
        bid_by.setdefault(name, seat)
    party = state.declarer_party()
    if spec.goal.kind == "tricks":
        # A game others joined has a declarer per seat, each settling on his own tricks (``won`` is
        # None there: one may win while another loses): each declarer's game items are checked.
        declarers = [(seat,) for seat in result.declarers] if len(result.declarers) > 1 else [tuple(party)]
        figures.trick_goals += len(declarers)
        for side in declarers:
            taken = sum(1 for t in state.tricks if t.winner in side)
            if taken != spec.goal.tricks:
                figures.missed_goal += 1
            if len(declarers) == 1 and result.won != (taken == spec.goal.tricks):
                figures.violations.append(f"{where}: {spec.name}: the declarer party took {taken} tricks "
                                          f"(goal {spec.goal.tricks}) and won is {result.won}")
            game = [i for i in result.game_items if i.side == side or set(i.side) == set(side)]
            made = taken == spec.goal.tricks
            if not game or any((i.amount > 0) != made for i in game):
                figures.violations.append(f"{where}: {spec.name}: seats {side} took {taken} tricks (goal "
                                          f"{spec.goal.tricks}) and their game items are {game}")
    if spec.tricks.trump == "colour":
        for trick in state.tricks:
            if SUIT_OF[trick.cards[0]] != TAROCK:
                figures.suit_leads += 1
                winning = trick.cards[trick.seats.index(trick.winner)] if trick.winner is not None else None
                if winning is None or SUIT_OF[winning] == TAROCK:
                    figures.violations.append(f"{where}: a tarock won a trick led in a suit: {trick}")


def soak(variant: str, hands: int, seed: int = 0, bots: tuple[str, ...] = BOTS,
         catalogue: Catalogue | None = None) -> Figures:
    """Play ``hands`` hands of ``variant`` and check each (module docstring)."""
    catalogue = catalogue or load_plugins(ROOT / "plugins.toml")
    rules = catalogue.find(variant).rules()
    players = [make_bot(kind, seed * 4 + seat) for seat, kind in enumerate(bots)]
    rng = random.Random(seed)
    figures = Figures(variant)
    for index in range(hands):
        dealer = index % 4
        cards, talon = deal(rules, rng)
        hand = Hand(rules, dealer, cards, talon, context=TableContext(dealer=dealer))
        while not hand.done:
            seat = hand.state.to_move
            assert seat is not None
            obs = observe(hand, seat)
            contract, declarer = hand.state.contract, hand.state.declarer
            if contract is not None and contract.spec.ouvert and hand.state.tricks and seat != declarer:
                figures.ouvert_views += 1
                if declarer not in dict(obs.open_hands):
                    figures.violations.append(f"hand {index}: seat {seat} does not see the ouvert hand")
            hand.apply(players[seat].decide(obs))
        figures.hands += 1
        check_hand(hand, catalogue, figures, index)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", required=True, help="a variant (repeat for more)")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", default=",".join(BOTS), help="four bot kinds, comma-separated")
    args = parser.parse_args(argv)
    bots = tuple(b.strip() for b in args.bots.split(","))
    failed = False
    for name in args.variant:
        figures = soak(name, args.hands, args.seed, bots)
        print("\n".join(figures.lines()))
        failed = failed or bool(figures.violations)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
