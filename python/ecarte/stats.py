"""Confidence intervals for reported rates and means."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["RATE_BOUNDS", "clip_interval", "mean_interval", "ratio_interval", "wilson_interval"]

Z95 = 1.959963984540054

#: The bounds of a rate (a share of matches, deals or tricks won).
RATE_BOUNDS = (0.0, 1.0)


def clip_interval(
    estimate: tuple[float, float, float], bounds: tuple[float, float] | None
) -> tuple[float, float, float]:
    """``(mean, low, high)`` with the interval clipped to ``bounds`` (a no-op for ``None``):
    a normal-approximation interval of a rate can reach past 0 or 1 on a small sample, but
    the rate itself cannot."""
    if bounds is None:
        return estimate
    lo, hi = bounds
    mean, low, high = estimate
    return (mean, min(max(low, lo), hi), max(min(high, hi), lo))


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when n is 0."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # Exact at the ends (rounding would leave the bound a hair inside or outside).
    low = 0.0 if successes <= 0 else max(0.0, min(p, centre - half))
    high = 1.0 if successes >= n else min(1.0, max(p, centre + half))
    return (low, high)


def mean_interval(
    values: Sequence[float], z: float = Z95, bounds: tuple[float, float] | None = None
) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval: (mean, low, high); the interval is
    unbounded for fewer than two values. With ``bounds`` (e.g. :data:`RATE_BOUNDS` for a
    rate), the interval is clipped to them."""
    n = len(values)
    if n == 0:
        return clip_interval((0.0, -math.inf, math.inf), bounds)
    mean = sum(values) / n
    if n == 1:
        return clip_interval((mean, -math.inf, math.inf), bounds)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return clip_interval((mean, mean - half, mean + half), bounds)


def ratio_interval(
    num: Sequence[float],
    den: Sequence[float],
    z: float = Z95,
    bounds: tuple[float, float] | None = None,
) -> tuple[float, float, float]:
    """sum(num) / sum(den) with a delta-method interval that treats each (num, den) pair as
    one cluster: (ratio, low, high). With ``bounds`` (e.g. :data:`RATE_BOUNDS` for a rate),
    the interval is clipped to them."""
    n = len(num)
    ratio = sum(num) / sum(den)
    if n < 2:
        return clip_interval((ratio, -math.inf, math.inf), bounds)
    mean_den = sum(den) / n
    resid = sum((x - ratio * d) ** 2 for x, d in zip(num, den, strict=False)) / (n - 1)
    half = z * math.sqrt(resid / n) / mean_den
    return clip_interval((ratio, ratio - half, ratio + half), bounds)
