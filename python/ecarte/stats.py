"""Confidence intervals for reported rates and means."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["mean_interval", "ratio_interval", "wilson_interval"]

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when n is 0."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval: (mean, low, high); the interval is
    unbounded for fewer than two values."""
    n = len(values)
    if n == 0:
        return (0.0, -math.inf, math.inf)
    mean = sum(values) / n
    if n == 1:
        return (mean, -math.inf, math.inf)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def ratio_interval(
    num: Sequence[float], den: Sequence[float], z: float = Z95
) -> tuple[float, float, float]:
    """sum(num) / sum(den) with a delta-method interval that treats each (num, den) pair as
    one cluster: (ratio, low, high)."""
    n = len(num)
    ratio = sum(num) / sum(den)
    if n < 2:
        return (ratio, -math.inf, math.inf)
    mean_den = sum(den) / n
    resid = sum((x - ratio * d) ** 2 for x, d in zip(num, den)) / (n - 1)
    half = z * math.sqrt(resid / n) / mean_den
    return (ratio, ratio - half, ratio + half)
