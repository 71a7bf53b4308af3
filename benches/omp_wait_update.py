"""CPU seconds of one update of the MaskablePPO recipe (examples/train_maskable_ppo.py:
8,192 decisions on the native env, then 4 epochs), with PyTorch's OpenMP threads sleeping
when idle (``OMP_WAIT_POLICY=PASSIVE`` set before PyTorch loads) or spinning (GNU OpenMP's
default). Spinning counts as CPU time, and on a loaded machine it dominates: the figures of
BENCHMARKS.md, "Learning", and the reason the recipe sets the policy first.

    python benches/omp_wait_update.py passive|default [--updates 3] [--threads 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("wait_policy", choices=["passive", "default"])
    parser.add_argument("--updates", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    if args.wait_policy == "passive":
        os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    else:
        os.environ.pop("OMP_WAIT_POLICY", None)
    import torch  # OpenMP reads the policy now, once

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
    import ecarte.sb3
    from train_maskable_ppo import HYPERPARAMETERS, recipe_model

    torch.set_num_threads(args.threads)
    h = HYPERPARAMETERS
    env = ecarte.sb3.make_vec_env(h["n_envs"], "heuristic", seed=5, observation="flat")
    model = recipe_model(env, seed=1)
    for update in range(args.updates):
        cpu, wall = time.process_time(), time.perf_counter()
        model.learn(h["n_envs"] * h["n_steps"], reset_num_timesteps=False)
        print(
            f"{args.wait_policy}, update {update}: {time.process_time() - cpu:.2f} CPU s, "
            f"{time.perf_counter() - wall:.2f} s wall, load {os.getloadavg()[0]:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
