"""The sb3 faces side by side: decisions per second of ``ecarte.sb3.make_vec_env`` (one
native call steps every env and the opponent's replies) and of sb3's own
``make_vec_env("ecarte/Duel-v0")`` (a ``DummyVecEnv`` of single Gymnasium envs), each
stepped with masked random actions as a learner's rollout steps them (masks through
sb3-contrib's ``get_action_masks``). Prints the figures of BENCHMARKS.md, "Framework integrations".

    python benches/learners_figures.py [--envs 64] [--steps 300]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import ecarte.gymnasium
import ecarte.sb3
import numpy as np
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_util import make_vec_env


def decisions_per_second(env: Any, steps: int, rng: np.random.Generator) -> float:
    env.reset()
    start = time.perf_counter()
    for _ in range(steps):
        masks = get_action_masks(env)
        # A uniformly random legal action per env, in one vectorised draw.
        scores = np.where(masks, rng.random(masks.shape), -1.0)
        env.step(scores.argmax(axis=1))
    return steps * env.num_envs / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--opponent", default="heuristic")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    native = ecarte.sb3.make_vec_env(args.envs, args.opponent, seed=1)
    dummy = make_vec_env("ecarte/Duel-v0", n_envs=args.envs, env_kwargs={"opponent": args.opponent})
    rows = []
    for _ in range(3):  # interleaved, so that both see the same load
        rows.append(
            (
                decisions_per_second(native, args.steps, rng),
                decisions_per_second(dummy, args.steps, rng),
            )
        )
    for a, b in rows:
        print(f"native VecEnv {a:10.0f}/s   DummyVecEnv {b:10.0f}/s   ratio {a / b:5.1f}x")


if __name__ == "__main__":
    main()
