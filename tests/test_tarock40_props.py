"""Invariants over thousands of random legal hands of ``tarock40`` and
``tarock40-online``.

Hands are dealt and played by uniformly random legal actions.  Every card
played is checked against oracles written from docs/rules.md §13's source text without the
engine's helpers (Farbzwang, Tarockzwang, Stichzwang; Faberl with its trump
suit; the Kaiserstich), and every finished hand against: 10 tricks of four
cards, 88 points counted card by card, the game won from 45 (56 absolut) on,
every settlement item (the game and each premium: whose, made or not,
announced, its Kontra level, the single-game doubling, the amount) and the
per-opponent zero-sum settlement, and a record that replays to the same
result.  Online hands are never passed out and end their auction with three
passes in a row; an announced Pagat is played only when nothing else may be.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from line_items import Line, lines
from test_tarock40_support import random_hand, replayed, rules40

from tarock.core.actions import Action, Announce, Bid, Kontra, Pass, Play
from tarock.core.cards import DECK40, Card, parse_card
from tarock.core.deal import deal
from tarock.core.engine import Hand
from tarock.core.observation import observe
from tarock.core.state import HandState

HANDS = 2000
"""Random hands per variant."""

_ORDER = {
    "T": "Sküs XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI X IX VIII VII VI V IV I",
    "c": "cK cQ cC cJ c10", "s": "sK sQ sC sJ s10", "h": "hK hQ hC hJ h1", "d": "dK dQ dC dJ d1",
}
SUIT: dict[Card, str] = {}
HEIGHT: dict[Card, int] = {}
for _suit, _names in _ORDER.items():
    for _pos, _name in enumerate(reversed(_names.split())):
        SUIT[parse_card(_name)] = _suit
        HEIGHT[parse_card(_name)] = _pos
POINTS = {parse_card(n): v for n, v in [("I", 5), ("XXI", 5), ("Sküs", 5)]}
for _suit in "cshd":
    for _rank, _v in zip("KQCJ", (5, 4, 3, 2), strict=True):
        POINTS[parse_card(_suit + _rank)] = _v
TRULL = {parse_card(n) for n in ("I", "XXI", "Sküs")}
PAGAT = parse_card("I")
MOND = parse_card("XXI")
SKUS = parse_card("Sküs")
KINGS = {parse_card(s + "K") for s in "cshd"}
CALLS = [parse_card(n) for n in ("XX", "XIX", "XVIII", "XVII", "XVI")]

# docs/rules.md §13.6: "Pagat Ultimo ... 1; angesagt ... 2", "Trull ... 1; angesagt 2", "4 Könige ... 1",
# "Mond fangen ... 1", "Absolut ... 1; bei Faberl oder Solo absolut (angesagt) 2", "Valat ... 6; angesagt 12"
VALUES = {"pagat": (1, 2), "trull": (1, 2), "kings": (1, 0), "mondfang": (1, 0), "absolut": (1, 2),
          "valat": (6, 12)}


def points(cards: Sequence[Card]) -> int:
    """docs/rules.md §5.4: "Pagat, Mond, Sküs und die Könige je 5, Dame 4, Cavall 3, Bube 2,
    die übrigen Tarocks 1 Auge. Die Zahlkarte jeder Farbe zählt nichts.\""""
    return sum(POINTS.get(c, 1 if SUIT[c] == "T" else 0) for c in cards)


def oracle_legal(hand: Sequence[Card], trick: Sequence[Card], trump: str) -> set[Card]:
    """Follow suit; else a trump; a trump played while a trump lies in the trick
    must beat it if able (``trump`` is "T" for tarocks, else the Faberl suit)."""
    if not trick:
        return set(hand)
    led = SUIT[trick[0]]
    allowed = [c for c in hand if SUIT[c] == led]
    if not allowed:
        allowed = [c for c in hand if SUIT[c] == trump] or list(hand)
    if allowed and all(SUIT[c] == trump for c in allowed):
        top = [HEIGHT[c] for c in trick if SUIT[c] == trump]
        if top:
            allowed = [c for c in allowed if HEIGHT[c] > max(top)] or allowed
    return set(allowed)


def oracle_winner(cards: Sequence[Card], trump: str) -> int:
    if trump == "T" and set(cards) >= TRULL:
        return list(cards).index(PAGAT)
    pool = [i for i, c in enumerate(cards) if SUIT[c] == trump]
    pool = pool or [i for i, c in enumerate(cards) if SUIT[c] == SUIT[cards[0]]]
    return max(pool, key=lambda i: HEIGHT[cards[i]])


def trump_of(state: HandState) -> str:
    assert state.contract is not None
    return state.contract.trump or "T"


def held_pagat(state: HandState, seat: int) -> bool:
    return state.variant == "tarock40-online" and any(
        a.name == "pagat" and a.seat == seat for a in state.announcements)


def pick(legal: Sequence[Action], rng: random.Random) -> Action:
    """A random legal action: first a kind (pass, each contract, announce,
    Kontra, a card ...) uniformly, then one of that kind, so short auctions
    and passed-out deals come up as often as long ones."""
    kinds: dict[str, list[Action]] = {}
    for action in legal:
        kind = action.type + (action.contract if isinstance(action, Bid) else "")
        kinds.setdefault(kind, []).append(action)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def play_checked(hand: Hand, rng: random.Random) -> Hand:
    """Play by random legal actions, checking every card against the oracles."""
    while not hand.done:
        state = hand.state
        seat = state.to_move
        assert seat is not None
        legal = hand.legal(seat)
        assert legal and all(a.seat == seat for a in legal)
        if state.phase == "play":
            assert state.trick is not None
            want = oracle_legal(state.hands[seat], state.trick.cards, trump_of(state))
            if held_pagat(state, seat) and PAGAT in want and len(want) > 1:
                want.discard(PAGAT)
            assert {a.card for a in legal if isinstance(a, Play)} == want
        done = len(state.tricks)
        hand.apply(pick(legal, rng))
        if len(hand.state.tricks) > done:
            trick = hand.state.tricks[-1]
            assert trick.winner == trick.seats[oracle_winner(trick.cards, trump_of(hand.state))]
    return hand


def achieved(state: HandState, party: set[int]) -> dict[str, bool]:
    """Which party (True: the declarer party) achieved each premium, by the words behind
    docs/rules.md §13.6."""
    out: dict[str, bool] = {}
    last = state.tricks[-1]
    if PAGAT in last.cards and last.winner == last.seats[last.cards.index(PAGAT)]:
        out["pagat"] = last.winner in party  # "der Pagat gewinnt den letzten Stich"
    for name, group in (("trull", TRULL), ("kings", KINGS)):
        for side in (True, False):
            if all(any(c in t.cards for t in state.tricks if (t.winner in party) == side) for c in group):
                out[name] = side  # "liegen in den Stichen einer Partei"
    for t in state.tricks:  # "der Sküs sticht den Mond der anderen Partei"
        if MOND in t.cards and SKUS in t.cards:
            skus, mond = t.seats[t.cards.index(SKUS)], t.seats[t.cards.index(MOND)]
            if t.winner == skus and (skus in party) != (mond in party):
                out["mondfang"] = skus in party
    ours = points([c for t in state.tricks if t.winner in party for c in t.cards])
    if ours >= 56:
        out["absolut"] = True
    elif state.variant == "tarock40-online" and 88 - ours >= 56:
        out["absolut"] = False  # docs/rules.md §14.7: "Sollte eine Partei diese Punktezahl erreichen ..."
    sides = {t.winner in party for t in state.tricks}
    if len(sides) == 1:
        out["valat"] = sides.pop()  # "eine Partei macht alle 10 Stiche"
    return out


def expected_lines(hand: Hand) -> tuple[int, set[int], list[Line]]:
    """The declarer, his party and the settlement's lines, from the deal and
    the actions as the rule texts behind docs/rules.md §13 describe them.

    tarock40 (docs/rules.md §13.6): the game (Rufspiel 1, the
    others 4) and every premium that counts, single games doubling the
    premiums, one Kontra chain doubling everything.  tarock40-online (seed
    004, decision 5): a higher game wipes the additions and Kontras before
    it; every addition has its own Kontra chain; Farbensolo counts no Pagat,
    Trull or Mondfang; silent Absolut counts for either party; a Valat
    replaces the game and every other premium.
    """
    state = hand.state
    online = state.variant == "tarock40-online"
    actions = state.actions
    last_bid = max(i for i, a in enumerate(actions) if isinstance(a, Bid))
    bid = actions[last_bid]
    assert isinstance(bid, Bid)
    declarer, game = bid.seat, bid.contract
    party = {declarer}
    if game == "rufspiel":  # "der höchste Tarock von XX bis XVI, den man nicht selbst hält"
        called = next(c for c in CALLS if c not in hand.deal[0][declarer])
        party.add(next(s for s in range(4) if called in hand.deal[0][s]))
    single = game != "rufspiel"
    scale = 2 if single else 1  # "im Einzelspiel (Faberl, Solo) zählen sie doppelt"
    faberl = game.startswith("faberl")
    counting = set(VALUES) - ({"pagat", "mondfang"} if faberl else set())
    if online and faberl:
        counting -= {"trull"}  # "Beim Farbensolo zählen die Prämien Pagat, Trull und Mondfang nicht"
    after = actions[last_bid + 1:] if online else actions
    kontras = [a for a in after if isinstance(a, Kontra)]
    game_kontra = sum(1 for a in kontras if a.target.game)
    implied = {"solo-pagat": ("pagat",), "solo-absolut": ("absolut",), "faberl-absolut": ("absolut",)}
    announced: dict[str, int] = dict.fromkeys((*implied.get(game, ()), *bid.announce), declarer)
    for a in after:
        if isinstance(a, Announce):
            announced.update(dict.fromkeys(a.announce, a.seat))
    made = achieved(state, party)
    value = 1 if game == "rufspiel" else 4
    goal = 56 if game.endswith("absolut") else 45
    won = points([c for t in state.tricks if t.winner in party for c in t.cards]) >= goal
    out = [Line("game", "declarers", won, (value if won else -value) * 2 ** game_kontra, kontra=game_kontra)]
    for name in sorted(counting):
        silent, loud = VALUES[name]
        level = sum(1 for a in kontras if a.target.name == name) if online else game_kontra
        if name in announced:
            ours = announced[name] in party
            ok = made.get(name) == ours
            amount = loud * scale * 2 ** level * (1 if ok == ours else -1)
            out.append(Line(name, "declarers" if ours else "opponents", ok, amount, True, level, scale))
        elif name in made:
            level = game_kontra if not online else 0
            amount = silent * scale * 2 ** level * (1 if made[name] else -1)
            whose = "declarers" if made[name] else "opponents"
            out.append(Line(name, whose, True, amount, False, level, scale))
    if online and ("valat" in announced or "valat" in made):
        out = [line for line in out if line.name == "valat"]  # "hebt alle anderen Prämien auf"
    return declarer, party, out


def check_settlement(hand: Hand) -> None:
    """The result's items and the settlement against :func:`expected_lines`."""
    result = hand.state.result
    assert result is not None
    declarer, party, want = expected_lines(hand)
    assert result.declarers == tuple(sorted(party)) and hand.state.declarer == declarer
    got = lines(result)
    assert sorted(got) == sorted(want), (got, want)
    amount = sum(line.amount for line in want)
    for seat in range(4):
        if seat not in party:
            assert result.settlement[seat] == -amount
        else:
            assert result.settlement[seat] == (amount if len(party) == 2 else 3 * amount)


