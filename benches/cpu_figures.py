"""CPU-time figures for the batch paths, steadier than wall times on a loaded machine.

``RAYON_NUM_THREADS=1 python benches/cpu_figures.py`` prints, as process CPU time (best of
3): one random deal of the pure-Python reference, one deal of ``duel.simulate(...,
threads=1)`` and their ratio, and one env-step of a 4096-env ``VecEnv`` in each observation
layout (``env.step(env.random_actions())``). Run it with two builds alternately to compare
them.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from itertools import count

import ecarte
from ecarte.bench import reference as ref
from ecarte.bench.workloads import reference_playout


def cpu_per_call(fn: Callable[[], object], calls: int) -> float:
    fn()
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - start) / calls)
    return best


def main() -> None:
    rng, pack = random.Random(3), ref.duel_pack()
    ref_deal = cpu_per_call(
        lambda: reference_playout(ref.RefDeal(ref.shuffle(pack, rng)), rng), 300
    )
    seeds, batch = count(), 20_000
    sim = (
        cpu_per_call(
            lambda: ecarte.duel.simulate(
                batch, seed=next(seeds), agents=("random", "random"), threads=1
            ),
            2,
        )
        / batch
    )
    out = [
        f"reference deal {ref_deal * 1e6:.0f} µs",
        f"simulate deal {sim * 1e6:.2f} µs",
        f"ratio {ref_deal / sim:.0f}x",
    ]
    n = 4096
    for layout in ("float32", "compact"):
        env = ecarte.duel.VecEnv(n, seed=1, observation=layout)
        env.reset()
        step = cpu_per_call(lambda env=env: env.step(env.random_actions()), 100) / n
        out.append(f"VecEnv {layout} {step * 1e9:.0f} ns")
    print(sys.prefix, "|", " | ".join(out))


if __name__ == "__main__":
    main()
