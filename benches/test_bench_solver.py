"""The double-dummy solver on 100 full positions (the deal of seed 0..99,
dealer 0, no exchange, at the first lead), one solve at a time on the calling thread.

Run: ``pytest benches/test_bench_solver.py --benchmark-enable``. Each round solves all 100
positions; the per-position figures are in ``python benches/solver_positions.py``."""

from __future__ import annotations

from typing import Any

import pytest
from ecarte.duel import solve
from solver_positions import bench_position


@pytest.mark.parametrize("exchanges", [0, 4, 8, 11])
@pytest.mark.benchmark(group="solver: 100 positions")
def test_solve_100_positions(benchmark: Any, exchanges: int) -> None:
    deals = [bench_position(seed, exchanges) for seed in range(100)]
    values = benchmark(lambda: [solve(d).value for d in deals])
    assert len(values) == 100 and set(values) <= {-2, -1, 1, 2}
