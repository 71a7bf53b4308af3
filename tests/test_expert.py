"""The expert agent: the grammar, determinism, legality, agreement with PIMC where neither
of its changes applies, each change moving the values where it does, and the native batch
path."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from ecarte import EcarteError, ExpertAgent
from ecarte.agents import make_agent
from ecarte.duel import (
    DEFAULT_EXPERT_SAMPLES,
    DEFAULT_PIMC_SAMPLES,
    Action,
    Deal,
    expert_values,
    heuristic_action,
    parse_agent,
    pimc_values,
    simulate,
    solve,
)
from positions import random_positions


def test_the_grammar_reads_expert() -> None:
    assert parse_agent("expert") == ("expert", DEFAULT_EXPERT_SAMPLES)
    assert parse_agent("expert:8") == ("expert", 8)
    for bad in ("expert:0", "expert:", "expert:x", "experts"):
        with pytest.raises(EcarteError):
            parse_agent(bad)
    agent = make_agent("expert:6", seed=3)
    assert isinstance(agent, ExpertAgent) and agent.samples == 6 and agent.seed == 3
    with pytest.raises(EcarteError):
        ExpertAgent(samples=0)


def test_legal_and_deterministic_in_random_positions() -> None:
    for deal in random_positions(12, seed=5, max_actions=40):
        player = deal.current_player
        assert player is not None
        obs, legal = deal.observation(player), deal.legal_actions()
        action = ExpertAgent(samples=4, seed=9)(obs, legal)
        assert action in legal
        assert ExpertAgent(samples=4, seed=9)(obs, legal) == action


def declined_deal(seed: int) -> Deal:
    """A deal whose elder (player 0) declined at once: the dealer has decided nothing."""
    deal = Deal(seed=seed, dealer=1)
    deal.apply(Action("decline"))
    return deal


def test_same_as_pimc_when_only_the_last_pair_is_left() -> None:
    # No opponent decision (no inference), and with at most the turn-up's pair left in the
    # talon the draws by seat are the rules' draws: the expert is PIMC over the same worlds.
    checked = 0
    for seed in range(4):
        deal = declined_deal(seed)
        agent = make_agent("heuristic", seed=seed)
        while not deal.is_over() and (deal.talon_size > 2 or deal.current_player != 0):
            player = deal.current_player
            assert player is not None
            deal.apply(agent(deal.observation(player), deal.legal_actions()))
        if deal.is_over():
            continue
        obs = deal.observation(0)
        assert expert_values(obs, 8, 4) == pimc_values(obs, 8, 4)
        checked += 1
    assert checked > 0


def test_draws_by_seat_move_the_values_while_the_talon_lasts() -> None:
    # The elder's first lead: no inference applies, so only the draws differ from PIMC.
    differs = 0
    for seed in range(6):
        obs = declined_deal(seed).observation(0)
        assert obs.phase == "play"
        differs += expert_values(obs, 8, 4) != pimc_values(obs, 8, 4)
    assert differs > 0


def test_the_opponents_proposal_moves_the_values() -> None:
    # After the elder proposes, the dealer's worlds are resampled towards weak elder hands.
    differs = 0
    for seed in range(6):
        deal = Deal(seed=seed, dealer=0)
        deal.apply(Action("propose"))
        obs = deal.observation(0)
        differs += expert_values(obs, 16, 1) != pimc_values(obs, 16, 1)
    assert differs > 0


def test_native_simulate_with_expert() -> None:
    result = simulate(2, 7, agents=("expert:4", "heuristic"))
    assert result.n == 2 and set(result["points"]) <= {1, 2}
    assert simulate(2, 7, agents=("expert:4", "heuristic")) == result


def test_the_default_solves_as_many_worlds_as_pimc() -> None:
    # The expert's gain comes from how it solves and weights worlds, not from more worlds:
    # the same count keeps its cost near PIMC(24)'s (docs/agents.md).
    assert DEFAULT_EXPERT_SAMPLES == DEFAULT_PIMC_SAMPLES
    assert make_agent("expert").samples == DEFAULT_EXPERT_SAMPLES


def load_ladder() -> ModuleType:
    path = Path(__file__).parent.parent / "benches" / "strength_ladder.py"
    spec = importlib.util.spec_from_file_location("strength_ladder", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_ceiling_plays_exact_double_dummy_moves() -> None:
    # The ladder's cheating ceiling (benchmark only): in the play phase its move is one of
    # the solver's best; in the exchange it takes the option of best value in the true world.
    ladder = load_ladder()
    checked = {"play": 0, "exchange": 0}
    # Deep positions for the play, short ones for the exchange.
    positions = random_positions(16, seed=8, max_actions=40)
    for deal in positions + random_positions(8, seed=9, max_actions=6):
        player = deal.current_player
        assert player is not None
        obs, legal = deal.observation(player), deal.legal_actions()
        choice = ladder.ceiling(deal, obs, legal)
        assert choice in legal
        # Only positions where some legal option is worse than the best are counted.
        if deal.phase == "play":
            best = solve(deal).best_actions
            assert choice in best
            checked["play"] += len(best) < len(legal)
        elif len(legal) > 1:
            values = {a: ladder.ceiling_value(deal, a, player) for a in legal}
            assert values[choice] == max(values.values())
            checked["exchange"] += len(set(values.values())) > 1
    assert checked["play"] > 0 and checked["exchange"] > 0


def play_until(deal: Deal, stop: Callable[[Deal], bool]) -> Deal:
    """``deal`` played on by the heuristic until ``stop`` holds (or it is over)."""
    while not deal.is_over() and not stop(deal):
        player = deal.current_player
        assert player is not None
        deal.apply(heuristic_action(deal.observation(player), deal.legal_actions()))
    return deal


def deals_until(first_seed: int, count: int, stop: Callable[[Deal], bool]) -> list[Deal]:
    """Deals ``first_seed`` onwards (the dealer alternating), each played on by the
    heuristic until ``stop`` holds (or it is over)."""
    return [play_until(Deal(seed=first_seed + i, dealer=i % 2), stop) for i in range(count)]


def test_each_partial_ceiling_cheats_only_in_its_part(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `ceiling:PART` (benchmark only) asks the ceiling in its part of the deal, and the
    # master elsewhere and wherever there is one legal action.
    ladder = load_ladder()
    asked: list[str] = []
    monkeypatch.setattr(ladder, "ceiling", lambda deal, obs, legal: asked.append("all"))
    monkeypatch.setattr(ladder, "hand_ceiling", lambda deal, rng: asked.append("hand"))
    parts = {
        "exchange": lambda d: len(d.legal_actions()) > 1,
        "talon": lambda d: d.phase == "play" and d.talon_size > 0 and len(d.legal_actions()) > 1,
        "end": lambda d: d.talon_size == 0 and len(d.legal_actions()) > 1,
        "forced": lambda d: d.phase == "play" and len(d.legal_actions()) == 1,
    }
    for where, stop in parts.items():
        deal = play_until(Deal(seed=41, dealer=0), stop)
        player = deal.current_player
        assert player is not None and not deal.is_over() and stop(deal)
        obs, legal = deal.observation(player), deal.legal_actions()
        for part in ladder.CEILING_PARTS:
            asked.clear()
            ladder.chooser(f"ceiling:{part}", 1)(deal, obs, legal)
            cheated = part == where or (part == "hand" and where == "talon")
            assert asked == ([("hand" if part == "hand" else "all")] if cheated else []), (
                where,
                part,
            )
    with pytest.raises(SystemExit, match="the parts are"):
        ladder.chooser("ceiling:trumps", 1)


def test_the_hand_ceilings_worlds_shuffle_only_the_undrawn_talon() -> None:
    # `ceiling:hand`'s worlds keep everything but the order of the talon cards not yet
    # drawn: the same hands, discards, history and turn-up (drawn last), the same talon
    # cards, in orders that differ.
    ladder = load_ladder()
    rng = random.Random(5)
    exchanged = 0
    for deal in deals_until(500, 8, lambda d: d.phase == "play" and 4 <= d.talon_size <= 12):
        exchanged += deal.exchanges > 0
        assert not deal.is_over() and deal.talon_size >= 4
        worlds = ladder.hand_worlds(deal, rng)
        assert len(worlds) == ladder.HAND_WORLDS
        for world in worlds:
            for seat in (0, 1):
                assert world.hand(seat) == deal.hand(seat)
                assert world.discards(seat) == deal.discards(seat)
            assert world.history == deal.history and world.turn_up == deal.turn_up
            assert world.talon[-1] == deal.turn_up
            assert sorted(c.id for c in world.talon) == sorted(c.id for c in deal.talon)
        assert len({tuple(c.id for c in w.talon) for w in worlds}) > 1
    assert exchanged > 0


def test_the_hand_ceiling_with_the_talon_known_plays_a_best_move() -> None:
    # With one hidden talon card left (and the turn-up, drawn last), every world of
    # `ceiling:hand` is the true deal: its move is a best double-dummy move.
    ladder = load_ladder()
    rng = random.Random(3)
    counted = 0
    for deal in deals_until(300, 12, lambda d: d.phase == "play" and d.talon_size == 2):
        if deal.is_over() or deal.talon_size != 2:
            continue
        best = solve(deal).best_actions
        assert ladder.hand_ceiling(deal, rng) in best
        counted += len(best) < len(deal.legal_actions())
    assert counted > 0
