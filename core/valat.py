"""Valat aus eigener Kraft: does a hand make every trick on its own?

docs/rules.md §11.2: "Beim Solo und Faberl darf ein Valat nur angesagt werden,
wenn das Blatt ihn aus eigener Kraft gewinnt ... Die App spielt dein Blatt
dazu gegen viele Verteilungen durch und lässt den Valat zu, wenn er praktisch
immer gelingt."  Our reading there fixes the sample:

- ``DEALS`` = 200 random distributions of the unseen cards to the three
  opponents, drawn from a generator seeded by the hand, the trump, the
  seat and the card order (so the answer is the same on every machine and
  in every replay);
- the Valat is allowed when the hand makes every trick in at least 198 of
  them (99 %); the check stops at the third failure.  A hand without the
  highest trump (Sküs; the King of the named trump suit) fails at once:
  whoever holds it takes the trick he plays it to.

The answer is a :class:`ValatVerdict`: allowed or not, the deals played and
made, the 95 % Wilson score interval of the success rate, and why the check
stopped early (the third lost deal; no deal played without the top trump).
The rules' refusal, the client's message, ``python -m tarock.core.valat`` and the
bots all read it (:func:`valat_verdict`; :func:`valat_on_own` is its
``allowed``).  :func:`play_deals` plays given distributions, for a caller
that draws them from more than the hand.

The play follows a contract's :class:`~core.contracts.TrickRules` as
:mod:`core.tricks` reads them (legal cards, winner, card order, the
Kaiserstich), compiled once per check to bit sets (:mod:`core.valatbits`),
so the variants that ask this of a declarer and the bots that ask it of
themselves share one check.  It covers games where the tarocks trump or a
named suit does (``colour`` games have no such check) and decks that deal
out completely to four players (no talon: the 40-card games).

Each distribution is played out with all hands open: the opponents see the
declarer's cards and act together.  Whenever the declarer leads he must
lead a card none of the opponents can beat with any legal play (drawing
trumps first while they hold some); when an opponent leads the first trick
(the declarer is not the forehand) the whole trick is searched, so any lead
and any continuation that takes the trick is found.  Opponents who cannot
take a trick throw their lowest card (by the order within its suit); they
do not keep a guard back, so a Queen that would beat the declarer's Cavall
later is often thrown: an open fork (King and Cavall) mostly comes home,
which the seed allows the leader ("eine offene Gabel darf man annehmen,
als Ausspieler").  This is the approximation the seed admits ("Das ist eine
Näherung; wer nicht ausspielt, braucht dafür mehr als der Ausspieler").

Cost (``python -m tarock.core.valat`` prints the figures on this machine): a hand
without the top trump of a suit is refused at once; a hand that passes plays
all 200 deals, the first trick searched in full when an opponent leads it.
On bit sets the check takes a quarter to a third of the time the first
version on lists took (tests/valat_reference.py, the reference it is tested
against), measured in the same session on a loaded 2-core machine: 50-83 ms
against 195-228 ms for the Solo hand of docs/rules.md §11.2 leading, 121-162 ms against
742-767 ms for the Faberl hand over all four suits, second to play.  A check
that stops at its third lost deal costs about as much in seeding the
generator (~20 µs) and shuffling (~15 µs a deal) as in playing.  Sampled
answers are cached per hand.  Most hands the rules ask about cannot make a single
deal: :func:`core.valatbound.always_lost` proves it without playing, and the
check answers them as the play-out would (three deals played, none made);
within a check, a deal :class:`core.valatbound.DealBound` proves lost is not
played.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import ClassVar, Final

from tarock.core.cards import (
    DECK40,
    SUIT_LETTERS,
    SUIT_OF,
    TAROCK,
    Card,
    Suit,
    format_card,
)
from tarock.core.contracts import TrickRules
from tarock.core.valatbits import Play, compile_play, leader_threats
from tarock.core.valatbound import DealBound, always_lost

DEALS: Final = 200
"""Random distributions of the unseen cards played per check."""

MAX_FAILURES: Final = 2
"""Distributions the hand may lose and still be allowed (198 of 200 = 99 %)."""

SEATS: Final = 4
"""The declarer and three opponents."""

SOLO: Final = TrickRules(overtrump=True, trull_trick=True)
"""The trick rules of the 40-card Solo, docs/rules.md §13.4 (tarocks trump, Stichzwang on
tarocks, Kaiserstich): what ``python -m tarock.core.valat`` measures."""

STOPPED_FAILURES: Final = "failures"
"""Why a check stopped early: it lost ``MAX_FAILURES + 1`` deals, more than the Valat may."""
STOPPED_TOP_TRUMP: Final = "top-trump"
"""Why a check played no deal: the hand lacks the highest trump, which an opponent
plays to take a trick."""

_NAMES: Final = tuple(format_card(c) for c in range(54))
"""Each card's name, for the generator's seed."""

Z95: Final = NormalDist().inv_cdf(0.975)
"""The standard normal quantile of a two-sided 95 % interval (about 1.96)."""


def wilson_interval(made: int, deals: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate: ``made`` of ``deals``
    (95 % by default; ``(0, 1)`` when nothing was played).  Chosen over
    Clopper–Pearson for its closed form; it stays inside [0, 1] and is not
    empty at 0 or ``deals`` successes, where it reaches 0 or 1 exactly."""
    if deals <= 0:
        return 0.0, 1.0
    if not 0 <= made <= deals:
        raise ValueError(f"{made} successes of {deals} trials")
    p = made / deals
    z2 = z * z
    centre = (p + z2 / (2 * deals)) / (1 + z2 / deals)
    half = z / (1 + z2 / deals) * math.sqrt(p * (1 - p) / deals + z2 / (4 * deals * deals))
    low = 0.0 if made == 0 else max(0.0, centre - half)
    high = 1.0 if made == deals else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True, slots=True)
