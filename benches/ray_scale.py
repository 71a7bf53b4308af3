"""Figures for the Ray backend (docs/scale.md, BENCHMARKS.md): per-task overhead, the
single-thread cost of the work items, and a run on 1 against 2 local CPUs.

    python benches/ray_scale.py overhead
    python benches/ray_scale.py costs
    python benches/ray_scale.py scaling CPUS [SEEDS]   # one process per CPU count

Needs Ray (``pip install '.[ray]'`` from a checkout).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import Any

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # the costs are single-thread figures


def _init(cpus: int) -> Any:
    import ray

    ray.init(address="local", num_cpus=cpus, include_dashboard=False, logging_level=logging.ERROR)
    return ray


def _noop(start: int, n: int) -> int:
    return n


def overhead() -> None:
    """Round trip of one trivial task, sequentially, and amortized over 1,000 at once."""
    ray = _init(2)
    from ecarte.distributed import RayBackend, chunks, run_chunks

    backend = RayBackend()
    run_chunks(backend, _noop, chunks(40, 1))  # start the workers
    rounds = 200
    started = time.perf_counter()
    for _ in range(rounds):
        run_chunks(backend, _noop, chunks(1, 1))
    latency = (time.perf_counter() - started) / rounds
    many = 1000
    started = time.perf_counter()
    run_chunks(backend, _noop, chunks(many, 1))
    amortized = (time.perf_counter() - started) / many
    print(f"one task, submit to result: {latency * 1e3:.2f} ms")
    print(f"{many} tasks at once, per task: {amortized * 1e3:.2f} ms")
    ray.shutdown()


def _timed(label: str, per: int, run: Any) -> float:
    """Wall and CPU time per item (the CPU time is steadier on a loaded machine)."""
    started, cpu = time.perf_counter(), time.process_time()
    run()
    seconds = (time.perf_counter() - started) / per
    cpu_seconds = (time.process_time() - cpu) / per
    print(f"{label}: {seconds * 1e6:.1f} us wall, {cpu_seconds * 1e6:.1f} us CPU")
    return cpu_seconds


def costs() -> None:
    """Single-thread seconds per item, as the chunk sizing assumes."""
    from ecarte import bank, duel

    _timed("deal random v random", 200_000, lambda: duel.simulate(200_000, 1, threads=1))
    _timed(
        "deal heuristic v heuristic",
        100_000,
        lambda: duel.simulate(100_000, 1, ("heuristic", "heuristic"), threads=1),
    )
    _timed(
        "deal pimc:4 v heuristic",
        60,
        lambda: duel.simulate(60, 1, ("pimc:4", "heuristic"), threads=1),
    )
    _timed(
        "deal pimc v heuristic", 20, lambda: duel.simulate(20, 1, ("pimc", "heuristic"), threads=1)
    )
    _timed(
        "deal expert v heuristic",
        20,
        lambda: duel.simulate(20, 1, ("expert", "heuristic"), threads=1),
    )
    played = duel.simulate(20_000, 1, ("heuristic", "heuristic"), matches=True, threads=1)
    print(f"deals per match (heuristic v heuristic): {played['deals'].mean():.2f}")
    seeds = 3
    _timed(
        "arena seed (2 matches) pimc v heuristic",
        seeds,
        lambda: [
            duel.simulate(seeds, 0, seats, matches=True, threads=1)
            for seats in (("pimc", "heuristic"), ("heuristic", "pimc"))
        ],
    )
    _timed("bank deal", 2_000_000, lambda: bank.simulate(2_000_000, 1, threads=1))
    deals = []
    for i in range(300):
        deal = duel.Deal(seed=i, dealer=i % 2)
        deal.apply("decline")
        deals.append(deal)
    _timed("solve from the first lead", 300, lambda: duel.solve_many(deals))


def scaling(cpus: int, seeds: int) -> None:
    """The same native arena (pimc:4 v heuristic, ``seeds`` seeds, 1 per chunk) on Ray with
    ``cpus`` CPUs; run once per CPU count and compare the wall times."""
    ray = _init(cpus)
    from ecarte.arena import play
    from ecarte.distributed import RayBackend, chunks, run_chunks

    run_chunks(RayBackend(), _noop, chunks(2 * cpus, 1))  # start the workers
    started = time.perf_counter()
    result = play("pimc:4", "heuristic", matches=seeds, seed=0, backend=RayBackend(chunk_size=1))
    wall = time.perf_counter() - started
    print(f"{cpus} CPU(s): {seeds} seeds in {wall:.2f} s; {result.match_win_rate}")
    ray.shutdown()


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "overhead"
    if what == "overhead":
        overhead()
    elif what == "costs":
        costs()
    else:
        scaling(int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 12)
