"""Each special reveal of Königrufen reaches every node through the real mental-poker dealers.

The observation-based secrecy check (tests/test_mp_secrecy.py) shows that no node knows a
card *before* the rules show it; these tests show the other half for the reveals that only
some games have: that the deal really *gets there*, and at the right moment.  A table of
``koenigrufen-club`` (docs/rules.md §16) runs through the sans-IO host and seats (tests/net_pump.py:
every body through the real frame encoder; every share, token and proof made and checked by
the real :class:`~net.mental_poker.MentalDealer`), with scripted players that force the game:

- Trischaken: "Der Talon wird einzeln zu den ersten 6 Stichen zugeworfen" -- each talon
  card becomes known to every node when the engine throws it into its trick;
- Piccolo ouvert: "Bei den Ouvertspielen legen alle Spieler vor dem zweiten Ausspielen ihre
  Karten auf" (the club rulebook opens every hand, ``ouvert_all``) -- every hand becomes
  known to every node after the first trick;
- a Dreier whose declarer lays tarocks away: "Trullstücke und Könige dürfen nie verlegt
  werden, andere Tarock nur offen (außer bei Farbenspielen)" -- the tarocks of the discard
  become known to every node when they are laid away, the other discarded cards not.

For every node (each seat's core, and the host's own core, which must learn what every seat
learns in public) the test records after each message it takes in the first moment (the
number of actions in its log) at which it knows each position, and the card it knows there.
It rebuilds the deal from the record's opening (the seeds), replays the record through the
engine and reads off its observations when each seat is entitled to each position.  The two
must be the same for every position, at every moment, on every node, with the real cards;
and every node's record of the hand is the same file.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from net_pump import Pump, make_table, node_id
from test_mp_secrecy import Truth, truth
from time_bound import bounded

from tarock.core.actions import Action, Bid, Discard, Pass
from tarock.core.cards import is_tarock, parse_card
from tarock.core.observation import Observation
from tarock.core.players import Policy
from tarock.net.handplay import HandPlay
from tarock.net.host import HostCore
from tarock.net.seat import SeatCore

SEATS = 4
VARIANT = "koenigrufen-club"


class Forcing:
    """A player that steers the auction to ``game`` (bids it when it may, says "Weiter"
    otherwise, opens with "Vorhand!" when it must) and otherwise plays as ``inner`` does;
    ``discard``: lays away as many tarocks as the rules let it."""

    def __init__(self, inner: Policy, game: str, discard: bool = False) -> None:
        self.inner, self.game, self.discard = inner, game, discard

    def decide(self, obs: Observation) -> Action:
        legal = obs.legal
        if any(isinstance(a, Bid) for a in legal):
            for wanted in (self.game, None, "vorhand"):
                for a in legal:
                    if wanted is None and isinstance(a, Pass):
                        return a
                    if isinstance(a, Bid) and a.contract == wanted and not a.announce:
                        return a
        discards = [a for a in legal if isinstance(a, Discard)]
        if self.discard and discards:
            return max(discards, key=lambda a: (sum(is_tarock(c) for c in a.cards), a.cards))
        return self.inner.decide(obs)


@dataclass
class Learned:
    """Per node and role: position -> (actions in the log when first known, the card)."""

    first: dict[tuple[str, str], dict[int, tuple[int, int]]] = field(default_factory=dict)
    plays: dict[tuple[str, str], HandPlay] = field(default_factory=dict)

    def look(self, node: str, role: str, play: HandPlay) -> None:
        key = (node, role)
        self.plays.setdefault(key, play)
        seen = self.first.setdefault(key, {})
        known = dict(play.dealer.known())
        if play.virtual is not None:
            known.update(play.virtual.known)
        for p, card in known.items():
            if p not in seen:
                seen[p] = (len(play.acts), card)


def watch(pump: Pump, learned: Learned, monkeypatch: pytest.MonkeyPatch) -> None:
    """Look at every node's HandPlays after each message it takes in."""

    def look_seat(node: str, core: SeatCore) -> None:
        run = core.run
        if run is not None and run.play.me is not None:
            learned.look(node, f"seat {run.play.me}", run.play)

    def look_host(core: HostCore) -> None:
        if core.run is not None:
            learned.look(core.me, "host", core.run.play)

    for node, seat in pump.seats.items():
        receive = seat.receive

        def spied(body: object, node: str = node, seat: SeatCore = seat,
                  receive: Callable[[object], Any] = receive) -> Any:
            out = receive(body)
            look_seat(node, seat)
            return out

        monkeypatch.setattr(seat, "receive", spied)
    host_receive = pump.host.receive

    def host_spied(node: str, body: object, now: float) -> object:
        out = host_receive(node, body, now)
        look_host(pump.host)
        return out

    monkeypatch.setattr(pump.host, "receive", host_spied)


