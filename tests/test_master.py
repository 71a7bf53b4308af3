"""The master agent: the grammar, determinism, legality, agreement with the expert where it
has nothing more to read, the opponent's follows moving the values, and the native paths
(simulate, the arena)."""

from __future__ import annotations

import pytest
from ecarte import EcarteError, MasterAgent, arena
from ecarte.agents import make_agent
from ecarte.duel import (
    AGENT_SPECS,
    DEFAULT_MASTER_SAMPLES,
    Action,
    Deal,
    expert_values,
    master_values,
    parse_agent,
    simulate,
)
from positions import random_positions


def test_the_grammar_reads_master() -> None:
    assert {"master", "master:N"} <= set(AGENT_SPECS)
    assert parse_agent("master") == ("master", DEFAULT_MASTER_SAMPLES)
    assert parse_agent("master:8") == ("master", 8)
    for bad in ("master:0", "master:", "master:x", "masters", "master:10001"):
        with pytest.raises(EcarteError):
            parse_agent(bad)
    agent = make_agent("master:6", seed=3)
    assert isinstance(agent, MasterAgent) and agent.samples == 6 and agent.seed == 3
    assert agent.spec == "master:6"
    with pytest.raises(EcarteError):
        MasterAgent(samples=0)


def test_legal_and_deterministic_in_random_positions() -> None:
    for deal in random_positions(12, seed=5, max_actions=40):
        player = deal.current_player
        assert player is not None
        obs, legal = deal.observation(player), deal.legal_actions()
        action = MasterAgent(samples=4, seed=9)(obs, legal)
        assert action in legal
        assert MasterAgent(samples=4, seed=9)(obs, legal) == action


def test_the_same_as_the_expert_before_the_opponent_shows_anything() -> None:
    for seed in range(4):
        obs = Deal(seed=seed, dealer=1).observation(0)
        assert master_values(obs, 8, seed) == expert_values(obs, 8, seed)


def test_the_opponents_follows_move_the_values() -> None:
    # Player 0 leads the first trick and player 1 follows: at player 0's next lead the
    # master's worlds are weighted by that follow, the expert's are not.
    differs = checked = 0
    for seed in range(12):
        deal = Deal(seed=seed, dealer=1)
        deal.apply(Action("decline"))
        heuristic = make_agent("heuristic")
        for _ in range(2):
            player = deal.current_player
            assert player is not None
            deal.apply(heuristic(deal.observation(player), deal.legal_actions()))
        if deal.current_player != 0 or deal.is_over():
            continue
        obs = deal.observation(0)
        checked += 1
        differs += master_values(obs, 16, 1) != expert_values(obs, 16, 1)
    assert checked > 0 and differs > 0


def test_native_simulate_with_master() -> None:
    result = simulate(2, 7, agents=("master:4", "heuristic"))
    assert result.n == 2 and set(result["points"]) <= {1, 2}
    assert simulate(2, 7, agents=("master:4", "heuristic")) == result


def test_a_small_arena_against_the_expert() -> None:
    result = arena.play("master:4", "expert:4", matches=1, seed=5, progress=False)
    assert result.agent_a == "master:4" and result.pairs == 1 and result.deals > 0
    again = arena.play("master:4", "expert:4", matches=1, seed=5, progress=False)
    assert again.points_per_deal == result.points_per_deal
