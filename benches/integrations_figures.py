"""Figures for the framework integrations (see BENCHMARKS.md):

- Gymnasium: steps/s of ``make_vec(..., vectorization_mode="vector_entry_point")`` (the
  native ``OpponentVecEnv``) against ``vectorization_mode="sync"`` over the same env, in
  one run, and their ratio;
- PettingZoo: ``pettingzoo.test.performance_benchmark(ecarte.pettingzoo.env())``.

Run: ``python benches/integrations_figures.py [--envs 64] [--seconds 3] [--opponent heuristic]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (any action for an all-false row)."""
    scores = rng.random(mask.shape) * mask
    return scores.argmax(axis=1)


def steps_per_second(envs: object, seconds: float, seed: int = 0) -> tuple[float, float]:
    """Env steps per second of wall time and of this process's CPU time (the CPU figure
    stays meaningful on a loaded machine; with fewer than 2048 envs the native env steps
    on the calling thread)."""
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)  # type: ignore[attr-defined]
    n = envs.num_envs  # type: ignore[attr-defined]
    calls = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        obs, *_ = envs.step(masked_random(obs["action_mask"], rng))  # type: ignore[attr-defined]
        calls += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return n * calls / wall, n * calls / cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--skip-pettingzoo", action="store_true")
    args = parser.parse_args()

    import ecarte.gymnasium  # noqa: F401 (registers ecarte/Duel-v0)
    import gymnasium

    rates = {}
    for mode in ("vector_entry_point", "sync"):
        envs = gymnasium.make_vec(
            "ecarte/Duel-v0",
            num_envs=args.envs,
            vectorization_mode=mode,
            opponent=args.opponent,
        )
        rates[mode] = steps_per_second(envs, args.seconds)
        envs.close()
        wall, cpu = rates[mode]
        print(
            f"gymnasium {mode:<18} {args.envs} envs v {args.opponent}: "
            f"{wall:,.0f} steps/s ({cpu:,.0f} per CPU second)"
        )
    native, sync = rates["vector_entry_point"], rates["sync"]
    print(
        f"native vector env / sync vector env: {native[0] / sync[0]:.1f}x "
        f"({native[1] / sync[1]:.1f}x in CPU time)"
    )

    if not args.skip_pettingzoo:
        from ecarte.pettingzoo import env
        from pettingzoo.test import performance_benchmark

        cpu = time.process_time()
        performance_benchmark(env())
        print(f"(CPU time of the benchmark: {time.process_time() - cpu:.2f} s)")


if __name__ == "__main__":
    main()
