"""One source of randomness and one match runner: the same specs and seed play the same
matches on every path (docs/api.md, "Seeds")."""

from __future__ import annotations

import copy
import itertools
import pickle

import pytest
from ecarte import arena, derive_seed
from ecarte.agents import RandomAgent, make_agent
from ecarte.duel import Match, Rules, RunMatch, agent_seed, decision_seed, simulate
from ecarte.pimc import PimcAgent

SPECS = ("random", "heuristic", "pimc:2", "expert:2", "master:2")
FIGURES = ("pairs", "deals", "match_win_rate", "deal_win_rate", "points_per_deal")


@pytest.mark.parametrize(("a", "b"), list(itertools.product(SPECS, SPECS)))
def test_the_arena_gives_the_same_figures_on_both_paths(a: str, b: str) -> None:
    rules = Rules(target=2)
    native = arena.play(a, b, matches=3, seed=9, rules=rules, progress=False)
    python = arena.play(
        lambda s: make_agent(a, s),
        lambda s: make_agent(b, s),
        matches=3,
        seed=9,
        rules=rules,
        progress=False,
    )
    assert native.native and not python.native
    for figure in FIGURES:
        assert getattr(native, figure) == getattr(python, figure), figure


@pytest.mark.parametrize(
    "specs", [("random", "random"), ("heuristic", "random"), ("pimc:2", "random")]
)
def test_native_matches_are_the_matches_match_play_plays(specs: tuple[str, str]) -> None:
    rules = Rules(target=3)
    batch = simulate(4, seed=21, agents=specs, rules=rules, matches=True)
    for i in range(4):
        game = RunMatch(21, i)
        agents = [make_agent(spec, game.agent_seed(seat)) for seat, spec in enumerate(specs)]
        result = game.start(rules).play(*agents)
        assert result.winner == batch["winner"][i]
        assert result.score == tuple(batch["score"][i])
        assert len(result.outcomes) == batch["deals"][i]


def test_match_i_of_a_run_is_laid_out_once() -> None:
    # The one layout (rust/src/play/run.rs) that every run of matches follows.
    for seed, i in [(21, 0), (21, 1), (7, 10), (2**64 - 1, 2**64 - 1)]:
        game = RunMatch(seed, i)
        assert (game.seed, game.first_dealer) == (derive_seed(seed, i), i % 2)
        assert [game.agent_seed(s) for s in (0, 1, 2)] == [
            agent_seed(game.seed, s) for s in (0, 1, 2)
        ]
        match = game.start(Rules(target=3))
        assert (match.seed, match.first_dealer, match.target) == (game.seed, i % 2, 3)
        assert pickle.loads(pickle.dumps(game)) == game and repr(game) == f"RunMatch({seed}, {i})"


def test_a_wrapped_agent_plays_as_the_native_one() -> None:
    # Called back from the runner with (observation, legal actions), a built-in agent acts
    # exactly as when the runner calls it natively.
    rules = Rules(target=3)

    def wrapped(spec: str, seed: int):  # type: ignore[no-untyped-def]
        agent = make_agent(spec, seed)
        return lambda obs, legal: agent(obs, legal)

    for specs in (("random", "heuristic"), ("pimc:2", "random")):
        seeds = (11, 12)
        direct = Match(seed=5, rules=rules).play(
            *(make_agent(s, n) for s, n in zip(specs, seeds, strict=True))
        )
        called = Match(seed=5, rules=rules).play(
            *(wrapped(s, n) for s, n in zip(specs, seeds, strict=True))
        )
        assert direct == called


def test_random_agent_draws_from_its_stream_and_copies_play_on_alike() -> None:
    match = Match(seed=3)
    agent = RandomAgent(seed=77)
    for _ in range(5):
        player = match.current_player
        assert player is not None
        match.apply(agent(match.observation(player), match.legal_actions()))
    player = match.current_player
    assert player is not None
    obs, legal = match.observation(player), match.legal_actions()
    twins = [copy.deepcopy(agent), pickle.loads(pickle.dumps(agent)), copy.copy(agent)]
    expected = [agent(obs, legal) for _ in range(6)]
    for twin in twins:
        assert type(twin) is RandomAgent and twin.seed == 77
        assert [twin(obs, legal) for _ in range(6)] == expected
    # A fresh agent with the seed replays the whole stream from its start.
    fresh = RandomAgent(seed=77)
    assert fresh.spec == "random" and repr(fresh) == "RandomAgent(seed=77)"


def test_search_decisions_are_seeded_by_the_observation() -> None:
    match = Match(seed=8)
    obs = match.observation(match.current_player or 0)
    agent = PimcAgent(samples=3, seed=4)
    assert decision_seed(4, obs) == decision_seed(4, obs) != decision_seed(5, obs)
    assert agent.values(obs) == PimcAgent(samples=3, seed=4).values(obs)
    legal = match.legal_actions()
    assert agent(obs, legal) == agent(obs, legal)
