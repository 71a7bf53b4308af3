"""The two-player écarté (``duel``).

Everything here is native (``ecarte._core.duel``, the same names): the deal (:class:`Deal`),
its actions, observations and records, the match (:class:`Match`), the solver, the world
sampler and batch play. This module adds :func:`simulate`'s result with its summary.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ecarte._core.duel import (
    AGENT_SPECS,
    DEFAULT_EXPERT_SAMPLES,
    DEFAULT_PIMC_SAMPLES,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    Action,
    Deal,
    Match,
    MatchResult,
    Observation,
    Outcome,
    Rules,
    Solution,
    Trick,
    VecEnv,
    action_values,
    expert_values,
    heuristic_action,
    parse_agent,
    pimc_values,
    sample_worlds,
    solve,
    solve_many,
)
from ecarte._core.duel import simulate as _simulate
from ecarte.results import SimulationResult
from ecarte.seeding import resolve_seed
from ecarte.stats import wilson_interval

__all__ = [
    "AGENT_SPECS",
    "DEFAULT_EXPERT_SAMPLES",
    "DEFAULT_PIMC_SAMPLES",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "Action",
    "Deal",
    "Match",
    "MatchResult",
    "Observation",
    "Outcome",
    "Rules",
    "SimulationResult",
    "Solution",
    "Trick",
    "VecEnv",
    "action_values",
    "expert_values",
    "heuristic_action",
    "is_native_agent",
    "parse_agent",
    "pimc_values",
    "sample_worlds",
    "simulate",
    "solve",
    "solve_many",
]


def is_native_agent(spec: object) -> bool:
    """Whether ``spec`` names a built-in agent (see :data:`AGENT_SPECS`)."""
    if not isinstance(spec, str):
        return False
    try:
        parse_agent(spec)
    except ValueError:
        return False
    return True


def simulate(
    n: int,
    seed: int | None = None,
    agents: tuple[str, str] = ("random", "random"),
    rules: Rules | None = None,
    matches: bool = False,
    start: int = 0,
    threads: int | None = None,
) -> SimulationResult:
    """Plays ``n`` whole deals (or, with ``matches=True``, whole matches) natively between
    two built-in agents named by spec (:data:`AGENT_SPECS`: ``"random"``, ``"heuristic"``,
    ``"pimc"``, ``"pimc:N"``, ``"expert"``, ``"expert:N"``), in parallel with the GIL
    released. Each agent sees only its own player's information.

    Deal ``i`` is deal ``i`` of a :class:`Match` with seed ``seed`` and first dealer 0:
    shuffled with ``derive_seed(seed, i)`` and dealt by seat ``i % 2``. Match ``i`` is the
    :class:`Match` with seed ``derive_seed(seed, i)`` and first dealer ``i % 2``. The
    result is identical whatever ``threads`` is (``None``: all cores, at most
    ``MAX_THREADS``). ``start`` offsets the indices, so a long run can be split into
    pieces with the same result; ``n`` is at most ``MAX_BATCH`` per call. ``seed=None``
    draws a fresh seed, kept in the result.

    Columns for deals: ``dealer``, ``winner``, ``points``, ``exchanges`` of shape ``(n,)``
    and ``cards``, ``tricks`` of shape ``(n, 2)``; for matches: ``winner``, ``deals`` of
    shape ``(n,)`` and ``score``, ``deals_won`` of shape ``(n, 2)``. The summary gives
    seat 0's win rate with its 95% Wilson interval, and for deals the mean points per deal
    of seat 0.
    """
    seed = resolve_seed(seed)
    raw = _simulate(n, seed, agents, rules, matches, start, threads)
    columns = {name: np.asarray(values) for name, values in raw}
    return SimulationResult(n=n, seed=seed, columns=columns, summary=_summary(columns))


def _summary(columns: dict[str, npt.NDArray[Any]]) -> dict[str, Any]:
    winner = columns["winner"]
    n = int(winner.shape[0])
    wins = int(n - np.count_nonzero(winner))
    summary: dict[str, Any] = {
        "seat0_win_rate": wins / n if n else 0.0,
        "seat0_win_interval": wilson_interval(wins, n),
    }
    if "points" in columns:
        signed = np.where(winner == 0, columns["points"], -columns["points"].astype(np.int64))
        summary["seat0_points_per_deal"] = float(signed.mean()) if n else 0.0
    return summary
