"""The ``VecEnv`` rows of ``ecarte bench`` alone: one step of 4 096 envs with
``env.random_actions()``, in each observation layout, timed as the bench times it
(``bench.time_per_call``, 1 s per layout), per env-step.

``python benches/vecenv_step.py LABEL`` prints one line; run it with two builds alternately
(``PYTHONPATH`` pointing at each build's package) to compare them side by side.
"""

from __future__ import annotations

import functools
import sys

import ecarte

try:
    from ecarte.bench.timing import time_per_call
except ImportError:  # a build from before `ecarte.bench` became a package, to compare with
    from ecarte.bench import time_per_call  # type: ignore[attr-defined,no-redef]

ENVS = 4096


def step(env: ecarte.duel.VecEnv) -> object:
    return env.step(env.random_actions())


def main(label: str) -> None:
    figures = []
    for layout in ("float32", "compact"):
        env = ecarte.duel.VecEnv(ENVS, seed=1, observation=layout)  # type: ignore[arg-type]
        env.reset()
        per_step = time_per_call(functools.partial(step, env), 1.0) / ENVS
        figures.append(f"{layout} {per_step * 1e9:.1f} ns")
    print(f"{label}: VecEnv step per env, " + ", ".join(figures))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ecarte.__file__)
