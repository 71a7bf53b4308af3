"""Gymnasium's conventions, checked against Gymnasium itself: per-env seeds, both autoreset
modes (the native vector env gives exactly what Gymnasium's own ``SyncVectorEnv`` of single
envs gives), masks where learners look, copies at any point, the end-of-deal info and the
match score, the ``rgb_array`` picture and the flat observation."""

from __future__ import annotations

import copy
import pickle
import warnings
from typing import Any

import numpy as np
import pytest
from ecarte import EcarteError
from ecarte.duel import NUM_ACTIONS, OBSERVATION_SIZE, Outcome, Rules

gymnasium = pytest.importorskip("gymnasium")
ecarte_gymnasium = pytest.importorskip("ecarte.gymnasium")
from gymnasium.vector import AutoresetMode  # noqa: E402

DuelEnv = ecarte_gymnasium.DuelEnv
DuelVectorEnv = ecarte_gymnasium.DuelVectorEnv
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP]


def legal_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One random legal action per row of a batch of masks (never all zero)."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


def same(a: Any, b: Any) -> bool:
    """Deep equality of observations, infos and their arrays."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray) and a.dtype == object:
        return a.shape == b.shape and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return bool(np.array_equal(a, b)) and a.dtype == b.dtype
    return bool(a == b)


@pytest.mark.parametrize("mode", MODES)
def test_the_native_vector_env_is_gymnasiums_sync_vector_env(mode: AutoresetMode) -> None:
    """Per-env seeds, autoreset, final observations and infos: the native env equals a
    ``SyncVectorEnv`` of single envs seeded alike, step for step."""
    n, seeds = 4, [11, 12, 13, 2**64 - 1]
    native = gymnasium.make_vec(
        "ecarte/Duel-v0",
        num_envs=n,
        vectorization_mode="vector_entry_point",
        opponent="heuristic",
        seat=1,
        autoreset_mode=mode,
    )
    sync = gymnasium.make_vec(
        "ecarte/Duel-v0",
        num_envs=n,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": mode},
        opponent="heuristic",
        seat=1,
    )
    assert native.metadata["autoreset_mode"] == mode
    a, _ = native.reset(seed=seeds)
    b, _ = sync.reset(seed=seeds)
    assert same(a, b)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(80):
        actions = legal_actions(native.unwrapped.action_masks(), rng)
        assert (native.unwrapped.action_masks() == a["action_mask"].astype(bool)).all()
        a, ra, ta, _, ia = native.step(actions)
        b, rb, tb, _, ib = sync.step(actions)
        assert same(a, b) and same(ra, rb) and same(ta, tb), f"after {ended} deals"
        assert same(ia, ib), (ia, ib)
        ended += int(ta.sum())
    assert ended >= 2 * n


def test_same_step_puts_the_final_observation_in_info() -> None:
    envs = DuelVectorEnv(8, "random", autoreset_mode=AutoresetMode.SAME_STEP)
    obs, _ = envs.reset(seed=3)
    rng = np.random.default_rng(1)
    for _ in range(40):
        obs, rewards, terminated, _, info = envs.step(legal_actions(envs.action_masks(), rng))
        # Every env is at the learner's decision: the next deal opened in the same step.
        assert obs["action_mask"].any(axis=1).all() and (obs["observation"][:, 205] == 1).all()
        if terminated.any():
            assert (info["_final_obs"] == terminated).all()
            for i in np.flatnonzero(terminated):
                final = info["final_obs"][i]
                assert final["observation"][203] == 1.0  # phase "over"
                assert final["action_mask"].tolist() == [1] + [0] * (NUM_ACTIONS - 1)
                outcome = info["final_info"]["outcome"][i]
                points = outcome.points if outcome.winner == 0 else -outcome.points
                assert rewards[i] == points
    with pytest.raises(EcarteError, match="autoreset_mode"):
        DuelVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED)


def test_reset_seeds_each_env_as_a_single_env_with_that_seed() -> None:
    seeds = [5, 6, 5]
    envs = DuelVectorEnv(3, "pimc:2")
    obs, _ = envs.reset(seed=seeds)
    singles = [DuelEnv("pimc:2") for _ in seeds]
    for i, (env, seed) in enumerate(zip(singles, seeds, strict=True)):
        single, _ = env.reset(seed=seed)
        assert (single["observation"] == obs["observation"][i]).all()
    assert (obs["observation"][0] == obs["observation"][2]).all()
    assert not (obs["observation"][0] == obs["observation"][1]).all()
    with pytest.raises(EcarteError, match="3 seeds"):
        envs.reset(seed=[1, 2])
    # A batch seed gives env i the seed derive_seed(s, i) (docs/api.md, "Seeds").
    from ecarte import derive_seed

    batch, _ = envs.reset(seed=9)
    for i in range(3):
        single, _ = DuelEnv("pimc:2").reset(seed=derive_seed(9, i))
        assert (single["observation"] == batch["observation"][i]).all()


def test_masks_are_found_through_wrappers_and_never_all_zero() -> None:
    env = gymnasium.make("ecarte/Duel-v0", opponent="random")
    with pytest.raises(EcarteError, match="reset"):
        env.get_wrapper_attr("action_masks")()
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(2)
    for _ in range(30):
        mask = env.get_wrapper_attr("action_masks")()
        assert mask.dtype == np.bool_ and mask.shape == (NUM_ACTIONS,)
        assert (mask == obs["action_mask"].astype(bool)).all() and mask.any()
        obs, _, terminated, _, _ = env.step(legal_actions(mask[None], rng)[0])
        if terminated:
            assert env.get_wrapper_attr("action_masks")().any()
            obs, _ = env.reset()


def play_match(env: Any, rng: np.random.Generator) -> list[dict[str, Any]]:
    """Plays deals until one ends a match; returns the infos of the deals' ends."""
    infos: list[dict[str, Any]] = []
    target = env.unwrapped.rules.target
    while True:
        obs, _ = env.reset()
        done = False
        while not done:
            action = legal_actions(obs["action_mask"][None], rng)[0]
            obs, reward, done, _, info = env.step(action)
        infos.append(info | {"reward": reward, "obs": obs["observation"]})
        if max(info["score"]) >= target:
            return infos


