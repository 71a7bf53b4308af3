"""The framework integrations, checked by each framework's own conformance tests:
PettingZoo's ``api_test`` and ``seed_test``, Gymnasium's ``check_env``, OpenSpiel's
``random_sim_test``, ISMCTS and ``evaluate_bots``. Kept small: a few seconds in all."""

from __future__ import annotations

import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest
from ecarte import EcarteError, IllegalActionError
from ecarte.duel import NUM_ACTIONS, OBSERVATION_SIZE, Action, OpponentVecEnv, Rules


def test_import_ecarte_loads_no_framework() -> None:
    frameworks = ("gymnasium", "pettingzoo", "pyspiel", "torch", "stable_baselines3", "PIL")
    code = (
        f"import ecarte, ecarte.duel, sys; print([m for m in {frameworks!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_missing_framework_names_its_extra() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "try:\n    import ecarte.openspiel\n"
        "except ImportError as e:\n    print(e)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == (
        "open_spiel is not installed: pip install 'ecarte[openspiel]' "
        "(in a checkout of ecarte: pip install '.[openspiel]')"
    )


# -- the native opponent env -------------------------------------------------------------


def masked_random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array(
        [rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask], dtype=np.int64
    )


@pytest.mark.parametrize("seat", [0, 1])
def test_opponent_env_steps_to_the_learners_turn(seat: int) -> None:
    env = OpponentVecEnv(6, 3, "heuristic", seat)
    obs, mask = env.reset()
    assert obs.shape == (6, OBSERVATION_SIZE) and mask.shape == (6, NUM_ACTIONS)
    rng = np.random.default_rng(0)
    ended = np.zeros(6, dtype=bool)
    finished = 0
    for _ in range(200):
        for i in range(6):
            if not ended[i]:
                assert env.deal(i).current_player == seat
                assert obs[i, 205] == 1.0  # the learner's turn, from the learner's view
        obs, mask, rewards, terminated = env.step(masked_random(mask, rng))
        # the step after a terminated one starts the next deal with reward 0
        assert not (terminated & ended).any() and (rewards[ended] == 0).all()
        assert set(np.abs(rewards[terminated]).tolist()) <= {1.0, 2.0}
        # A final observation marks one action, id 0, which the next step ignores.
        assert (mask[terminated] == np.eye(NUM_ACTIONS, dtype=bool)[0]).all()
        assert mask.any(axis=1).all()
        finished += int(terminated.sum())
        ended = terminated.copy()
    assert finished > 6


def test_opponent_env_is_seeded_and_checks_its_input() -> None:
    a, b = OpponentVecEnv(3, 9, "pimc:2"), OpponentVecEnv(3, 9, "pimc:2")
    assert a.deal(0) == b.deal(0)
    assert (
        a.step([int(np.flatnonzero(m)[0]) for m in a.reset()[1]])[0]
        == b.step([int(np.flatnonzero(m)[0]) for m in b.reset()[1]])[0]
    ).all()
    with pytest.raises(EcarteError, match="unknown agent"):
        OpponentVecEnv(1, 0, "oracle")
    with pytest.raises(EcarteError, match="seat"):
        OpponentVecEnv(1, 0, "random", 2)
    with pytest.raises(EcarteError):
        OpponentVecEnv(0, 0, "random")
    env = OpponentVecEnv(2, 0, "random")
    with pytest.raises(IllegalActionError):
        env.step([NUM_ACTIONS, 0])
    with pytest.raises(EcarteError):
        env.step([0])


