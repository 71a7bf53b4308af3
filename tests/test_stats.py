"""Confidence intervals of reported rates stay within their bounds (a match win
rate is never reported as 0.833 [0.507, 1.160])."""

from __future__ import annotations

import math

from ecarte.arena import PairResult, summarize
from ecarte.stats import (
    RATE_BOUNDS,
    clip_interval,
    mean_interval,
    ratio_interval,
    t_quantile,
    wilson_interval,
)
from hypothesis import given
from hypothesis import strategies as st


def pair(matches_won: int, deals: int, deals_won: int, net: int) -> PairResult:
    return PairResult(matches_won, deals, deals_won, net, (1, 1), (0.0, 0.0))


def test_the_reported_arena_interval_is_clipped() -> None:
    # Three seeds, two of them won twice and one once: the normal interval of the pair means
    # is 0.833 +- 0.327, which reached 1.160.
    raw = mean_interval([1.0, 1.0, 0.5])
    assert raw[2] > 1.1
    result = summarize(
        "pimc",
        "heuristic",
        [pair(2, 10, 9, 8), pair(2, 10, 10, 12), pair(1, 10, 3, -5)],
        1.0,
    )
    rate = result.match_win_rate
    assert 0.0 <= rate.low <= rate.mean <= rate.high <= 1.0
    assert rate.high == 1.0 and math.isclose(rate.mean, 5 / 6)
    deal = result.deal_win_rate
    assert 0.0 <= deal.low <= deal.mean <= deal.high <= 1.0
    assert "1.160" not in result.table()


def test_one_pair_gives_the_whole_range_not_infinity() -> None:
    result = summarize("a", "b", [pair(1, 8, 5, 2)], 1.0)
    assert (result.match_win_rate.low, result.match_win_rate.high) == (0.0, 1.0)
    assert (result.deal_win_rate.low, result.deal_win_rate.high) == (0.0, 1.0)
    assert (result.points_per_deal.low, result.points_per_deal.high) == (-2.0, 2.0)
    assert "inf" not in result.table()


def test_clip_interval() -> None:
    assert clip_interval((0.5, -0.2, 1.3), RATE_BOUNDS) == (0.5, 0.0, 1.0)
    assert clip_interval((0.5, -0.2, 1.3), None) == (0.5, -0.2, 1.3)
    assert clip_interval((0.0, -math.inf, math.inf), RATE_BOUNDS) == (0.0, 0.0, 1.0)
    low, high = ratio_interval([1, 2, 2], [2, 2, 2], bounds=RATE_BOUNDS)[1:]
    assert 0.0 <= low and high == 1.0


@given(
    st.lists(
        st.tuples(
            st.integers(0, 2),
            st.integers(1, 20),
            st.integers(0, 20),
            st.integers(-40, 40),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_every_arena_rate_interval_is_within_bounds(
    raw: list[tuple[int, int, int, int]],
) -> None:
    pairs = [pair(w, d, min(dw, d), max(-2 * d, min(2 * d, net))) for w, d, dw, net in raw]
    result = summarize("a", "b", pairs, 0.0)
    for estimate in (result.match_win_rate, result.deal_win_rate):
        assert 0.0 <= estimate.low <= estimate.mean <= estimate.high <= 1.0, estimate
    ppd = result.points_per_deal
    assert -2.0 <= ppd.low <= ppd.mean <= ppd.high <= 2.0, ppd


@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_wilson_interval_is_within_zero_and_one(successes: int, extra: int) -> None:
    n = successes + extra
    low, high = wilson_interval(successes, n)
    assert 0.0 <= low <= high <= 1.0
    if n:
        assert low <= successes / n + 1e-12 and successes / n - 1e-12 <= high


#: Student's t quantiles from published tables (two-sided 95%, and others), to 7 digits.
T_TABLE = {
    (0.975, 1): 12.7062047,
    (0.975, 2): 4.3026527,
    (0.975, 3): 3.1824463,
    (0.975, 5): 2.5705818,
    (0.975, 10): 2.2281389,
    (0.975, 30): 2.0422725,
    (0.975, 100): 1.9839715,
    (0.95, 1): 6.3137515,
    (0.95, 10): 1.8124611,
    (0.995, 3): 5.8409093,
}


def test_t_quantiles_match_the_tables() -> None:
    for (p, df), value in T_TABLE.items():
        assert math.isclose(t_quantile(p, df), value, abs_tol=5e-7), (p, df)
        assert math.isclose(t_quantile(1 - p, df), -value, abs_tol=5e-7)
    assert abs(t_quantile(0.975, 10**7) - 1.959964) < 1e-5  # the normal limit
    assert abs(t_quantile(0.5, 4)) < 1e-9


def test_few_pairs_get_students_t_not_the_normal_interval() -> None:
    # Three seeds: 4.30 standard errors each side, where the normal interval gave 1.96.
    values = [0.2, -0.1, 0.5]
    mean, low, high = mean_interval(values)
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / 2 / 3)
    assert math.isclose((high - low) / 2, 4.3026527 * se, rel_tol=1e-6)
    ratio, low, high = ratio_interval([2, -1, 5], [10, 10, 10])
    assert math.isclose((high - low) / 2, 4.3026527 * se, rel_tol=1e-6) and ratio == 0.2
    # Many pairs: the normal interval, near enough.
    many = [(-1) ** i * (i % 7) / 7 for i in range(10_000)]
    mean, low, high = mean_interval(many)
    se = math.sqrt(sum((v - mean) ** 2 for v in many) / 9_999 / 10_000)
    assert math.isclose((high - low) / 2, 1.96 * se, rel_tol=1e-3)