def test_the_match_score_is_tracked_in_observation_info_and_render() -> None:
    env = gymnasium.make("ecarte/Duel-v0", opponent="heuristic", render_mode="ansi")
    env.reset(seed=4)
    infos = play_match(env, np.random.default_rng(3))
    target = Rules().target
    running = [0, 0]
    for info in infos:
        outcome = info["outcome"]
        assert isinstance(outcome, Outcome) and sum(outcome.cards) == 2 * sum(outcome.tricks)
        running[outcome.winner] += outcome.points
        assert info["score"] == tuple(running)
        assert info["reward"] == (outcome.points if outcome.winner == 0 else -outcome.points)
        # The final observation shows the score after the deal, from the learner's view.
        assert info["obs"][212:214].tolist() == (np.float32(running) / np.float32(target)).tolist()
        assert outcome.vole == (outcome.points == 2)
    assert max(running) >= target and len(infos) >= 4
    text = env.render()
    assert f"you {running[0]}, opponent {running[1]}" in text
    obs, _ = env.reset()  # the next match starts from 0-0
    assert obs["observation"][212:214].tolist() == [0.0, 0.0]
    assert "you 0, opponent 0" in env.render()


@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_envs_pickle_and_deepcopy_at_any_point_and_play_on_identically(observation: str) -> None:
    env = gymnasium.make("ecarte/Duel-v0", opponent="pimc:2", observation=observation)
    envs = [env, pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]  # before any reset
    results = [e.reset(seed=7) for e in envs]
    rng = np.random.default_rng(5)
    done, copied = False, 0
    for step in range(80):
        if step % 5 == 2:  # mid-deal, or just after a deal's end
            envs = [env, pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
            copied += done
        if done:
            results = [e.reset() for e in envs]
            done = False
        else:
            action = legal_actions(env.unwrapped.action_masks()[None], rng)[0]
            results = [e.step(action) for e in envs]
            done = results[0][2]
        assert all(same(r, results[0]) for r in results[1:]), step
    assert copied, "a copy was taken after a deal's end"


@pytest.mark.parametrize("mode", MODES)
def test_vector_envs_pickle_mid_deal(mode: AutoresetMode) -> None:
    envs = DuelVectorEnv(5, "random", autoreset_mode=mode)
    envs.reset(seed=2)
    rng = np.random.default_rng(3)
    copies: list[DuelVectorEnv] = []
    for step in range(60):
        if step % 10 == 4:
            copies = [pickle.loads(pickle.dumps(envs)), copy.deepcopy(envs)]
        actions = legal_actions(envs.action_masks(), rng)
        results = [e.step(actions) for e in [envs, *copies]]
        assert all(same(r, results[0]) for r in results[1:]), step


def test_rgb_array_shows_the_table() -> None:
    env = gymnasium.make("ecarte/Duel-v0", opponent="random", render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    assert first.shape == (400, 640, 3) and first.dtype == np.uint8
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 20  # cards, text, the felt
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    assert not np.array_equal(env.render(), first)
    envs = DuelVectorEnv(2, render_mode="rgb_array")
    envs.reset(seed=1)
    pictures = envs.render()
    assert len(pictures) == 2 and pictures[0].shape == (400, 640, 3)


def test_record_video_writes_a_video(tmp_path: Any) -> None:
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(
        gymnasium.make("ecarte/Duel-v0", opponent="random", render_mode="rgb_array"),
        str(tmp_path / "videos"),  # a folder RecordVideo creates (it warns on an existing one)
        episode_trigger=lambda episode: True,
        disable_logger=True,
    )
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, _, done, _, _ = env.step(legal_actions(obs["action_mask"][None], rng)[0])
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert videos and videos[0].stat().st_size > 1000


def test_flat_observations_are_a_box_and_pass_the_checker() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("ecarte/Duel-v0", opponent="heuristic", observation="flat")
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    assert env.observation_space.shape == (OBSERVATION_SIZE,)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=2)
    assert obs.shape == (OBSERVATION_SIZE,) and env.observation_space.contains(obs)
    envs = gymnasium.make_vec(
        "ecarte/Duel-v0", num_envs=3, vectorization_mode="vector_entry_point", observation="flat"
    )
    obs, _ = envs.reset(seed=2)
    assert obs.shape == (3, OBSERVATION_SIZE) and envs.unwrapped.action_masks().shape == (3, 68)
    with pytest.raises(EcarteError, match="observation"):
        DuelEnv(observation="image")


def test_an_illegal_action_forfeits_the_deal_and_the_run_goes_on() -> None:
    env = DuelEnv("random")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    final, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -2.0 and info["illegal_action"] and "outcome" not in info
    assert (final["observation"] == obs["observation"]).all()  # the deal as it stood
    obs, _ = env.reset()  # the run's next match, from 0-0
    assert obs["action_mask"].any() and obs["observation"][212:214].tolist() == [0.0, 0.0]
    for bad in (-1, NUM_ACTIONS, 2**70):
        env.reset()
        assert env.step(bad)[1] == -2.0
