"""When the search may leave the rule of thumb's choice (client/bots/weighing.py).

The paired mean test alone let a handful of played-out worlds with a large
swing (a Valat won in 4 of 32) decide a first-trick card; the sign test beside
it asks that the card be better in clearly more worlds than worse
(docs/bots.md, "Where tarock54's margin goes").
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tarock.client.bots.weighing import clearly_better, mostly_better

Z = 2.0


def test_four_big_worlds_of_thirty_two_pass_the_mean_test_but_not_the_sign_test() -> None:
    a = [12.0] * 4 + [0.0] * 28
    b = [0.0] * 32
    assert clearly_better(a, b, [1.0] * 32, Z)
    assert not mostly_better(a, b, Z)


def test_a_small_gain_in_most_worlds_passes_both() -> None:
    a = [1.0] * 20 + [-1.0] * 2 + [0.0] * 10
    b = [0.0] * 32
    assert clearly_better(a, b, [1.0] * 32, Z)
    assert mostly_better(a, b, Z)


def test_ties_do_not_count_and_five_clean_wins_are_enough() -> None:
    assert not mostly_better([1.0] * 4 + [0.0] * 100, [0.0] * 104, Z)  # 4 > 2 * 2 fails
    assert mostly_better([1.0] * 5 + [0.0] * 99, [0.0] * 104, Z)  # 5 > 2 * sqrt(5)


@given(st.lists(st.tuples(st.integers(-13, 13), st.integers(-13, 13)), min_size=1, max_size=40),
       st.integers(-5, 5))
def test_the_sign_test_is_one_sided_and_blind_to_a_shift(pairs: list[tuple[int, int]], shift: int) -> None:
    a = [float(x) for x, _ in pairs]
    b = [float(y) for _, y in pairs]
    assert not (mostly_better(a, b, Z) and mostly_better(b, a, Z))
    moved = [x + shift for x in a], [y + shift for y in b]
    assert mostly_better(*moved, Z) == mostly_better(a, b, Z)