def test_opponent_env_records_seeds_and_ended_deals() -> None:
    from ecarte import InvalidRecordError

    env = OpponentVecEnv(4, 1, "random", 1, Rules(target=3), "same_step")
    assert (env.opponent, env.seat, env.autoreset, env.rules.target) == (
        "random",
        1,
        "same_step",
        3,
    )
    rng = np.random.default_rng(4)
    ended = 0
    for _ in range(60):
        _, mask, rewards, terminated = env.step(masked_random(env.masks(), rng))
        envs, final, final_mask, outcomes, scores = env.ended()
        assert (envs == np.flatnonzero(terminated)).all() and final.shape == (len(envs), 214)
        assert (final_mask == np.eye(NUM_ACTIONS, dtype=bool)[0]).all()
        for k, i in enumerate(envs):
            outcome = outcomes[k]
            assert outcome is not None and rewards[i] == (
                outcome.points if outcome.winner == 1 else -outcome.points
            )
            assert (final[k, 212:214] == scores[k][::-1] / np.float32(3)).all()
        ended += len(envs)
        copy = OpponentVecEnv.from_json(env.to_json())
        assert copy.to_json() == env.to_json() and (copy.masks() == mask).all()
    assert ended > 4
    with pytest.raises(EcarteError, match="one per env"):
        env.reset([1, 2])
    with pytest.raises(EcarteError, match="seed of env 1"):
        env.reset([1, -1, 2, 3])
    with pytest.raises(EcarteError, match="autoreset"):
        OpponentVecEnv(1, 0, "random", autoreset="later")
    with pytest.raises(InvalidRecordError):
        OpponentVecEnv.from_json('{"format": "ecarte.duel.match"}')
    with pytest.raises(TypeError):
        OpponentVecEnv.from_json(b"{}")  # type: ignore[arg-type]


def test_an_observation_gives_the_tensor_of_its_deal() -> None:
    from ecarte.duel import Deal

    rng = np.random.default_rng(0)
    for seed in range(20):
        deal = Deal(seed=seed)
        while not deal.is_over():
            player = deal.current_player
            assert player is not None
            for seat in (0, 1):
                obs = deal.observation(seat, (seed % 7, 3))
                assert (obs.tensor() == deal.observation_tensor(seat, (seed % 7, 3))).all()
            deal.apply(int(rng.choice(deal.legal_action_ids())))


# -- PettingZoo ---------------------------------------------------------------------------


@pytest.mark.parametrize("episode", ["deal", "match"])
def test_pettingzoo_api_and_seed_tests(episode: str) -> None:
    from ecarte.pettingzoo import env
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dict observations, as in classic
        api_test(env(episode=episode), num_cycles=200)
        seed_test(lambda: env(episode=episode), num_cycles=200)


def test_pettingzoo_masks_are_those_of_the_agent_to_move() -> None:
    from ecarte.pettingzoo import env

    e = env()
    e.reset(seed=3)
    rng = np.random.default_rng(2)
    for agent in e.agent_iter(60):
        obs, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        mask = e.action_masks()
        assert mask.dtype == np.bool_ and (mask == obs["action_mask"].astype(bool)).all()
        assert mask.any() and agent == e.agent_selection
        e.step(int(rng.choice(np.flatnonzero(mask))))


def test_pettingzoo_rewards_are_deal_points() -> None:
    from ecarte.pettingzoo import env

    e = env(episode="match", rules=Rules(target=3))
    e.reset(seed=4)
    rng = np.random.default_rng(1)
    totals = {"player_0": 0.0, "player_1": 0.0}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        assert obs["observation"].shape == (OBSERVATION_SIZE,)
        action = (
            None if termination or truncation else masked_random(obs["action_mask"][None], rng)[0]
        )
        e.step(action)
    assert totals["player_0"] == -totals["player_1"] != 0
    match = e.unwrapped._match
    assert match is not None and match.is_over()
    assert totals["player_0"] == sum(
        o.points if o.winner == 0 else -o.points for o in match.outcomes()
    )


