"""Self-play PPO with RLlib on the PettingZoo duel: both seats share one policy.

    pip install '.[pettingzoo]' 'ray[rllib]' torch     # from a checkout of ecarte
    python examples/rllib_selfplay.py --iterations 20                           # a local Ray
    python examples/rllib_selfplay.py --address HEAD:6379 --env-runners 32      # a cluster

A cluster is any Ray cluster whose nodes have ecarte installed (``ray start --head`` on one
node, ``ray start --address HEAD:6379`` on the others); Ray's token authentication, if the
cluster uses it, is set up as Ray's docs say.

RLlib's current API stack: the AEC game (``ecarte.pettingzoo.env()``) through RLlib's
``PettingZooEnv``, one ``RLModule`` for both agents (``policy_mapping_fn`` maps
``player_0`` and ``player_1`` to ``"shared"``), and action masking RLlib's documented way:
its ``ActionMaskingTorchRLModule`` reads a ``Dict`` observation of ``"observations"`` and
``"action_mask"`` and masks the logits. The one adapter is the key's name (RLlib's module
reads ``"observations"``; PettingZoo's classic games, and ecarte, say ``"observation"``),
with the mask as float32, as that module takes the log of it.

At the end the shared policy plays duplicate matches in the arena against ``random`` and
``heuristic`` (``--eval-matches`` seeds each), before and after training, and the script
prints the sampling throughput (env steps per second: one step is one agent's action).
Figures: ``BENCHMARKS.md``, "RLlib self-play".
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from ecarte import arena
from ecarte.duel import NUM_ACTIONS, Action, Observation

POLICY = "shared"


def make_env(config: dict[str, Any] | None = None) -> Any:
    """The PettingZoo duel as RLlib's multi-agent env, the observation key renamed."""
    from ecarte.pettingzoo import env
    from gymnasium import spaces
    from pettingzoo.utils.wrappers import BaseWrapper
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    class RLlibKeys(BaseWrapper):  # type: ignore[misc]
        """``{"observations", "action_mask"}``, the mask as float32: what RLlib's
        action-masking module reads."""

        def observation_space(self, agent: str) -> spaces.Space[Any]:
            inner = self.env.observation_space(agent)["observation"]
            mask = spaces.Box(0.0, 1.0, (NUM_ACTIONS,), np.float32)
            return spaces.Dict({"observations": inner, "action_mask": mask})

        def observe(self, agent: str) -> dict[str, np.ndarray]:
            obs = self.env.observe(agent)
            return {
                "observations": obs["observation"],
                "action_mask": obs["action_mask"].astype(np.float32),
            }

    return PettingZooEnv(RLlibKeys(env(episode="deal", **(config or {}))))


def config(args: argparse.Namespace) -> Any:
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    register_env("ecarte_duel", make_env)
    return (
        PPOConfig()
        .environment("ecarte_duel")
        .env_runners(
            num_env_runners=args.env_runners,
            num_envs_per_env_runner=args.envs_per_runner,
        )
        .multi_agent(
            policies={POLICY},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: POLICY,
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    POLICY: RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={
                            "fcnet_hiddens": [256, 256],
                            "head_fcnet_hiddens": [],
                            "vf_share_layers": False,
                        },
                    )
                }
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(512, args.batch),
            num_epochs=4,
            lr=3e-4,
            gamma=1.0,
            lambda_=0.95,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


class ModuleAgent:
    """The shared RLModule as an ecarte agent: its most probable legal action."""

    def __init__(self, module: Any) -> None:
        self.module = module

    def __call__(self, observation: Observation, legal_actions: list[Action]) -> Action:
        import torch
        from ray.rllib.core.columns import Columns

        mask = np.zeros(NUM_ACTIONS, dtype=np.float32)
        mask[[a.id for a in legal_actions]] = 1.0
        batch = {
            Columns.OBS: {
                "observations": torch.from_numpy(observation.tensor()[None]),
                "action_mask": torch.from_numpy(mask[None]),
            }
        }
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
        return Action.from_id(int(torch.argmax(logits)))


def evaluate(algo: Any, matches: int) -> dict[str, str]:
    module = algo.get_module(POLICY)
    agent = ModuleAgent(module)
    return {
        opponent: str(
            arena.play(lambda seed: agent, opponent, matches=matches, seed=7).points_per_deal
        )
        for opponent in ("random", "heuristic")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--address",
        default=None,
        help="a Ray cluster ('auto', 'ray://host:10001'); local if omitted",
    )
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--env-runners", type=int, default=1)
    parser.add_argument("--envs-per-runner", type=int, default=8)
    parser.add_argument("--batch", type=int, default=8000, help="env steps per iteration")
    parser.add_argument("--eval-matches", type=int, default=50, help="arena seeds per opponent")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import ray

    ray.init(address=args.address, include_dashboard=False, log_to_driver=False)
    algo = config(args).build_algo()
    before = evaluate(algo, args.eval_matches)
    print(f"before training: points per deal {before}", flush=True)
    sampled, sampling_seconds = 0, 0.0
    start = time.perf_counter()
    for iteration in range(1, args.iterations + 1):
        result = algo.train()
        runners = result["env_runners"]
        steps = int(runners["num_env_steps_sampled"])
        sampled += steps
        sampling_seconds += float(result["timers"]["env_runner_sampling_timer"])
        print(
            f"iteration {iteration}: {steps} env steps, "
            f"{steps / result['time_this_iter_s']:.0f} env steps/s overall, "
            f"{runners.get('num_episodes', 0)} deals",
            flush=True,
        )
    elapsed = time.perf_counter() - start
    after = evaluate(algo, args.eval_matches)
    print(f"trained {sampled} env steps in {elapsed:.0f} s: {sampled / elapsed:.0f} env steps/s")
    print(f"sampling alone: {sampled / max(sampling_seconds, 1e-9):.0f} env steps/s")
    print(f"after training: points per deal {after}")
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()