@pytest.fixture(autouse=True)
def _bounded() -> Iterator[None]:
    with bounded(240, "a forced Königrufen hand"):
        yield


@dataclass
class Hand:
    truth: Truth
    learned: Learned
    record: dict[str, Any]
    layout_hands: list[list[int]]
    layout_talon: list[list[int]]


def play_forced(tmp: Path, game: str, monkeypatch: pytest.MonkeyPatch, seed: int = 1,
                discard: bool = False) -> Hand:
    pump = make_table(tmp, variant=VARIANT, rounds=1, seed=seed)
    for node in pump.seats:
        inner = pump.players[node]
        assert inner is not None
        pump.players[node] = Forcing(inner, game, discard)
    learned = Learned()
    with monkeypatch.context() as patch:
        watch(pump, learned, patch)
        for i in range(SEATS):
            pump.join(node_id(i))
    assert pump.done, pump.log[-5:]
    files = [sorted((tmp / f"records{i}").glob("*.json")) for i in range(SEATS)]
    assert all(len(f) == 1 for f in files), files
    first = files[0][0].read_bytes()
    assert all(f[0].read_bytes() == first for f in files), "the nodes' records differ"
    play = learned.plays[(node_id(1), "seat 1")]
    assert play.attempt == 1, "a redeal: pick another seed (the abandoned deal is not in the record)"
    record = json.loads(first)
    bids = [a.get("contract") for a in record["actions"] if a.get("type") == "bid"]
    assert bids and bids[-1] == game, f"the forced game was not played: {bids}"
    layout = play.layout
    return Hand(truth(play, files[0][0]), learned, record, [list(h) for h in layout.hands],
                [list(t) for t in layout.talon])


def due(t: Truth, viewer: int | None, positions: int) -> dict[int, int]:
    """Position -> the number of actions after which ``viewer`` (None: everyone) may know it."""
    out: dict[int, int] = {}
    for k, allowed in enumerate(t.allowed):
        for p in allowed[viewer] | (t.allowed[k][None] if viewer is not None else set()):
            out.setdefault(p, k)
    assert len(out) == positions
    return out


def check_every_node(hand: Hand) -> dict[tuple[str, str], dict[int, int]]:
    """Every node learned every position exactly when its observation shows it, with the real
    card; returns the moments per node and role."""
    t = hand.truth
    out: dict[tuple[str, str], dict[int, int]] = {}
    assert len(hand.learned.first) == SEATS + 1, sorted(hand.learned.first)
    for (node, role), seen in sorted(hand.learned.first.items()):
        viewer = None if role == "host" else int(role.split()[1])
        expected = due(t, viewer, len(t.cards))
        wrong_card = {p: c for p, (_k, c) in seen.items() if c != t.cards[p]}
        assert not wrong_card, f"{role} at {node[:8]} knows wrong cards: {wrong_card}"
        moments = {p: k for p, (k, _c) in seen.items()}
        last = len(t.allowed) - 1
        # What the rules show only at the hand's end is opened for the audit (not played on).
        differ = {p: (moments.get(p), expected[p]) for p in expected
                  if moments.get(p) != expected[p] and not (expected[p] == last and p not in moments)}
        assert not differ, f"{role} at {node[:8]}: position: (learned at, due at) {differ}"
        out[(node, role)] = moments
    return out


