"""Bank benchmarks: tableau resolution beside the reference, and the exact odds."""

from __future__ import annotations

from typing import Any

import pytest

from ecarte import bank, reference as ref
from ecarte.bench import cycle, resolution_inputs

INPUTS = resolution_inputs(500)


@pytest.mark.benchmark(group="tableau resolution")
def test_resolution_reference(benchmark: Any) -> None:
    it = cycle(INPUTS)
    assert benchmark(lambda: ref.resolve(*next(it))).outcome in ("banker", "en_carte", "punter")


@pytest.mark.benchmark(group="tableau resolution")
def test_resolution_ecarte(benchmark: Any) -> None:
    resolve = bank.resolve
    it = cycle(INPUTS)
    assert str(benchmark(lambda: resolve(*next(it))).outcome) in ("banker", "en_carte", "punter")


@pytest.mark.benchmark(group="bank odds")
def test_odds_ecarte(benchmark: Any) -> None:
    odds = bank.odds
    trumps = cycle(["C", "D", "H", "S"])
    result = benchmark(lambda: odds(next(trumps)))
    assert abs(result.banker + result.en_carte + result.punter - 1) < 1e-9
