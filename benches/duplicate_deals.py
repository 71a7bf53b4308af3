"""Duplicate deals between two native agents: agent A's points per deal with a 95% interval.

    python benches/duplicate_deals.py A B deals seed [chunk]

Plays deals 0..deals of `duel.simulate(n, seed, agents=(A, B))` and of
`duel.simulate(n, seed, agents=(B, A))` (the same cards, seats swapped), in chunks of
`chunk` deals (default 25) so a long run reports as it goes, and prints A's mean signed
points over the two seatings, the number of pairs that scored differently and the wall time.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from ecarte.duel import SimulationResult, simulate
from ecarte.stats import mean_interval


def signed(result: SimulationResult, seat: int) -> np.ndarray:
    points = result["points"].astype(int)
    return np.where(result["winner"] == seat, points, -points)


def main(a: str, b: str, deals: int, seed: int, chunk: int = 25) -> None:
    edges: list[float] = []
    start_time = time.time()
    for start in range(0, deals, chunk):
        n = min(chunk, deals - start)
        first = simulate(n, seed, agents=(a, b), start=start)
        second = simulate(n, seed, agents=(b, a), start=start)
        edges.extend(((signed(first, 0) + signed(second, 1)) / 2).tolist())
        mean, low, high = mean_interval(edges)
        half = (high - low) / 2
        print(
            f"{a} v {b}, seed {seed}, deals 0..{start + n}: {mean:+.4f} ± {half:.4f} "
            f"points per deal, {sum(edge != 0 for edge in edges)} pairs differ, "
            f"{time.time() - start_time:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0], args[1], int(args[2]), int(args[3]), *(int(x) for x in args[4:5]))