class ValatEstimate:
    """How often a hand made every trick: ``made`` of ``deals`` played, and
    why the play-out stopped before the deals it was given ran out ("": it did not)."""

    deals: int
    made: int
    stopped: str = ""

    @property
    def rate(self) -> float:
        return self.made / self.deals if self.deals else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of the success rate (:func:`wilson_interval`)."""
        return wilson_interval(self.made, self.deals)


@dataclass(frozen=True, slots=True)
class ValatVerdict:
    """The answer of the check "Valat aus eigener Kraft", as the rules, the
    client and the bots read it.

    ``allowed``: made in at least ``DEALS - MAX_FAILURES`` of ``DEALS``
    deals.  ``deals`` is the number of deals played (fewer than ``DEALS``
    when the check stopped early: ``stopped`` says why), ``made`` those won
    with every trick, ``low``/``high`` the 95 % Wilson score interval of the
    success rate (:func:`wilson_interval`), ``trump`` the suit that trumped
    and ``position`` the declarer's place in the first trick."""

    allowed: bool
    deals: int
    made: int
    stopped: str
    trump: Suit
    position: int

    method: ClassVar[str] = "Wilson score"
    """How the interval is computed."""
    needed: ClassVar[int] = DEALS - MAX_FAILURES
    """Deals to make, of ``DEALS``."""
    sample: ClassVar[int] = DEALS
    """Deals a full check plays."""

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.made, self.deals)

    @property
    def low(self) -> float:
        return self.interval[0]

    @property
    def high(self) -> float:
        return self.interval[1]

    def figures(self) -> dict[str, str]:
        """The verdict's numbers as text, for a message: ``made``, ``deals``,
        ``lost``, ``low`` and ``high`` (per cent, one decimal), ``needed``, ``sample``."""
        return {"made": str(self.made), "deals": str(self.deals), "lost": str(self.deals - self.made),
                "low": f"{100 * self.low:.1f}",
                "high": f"{100 * self.high:.1f}", "needed": str(self.needed), "sample": str(self.sample)}

    def summary(self) -> str:
        """One line in English: the figures and why the check stopped."""
        if self.stopped == STOPPED_TOP_TRUMP:
            return "refused without playing a deal: the hand lacks the highest trump"
        f = self.figures()
        text = (f"made in {f['made']} of {f['deals']} deals played "
                f"(95% {self.method} interval {f['low']}-{f['high']}%; needs {f['needed']} of {f['sample']})")
        if self.stopped == STOPPED_FAILURES:
            text += f"; stopped after {self.deals - self.made} lost deals"
        return f"{'allowed' if self.allowed else 'refused'}: {text}"


