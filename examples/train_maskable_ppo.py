"""Train a MaskablePPO policy against the heuristic, then evaluate it in the arena.

    pip install '.[sb3,plot]'     # from a checkout of ecarte
    python examples/train_maskable_ppo.py --minutes 30 --out runs/ppo

The learner plays one seat of a run of matches against the native ``heuristic`` in
``ecarte.sb3.make_vec_env`` (the engine steps every game and the opponent's replies in one
call; masks reach MaskablePPO through ``action_masks()``). Every ``--eval-every`` minutes of
training the deterministic policy plays ``--curve-deals`` deals against the heuristic on
held-out seeds (the same native env, batched), which gives the learning curve. At the end
the policy plays duplicate matches in the arena (``ecarte.arena.play``, each seed twice with
the seats and cards swapped) against ``random``, ``heuristic`` and ``pimc``, each over at
least ``--final-deals`` deals, with 95% intervals. Written to ``--out``: ``model.zip``,
``curve.json``, ``results.json`` and ``curve.png``. Hyperparameters and results:
``docs/learning.md``.
"""

from __future__ import annotations

import os

# Before anything loads PyTorch (ecarte.sb3 does): idle OpenMP threads sleep instead of
# spinning. Spinning counts in the CPU-time budget and, on a loaded machine, cost 25 CPU
# seconds per update instead of 1 (docs/learning.md, "Results").
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import argparse
import json
import resource
import signal
import time
from pathlib import Path
from typing import Any

import ecarte.sb3
import numpy as np
from ecarte import arena

#: The hyperparameters of docs/learning.md.
HYPERPARAMETERS: dict[str, Any] = {
    "n_envs": 128,
    "n_steps": 64,  # 8,192 decisions per update
    "batch_size": 1024,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "gamma": 1.0,  # a deal is a short episode whose only reward is its end
    "gae_lambda": 0.95,
    "clip_range": 0.2,
    "ent_coef": 0.01,
    "vf_coef": 0.5,
    "net_arch": [256, 256],
}


def recipe_model(env: Any, seed: int) -> Any:
    """MaskablePPO with the hyperparameters of docs/learning.md, on ``env``."""
    import torch
    from sb3_contrib import MaskablePPO

    h = HYPERPARAMETERS
    return MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=h["n_steps"],
        batch_size=h["batch_size"],
        n_epochs=h["n_epochs"],
        learning_rate=h["learning_rate"],
        gamma=h["gamma"],
        gae_lambda=h["gae_lambda"],
        clip_range=h["clip_range"],
        ent_coef=h["ent_coef"],
        vf_coef=h["vf_coef"],
        policy_kwargs={"net_arch": h["net_arch"], "activation_fn": torch.nn.ReLU},
        seed=seed,
    )


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def points_per_deal(
    model: Any, deals: int, seed: int, opponent: str = "heuristic"
) -> dict[str, float]:
    """The deterministic policy's net points per deal against ``opponent`` over ``deals``
    deals (both seats, held-out seeds), with a 95% normal interval."""
    points: list[float] = []
    for seat in (0, 1):
        env = ecarte.sb3.make_vec_env(
            256, opponent, seed=seed + seat, observation="flat", seat=seat
        )
        obs = env.reset()
        while len(points) < (seat + 1) * deals // 2:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, rewards, dones, _ = env.step(action)
            points.extend(rewards[dones].tolist())
    values = np.array(points[:deals])
    half = 1.96 * values.std(ddof=1) / np.sqrt(len(values))
    return {
        "mean": float(values.mean()),
        "low": float(values.mean() - half),
        "high": float(values.mean() + half),
    }


