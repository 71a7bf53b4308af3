"""Stable-Baselines3 and sb3-contrib, used exactly as their own docs show, with no adapter:
``MaskablePPO`` on the registered env, sb3's ``make_vec_env``, the native ``VecEnv`` of
``ecarte.sb3`` (same-step resets, masks, wrappers, ``PPO`` without masks), and trained
models as agents in the arena and on the command line. Each learner trains only a few
thousand steps."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path
from typing import Any

import ecarte.gymnasium
import ecarte.sb3
import gymnasium
import numpy as np
import pytest
from cli_support import run_ecarte
from ecarte import IllegalActionError, arena, derive_seed
from ecarte.duel import NUM_ACTIONS, OBSERVATION_SIZE, Deal, Outcome, Rules
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecEnv, VecMonitor, VecNormalize

SMALL = {"n_steps": 32, "batch_size": 64, "n_epochs": 1}


def test_maskable_ppo_learns_on_the_registered_env() -> None:
    env = gymnasium.make("ecarte/Duel-v0", opponent="random")
    assert is_masking_supported(env)
    model = MaskablePPO("MultiInputPolicy", env, **SMALL, seed=0).learn(128)
    assert model.num_timesteps >= 128


def test_sb3_make_vec_env_on_the_registered_id() -> None:
    """sb3's ``make_vec_env`` passes ``render_mode="rgb_array"``; masks come through its
    ``DummyVecEnv`` from each env's ``action_masks()``."""
    env = make_vec_env("ecarte/Duel-v0", n_envs=2, env_kwargs={"opponent": "random"}, seed=1)
    assert env.render_mode == "rgb_array" and is_masking_supported(env)
    model = MaskablePPO("MultiInputPolicy", env, **SMALL, seed=0).learn(128)
    assert get_action_masks(env).shape == (2, NUM_ACTIONS)
    assert env.render().shape[2] == 3
    assert model.num_timesteps >= 128


def test_the_native_vec_env_resets_in_the_same_step() -> None:
    env = ecarte.sb3.make_vec_env(32, opponent="heuristic", seed=3)
    assert isinstance(env, VecEnv) and is_masking_supported(env)
    obs = env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(40):
        masks = get_action_masks(env)
        assert masks.shape == (32, NUM_ACTIONS) and masks.any(axis=1).all()
        assert (masks == obs["action_mask"].astype(bool)).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = env.step(actions)
        assert (obs["observation"][:, 205] == 1).all()  # every env awaits the learner
        for i in np.flatnonzero(dones):
            info = infos[i]
            final = info["terminal_observation"]
            assert final["observation"].shape == (OBSERVATION_SIZE,)
            assert final["observation"][203] == 1  # the final observation: phase "over"
            outcome = info["outcome"]
            assert isinstance(outcome, Outcome)
            assert rewards[i] == (outcome.points if outcome.winner == 0 else -outcome.points)
            assert isinstance(info["score"], tuple)
            ended += 1
        assert all(not infos[i] for i in np.flatnonzero(~dones))
    assert ended > 32
    with pytest.raises(IllegalActionError):
        env.step(np.full(32, NUM_ACTIONS - 1))  # "refuse" is not legal in every env at once


def test_the_native_vec_env_trains_with_wrappers_and_masks_from_one_batch() -> None:
    env = ecarte.sb3.make_vec_env(64, opponent="heuristic", seed=4)
    wrapped = VecMonitor(VecNormalize(env, norm_obs_keys=["observation"]))
    model = MaskablePPO("MultiInputPolicy", wrapped, n_steps=32, batch_size=512, n_epochs=1)
    model.learn(2048)
    assert model.num_timesteps >= 2048
    assert len(model.ep_info_buffer) > 50  # VecMonitor counted the deals
    masks = get_action_masks(wrapped)
    assert (masks == env.native.masks()).all()
    # The flat form: MlpPolicy, masks only through action_masks().
    flat = ecarte.sb3.make_vec_env(16, opponent="random", seed=4, observation="flat")
    assert flat.reset().shape == (16, OBSERVATION_SIZE)
    MaskablePPO("MlpPolicy", flat, **SMALL).learn(512)