def test_pettingzoo_renders_the_play_table() -> None:
    from ecarte.pettingzoo import env

    e = env(render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text.startswith(f"{e.agent_selection}'s view")  # the elder's, to move
    assert "Your hand:" in text and "Trump" in text and "Your move: 1) propose" in text
    e.step(Action("propose").id)
    assert e.render().startswith(f"{e.agent_selection}'s view\n")
    assert "Your move: 1) accept  2) refuse" in e.render()


# -- Gymnasium ----------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1])
def test_gymnasium_check_env(seat: int) -> None:
    import ecarte.gymnasium  # noqa: F401 (registers the env)
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("ecarte/Duel-v0", opponent="heuristic", seat=seat)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    done, reward = False, 0.0
    while not done:
        action = masked_random(obs["action_mask"][None], rng)[0]
        obs, reward, done, truncated, _ = env.step(action)
        assert not truncated
    assert abs(reward) in (1.0, 2.0)
    obs, _ = env.reset()  # the next deal: the dealer changes
    assert obs["action_mask"].any()


def test_gymnasium_illegal_action_ends_the_episode() -> None:
    import gymnasium
    from ecarte.gymnasium import ILLEGAL_ACTION_REWARD

    env = gymnasium.make("ecarte/Duel-v0", opponent="random", disable_env_checker=True)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == ILLEGAL_ACTION_REWARD and info["illegal_action"]
    with pytest.raises(EcarteError):
        gymnasium.make("ecarte/Duel-v0", opponent="oracle")


def test_both_gymnasium_envs_check_their_options() -> None:
    from ecarte.gymnasium import DuelEnv, DuelVectorEnv

    for make in (DuelEnv, lambda **kw: DuelVectorEnv(num_envs=2, **kw)):
        with pytest.raises(EcarteError, match="unknown agent"):
            make(opponent="oracle")
        with pytest.raises(EcarteError, match="render_mode"):
            make(render_mode="video")
        with pytest.raises(EcarteError, match="seat"):
            make(seat=2)


def test_gymnasium_vector_env_is_native_and_autoresets() -> None:
    import ecarte.gymnasium
    import gymnasium

    envs = gymnasium.make_vec(
        "ecarte/Duel-v0", num_envs=8, vectorization_mode="vector_entry_point", opponent="heuristic"
    )
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert isinstance(envs.unwrapped, ecarte.gymnasium.DuelVectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, _ = envs.reset(seed=5)
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    previous = np.zeros(8, dtype=bool)
    for _ in range(60):
        obs, rewards, terminated, truncated, _ = envs.step(masked_random(obs["action_mask"], rng))
        assert not truncated.any() and (rewards[previous] == 0).all()
        assert obs["action_mask"][~terminated].any(axis=1).all()
        previous = terminated
    again, _ = envs.reset(seed=5)
    first, _ = gymnasium.make_vec(
        "ecarte/Duel-v0", num_envs=8, vectorization_mode="vector_entry_point", opponent="heuristic"
    ).reset(seed=5)
    assert (again["observation"] == first["observation"]).all()


# -- OpenSpiel ----------------------------------------------------------------------------


def test_openspiel_random_sim_test() -> None:
    import ecarte.openspiel
    import pyspiel

    for params in ({}, {"order": "traditional", "max_exchanges": 3, "allow_trump_discard": True}):
        game = pyspiel.load_game("python_ecarte_duel", params)
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    game = pyspiel.load_game("python_ecarte_duel")
    assert game.information_state_tensor_shape() == [ecarte.openspiel.INFO_STATE_SIZE]
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]


def test_openspiel_resamples_consistent_worlds() -> None:
    import pyspiel
    from ecarte.openspiel import GAME_NAME

    game = pyspiel.load_game(GAME_NAME)
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.information_state_tensor(player) == state.information_state_tensor(player)
        assert world.legal_actions() == state.legal_actions()


def test_openspiel_ismcts_plays_deals_with_evaluate_bots() -> None:
    import pyspiel
    from ecarte.openspiel import GAME_NAME, AgentBot, ismcts_bot
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    game = pyspiel.load_game(GAME_NAME)
    rng = np.random.RandomState(0)
    for seats in ((0, 1), (1, 0)):
        bots = [ismcts_bot(game, 20, seed=1), AgentBot("heuristic")]
        ordered = [bots[seats[0]], bots[seats[1]]]
        returns = evaluate_bots(game.new_initial_state(), ordered, rng)
        assert returns[0] == -returns[1] and abs(returns[0]) in (1.0, 2.0)


def test_ismcts_is_an_arena_agent() -> None:
    from ecarte import arena
    from ecarte.openspiel import ismcts

    factory = pickle.loads(pickle.dumps(ismcts(10)))
    result = arena.play(factory, "heuristic", matches=1, seed=2, rules=Rules(target=1))
    assert result.agent_a == "ismcts:10" and result.deals == 2
    assert result.decision_seconds[0] > 0