def checkable(rules: TrickRules, trump: Suit) -> bool:
    """Whether the check covers a game with these rules and this trump suit:
    tarocks trumping (``tarock``), or a suit named in a ``suit`` game."""
    if rules.trump == "tarock":
        return trump == TAROCK
    return rules.trump == "suit" and 0 <= trump < TAROCK


@lru_cache(maxsize=16)
def _steps(length: int) -> tuple[tuple[int, int], ...]:
    """Fisher-Yates's steps over ``length`` cards: each place from the last down, with
    the bits drawn for it (of ``place + 1`` choices)."""
    return tuple((i, (i + 1).bit_length()) for i in range(length - 1, 0, -1))


def shuffle(rng: random.Random, cards: list[Card]) -> None:
    """``rng.shuffle(cards)``, draw for draw (CPython's Fisher-Yates on
    ``getrandbits``, unchanged from 3.11 to 3.13), without its method call per
    card: the check shuffles for every deal it plays."""
    getrandbits = rng.getrandbits
    for i, k in _steps(len(cards)):
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def play_deals(hand: Sequence[Card], rules: TrickRules, trump: Suit, position: int,
               distributions: Iterable[Sequence[Sequence[Card]]], *,
               stop_after: int | None = None) -> ValatEstimate:
    """Play ``hand`` against the given ``distributions`` (each the three
    opponents' hands in the order they sit after the declarer's place in the
    first trick is taken out: the first-trick places other than ``position``,
    ascending).  Stops early after ``stop_after`` failures.

    This is the play-out of :func:`simulate`; a caller that knows more than
    the hand (a bot that saw bids) may draw the distributions itself."""
    if not checkable(rules, trump):
        raise ValueError(f"no Valat check for trump mode {rules.trump!r} with trump suit {trump}")
    if not 0 <= position < SEATS:
        raise ValueError(f"position {position} is not a place in the first trick (0..{SEATS - 1})")
    play = compile_play(rules, trump)
    mine = sorted(hand)

    def outcomes() -> Iterator[bool]:
        for others in distributions:
            if len(others) != SEATS - 1 or any(len(o) != len(mine) for o in others):
                raise ValueError(f"a distribution must hold {SEATS - 1} hands of {len(mine)} cards")
            rest = list(others)
            yield play.makes_valat([rest.pop(0) if seat != position else mine for seat in range(SEATS)],
                                   position)
    return _tally(outcomes(), stop_after)


def _tally(outcomes: Iterator[bool], stop_after: int | None) -> ValatEstimate:
    """Deals made of deals played (each outcome: made or lost), stopping at the
    ``stop_after``-th lost one."""
    made = failed = played = 0
    for won in outcomes:
        played += 1
        if won:
            made += 1
        else:
            failed += 1
            if stop_after is not None and failed >= stop_after:
                return ValatEstimate(played, made, STOPPED_FAILURES)
    return ValatEstimate(played, made)


def simulate(hand: Sequence[Card], rules: TrickRules, trump: Suit = TAROCK, position: int = 0, *,
             deck: Sequence[Card] = DECK40, deals: int = DEALS, stop_after: int | None = None,
             seed: str | None = None) -> ValatEstimate:
    """Play ``hand`` against ``deals`` random distributions of the other cards of ``deck``.

    ``rules`` are the contract's trick rules and ``trump`` the suit that
    trumps (``TAROCK`` where the tarocks do, else the named suit);
    ``position`` is the declarer's place in the first trick (0 = he leads).
    The cards of ``deck`` not in ``hand`` go to three opponents, as many
    each as ``hand`` holds.  Stops early after ``stop_after`` failures.
    """
    if not checkable(rules, trump):
        raise ValueError(f"no Valat check for trump mode {rules.trump!r} with trump suit {trump}")
    mine = sorted(hand)
    size = len(mine)
    held = set(mine)
    unseen = [c for c in deck if c not in held]
    if len(unseen) != (SEATS - 1) * size:
        raise ValueError(f"{len(deck)} cards do not deal {size} to each of {SEATS} players")
    rng = random.Random(seed if seed is not None else
                        f"valat|{' '.join([_NAMES[c] for c in mine])}|{trump}|{position}|{rules.xx_high}")
    return _play_sample(mine, compile_play(rules, trump), position, rng, unseen, deals, stop_after)


