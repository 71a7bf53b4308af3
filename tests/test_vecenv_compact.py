"""The compact observation layout of ``VecEnv`` (docs/api.md): it decodes to exactly the
float32 rows, on many trajectories, and the float32 rows match ``Deal.observation_tensor``."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from ecarte import EcarteError
from ecarte._core.duel import decode_compact_rows
from ecarte.duel import (
    COMPACT_OBSERVATION_SIZE,
    OBSERVATION_SIZE,
    Rules,
    VecEnv,
    decode_observations,
)


def bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)


@pytest.mark.parametrize(
    ("seed", "rules"),
    [(0, None), (11, Rules(max_exchanges=0)), (12, Rules(order="traditional", target=3))],
)
def test_compact_decodes_to_the_float32_rows_on_many_trajectories(
    seed: int, rules: Rules | None
) -> None:
    n = 48
    full, compact = VecEnv(n, seed, rules), VecEnv(n, seed, rules, observation="compact")
    assert (full.observation, compact.observation) == ("float32", "compact")
    obs, mask = full.reset()
    packed, packed_mask = compact.reset()
    assert packed.dtype == np.uint8 and packed.shape == (n, COMPACT_OBSERVATION_SIZE)
    deals = 0
    for step in range(400):
        assert np.array_equal(bits(decode_observations(packed)), bits(obs)), step
        assert np.array_equal(mask, packed_mask)
        actions = full.random_actions()
        assert np.array_equal(actions, compact.random_actions())
        obs, mask, rewards, terminated, players = full.step(actions)
        packed, packed_mask, r2, t2, p2 = compact.step(actions)
        assert np.array_equal(rewards, r2)
        assert np.array_equal(terminated, t2)
        assert np.array_equal(players, p2)
        deals += int(terminated.sum())
    assert deals > 300  # the trajectories cross many deals, hence every phase


def test_float32_rows_written_incrementally_are_the_deals_tensors() -> None:
    env = VecEnv(8, seed=5)
    env.reset()
    for _ in range(250):
        obs, _, _, _, players = env.step(env.random_actions())
        for i in range(len(env)):
            expected = env.deal(i).observation_tensor(int(players[i]))
            assert np.array_equal(bits(obs[i]), bits(expected))


@pytest.mark.parametrize("layout", ["float32", "compact"])
def test_a_callers_writes_to_the_arrays_do_not_reach_later_steps(layout: str) -> None:
    # A learner may normalise the returned array in place: the next step must not keep it.
    scribbled, clean = VecEnv(4, seed=1, observation=layout), VecEnv(4, seed=1)
    obs, mask = scribbled.reset()
    clean.reset()
    for _ in range(3):
        obs[:] = 7
        mask[:] = True
        actions = clean.random_actions()
        scribbled.random_actions()
        obs, mask, *_ = scribbled.step(actions)
        expected, expected_mask, *_ = clean.step(actions)
        rows = decode_observations(obs) if layout == "compact" else obs
        assert np.array_equal(rows, expected) and np.array_equal(mask, expected_mask)


@pytest.mark.parametrize("layout", ["uint8", "FLOAT32", "", 3, b"compact"])
def test_an_unknown_layout_is_refused(layout: object) -> None:
    with pytest.raises(EcarteError, match="observation"):
        VecEnv(2, seed=1, observation=layout)  # type: ignore[arg-type]


def test_decode_takes_one_row_or_a_batch_and_checks_its_input() -> None:
    packed, _ = VecEnv(3, seed=2, observation="compact").reset()
    batch = decode_observations(packed)
    assert batch.shape == (3, OBSERVATION_SIZE) and batch.dtype == np.float32
    assert np.array_equal(decode_observations(packed[1]), batch[1])
    assert decode_observations(packed.reshape(3, 1, -1)).shape == (3, 1, OBSERVATION_SIZE)
    with pytest.raises(EcarteError, match="uint8 rows"):
        decode_observations(packed.astype(np.int16))
    with pytest.raises(EcarteError, match="uint8 rows"):
        decode_observations(packed[:, :-1])
    with pytest.raises(EcarteError, match="uint8 rows"):
        decode_observations(np.uint8(3))
    for offset, value in ((24, 4), (26, 5), (29, 23), (37, 0)):
        bad = packed.copy()
        bad[0, offset] = value
        with pytest.raises(EcarteError, match="out-of-range"):
            decode_observations(bad)
    with pytest.raises(EcarteError, match="uint8 array"):
        decode_observations([[1, 2], [3]])  # ragged
    with pytest.raises(EcarteError, match="rows of 38 bytes"):
        decode_compact_rows(np.ones((2, 100), dtype=np.uint8))


def test_an_endless_iterable_of_actions_is_refused_not_drained() -> None:
    env = VecEnv(2, seed=1)
    env.reset()
    with pytest.raises(EcarteError, match="2 integer action ids"):
        env.step(itertools.count())
