"""One meaning per API word: ``seed=None`` is a fresh seed kept on the object,
the shoe and the odds copy and pickle, both solve_many functions take the same arguments,
"agent spec" is the string, and chunk sizing knows what a search decision costs."""

from __future__ import annotations

import copy
import inspect
import pickle

import numpy as np
import pytest
from ecarte import EcarteError, InvalidShoeError, arena, bank, distributed, duel
from ecarte.cli import common


def test_a_shoe_without_a_seed_draws_a_fresh_one_and_keeps_it() -> None:
    shoes = [bank.Shoe(), bank.Shoe(None), bank.Shoe()]
    assert len({s.seed for s in shoes}) == 3
    for shoe in shoes:
        assert bank.Shoe(shoe.seed).undealt == shoe.undealt
    assert bank.Shoe(5).seed == 5
    order = bank.Shoe(1).undealt
    a, b = bank.Shoe.from_order(order), bank.Shoe.from_order(order)
    assert a.seed != b.seed and a.undealt == order
    assert bank.Shoe.from_order(order, seed=9).seed == 9
    with pytest.raises(EcarteError):
        bank.Shoe(-1)


def test_the_gymnasium_vector_env_keeps_its_fresh_seed() -> None:
    gymnasium = pytest.importorskip("ecarte.gymnasium")
    envs = [gymnasium.DuelVectorEnv(2), gymnasium.DuelVectorEnv(2)]
    seeds = [env.np_random_seed for env in envs]
    assert all(isinstance(s, int) and s >= 0 for s in seeds) and seeds[0] != seeds[1]
    for env, seed in zip(envs, seeds, strict=True):
        # The generator the env draws from is the one of its recorded seed.
        assert env.np_random.bit_generator.seed_seq.entropy == seed
        env.reset()
        assert env.np_random_seed == seed
    envs[0].reset(seed=3)
    assert envs[0].np_random_seed == 3


def test_the_ismcts_bot_keeps_its_fresh_seed() -> None:
    openspiel = pytest.importorskip("ecarte.openspiel")
    game = openspiel.game_for(duel.Rules(), 0)
    bots = [openspiel.ismcts_bot(game, simulations=2) for _ in range(2)]
    assert bots[0].seed != bots[1].seed
    assert openspiel.ismcts_bot(game, simulations=2, seed=4).seed == 4


def shoe_state(shoe: bank.Shoe) -> tuple[object, ...]:
    return (shoe.undealt, shoe.on_table, shoe.discards, shoe.run_outs, shoe.seed)


@pytest.mark.parametrize("deals", [0, 1, 5, 6, 13])
def test_a_copied_or_pickled_shoe_deals_the_same_cards(deals: int) -> None:
    shoe = bank.Shoe(8)
    for _ in range(deals):  # 6 deals use 102 cards: the 7th runs out
        shoe.deal()
    if deals == 5:
        shoe.shuffle_rest(3)
        shoe.clear_table()
    copies = [pickle.loads(pickle.dumps(shoe)), copy.deepcopy(shoe), copy.copy(shoe)]
    for again in copies:
        assert type(again) is bank.Shoe and shoe_state(again) == shoe_state(shoe)
    for _ in range(15):  # through the next run-out
        dealt = shoe.deal()
        assert all(again.deal() == dealt for again in copies)
    assert all(shoe_state(again) == shoe_state(shoe) for again in copies)
    assert shoe.run_outs >= 2


def test_a_shoe_state_must_hold_the_whole_shoe() -> None:
    shoe = bank.Shoe(2)
    shoe.deal()
    undealt, table, discards = shoe.undealt, shoe.on_table, shoe.discards
    for bad in [
        (undealt[1:], table, discards, 0, 2),  # a card lost
        (undealt, table, [*discards, table[0]], 0, 2),  # a card added
        (undealt + table[:1], table[1:], discards, 0, 2),  # a table that is no deal
        (undealt, table, discards, -1, 2),
        (undealt, table, discards, 0),
        "state",
    ]:
        with pytest.raises(EcarteError):
            bank.Shoe(1).__setstate__(bad)  # type: ignore[attr-defined]
    with pytest.raises(InvalidShoeError):
        bank.Shoe(1).__setstate__((undealt[1:], table, discards, 0, 2))  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "odds",
    [
        bank.odds(trump_card="7H"),
        bank.odds("S"),
        bank.odds(trump_card="AD", removed=bank.Shoe(4).undealt[:40]),
        bank.odds("C", shoe=bank.Shoe(5).undealt[:9]),
    ],
)
def test_odds_pickle_and_copy_to_equal_odds(odds: bank.Odds) -> None:
    for again in (pickle.loads(pickle.dumps(odds)), copy.deepcopy(odds), copy.copy(odds)):
        assert type(again) is bank.Odds and again == odds
        assert (again.exact, again.scores_exact, again.cards_left, again.trumps_left) == (
            odds.exact,
            odds.scores_exact,
            odds.cards_left,
            odds.trumps_left,
        )
    assert bank.odds("H") != bank.odds(trump_card="7H")