def _play_sample(mine: list[Card], play: Play, position: int, rng: random.Random, unseen: list[Card],
                 deals: int, stop_after: int | None) -> ValatEstimate:
    """:func:`play_deals` over ``deals`` distributions of ``unseen`` drawn from ``rng``, deal for deal the
    same answers, cheaper: the declarer's bit set is built once, and a deal whose first
    leader holds a card above all the declarer's cards of its suit (the opponents take
    the first trick: :func:`~core.valatbits.leader_threats`) is lost without
    building its hands, one :class:`~core.valatbound.DealBound` proves lost without playing."""
    size = len(mine)
    mine_mask = play.mask(mine)
    threats = leader_threats(play, mine_mask) if position else frozenset()
    lost = DealBound(play, mine_mask, position, size).lost
    value = play.value
    cut = size * 2

    def outcomes() -> Iterator[bool]:
        for _ in range(deals):
            shuffle(rng, unseen)
            if threats and not threats.isdisjoint(unseen[:size]):
                yield False
                continue
            first = second = third = 0  # the opponents' hands as bits, in their order
            for c in unseen[:size]:
                first |= value[c]
            for c in unseen[size:cut]:
                second |= value[c]
            for c in unseen[cut:]:
                third |= value[c]
            if lost((first, second, third)):
                yield False
                continue
            orders: list[Sequence[Card]] = [unseen[:size], unseen[size:cut], unseen[cut:]]
            hands = [first, second, third]
            orders.insert(position, mine)
            hands.insert(position, mine_mask)
            yield play.play_out(hands, orders, position) if not position else _after_first_trick(
                play, hands, orders, position, size)
    return _tally(outcomes(), stop_after)


def _after_first_trick(play: Play, hands: list[int], orders: list[Sequence[Card]], position: int,
                       size: int) -> bool:
    """``play.play_out(hands, orders, position)`` of a declarer who does not lead (``position``
    not 0), the same answer, cheaper where the deal is lost after the first trick: the trick
    the play-out would play is found first (the cheaper part of its search), and where
    :class:`~core.valatbound.DealBound` proves what is left lost, whether the opponents
    could take the first trick (the search in full) is not asked: the deal is lost either way."""
    before = hands[:]
    trick = play.first_trick(hands, orders, position)
    if trick is None:  # a lead takes the trick: the opponents can take it
        return False
    for place, b in enumerate(trick):
        hands[place] ^= 1 << b
    rest = DealBound(play, hands[position], 0, size - 1)
    if rest.lost([hands[(position + k) % SEATS] for k in range(1, SEATS)]):
        return False
    if play.first_trick_taken(before, position):
        return False
    return play.play_rest(hands, orders, position)


@lru_cache(maxsize=64)
def _top_trump(rules: TrickRules, trump: Suit, deck: tuple[Card, ...]) -> Card:
    """The trump that wins every trick it is played to (no Kaiserstich in a
    suit game; where the tarocks trump, the Pagat can only beat the Sküs with
    the Mond of another player in the trick, which open-handed opponents avoid)."""
    bit = compile_play(rules, trump).bit
    return max((c for c in deck if SUIT_OF[c] == trump), key=lambda c: bit[c])


def judge(estimate: ValatEstimate, trump: Suit = TAROCK, position: int = 0) -> ValatVerdict:
    """The verdict on a check's play-out: allowed when all ``DEALS`` were
    played and at most ``MAX_FAILURES`` lost."""
    allowed = estimate.deals >= DEALS and estimate.deals - estimate.made <= MAX_FAILURES
    return ValatVerdict(allowed, estimate.deals, estimate.made, estimate.stopped, trump, position)


