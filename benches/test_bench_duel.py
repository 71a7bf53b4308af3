"""Duel benchmarks: the engine beside the pure-Python reference, group by group."""

from __future__ import annotations

import random
from typing import Any

import ecarte
import pytest
from bench_support import ecarte_steps
from ecarte import duel
from ecarte.bench import reference as ref
from ecarte.bench.harness import memory_rows
from ecarte.bench.timing import cycle
from ecarte.bench.workloads import mid_game_states, native_playout, reference_playout
from ecarte.duel import Deal

ACTIONS = 1_000  # the step benchmarks apply this many actions per round


@pytest.mark.benchmark(group="shuffle")
def test_shuffle_ecarte(benchmark: Any) -> None:
    pack, seeds = ecarte.duel_pack(), iter(range(1 << 62))
    deck = benchmark(lambda: ecarte.shuffled(pack, next(seeds)))
    assert sorted(deck) == sorted(pack)


@pytest.mark.benchmark(group="shuffle")
def test_shuffle_reference(benchmark: Any) -> None:
    pack, rng = ref.duel_pack(), random.Random(0)
    deck = benchmark(lambda: ref.shuffle(pack, rng))
    assert sorted(deck) == pack


@pytest.mark.benchmark(group="new deal")
def test_new_deal_ecarte(benchmark: Any) -> None:
    seeds = iter(range(1 << 62))
    deal = benchmark(lambda: Deal(seed=next(seeds)))
    assert deal.talon_size == 22


@pytest.mark.benchmark(group="new deal")
def test_new_deal_reference(benchmark: Any) -> None:
    pack, rng = ref.duel_pack(), random.Random(0)
    deal = benchmark(lambda: ref.RefDeal(ref.shuffle(pack, rng)))
    assert deal.talon_size == 22


@pytest.fixture(scope="module")
def states() -> tuple[list[Any], list[ref.RefDeal]]:
    return mid_game_states(200)


@pytest.mark.benchmark(group="legal actions")
def test_legal_actions_ecarte(benchmark: Any, states: tuple[list[Any], list[Any]]) -> None:
    it = cycle(states[0])
    assert benchmark(lambda: next(it).legal_actions())


@pytest.mark.benchmark(group="legal actions")
def test_legal_action_ids_ecarte(benchmark: Any, states: tuple[list[Any], list[Any]]) -> None:
    it = cycle(states[0])
    assert benchmark(lambda: next(it).legal_action_ids())


@pytest.mark.benchmark(group="legal actions")
def test_legal_actions_mask_ecarte(benchmark: Any, states: tuple[list[Any], list[Any]]) -> None:
    it = cycle(states[0])
    assert benchmark(lambda: next(it).legal_action_mask()).any()


@pytest.mark.benchmark(group="legal actions")
def test_legal_actions_reference(benchmark: Any, states: tuple[list[Any], list[Any]]) -> None:
    it = cycle(states[1])
    assert benchmark(lambda: next(it).legal_actions())


@pytest.mark.benchmark(group="random deal")
def test_random_deal_step_api_ecarte(benchmark: Any) -> None:
    rng, seeds = random.Random(1), iter(range(1 << 62))
    assert benchmark(lambda: native_playout(Deal(seed=next(seeds)), rng)) > 0


@pytest.mark.benchmark(group="random deal")
def test_random_deal_reference(benchmark: Any) -> None:
    rng, pack = random.Random(1), ref.duel_pack()
    assert benchmark(lambda: reference_playout(ref.RefDeal(ref.shuffle(pack, rng)), rng)) > 0


@pytest.mark.benchmark(group="random deal")
def test_random_deal_native_batch_ecarte(benchmark: Any) -> None:
    """``simulate(n)`` of 1000 deals per round: divide the time by 1000 for one deal."""
    simulate = duel.simulate
    seeds = iter(range(1 << 62))
    result = benchmark(lambda: simulate(1000, seed=next(seeds), agents=("random", "random")))
    assert result is not None


@pytest.mark.benchmark(group="steps")
@pytest.mark.parametrize("observation", ["float32", "compact"])
def test_steps_vecenv_ecarte(benchmark: Any, observation: str) -> None:
    """``ACTIONS`` game-steps per round: 4 steps of a 250-game ``VecEnv``, in each
    observation layout."""
    vec_env = duel.VecEnv
    env = vec_env(250, seed=1, observation=observation)
    env.reset()

    def four_steps() -> None:
        for _ in range(ACTIONS // 250):
            env.step(env.random_actions())

    benchmark(four_steps)


@pytest.mark.benchmark(group="steps")
def test_steps_python_api_ecarte(benchmark: Any) -> None:
    """``ACTIONS`` random actions through the Python step API, new deals as needed."""
    benchmark(ecarte_steps(ACTIONS))


@pytest.mark.benchmark(group="steps")
def test_steps_reference(benchmark: Any) -> None:
    rng, pack = random.Random(2), ref.duel_pack()
    deal = [ref.RefDeal(pack)]

    def steps() -> None:
        d = deal[0]
        for _ in range(ACTIONS):
            if d.phase == "over":
                d = deal[0] = ref.RefDeal(ref.shuffle(pack, rng))
            d.apply(rng.choice(d.legal_actions()))

    benchmark(steps)


@pytest.mark.benchmark(group="step API calls")
@pytest.mark.parametrize(
    "call", ["is_over", "current_player", "legal_actions", "legal_action_ids", "apply"]
)
def test_step_api_call_ecarte(benchmark: Any, call: str) -> None:
    """One call of the step API on a mid-play deal; ``apply`` applies an interned legal
    ``Action`` to a fresh copy (the copy is timed too)."""
    deal = Deal(seed=5)
    deal.apply("decline")
    action = deal.legal_actions()[0]
    fns = {
        "is_over": deal.is_over,
        "current_player": lambda: deal.current_player,
        "legal_actions": deal.legal_actions,
        "legal_action_ids": deal.legal_action_ids,
        "apply": lambda: deal.copy().apply(action),
    }
    benchmark(fns[call])


@pytest.mark.benchmark(group="memory")
def test_memory_figures(benchmark: Any) -> None:
    """Bytes per ``Deal`` and per ``VecEnv`` env (see ``ecarte.bench.harness.memory_rows``); the
    timing is of the measurement, the figures are in ``extra_info``."""
    rows = benchmark.pedantic(lambda: memory_rows(100_000), rounds=1, iterations=1)
    for row in rows:
        benchmark.extra_info[row.group] = row.ecarte


@pytest.mark.benchmark(group="solve")
def test_double_dummy_solve_ecarte(benchmark: Any) -> None:
    solve = duel.solve
    rng = random.Random(5)
    # The full opening play position: no exchange, 16 tricks, the 22-card talon.
    positions = []
    for _ in range(20):
        deal = Deal(seed=rng.getrandbits(32))
        deal.apply("decline")
        positions.append(deal)
    deals = cycle(positions)
    benchmark(lambda: solve(next(deals)))