def positions(count: int) -> list[duel.Deal]:
    deals = []
    for i in range(count):
        deal = duel.Deal(seed=40 + i, dealer=i % 2)
        deal.apply("decline")
        deals.append(deal)
    return deals


def test_both_solve_many_functions_take_the_same_arguments() -> None:
    for a, b in [
        (duel.solve_many, duel.solve_many_timed),
        (duel._solve_many, duel._solve_many_timed),
    ]:
        assert inspect.signature(a).parameters.keys() == inspect.signature(b).parameters.keys()
    names = list(inspect.signature(duel.solve_many).parameters)
    assert names == ["deals", "objective", "threads", "backend", "progress", "on_progress"]
    deals = positions(4)
    solved = duel.solve_many(deals, "cards", threads=1)
    timed = duel.solve_many_timed(deals, "cards", threads=1)
    assert [s for s, _ in timed] == solved == duel.solve_many(deals, "cards")
    told: list[int] = []
    assert duel.solve_many(deals * 50, "cards", on_progress=told.append) == solved * 50
    assert told == sorted(told) and all(0 < k <= 200 for k in told)
    for solve in (duel.solve_many, duel.solve_many_timed):
        for bad in [{"threads": 0}, {"objective": "tricks"}, {"backend": "cluster"}]:
            with pytest.raises(EcarteError):
                solve(deals, **bad)  # type: ignore[arg-type]


def test_agent_spec_names_the_string_only() -> None:
    assert "AgentLike" in arena.__all__
    assert not hasattr(arena, "AgentSpec")
    assert isinstance(common.AGENT, common.AgentSpecType)
    assert not hasattr(common, "AgentSpec")
    assert common.AGENT.convert("pimc:3", None, None) == "pimc:3"


def chunk_sizes(monkeypatch: pytest.MonkeyPatch, agents: tuple[str, str], n: int) -> set[int]:
    """The chunk sizes of ``duel.simulate(n, agents=agents, backend="ray")`` on 64 CPUs, as
    the dispatch chooses them (the run itself is stopped before any task)."""
    sizes: set[int] = set()

    class Stop(Exception):
        pass

    def run_chunks(
        backend: object, fn: object, pieces: list[distributed.Chunk], *a: object, **k: object
    ) -> None:
        sizes.update(p.n for p in pieces[:-1] or pieces)
        raise Stop

    monkeypatch.setattr(distributed, "task_cpus", lambda backend: 64)
    monkeypatch.setattr(distributed, "run_chunks", run_chunks)
    with pytest.raises(Stop):
        duel.simulate(n, seed=1, agents=agents, backend="ray")
    return sizes


@pytest.mark.parametrize("n", [200, 20_000])
def test_an_expert_run_is_chunked_like_a_pimc_run(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    expert = chunk_sizes(monkeypatch, ("expert", "heuristic"), n)
    pimc = chunk_sizes(monkeypatch, ("pimc", "heuristic"), n)
    cheap = chunk_sizes(monkeypatch, ("heuristic", "heuristic"), n)
    # Their measured costs per deal differ (0.78), so their chunks may too, by as little.
    assert max(pimc) <= max(expert) <= 2 * max(pimc)
    # A deal of the heuristic costs thousands of times less: one chunk holds the whole run.
    assert cheap == {n} and max(expert) < n / 2


def test_every_agent_kind_has_a_measured_cost() -> None:
    for spec in ("random", "heuristic", "pimc", "pimc:3", "expert", "expert:3"):
        assert duel.simulate_item_seconds((spec, "random"), matches=True) > 0
    # The same worlds cost about the same: within a factor of 2 (measured 0.78).
    ratio = duel.simulate_item_seconds(("expert", "random"), False) / duel.simulate_item_seconds(
        ("pimc", "random"), False
    )
    assert 0.5 < ratio < 2
    assert np.isclose(
        duel.simulate_item_seconds(("expert:48", "random"), False),
        2 * duel.simulate_item_seconds(("expert", "random"), False),
        rtol=1e-3,
    )
