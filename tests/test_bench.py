"""The comparison table behind ``ecarte bench``: rows and ratios."""

from __future__ import annotations

import itertools
import time
import types
from collections.abc import Callable

import pytest
from ecarte.bench import timing
from ecarte.bench.harness import Row, format_table, run_benchmarks
from ecarte.bench.timing import (
    Inputs,
    interleaved_per_call,
    interleaved_per_unit,
    time_per_call,
    time_per_input,
)


def test_ratio_is_baseline_over_ecarte() -> None:
    assert Row("g", "call", 2e-6, "reference", 8e-6).ratio == 4.0
    assert Row("g", "call", 2e-6, "reference", None, "n/a").ratio is None


def test_time_per_call_counts_calls() -> None:
    calls = [0]

    def fn() -> None:
        calls[0] += 1

    assert 0 < time_per_call(fn, 0.001) < 1e-3
    assert calls[0] > 10


@pytest.fixture
def loop_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The call count of every loop the harness times, in order."""
    sizes: list[int] = []
    timed_loop = timing._loop

    def recorded_loop(fn: Callable[[], object], number: int, counted: bool) -> tuple[float, int]:
        sizes.append(number)
        return timed_loop(fn, number, counted)

    monkeypatch.setattr(timing, "_loop", recorded_loop)
    return sizes


def test_many_short_loops_fill_the_time_given(loop_sizes: list[int]) -> None:
    def one_ms() -> None:
        time.sleep(0.001)

    # Loops of at least 2 ms (a call or two) for about 40 ms: many short loops.
    time_per_call(one_ms, 0.04, loop=0.002)
    assert max(loop_sizes) <= 2
    assert len(loop_sizes) >= 8
    # However little time is given: the calibrated count timed twice, then three loops.
    loop_sizes.clear()
    time_per_call(one_ms, 0.0, loop=0.002)
    calibrated = loop_sizes.index(loop_sizes[-1])
    assert len(loop_sizes) - calibrated >= 2 + 3


def test_loops_are_whole_passes_over_the_inputs(loop_sizes: list[int]) -> None:
    time_per_input(lambda _: None, range(7), 0.01, loop=0.001)
    assert loop_sizes and all(n % 7 == 0 for n in loop_sizes)


def test_replayed_inputs_give_the_mean_over_sets_not_the_cheapest() -> None:
    restarts: list[int] = []
    current = [0]

    def restart(k: int) -> None:
        restarts.append(k)
        current[0] = k

    def dear_in_even_sets() -> None:
        if current[0] % 2 == 0:
            time.sleep(0.001)

    per_call = time_per_call(dear_in_even_sets, 0.05, loop=0.002, restart=restart)
    # Every set is replayed, in turn; half of them cost 1 ms a call and half nothing, so
    # the mean is about 0.5 ms where the best loop alone would say about nothing.
    assert all(restarts.count(k) >= 3 for k in range(timing.SETS))
    tail = restarts[-2 * timing.SETS :]
    assert all(b == (a + 1) % timing.SETS for a, b in itertools.pairwise(tail))
    assert 0.4e-3 < per_call < 1e-3


def test_inputs_replay_the_same_draws_per_set() -> None:
    inputs = Inputs(5)
    runs = []
    for k in (0, 1, 0):
        inputs.restart(k)
        runs.append(
            ([inputs.rng.random() for _ in range(3)], [next(inputs.seeds) for _ in range(3)])
        )
    assert runs[0] == runs[2]
    assert runs[0] != runs[1]


def test_interleaved_per_call_times_each_function_in_turn() -> None:
    order: list[str] = []

    def cheap() -> None:
        order.append("cheap")

    def dear() -> None:
        order.append("dear")
        sum(range(3000))

    cheap_time, dear_time = interleaved_per_call([cheap, dear], 0.02, loop=0.002)
    assert 0 < cheap_time < dear_time
    # Each round loops both in turn: "dear" runs before the last loops of "cheap".
    assert order.index("dear") < len(order) - 1 - order[::-1].index("cheap")


def test_interleaved_per_unit_divides_each_loop_by_its_own_units(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A clock that moves only when the work runs: each call takes exactly 1 ms, so the
    # figures are exact whatever the machine's load.
    now = [0.0]

    def work(units: int) -> Callable[[], int]:
        def call() -> int:
            now[0] += 0.001
            return units

        return call

    monkeypatch.setattr(timing, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    two, one = interleaved_per_unit([work(2), work(1)], 0.1, loop=0.005)
    # The same time per call: half the time per unit where a call does two units.
    assert two == pytest.approx(0.0005) and one == pytest.approx(0.001)


def test_quick_table_runs_and_times_every_engine_path() -> None:
    rows = run_benchmarks(min_time=0.001)
    groups = {r.group for r in rows}
    assert {"shuffle 32 cards", "legal actions (list)", "random deal, Python step API"} <= groups
    for row in rows:
        # Only a peer that is not installed (OpenSpiel) leaves a row without times.
        assert (row.ecarte is not None) or row.note.startswith("n/a"), row
        if row.ratio is not None:
            assert row.ratio > 0
    table = format_table(rows)
    assert table.splitlines()[0].startswith("benchmark")
    assert len(table.splitlines()) == len(rows) + 2