def arena_results(model_path: Path, deals: int, seed: int) -> dict[str, Any]:
    """Duplicate matches against each built-in opponent, at least ``deals`` deals each."""
    results = {}
    factory = ecarte.sb3.policy(model_path)
    for opponent in ("random", "heuristic", "pimc"):
        # A match to 7 lasts about 8 deals, and each seed is played twice.
        seeds = max(1, deals // 14)
        while True:
            start = time.perf_counter()
            result = arena.play(factory, opponent, matches=seeds, seed=seed)
            if result.deals >= deals:
                break
            seeds = int(seeds * deals / result.deals) + 1
        results[opponent] = {
            "seeds": seeds,
            "matches": 2 * seeds,
            "deals": result.deals,
            "points_per_deal": vars(result.points_per_deal),
            "deal_win_rate": vars(result.deal_win_rate),
            "match_win_rate": vars(result.match_win_rate),
            "seconds": time.perf_counter() - start,
        }
        print(f"vs {opponent}: {result.points_per_deal} points per deal over {result.deals} deals")
    return results


def plot(curve: list[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    minutes = [p["train_minutes"] for p in curve]
    mean = [p["points"]["mean"] for p in curve]
    low = [p["points"]["low"] for p in curve]
    high = [p["points"]["high"] for p in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.fill_between(minutes, low, high, alpha=0.25, label="95% interval")
    ax.plot(minutes, mean, marker="o", label="MaskablePPO (deterministic)")
    ax.axhline(0.0, color="black", linewidth=0.8, label="heuristic's level")
    ax.set_xlabel("training time (minutes of 2 cores: CPU minutes / 2)")
    ax.set_ylabel("net points per deal v heuristic")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--minutes",
        type=float,
        default=30.0,
        help="training budget: minutes of 2 cores, counted in CPU time (2 CPU-minutes a "
        "minute), so that a loaded machine gives the same budget as a free one",
    )
    parser.add_argument("--eval-every", type=float, default=3.0, help="minutes between points")
    parser.add_argument("--curve-deals", type=int, default=4000)
    parser.add_argument("--final-deals", type=int, default=2000)
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--out", type=Path, default=Path("runs/maskable_ppo"))
    parser.add_argument(
        "--evaluate-only",
        action="store_true",
        help="train nothing: evaluate the policy and curve already in --out (a run that was "
        "stopped before its evaluation)",
    )
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO

    signal.signal(signal.SIGTERM, stop)
    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    h = HYPERPARAMETERS
    env = ecarte.sb3.make_vec_env(h["n_envs"], args.opponent, seed=args.seed, observation="flat")
    model = recipe_model(env, args.seed)
    curve: list[dict[str, Any]] = []
    title = f"MaskablePPO v {args.opponent}, {h['n_envs']} native envs"
    # Wall-clock and CPU seconds of training (evaluation excluded); the budget and the
    # curve count in 2-core minutes, CPU seconds / 2.
    trained = cpu_trained = 0.0
    eval_seed = 10**9 + args.seed  # held-out runs of matches

    def record() -> None:
        points = points_per_deal(model, args.curve_deals, eval_seed)
        curve.append(
            {
                "train_minutes": cpu_trained / 120,
                "wall_minutes": trained / 60,
                "train_cpu_minutes": cpu_trained / 60,
                "timesteps": model.num_timesteps,
                "load": os.getloadavg()[0],
                "points": points,
            }
        )
        print(
            f"{cpu_trained / 120:5.1f} min of 2 cores ({trained / 60:5.1f} wall), "
            f"{model.num_timesteps:>9} steps, load "
            f"{os.getloadavg()[0]:.1f}: {points['mean']:+.3f} [{points['low']:+.3f}, "
            f"{points['high']:+.3f}] points per deal",
            flush=True,
        )
        # Written at every point, so that an interrupted run keeps its curve and policy.
        (args.out / "curve.json").write_text(json.dumps(curve, indent=1))
        plot(curve, args.out / "curve.png", title)
        model.save(args.out / "model.zip")

    if args.evaluate_only:
        model = MaskablePPO.load(args.out / "model.zip")
        curve = json.loads((args.out / "curve.json").read_text())
        trained, cpu_trained = curve[-1]["wall_minutes"] * 60, curve[-1]["train_minutes"] * 120
    else:
        record()
    chunk = h["n_envs"] * h["n_steps"]
    next_eval = args.eval_every * 120
    budget = args.minutes * 120  # CPU seconds
    try:
        while cpu_trained < budget and not args.evaluate_only:
            start, cpu_start = time.perf_counter(), cpu_seconds()
            model.learn(chunk, reset_num_timesteps=False)
            trained += time.perf_counter() - start
            cpu_trained += cpu_seconds() - cpu_start
            if cpu_trained >= next_eval or cpu_trained >= budget:
                record()
                next_eval += args.eval_every * 120
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM ends training early: the last recorded policy is evaluated.
        print("stopped: evaluating the policy of the last point", flush=True)
        model = MaskablePPO.load(args.out / "model.zip")
        trained, cpu_trained = curve[-1]["wall_minutes"] * 60, curve[-1]["train_minutes"] * 120
    model.save(args.out / "model.zip")
    plot(curve, args.out / "curve.png", title)
    results = {
        "hyperparameters": h,
        "train_minutes": cpu_trained / 120,
        "wall_minutes": trained / 60,
        "train_cpu_minutes": cpu_trained / 60,
        "timesteps": model.num_timesteps,
        "arena": arena_results(args.out / "model.zip", args.final_deals, seed=2 * 10**9),
    }
    (args.out / "results.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
