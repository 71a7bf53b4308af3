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


def steps_per_second(envs: object, seconds: float, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    obs, _ = envs.reset(seed=seed)  # type: ignore[attr-defined]
    n = envs.num_envs  # type: ignore[attr-defined]
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, *_ = envs.step(masked_random(obs["action_mask"], rng))  # type: ignore[attr-defined]
        calls += 1
    return n * calls / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--skip-pettingzoo", action="store_true")
    args = parser.parse_args()

    import gymnasium

    import ecarte.gymnasium  # noqa: F401 (registers ecarte/Duel-v0)

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
        print(f"gymnasium {mode:<18} {args.envs} envs v {args.opponent}: {rates[mode]:,.0f} steps/s")
    ratio = rates["vector_entry_point"] / rates["sync"]
    print(f"native vector env / sync vector env: {ratio:.1f}x")

    if not args.skip_pettingzoo:
        from pettingzoo.test import performance_benchmark

        from ecarte.pettingzoo import env

        performance_benchmark(env())


if __name__ == "__main__":
    main()
