"""The duplicate arena and its command."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from ecarte.agents import HeuristicAgent, RandomAgent
from ecarte.arena import build_agent, play
from ecarte.cli import main
from ecarte.pimc import PimcAgent


def test_duplicate_pairs_swap_seats_and_report_intervals() -> None:
    result = play("heuristic", "random", matches=6, seed=3)
    assert result.pairs == 6 and result.deals > 12
    for est in (result.match_win_rate, result.deal_win_rate):
        assert 0.0 <= est.mean <= 1.0 and est.low <= est.mean <= est.high
    assert result.points_per_deal.low <= result.points_per_deal.mean
    # The same agent on both sides of a duplicate pair wins exactly half of the matches.
    mirror = play("random", "random", matches=3, seed=3)
    assert 0.0 <= mirror.match_win_rate.mean <= 1.0
    same = play("heuristic", "heuristic", matches=3, seed=3)
    assert same.match_win_rate.mean == 0.5 and same.deal_win_rate.mean == 0.5
    assert same.points_per_deal.mean == 0.0


def test_results_do_not_depend_on_workers() -> None:
    one = play("heuristic", "random", matches=3, seed=8, workers=1, native=False)
    two = play("heuristic", "random", matches=3, seed=8, workers=2, native=False)
    assert one.match_win_rate == two.match_win_rate
    assert one.deal_win_rate == two.deal_win_rate


def test_factories_and_names() -> None:
    assert isinstance(build_agent("pimc:5", 1), PimcAgent)
    assert build_agent("pimc:5", 1).samples == 5  # type: ignore[attr-defined]
    assert isinstance(build_agent(HeuristicAgent, 1), HeuristicAgent)
    result = play(RandomAgent, "random", matches=2, seed=1)
    assert result.agent_a == "RandomAgent"


def test_cli_arena_prints_a_table() -> None:
    out = CliRunner().invoke(main, ["arena", "heuristic", "random", "--matches", "2"])
    assert out.exit_code == 0, out.output
    assert "deal win rate of heuristic" in out.output


def test_native_fast_path_agrees_with_the_python_path() -> None:
    # The heuristic is deterministic, so both paths play the very same matches.
    fast = play("heuristic", "heuristic", matches=4, seed=2)
    slow = play("heuristic", "heuristic", matches=4, seed=2, native=False)
    assert fast.native and not slow.native
    assert fast.deals == slow.deals
    assert (fast.match_win_rate, fast.deal_win_rate) == (slow.match_win_rate, slow.deal_win_rate)
    strong = play("pimc:4", "random", matches=4, seed=1)
    assert strong.native and strong.match_win_rate.mean > 0.5
    assert "n/a (native simulation)" in strong.table()


def test_a_clean_sweep_still_has_an_honest_interval() -> None:
    from ecarte.arena import _match_rate_ci

    sweep = _match_rate_ci([2] * 40)
    assert sweep.mean == 1.0 and sweep.high == pytest.approx(1.0) and 0.9 < sweep.low < 0.99
    mixed = _match_rate_ci([2, 1, 0, 2])
    assert mixed.low < mixed.mean < mixed.high


def test_growing_chunks_cover_every_item_once_in_doubling_pieces() -> None:
    from ecarte import EcarteError
    from ecarte.distributed import growing_chunks

    pieces = growing_chunks(100, 3, 12)
    assert [p.n for p in pieces] == [3, 6, 12, 12, 12, 12, 12, 12, 12, 7]
    assert [p.start for p in pieces] == [sum(q.n for q in pieces[:k]) for k in range(10)]
    assert [p.index for p in pieces] == list(range(10))
    assert [p.n for p in growing_chunks(5, 8, 8)] == [5]
    assert growing_chunks(0, 1, 4) == []
    with pytest.raises(EcarteError):
        growing_chunks(10, 4, 2)