def test_trischaken_throws_each_talon_card_into_its_trick_on_every_node(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/rules.md §16.7, Trischaken: "Der Talon wird einzeln zu den ersten 6 Stichen zugeworfen"."""
    hand = play_forced(tmp_path, "trischaken", monkeypatch)
    moments = check_every_node(hand)
    talon = [p for pile in hand.layout_talon for p in pile]
    assert len(talon) == 6
    plays = [k for k, a in enumerate(hand.record["actions"]) if a["type"] == "play"]
    for node_role, at in moments.items():
        # One talon card to each of the first six tricks, in the talon's order: each becomes
        # known on every node when its trick is complete (never at the deal or the auction).
        assert [at[p] for p in talon] == [plays[4 * i + 3] + 1 for i in range(6)], node_role


def test_piccolo_ouvert_opens_every_hand_after_the_first_trick_on_every_node(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/rules.md §4.9: "Bei den Ouvertspielen legen alle Spieler vor dem zweiten Ausspielen ihre
    Karten auf" (the club rulebook: every hand, ``ouvert_all``)."""
    hand = play_forced(tmp_path, "piccolo-ouvert", monkeypatch)
    moments = check_every_node(hand)
    plays = [k for k, a in enumerate(hand.record["actions"]) if a["type"] == "play"]
    after_first_trick = plays[3] + 1
    for (_node, role), at in moments.items():
        for s, positions in enumerate(hand.layout_hands):
            if role == f"seat {s}":
                continue  # its own hand: known from the deal
            later = [p for p in positions if at[p] > plays[3]]
            # Every card of every other hand not played in the first trick is opened together,
            # when the first trick is complete, before the second lead.
            assert later and {at[p] for p in later} == {after_first_trick}, (role, s, later)


def test_a_dreier_shows_the_tarocks_laid_away_and_hides_the_rest_on_every_node(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/rules.md §16.3: "Trullstücke und Könige dürfen nie verlegt werden, andere Tarock nur offen
    (außer bei Farbenspielen)"."""
    hand = play_forced(tmp_path, "dreier", monkeypatch, discard=True)
    moments = check_every_node(hand)
    actions = hand.record["actions"]
    (k_discard,) = [k for k, a in enumerate(actions) if a["type"] == "discard"]
    declarer = int(actions[k_discard]["seat"])
    t = hand.truth
    at = {c: p for p, c in enumerate(t.cards)}
    laid = [at[parse_card(c)] for c in actions[k_discard]["cards"]]
    shown = [p for p in laid if is_tarock(t.cards[p])]
    hidden = [p for p in laid if not is_tarock(t.cards[p])]
    assert shown, "the declarer laid no tarock away: the test shows nothing"
    for (_node, role), seen in moments.items():
        if role == f"seat {declarer}":
            continue
        # The shown tarocks: known to every other node the moment the discard is in the log.
        assert all(seen[p] == k_discard + 1 for p in shown), (role, [seen[p] for p in shown])
        # The rest of the discard: not before the hand is over and everything is opened.
        assert all(seen.get(p, len(actions)) == len(actions) for p in hidden), (role, hidden)


def test_the_check_catches_a_deal_that_never_opens_the_ouvert_hands(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counter-check: a bug in the code's idea of what a seat sees (here: the open hands left
    out, so no seat shares its tokens for them and every node, the audit included, agrees) lets
    the hand go through -- and the check, which reads the engine's observation itself, finds
    the hands that were never opened."""
    from tarock.core.engine import Hand as EngineHand
    from tarock.core.observation import observe
    from tarock.net import audit, virtual

    original = virtual.seen_by_all

    def blind(hand: EngineHand) -> list[set[int]]:
        return [cards - {c for _s, cs in observe(hand, seat).open_hands for c in cs}
                for seat, cards in enumerate(original(hand))]

    monkeypatch.setattr(virtual, "seen_by_all", blind)
    monkeypatch.setattr(audit, "seen_by_all", blind)
    hand = play_forced(tmp_path, "piccolo-ouvert", monkeypatch)
    with pytest.raises(AssertionError, match="learned at, due at"):
        check_every_node(hand)
