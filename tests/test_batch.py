"""Native batch simulation and the vectorized environment."""

from __future__ import annotations

import numpy as np
import pytest
from ecarte import EcarteError, HeuristicAgent, IllegalActionError, derive_seed
from ecarte.duel import NUM_ACTIONS, OBSERVATION_SIZE, Deal, Match, Rules, VecEnv, simulate


def test_simulate_shapes_and_invariants() -> None:
    r = simulate(500, seed=3)
    assert set(r) == {"dealer", "winner", "points", "cards", "tricks", "exchanges"}
    assert r["cards"].shape == (500, 2) and r["winner"].shape == (500,)
    assert np.array_equal(r["dealer"], np.arange(500) % 2)
    assert np.all(r["cards"].sum(axis=1) == 32 - 2 * r["exchanges"])
    assert np.all(r["tricks"].sum(axis=1) == 16 - r["exchanges"])
    assert set(np.unique(r["points"])) <= {1, 2}
    wins = r["cards"][np.arange(500), r["winner"]] >= r["cards"][np.arange(500), 1 - r["winner"]]
    assert wins.all()


@pytest.mark.parametrize("matches", [False, True])
def test_simulate_is_identical_whatever_the_thread_count(matches: bool) -> None:
    args = dict(seed=11, agents=("heuristic", "random"), matches=matches)
    one = simulate(400 if not matches else 40, threads=1, **args)  # type: ignore[arg-type]
    two = simulate(400 if not matches else 40, threads=2, **args)  # type: ignore[arg-type]
    default = simulate(400 if not matches else 40, **args)  # type: ignore[arg-type]
    for key in one:
        assert np.array_equal(one[key], two[key]) and np.array_equal(one[key], default[key])
    other = simulate(
        400 if not matches else 40,
        seed=12,
        threads=1,
        agents=args["agents"],  # type: ignore[arg-type]
        matches=matches,
    )
    assert any(not np.array_equal(one[k], other[k]) for k in one)


def test_native_heuristic_deals_match_the_python_step_api() -> None:
    seed, n = 5, 30
    r = simulate(n, seed=seed, agents=("heuristic", "heuristic"))
    agent = HeuristicAgent()
    for i in range(n):
        deal = Deal(seed=derive_seed(seed, i), dealer=i % 2)
        while not deal.is_over():
            p = deal.current_player
            assert p is not None
            deal.apply(agent(deal.observation(p), deal.legal_actions()))
        o = deal.outcome()
        assert o is not None
        assert (o.winner, o.points, o.cards, deal.exchanges) == (
            r["winner"][i],
            r["points"][i],
            tuple(r["cards"][i]),
            r["exchanges"][i],
        )


def test_native_heuristic_matches_match_the_python_match() -> None:
    seed = 8
    r = simulate(4, seed=seed, agents=("heuristic", "heuristic"), matches=True)
    for i in range(4):
        m = Match(seed=derive_seed(seed, i), first_dealer=i % 2)
        result = m.play(HeuristicAgent(), HeuristicAgent())
        assert (result.winner, result.score, len(m.deals)) == (
            r["winner"][i],
            tuple(r["score"][i]),
            r["deals"][i],
        )


def test_simulate_bad_input() -> None:
    with pytest.raises(EcarteError):
        simulate(10, seed=1, agents=("oracle", "random"))
    with pytest.raises(EcarteError):
        simulate(-1, seed=1)
    with pytest.raises(EcarteError):
        simulate(10, seed=1, threads=0)
    assert simulate(0, seed=1)["winner"].shape == (0,)


def test_vecenv_with_one_env_reproduces_the_deal_api() -> None:
    seed = 21
    env = VecEnv(1, seed=seed)
    obs, mask = env.reset()
    assert obs.shape == (1, OBSERVATION_SIZE) and mask.shape == (1, NUM_ACTIONS)
    rng = np.random.default_rng(0)
    env_seed = derive_seed(seed, 0)
    for k in range(3):
        deal = Deal(seed=derive_seed(env_seed, k), dealer=k % 2)
        while True:
            p = deal.current_player
            assert p is not None
            assert np.array_equal(obs[0], deal.observation_tensor(p))
            assert np.array_equal(mask[0], deal.legal_action_mask())
            action = int(rng.choice(np.flatnonzero(mask[0])))
            deal.apply(action)
            obs, mask, rewards, terminated, players = env.step(np.array([action]))
            if deal.is_over():
                o = deal.outcome()
                assert o is not None and terminated[0]
                assert rewards[0, o.winner] == o.points and rewards[0, 1 - o.winner] == -o.points
                break
            assert not terminated[0] and np.all(rewards == 0)
            assert players[0] == deal.current_player


def test_vecenv_rejects_illegal_actions_and_changes_nothing() -> None:
    env = VecEnv(3, seed=2)
    obs, mask = env.reset()
    before = obs.copy(), mask.copy()
    legal = [int(np.flatnonzero(row)[0]) for row in mask]
    bad = list(legal)
    bad[1] = 0 if not mask[1, 0] else 66
    with pytest.raises(IllegalActionError, match="env 1"):
        env.step(np.array(bad))
    with pytest.raises(EcarteError, match="3 integer action ids") as info:
        env.step(np.array(legal[:2]))
    assert not isinstance(info.value, IllegalActionError)  # a wrong batch is no illegal move
    assert np.array_equal(obs, before[0]) and np.array_equal(mask, before[1])
    env.step(np.array(legal))
    with pytest.raises(EcarteError):
        VecEnv(0, seed=1)
    assert len(VecEnv(2, seed=1, rules=Rules(max_exchanges=0))) == 2


def test_vecenv_random_actions_are_legal_and_seeded() -> None:
    a, b = VecEnv(64, seed=4), VecEnv(64, seed=4)
    mask = a.reset()[1]
    b.reset()
    for _ in range(200):
        actions = a.random_actions()
        assert all(mask[i, actions[i]] for i in range(64))
        assert np.array_equal(actions, b.random_actions())
        obs, mask, *_ = a.step(actions)
        assert np.array_equal(obs, b.step(actions)[0])


def test_simulate_with_the_native_pimc_agent() -> None:
    r = simulate(6, seed=2, agents=("pimc:4", "random"), threads=1)
    again = simulate(6, seed=2, agents=("pimc:4", "random"), threads=2)
    assert all(np.array_equal(r[k], again[k]) for k in r)
    m = simulate(2, seed=2, agents=("pimc:2", "heuristic"), matches=True)
    assert m["deals_won"].shape == (2, 2)
    assert np.all(m["deals_won"].sum(axis=1) == m["deals"])
    for bad in ("pimc:0", "pimc:x", "oracle:3"):
        with pytest.raises(EcarteError):
            simulate(1, seed=1, agents=(bad, "random"))
