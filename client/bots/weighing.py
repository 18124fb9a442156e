"""Weighted means of sampled results, and whether one choice is clearly better than another.

The search bots (:mod:`client.bots.cardsearch`, :mod:`client.bots.plans`)
try every candidate in the same weighted worlds; these compare the results.
"""

from __future__ import annotations

from collections.abc import Sequence


def weighted_mean(values: Sequence[float], weights: Sequence[float]) -> float:
    total = sum(weights)
    return sum(v * w for v, w in zip(values, weights, strict=True)) / total if total else 0.0


def clearly_better(a: Sequence[float], b: Sequence[float], weights: Sequence[float], z: float) -> bool:
    """Whether ``a`` beats ``b`` by more than ``z`` standard errors of their
    paired, weighted differences (the effective sample size of the weights)."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = weighted_mean(diffs, weights)
    if mean <= 0:
        return False
    total = sum(weights)
    squares = sum(w * w for w in weights)
    n = total * total / squares if squares else 0.0
    if n < 2:
        return True
    var = sum(w * (d - mean) ** 2 for d, w in zip(diffs, weights, strict=True)) / total * n / (n - 1)
    return bool(mean > z * (var / n) ** 0.5)


def mostly_better(a: Sequence[float], b: Sequence[float], z: float) -> bool:
    """Whether ``a`` beats ``b`` in clearly more worlds than it loses (a sign test: the
    excess of wins over losses more than ``z`` times its standard deviation where both
    are equally likely); worlds where they tie do not count."""
    wins = sum(1 for x, y in zip(a, b, strict=True) if x > y)
    losses = sum(1 for x, y in zip(a, b, strict=True) if x < y)
    return bool(wins - losses > z * (wins + losses) ** 0.5)
