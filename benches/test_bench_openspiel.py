"""ecarte beside OpenSpiel through the same Python loop (legal actions, random choice,
apply): random playouts in actions per round, and observation tensors per call. Skipped
when ``open_spiel`` is not installed (``pip install -e '.[bench]'``)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ecarte.bench import cycle, mid_game_states, openspiel_mid_state
from ecarte.duel import Deal

pyspiel = pytest.importorskip("pyspiel")

ACTIONS = 1_000


def os_steps(game: Any, rng: random.Random) -> Any:
    """``ACTIONS`` actions (chance outcomes included) of random OpenSpiel play."""
    holder = [game.new_initial_state()]

    def steps() -> None:
        state = holder[0]
        for _ in range(ACTIONS):
            if state.is_terminal():
                state = holder[0] = game.new_initial_state()
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))

    return steps


@pytest.mark.benchmark(group="playout actions (vs OpenSpiel)")
def test_playout_actions_ecarte(benchmark: Any) -> None:
    rng, seeds = random.Random(2), iter(range(1 << 62))
    deal = [Deal(seed=0)]

    def steps() -> None:
        d = deal[0]
        for _ in range(ACTIONS):
            if d.is_over():
                d = deal[0] = Deal(seed=next(seeds))
            d.apply(rng.choice(d.legal_actions()))

    benchmark(steps)


@pytest.mark.benchmark(group="playout actions (vs OpenSpiel)")
@pytest.mark.parametrize("name", ["euchre", "hearts"])
def test_playout_actions_openspiel(benchmark: Any, name: str) -> None:
    benchmark(os_steps(pyspiel.load_game(name), random.Random(2)))


@pytest.mark.benchmark(group="observation tensor (vs OpenSpiel)")
def test_observation_tensor_ecarte(benchmark: Any) -> None:
    it = cycle(mid_game_states(50)[0])
    assert benchmark(lambda: next(it).observation_tensor(0)).shape == (214,)


def os_state(name: str) -> tuple[Any, int]:
    game = pyspiel.load_game(name)
    if not game.get_type().provides_observation_tensor:
        pytest.skip(f"OpenSpiel {name} has no observation tensor")
    state = openspiel_mid_state(game, random.Random(3), 30)
    return state, max(state.current_player(), 0)


@pytest.mark.benchmark(group="observation tensor (vs OpenSpiel)")
@pytest.mark.parametrize("name", ["euchre", "hearts"])
def test_observation_tensor_list_openspiel(benchmark: Any, name: str) -> None:
    state, player = os_state(name)
    assert len(benchmark(lambda: state.observation_tensor(player))) > 0


@pytest.mark.benchmark(group="observation tensor (vs OpenSpiel)")
@pytest.mark.parametrize("name", ["euchre", "hearts"])
def test_observation_tensor_observer_openspiel(benchmark: Any, name: str) -> None:
    state, player = os_state(name)
    observer = pyspiel.make_observation(
        state.get_game(), pyspiel.IIGObservationType(perfect_recall=False)
    )

    def fill() -> Any:
        observer.set_from(state, player)
        return np.asarray(observer.tensor)

    assert benchmark(fill).size > 0
