"""ecarte beside OpenSpiel through the same neutral Python loop (legal actions, one
``rng.choice``, apply; OpenSpiel's uniform chance nodes sampled with
``rng.choice(state.chance_outcomes())[0]``): random playouts in actions per round, and
observation tensors per call. Skipped when ``open_spiel`` is not installed
(``pip install -e '.[bench]'``)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from bench_support import ecarte_steps
from ecarte.bench.timing import cycle
from ecarte.bench.workloads import (
    PLAYOUT_GAMES,
    TENSOR_GAMES,
    mid_game_states,
    openspiel_tensor_fns,
)

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
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))

    return steps


@pytest.mark.benchmark(group="playout actions (vs OpenSpiel)")
def test_playout_actions_ecarte(benchmark: Any) -> None:
    benchmark(ecarte_steps(ACTIONS))


@pytest.mark.benchmark(group="playout actions (vs OpenSpiel)")
def test_playout_actions_ecarte_ids(benchmark: Any) -> None:
    """The same loop over ``legal_action_ids()``, ints as OpenSpiel's."""
    benchmark(ecarte_steps(ACTIONS, ids=True))


@pytest.mark.benchmark(group="playout actions (vs OpenSpiel)")
@pytest.mark.parametrize("name", PLAYOUT_GAMES)
def test_playout_actions_openspiel(benchmark: Any, name: str) -> None:
    benchmark(os_steps(pyspiel.load_game(name), random.Random(2)))


@pytest.mark.benchmark(group="observation tensor (vs OpenSpiel)")
def test_observation_tensor_ecarte(benchmark: Any) -> None:
    it = cycle(mid_game_states(50)[0])
    assert benchmark(lambda: next(it).observation_tensor(0)).shape == (214,)


@pytest.mark.benchmark(group="observation tensor (vs OpenSpiel)")
@pytest.mark.parametrize(("name", "kind"), TENSOR_GAMES)
@pytest.mark.parametrize("form", ["list", "observer"])
def test_observation_tensor_openspiel(benchmark: Any, name: str, kind: str, form: str) -> None:
    """``list``: ``state.<kind>_tensor(p)``; ``observer``: ``make_observation`` then
    ``set_from`` and the NumPy buffer. Euchre and hearts only have an information-state
    tensor; bridge and skat have an observation tensor."""
    list_form, buffer_form = openspiel_tensor_fns(pyspiel, name, kind)
    result = benchmark(list_form if form == "list" else buffer_form)
    assert np.asarray(result).size > 0
