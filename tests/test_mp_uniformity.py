"""With three colluding shufflers and one honest seat, mental-poker dealing is uniform.

Barnett–Smart's promise (net/barnett_smart.py): the final order is uniform as
long as one seat shuffles honestly, whatever the others do.  Three seats here
collude: they send the very same key, seed and so permutation and masks in
every deal (the same hand id throughout, so even the per-hand derivation of
their shuffle keys cannot vary), or they pick their seeds adaptively from the
decks they see.  The fourth seat draws fresh secrets per deal.

The statistic.  Over ``N`` deals of ``n`` cards, ``O[c][p]`` counts the deals in
which card ``c`` lies at position ``p`` (``E = N/n``).  A uniform random
permutation matrix has covariance ``Q⊗Q/(n-1)`` with ``Q = I - J/n``, so
``T = (n-1)/n · Σ (O-E)²/E`` follows a chi-square law with ``(n-1)²`` degrees of
freedom (the usual Pearson sum is ``n/(n-1)`` times too large here, as rows and
columns are both fixed).  For four cards the full order is also counted (24
categories, expected 200 each: the plain multinomial Pearson test, 23 degrees).

The threshold.  Every seed is fixed, so each run is deterministic; a test
passes when the p-value exceeds ``ALPHA = 1e-6`` -- a correct dealer would fail
one seed in a million, so the seeds were not picked to pass, while every
counter-check below (all four seats fixed, an off-by-one Fisher–Yates) lands
at a p-value below ``1e-100``: the test can fail, and does so by a mile.

Two levels: the real protocol objects (:class:`net.mental_poker.MentalDealer`:
keys with proofs, re-masked decks, every point of them validated by an
observer, the openings and the audit that decrypts every position) on a small
deck, since the group operations cost milliseconds; and, for the full 54-card
deck, the permutation derivation the audit itself uses to fix the deal
(``barnett_smart.permutation`` of ``shuffle_key``, composed by
``arrangement``).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pytest
from time_bound import bounded

from tarock.net import barnett_smart as bs
from tarock.net import group, sha_stream
from tarock.net.dealing import DealContext, Layout, Payload
from tarock.net.mental_poker import MentalDealer, MentalPoker

SEATS = 4
ALPHA = 1e-6
CTX = DealContext("5eed" * 8, 1, 1, SEATS)
"""Every deal has the same hand id: the colluders replay their messages verbatim."""


@pytest.fixture(autouse=True)
def _bounded() -> Iterator[None]:
    with bounded(180):
        yield


# -- statistics -----------------------------------------------------------------------------

def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square law with ``df`` degrees of freedom, from the closed forms
    for integer ``df`` (a Poisson sum for even ``df``; erfc and a sum for odd), summed in
    log space so that large ``df`` neither overflows nor underflows early."""
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:
        total = sum(math.exp(-h + i * math.log(h) - math.lgamma(i + 1)) for i in range(df // 2))
        return min(1.0, total)
    # odd: erfc(sqrt(x/2)) + sqrt(2/pi) e^(-x/2) sum_{i=1}^{(df-1)/2} x^(i-1/2) / (2i-1)!!
    lead = 0.5 * math.log(2 / math.pi) - h
    total = math.erfc(math.sqrt(h))
    for i in range(1, (df + 1) // 2):
        double_factorial = math.lgamma(2 * i + 1) - i * math.log(2) - math.lgamma(i + 1)
        total += math.exp(lead + (i - 0.5) * math.log(x) - double_factorial)
    return min(1.0, total)


def position_statistic(orders: Sequence[Sequence[int]], n: int) -> tuple[float, int]:
    """``T`` (see the module's docstring) over ``orders`` (position -> card) and its degrees."""
    counts = [[0] * n for _ in range(n)]
    for order in orders:
        for p, c in enumerate(order):
            counts[c][p] += 1
    e = len(orders) / n
    pearson = sum((o - e) ** 2 / e for row in counts for o in row)
    return (n - 1) / n * pearson, (n - 1) ** 2


def permutation_statistic(orders: Sequence[Sequence[int]], n: int) -> tuple[float, int]:
    """The multinomial Pearson sum over all ``n!`` orders, and its degrees."""
    cells = {perm: 0 for perm in itertools.permutations(range(n))}
    for order in orders:
        cells[tuple(order)] += 1
    e = len(orders) / len(cells)
    return sum((o - e) ** 2 / e for o in cells.values()), len(cells) - 1


def p_value(stat: tuple[float, int]) -> float:
    return chi2_sf(*stat)


def test_the_chi_square_tail_is_right() -> None:
    """Known quantiles (df 1, 2, 10, 25, 36, 2809) and the normal approximation far out."""
    assert chi2_sf(3.841459, 1) == pytest.approx(0.05, rel=1e-5)
    assert chi2_sf(5.991465, 2) == pytest.approx(0.05, rel=1e-5)
    assert chi2_sf(23.209251, 10) == pytest.approx(0.01, rel=1e-5)
    assert chi2_sf(52.619654, 25) == pytest.approx(0.001, rel=1e-5)
    assert chi2_sf(58.619215, 36) == pytest.approx(0.01, rel=1e-5)
    z = 3.0  # Wilson–Hilferty at df 2809: accurate to a few per cent this far out
    df = 2809
    x = df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
    assert chi2_sf(x, df) == pytest.approx(0.0013499, rel=0.03)


# -- the protocol objects, a small deck -----------------------------------------------------

SMALL = Layout(deck=(0, 1, 2, 3, 4), hands=((0,), (1,), (2,), (3, 4)), talon=())
"""Five cards (any card of the 54 would do: the code is generic over the deck)."""

Chooser = Callable[[int, bytes], bytes | None]
"""(colluding seat, the incoming deck's bytes) -> the seed it shuffles with (None: its fixed one)."""


def _fixed_secret(seat: int) -> dict[str, str]:
    rng = random.Random(1000 + seat)
    return {"x": group.random_scalar(rng.randbytes).hex(), "seed": rng.randbytes(32).hex()}


def protocol_deal(honest: int | None, rng: random.Random, choose: Chooser | None = None) -> list[int]:
    """One deal through four MentalDealers and an observer that validates every point and
    proof, then opens and audits: the card at every position as decryption finds it."""
    scheme = MentalPoker()
    dealers: list[MentalDealer] = []
    for s in range(SEATS):
        secret: Mapping[str, Any] | None = None if s == honest else _fixed_secret(s)
        dealers.append(scheme.dealer(CTX, SMALL, s, secret=secret, rand=rng.randbytes, checks=False))
    observer = scheme.dealer(CTX, SMALL, None, checks=True)
    queue: list[tuple[int, Payload]] = [(s, o.payload) for s, d in enumerate(dealers) for o in d.start()]
    while queue:
        author, payload = queue.pop(0)
        observer.entry(author, payload)
        for s, d in enumerate(dealers):
            if choose is not None and payload["t"] == "shuffle" and s == author + 1 and s != honest:
                seed = choose(s, "".join(payload["deck"]).encode())
                if seed is not None:
                    d.seed = seed  # the colluder grinds its seed on the deck it sees
            queue += [(s, o.payload) for o in d.entry(author, payload)]
    assert observer.fixed
    for s, d in enumerate(dealers):
        opening = d.opening()
        assert opening is not None
        observer.open(s, opening)
    return observer.audit()


def _grinding(seat: int, deck: bytes) -> bytes:
    """Four candidate seeds, picked by a hash of the deck the colluder receives."""
    pick = hashlib.sha256(deck).digest()[0] % 4
    return hashlib.sha256(b"candidate %d %d" % (seat, pick)).digest()


PROTOCOL_DEALS = 320


@pytest.mark.parametrize(("honest", "choose"), [(0, None), (3, None), (0, _grinding), (1, _grinding)],
                         ids=["honest-first", "honest-last", "honest-first-grinding",
                              "honest-second-grinding"])
def test_one_honest_shuffler_makes_the_protocol_deal_uniform(honest: int, choose: Chooser | None) -> None:
    rng = random.Random(91 + honest)
    orders = [protocol_deal(honest, rng, choose) for _ in range(PROTOCOL_DEALS)]
    n = len(SMALL.deck)
    assert all(sorted(o) == list(range(n)) for o in orders)
    assert p_value(position_statistic(orders, n)) > ALPHA


def test_four_fixed_shufflers_fail_the_same_test() -> None:
    """The counter-check: nobody honest, the same deal every time -- rejected."""
    rng = random.Random(7)
    orders = [protocol_deal(None, rng) for _ in range(PROTOCOL_DEALS // 4)]
    assert len({tuple(o) for o in orders}) == 1
    assert p_value(position_statistic(orders, len(SMALL.deck))) < 1e-100


# -- the derivation the audit uses, the full deck -------------------------------------------

HAND = CTX.hand_id.encode()
FIXED_SEEDS = [hashlib.sha256(b"colluder %d" % s).digest() for s in range(SEATS)]


def derived_order(n: int, seeds: Sequence[bytes],
                  perm: Callable[[bytes, int], list[int]] = bs.permutation) -> list[int]:
    perms = [perm(bs.shuffle_key(HAND, s, seed), n) for s, seed in enumerate(seeds)]
    return bs.arrangement(list(range(n)), perms)


def _seeds(honest: int | None, rng: random.Random) -> list[bytes]:
    return [rng.randbytes(32) if s == honest else FIXED_SEEDS[s] for s in range(SEATS)]


@pytest.mark.parametrize("honest", [0, 2, 3])
def test_one_honest_seed_makes_the_54_card_order_uniform(honest: int) -> None:
    rng = random.Random(540 + honest)
    orders = [derived_order(54, _seeds(honest, rng)) for _ in range(5400)]
    assert p_value(position_statistic(orders, 54)) > ALPHA


@pytest.mark.parametrize("honest", [0, 3])
def test_one_honest_seed_makes_every_order_of_four_cards_equally_likely(honest: int) -> None:
    rng = random.Random(40 + honest)
    orders = [derived_order(4, _seeds(honest, rng)) for _ in range(4800)]
    assert p_value(permutation_statistic(orders, 4)) > ALPHA


def _sattolo(key: bytes, n: int) -> list[int]:
    """Fisher–Yates with the classic off-by-one (``below(i)``): only cyclic permutations."""
    order = list(range(n))
    stream = sha_stream.Stream(key)
    for i in range(n - 1, 0, -1):
        j = stream.below(i)
        order[i], order[j] = order[j], order[i]
    return order


def test_the_statistics_catch_all_fixed_seeds_and_an_off_by_one_shuffle() -> None:
    rng = random.Random(5)
    fixed = [derived_order(54, _seeds(None, rng)) for _ in range(540)]
    assert p_value(position_statistic(fixed, 54)) < 1e-100
    # Every seat shuffles with the off-by-one: the composition of four 4-cycles is never odd.
    biased = [derived_order(4, [rng.randbytes(32) for _ in range(SEATS)], _sattolo) for _ in range(4800)]
    assert p_value(permutation_statistic(biased, 4)) < 1e-100