def check_finished(hand: Hand) -> None:
    state = hand.state
    result = state.result
    assert result is not None and sum(result.settlement) == 0
    again = replayed(hand)
    assert again.state.result == result and again.state.actions == state.actions
    if not result.declarers:
        assert state.variant == "tarock40" and state.tricks == []
        assert [type(a) for a in state.actions] == [Pass] * 4
        return
    assert len(state.tricks) == 10 and all(len(t.cards) == 4 for t in state.tricks)
    assert Counter(c for t in state.tricks for c in t.cards) == Counter(DECK40)
    party = state.declarer_party()
    ours = [c for t in state.tricks if t.winner in party for c in t.cards]
    theirs = [c for t in state.tricks if t.winner not in party for c in t.cards]
    assert result.points == (points(ours), points(theirs)) and sum(result.points) == 88
    assert state.contract is not None
    goal = 56 if state.contract.name.endswith("absolut") else 45
    assert result.won == (result.points[0] >= goal)
    check_settlement(hand)
    if state.variant == "tarock40-online":
        bidding = [a for a in state.actions if not isinstance(a, Play)]
        if state.contract.trump is not None:
            bidding = bidding[:-1]
        assert isinstance(bidding[0], Bid) and bidding[0].seat == state.forehand
        assert [type(a) for a in bidding[-3:]] == [Pass] * 3
        assert not any(isinstance(a, Pass) for a in bidding[-4:-3])