def test_ppo_without_masks_loses_the_deal_on_an_illegal_action() -> None:
    env = ecarte.sb3.make_vec_env(8, "random", seed=5, observation="flat", illegal_action="lose")
    env.reset()
    masks = env.action_masks()
    illegal = np.array([np.flatnonzero(~m)[0] for m in masks])
    _, rewards, dones, infos = env.step(illegal)
    assert dones.all() and (rewards == ecarte.gymnasium.ILLEGAL_ACTION_REWARD).all()
    assert all(info["illegal_action"] and "outcome" not in info for info in infos)
    assert env.action_masks().any(axis=1).all()  # the next match is under way
    model = PPO("MlpPolicy", env, **SMALL, seed=0).learn(512)
    assert model.num_timesteps >= 512


def test_seeds_resets_and_copies() -> None:
    env = ecarte.sb3.make_vec_env(3, "pimc:2", seed=6)
    first = env.reset()
    # make_vec_env(seed=s): env i plays the run of derive_seed(s, i).
    for i in range(3):
        single, _ = ecarte.gymnasium.DuelEnv("pimc:2").reset(seed=derive_seed(6, i))
        assert (single["observation"] == first["observation"][i]).all()
    later = env.reset()  # the runs' next matches
    assert not (later["observation"] == first["observation"]).all()
    assert env.seed(40) == [40, 41, 42]
    seeded = env.reset()
    for i in range(3):
        single, _ = ecarte.gymnasium.DuelEnv("pimc:2").reset(seed=40 + i)
        assert (single["observation"] == seeded["observation"][i]).all()
    rng = np.random.default_rng(1)
    for step in range(30):
        if step == 7:
            copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        results = [e.step(actions) for e in [env, *(copies if step >= 7 else [])]]
        for other in results[1:]:
            assert (other[0]["observation"] == results[0][0]["observation"]).all()
            assert (other[1] == results[0][1]).all() and (other[2] == results[0][2]).all()


def untrained(tmp_path: Path, observation: str) -> Path:
    """A model saved as a learner saves one (untrained: the agent's plumbing is tested)."""
    env = ecarte.sb3.make_vec_env(2, "random", seed=1, observation=observation)
    model: Any = (
        MaskablePPO("MultiInputPolicy", env, seed=0)
        if observation == "dict"
        else PPO("MlpPolicy", env, seed=0)
    )
    path = tmp_path / f"{observation}.zip"
    model.save(path)
    return path


def test_policy_agent_plays_as_the_model_does(tmp_path: Path) -> None:
    path = untrained(tmp_path, "dict")
    model = ecarte.sb3.load_model(path)
    assert isinstance(model, MaskablePPO)
    agent = ecarte.sb3.PolicyAgent(model)
    # At every decision of some deals, the agent's input is the environment's, and its
    # action the model's own masked choice.
    for seed in range(3):
        deal = Deal(seed=seed, rules=Rules())
        while not deal.is_over():
            player = deal.current_player
            assert player is not None
            observation = deal.observation(player, (2, 5))
            tensor = observation.tensor()
            assert (tensor == deal.observation_tensor(player, (2, 5))).all()
            mask = deal.legal_action_mask()
            obs = {"observation": tensor, "action_mask": mask.astype(np.int8)}
            expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
            action = agent(observation, deal.legal_actions())
            assert action.id == int(expected)
            deal.apply(action)
    flat = ecarte.sb3.PolicyAgent.load(untrained(tmp_path, "flat"), deterministic=False, seed=3)
    deal = Deal(seed=9)
    while not deal.is_over():
        legal = deal.legal_actions()
        deal.apply(flat(deal.observation(deal.current_player or 0), legal))


def test_a_saved_model_plays_in_the_arena_and_on_the_command_line(tmp_path: Path) -> None:
    path = untrained(tmp_path, "dict")
    factory = pickle.loads(pickle.dumps(ecarte.sb3.policy(path)))
    result = arena.play(factory, "random", matches=1, seed=2, rules=Rules(target=2))
    assert result.agent_a == "dict" and result.deals >= 2
    match = run_ecarte("match", "--agents", str(path), "heuristic", "--target", "2", timeout=120)
    assert match.returncode == 0, match.stderr
    assert "wins the match" in match.stdout and "Dict-0" in match.stdout
    play = run_ecarte("play", "--opponent", str(path), "--seed", "1", input="quit\n\n", timeout=120)
    assert play.returncode == 0, play.stderr
    assert "you play against dict" in play.stdout
    missing = run_ecarte("match", "--agents", str(tmp_path / "none.zip"), "random", timeout=60)
    assert missing.returncode == 2 and "no model file" in missing.stderr
