"""Monte Carlo of whole deals: determinism across threads and agreement with exact odds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from ecarte import EcarteError, InvalidShoeError, bank

OUTCOMES = ("banker", "en_carte", "punter")


def test_same_result_for_any_thread_count() -> None:
    one = bank.simulate(20_000, seed=7, threads=1)
    two = bank.simulate(20_000, seed=7, threads=2)
    default = bank.simulate(20_000, seed=7)
    assert one == two == default
    assert bank.simulate(20_000, seed=8, threads=2) != one


def test_a_run_splits_at_chunk_boundaries() -> None:
    whole = bank.simulate(3 * bank.CHUNK + 5, seed=9)
    head = bank.simulate(bank.CHUNK, seed=9)
    tail = bank.simulate(2 * bank.CHUNK + 5, seed=9, start=bank.CHUNK)
    assert np.array_equal(head["joint"] + tail["joint"], whole["joint"])
    with pytest.raises(EcarteError, match="multiple"):
        bank.simulate(10, seed=9, start=5)


def test_shapes_and_totals() -> None:
    sim = bank.simulate(10_000, seed=1)
    assert sim.n == 10_000 and sim.seed == 1
    joint, counts = sim["joint"], sim.summary["counts"]
    assert joint.shape == (3, 3, 3) and joint.dtype == np.uint64
    assert sim["counts"].shape == (3, 3) and int(sim["counts"].sum()) == 3 * 10_000
    assert int(joint.sum()) == 10_000
    for t in (2, 3, 4):
        assert sum(counts[t].values()) == 10_000
        # The joint table's margin is the tableau's count.
        axis = tuple(a for a in range(3) if a != t - 2)
        margin = joint.sum(axis=axis)
        assert [int(x) for x in margin] == [counts[t][o] for o in OUTCOMES]
        for o in OUTCOMES:
            lo, hi = sim.summary["intervals"][t][o]
            assert lo <= sim.summary["probabilities"][t][o] <= hi


def test_estimates_agree_with_exact_odds() -> None:
    # The trump card is uniform over the shoe, so the exact marginal is the average of the
    # odds over the 13 ranks of the turned-up card (suits are symmetric).
    n = 200_000
    sim = bank.simulate(n, seed=2024)
    exact = {o: 0.0 for o in OUTCOMES}
    ranks = "23456789TJQKA"
    for r in ranks:
        o = bank.odds("H", removed=[r + "H"])
        for name in OUTCOMES:
            exact[name] += getattr(o, name) / len(ranks)
    for t in (2, 3, 4):
        for name in OUTCOMES:
            p = exact[name]
            se = math.sqrt(p * (1 - p) / n)
            assert abs(sim.summary["probabilities"][t][name] - p) < 4 * se, (t, name)


def test_given_shoe_composition() -> None:
    shoe = "AH KH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D".split()
    sim = bank.simulate(5_000, seed=3, shoe=shoe)
    assert int(sim["joint"].sum()) == 5_000
    with pytest.raises(InvalidShoeError, match="17"):
        bank.simulate(10, shoe=shoe[:16])


def test_bad_arguments() -> None:
    with pytest.raises(EcarteError, match="n must be"):
        bank.simulate(-1)
    with pytest.raises(EcarteError, match="n must be"):
        bank.simulate(2**63, seed=1)  # refused before any work or allocation
    with pytest.raises(EcarteError, match="threads"):
        bank.simulate(10, threads=0)
    with pytest.raises(TypeError, match="seed"):
        bank.simulate(10, seed=1.5)
