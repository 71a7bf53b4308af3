"""The comparison table behind ``benches/compare.py``: rows, ratios and missing features."""

from __future__ import annotations

from ecarte.bench import Row, format_table, run_benchmarks, time_per_call


def test_ratio_is_baseline_over_ecarte() -> None:
    assert Row("g", "call", 2e-6, "reference", 8e-6).ratio == 4.0
    assert Row("g", "call", None, "reference", 8e-6, "n/a").ratio is None


def test_time_per_call_counts_calls() -> None:
    calls = [0]

    def fn() -> None:
        calls[0] += 1

    assert 0 < time_per_call(fn, 0.001) < 1e-3
    assert calls[0] > 10


def test_quick_table_runs_and_marks_missing_features() -> None:
    rows = run_benchmarks(min_time=0.001)
    groups = {r.group for r in rows}
    assert {"shuffle 32 cards", "legal actions (list)", "random deal, Python step API"} <= groups
    for row in rows:
        assert (row.ecarte is not None) or row.note.startswith("n/a"), row
        if row.ratio is not None:
            assert row.ratio > 0
    table = format_table(rows)
    assert table.splitlines()[0].startswith("benchmark")
    assert len(table.splitlines()) == len(rows) + 2
    for row in rows:
        if row.ecarte is None:
            assert row.note in table
