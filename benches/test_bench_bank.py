"""Bank benchmarks: tableau resolution beside the reference, and the exact odds."""

from __future__ import annotations

from typing import Any

import pytest
from ecarte import bank
from ecarte.bench import reference as ref
from ecarte.bench.timing import cycle
from ecarte.bench.workloads import resolution_inputs

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
    """Exact odds on a full shoe: 104 cards less the turn-up, each suit in turn."""
    odds = bank.odds
    turn_ups = cycle(["7C", "7D", "7H", "7S"])
    result = benchmark(lambda: odds(next(turn_ups)))
    assert result.cards_left == 103
    assert sum(result.exact.values()) == 1