@lru_cache(maxsize=4096)
def _verdict(hand: tuple[Card, ...], rules: TrickRules, trump: Suit, position: int,
             deck: tuple[Card, ...]) -> ValatVerdict:
    """The verdict on a sorted hand that holds the top trump and that
    :func:`~core.valatbound.always_lost` does not settle: the sample played."""
    estimate = simulate(hand, rules, trump, position, deck=deck, stop_after=MAX_FAILURES + 1)
    return judge(estimate, trump, position)


def sampled_verdict(hand: Sequence[Card], rules: TrickRules, trump: Suit, position: int,
                    deck: Sequence[Card] = DECK40) -> ValatVerdict:
    """:func:`valat_verdict` on a hand it would sample (one that holds the top trump, of a
    game the check covers, and that :func:`~core.valatbound.always_lost` does not settle),
    for a caller that asked those questions itself."""
    return _verdict(tuple(sorted(hand)), rules, trump, position, tuple(deck))


@lru_cache(maxsize=64)
def lost_at_once(trump: Suit, position: int) -> ValatVerdict:
    """The verdict on a hand :func:`~core.valatbound.always_lost` settles: every deal the
    sample could draw is lost, so its first ``MAX_FAILURES + 1`` end the check."""
    return judge(ValatEstimate(MAX_FAILURES + 1, 0, STOPPED_FAILURES), trump, position)


@lru_cache(maxsize=64)
def _without_top_trump(trump: Suit, position: int) -> ValatVerdict:
    """The verdict on a hand without the top trump: an opponent takes the trick he
    plays it to, so no deal is played."""
    return ValatVerdict(False, 0, 0, STOPPED_TOP_TRUMP, trump, position)


@dataclass(frozen=True, slots=True)
class _Game:
    """What a check needs of its trick rules, trump and deck, found once."""

    rules: TrickRules
    deck: tuple[Card, ...]
    cards: frozenset[Card] | None
    """The deck's cards; None where the check does not cover the game (:func:`checkable`)."""
    top: Card
    play: Play | None
    cards_mask: int
    """The deck's cards as bits of ``play``."""


@lru_cache(maxsize=64)
def _game_of(rules: TrickRules, trump: Suit, deck: tuple[Card, ...]) -> _Game:
    if not checkable(rules, trump):
        return _Game(rules, deck, None, -1, None, 0)
    play = compile_play(rules, trump)
    return _Game(rules, deck, frozenset(deck), _top_trump(rules, trump, deck), play, play.mask(deck))


_GAMES: dict[tuple[int, Suit, int], _Game] = {}
""":func:`_game_of` by the identity of the rules and the deck (a game holds both, so
neither id is reused while it is here): the auction asks for the same objects
again and again, and hashing them by value costs more than the answer."""


def _game(rules: TrickRules, trump: Suit, deck: tuple[Card, ...]) -> _Game:
    key = (id(rules), trump, id(deck))
    game = _GAMES.get(key)
    if game is None or game.rules is not rules or game.deck is not deck:
        if len(_GAMES) >= 256:
            _GAMES.clear()
        found = _game_of(rules, trump, deck)
        game = _GAMES[key] = _Game(rules, deck, found.cards, found.top, found.play, found.cards_mask)
    return game


def valat_verdict(hand: Sequence[Card], rules: TrickRules, trump: Suit = TAROCK, position: int = 0,
                  deck: Sequence[Card] = DECK40) -> ValatVerdict | None:
    """The check's verdict on ``hand`` in a game with ``rules`` and ``trump``
    from first-trick place ``position``: allowed when made in >= 99 % of
    200 deals; None where no check exists (:func:`checkable`, or a deck that
    does not deal out to four hands like it).  A hand :func:`~core.valatbound.always_lost`
    settles is answered at once (a bit set and the bound, cheaper than a cache key); a
    sampled one is remembered per sorted hand (the rules ask again for every bid and
    announcement the hand could make)."""
    deck = tuple(deck)
    game = _game(rules, trump, deck)
    if game.cards is None or len(deck) != SEATS * len(hand) or not game.cards.issuperset(hand):
        return None
    if game.top not in hand:
        return _without_top_trump(trump, position)
    play = game.play
    assert play is not None  # the check covers the game (``game.cards``)
    mine = play.mask(hand)
    if always_lost(play, mine, game.cards_mask ^ mine, position, len(hand)):
        return lost_at_once(trump, position)
    return _verdict(tuple(sorted(hand)), rules, trump, position, deck)