@pytest.mark.parametrize("variant", ["tarock40", "tarock40-online"])
def test_random_hands(variant: str) -> None:
    rng = random.Random(f"props-{variant}")
    rules = rules40(variant)
    seen: Counter[str] = Counter()
    for n in range(HANDS):
        hands, talon = deal(rules, rng)
        hand = play_checked(Hand(rules, n % 4, hands, talon), rng)
        check_finished(hand)
        state = hand.state
        seen[state.contract.name if state.contract else "passed out"] += 1
        if state.result is not None:
            seen.update(p.name for p in state.result.premium_items)
            seen.update(f"{p.name} announced" for p in state.result.premium_items if p.announced)
            seen.update(f"{p.name} kontra" for p in state.result.items if p.kontra)
    games = {"rufspiel", "faberl", "solo"}
    if variant == "tarock40":
        games |= {"passed out", "faberl-absolut", "solo-absolut", "solo-pagat"}
    assert games <= set(seen), seen
    assert {"trull", "kings", "valat", "game kontra", "valat announced", "trull announced"} <= set(seen), seen
    if variant == "tarock40-online":
        assert {"trull kontra", "absolut announced"} <= set(seen), seen


def test_observations_hide_the_other_hands() -> None:
    hand = random_hand("tarock40", 11)
    for seat in range(4):
        obs = observe(hand, seat)
        assert obs.hand == () and obs.result == hand.state.result
    rules = rules40()
    fresh = Hand(rules, 0, *deal(rules, random.Random(2)))
    for seat in range(4):
        assert sorted(observe(fresh, seat).hand) == sorted(fresh.state.hands[seat])
        assert observe(fresh, seat).hand_sizes == (10, 10, 10, 10)
