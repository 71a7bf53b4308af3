"""Confidence intervals for reported rates and means.

Which interval each figure uses:

- A proportion of independent trials (a seat's win rate in ``duel.simulate``, a bank
  outcome's rate in ``bank.simulate``): the Wilson score interval (:func:`wilson_interval`).
- A mean over independent samples, or a ratio of sums over clusters (the arena's rates and
  points per deal, one sample per seed): Student's t with ``samples - 1`` degrees of freedom
  (:func:`mean_interval`, :func:`ratio_interval`), which is wider than the normal 1.96 on a
  few samples (4.30 standard errors for 3 seeds) and the same for many.

Every interval is 95% by default; an interval of a bounded quantity is clipped to its bounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ecarte._public import api_dir

__all__ = [
    "RATE_BOUNDS",
    "clip_interval",
    "mean_interval",
    "ratio_interval",
    "t_quantile",
    "wilson_interval",
]
__dir__ = api_dir(globals())

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


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction
    (Lentz's method), evaluated where it converges fast and by symmetry elsewhere."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _incomplete_beta(b, a, 1.0 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 500):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return math.exp(log_front) * fraction / a


def _t_upper_tail(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom, t >= 0."""
    return 0.5 * _incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``df`` > 0), e.g.
    ``t_quantile(0.975, 2)`` = 4.3027: the half-width, in standard errors, of a 95% interval
    over 3 samples. Found by bisection on the distribution function, to about 1e-12."""
    if not 0.0 < p < 1.0 or not df > 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0, got p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    tail = 1.0 - p
    low, high = 0.0, 1.0
    while _t_upper_tail(high, df) > tail:
        high *= 2.0
    for _ in range(200):
        middle = (low + high) / 2
        if _t_upper_tail(middle, df) > tail:
            low = middle
        else:
            high = middle
        if high - low < 1e-13 * max(1.0, high):
            break
    return (low + high) / 2


def mean_interval(
    values: Sequence[float],
    confidence: float = 0.95,
    bounds: tuple[float, float] | None = None,
) -> tuple[float, float, float]:
    """Mean and its Student's t interval (``len(values) - 1`` degrees of freedom):
    (mean, low, high); the interval is unbounded for fewer than two values. With ``bounds``
    (e.g. :data:`RATE_BOUNDS` for a rate), the interval is clipped to them."""
    n = len(values)
    if n == 0:
        return clip_interval((0.0, -math.inf, math.inf), bounds)
    mean = sum(values) / n
    if n == 1:
        return clip_interval((mean, -math.inf, math.inf), bounds)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile((1 + confidence) / 2, n - 1) * math.sqrt(var / n)
    return clip_interval((mean, mean - half, mean + half), bounds)


def ratio_interval(
    num: Sequence[float],
    den: Sequence[float],
    confidence: float = 0.95,
    bounds: tuple[float, float] | None = None,
) -> tuple[float, float, float]:
    """sum(num) / sum(den) with a delta-method interval that treats each (num, den) pair as
    one cluster, with Student's t for ``pairs - 1`` degrees of freedom: (ratio, low, high).
    With ``bounds`` (e.g. :data:`RATE_BOUNDS` for a rate), the interval is clipped to them."""
    n = len(num)
    ratio = sum(num) / sum(den)
    if n < 2:
        return clip_interval((ratio, -math.inf, math.inf), bounds)
    mean_den = sum(den) / n
    resid = sum((x - ratio * d) ** 2 for x, d in zip(num, den, strict=False)) / (n - 1)
    half = t_quantile((1 + confidence) / 2, n - 1) * math.sqrt(resid / n) / mean_den
    return clip_interval((ratio, ratio - half, ratio + half), bounds)