def _closeness(a: ValatVerdict) -> tuple[bool, int, int]:
    """Which of two verdicts came closer: allowed, then more deals played, then more made."""
    return a.allowed, a.deals, a.made


def choose_verdict(verdicts: Sequence[ValatVerdict], every: bool) -> ValatVerdict:
    """The verdict that counts among several trump suits' verdicts: the worst
    where ``every`` suit must pass (another names it), else the best (the
    declarer names it)."""
    return min(verdicts, key=_closeness) if every else max(verdicts, key=_closeness)


def valat_verdict_any_suit(hand: Sequence[Card], rules: TrickRules, position: int = 0,
                           deck: Sequence[Card] = DECK40) -> ValatVerdict | None:
    """The best verdict over the four suits as trumps (a ``suit`` game whose
    suit the declarer names after the bid: the Faberl); None where no check exists."""
    verdicts = [v for suit in range(TAROCK) if (v := valat_verdict(hand, rules, suit, position, deck))]
    return choose_verdict(verdicts, every=False) if verdicts else None


def valat_verdict_every_suit(hand: Sequence[Card], rules: TrickRules, position: int = 0,
                             deck: Sequence[Card] = DECK40) -> ValatVerdict | None:
    """The worst verdict over the four suits as trumps (a hand that must make
    the Valat whichever suit another names); None where no check exists."""
    verdicts = [v for suit in range(TAROCK) if (v := valat_verdict(hand, rules, suit, position, deck))]
    return choose_verdict(verdicts, every=True) if len(verdicts) == TAROCK else None


def valat_on_own(hand: Sequence[Card], rules: TrickRules, trump: Suit = TAROCK, position: int = 0,
                 deck: Sequence[Card] = DECK40) -> bool:
    """Whether :func:`valat_verdict` allows the Valat (False where no check exists)."""
    verdict = valat_verdict(hand, rules, trump, position, deck)
    return verdict is not None and verdict.allowed


def valat_on_own_any_suit(hand: Sequence[Card], rules: TrickRules, position: int = 0,
                          deck: Sequence[Card] = DECK40) -> bool:
    """Whether :func:`valat_verdict_any_suit` allows the Valat: some choice of
    trump suit makes ``hand`` a Valat on its own (the Faberl)."""
    verdict = valat_verdict_any_suit(hand, rules, position, deck)
    return verdict is not None and verdict.allowed


def _bench() -> None:  # pragma: no cover - a measurement, run by hand
    import time

    from tarock.core.cards import parse_cards

    def cards(text: str) -> tuple[Card, ...]:
        return parse_cards(text.split(" "))

    faberl = TrickRules("suit", overtrump=True)
    cases = {
        "solo, 7 top tarocks, 2 small, a King, leading":
            (cards("Sküs XXI XX XIX XVIII XVII XVI V IV hK"), SOLO, TAROCK, 0),
        "same hand, third to play": (cards("Sküs XXI XX XIX XVIII XVII XVI V IV hK"), SOLO, TAROCK, 2),
        "faberl hearts, all five trumps and three Kings":
            (cards("hK hQ hC hJ h1 cK sK dK Sküs XXI"), faberl, 2, 0),
        "weak hand": (cards("XV X V IV hK hQ c10 cJ sC d1"), SOLO, TAROCK, 0),
    }
    for name, (hand, rules, trump, pos) in cases.items():
        start = time.perf_counter()
        verdict = valat_verdict(hand, rules, trump, pos)
        took = time.perf_counter() - start
        assert verdict is not None
        print(f"{name}: {verdict.summary()}, {took * 1000:.0f} ms")
    hand = cards("hK hQ hC hJ h1 cK sK dK Sküs XXI")
    start = time.perf_counter()
    best = valat_verdict_any_suit(hand, faberl, 1)
    took = time.perf_counter() - start
    assert best is not None
    print(f"faberl check over all four suits, second to play: best suit {SUIT_LETTERS[best.trump]}: "
          f"{best.summary()}, "
          f"{took * 1000:.0f} ms")


if __name__ == "__main__":  # pragma: no cover
    _bench()
