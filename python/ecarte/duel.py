"""The two-player écarté (``duel``).

Everything here is native (``ecarte._core.duel``, the same names): the deal (:class:`Deal`),
its actions, observations and records, the match (:class:`Match`), the solver, the world
sampler, batch play and the analysis of deals played (:func:`analyse`, typed in
:mod:`ecarte.analysis`). This module adds :func:`simulate`'s result with its summary.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ecarte._core.duel import (
    AGENT_SPECS,
    AGENTS,
    COMPACT_OBSERVATION_SIZE,
    DECISION_KINDS,
    DEFAULT_EXPERT_SAMPLES,
    DEFAULT_GRANDMASTER_SAMPLES,
    DEFAULT_LEVEL,
    DEFAULT_MASTER_SAMPLES,
    DEFAULT_PIMC_SAMPLES,
    LEVELS,
    NODE_COUNT_VERSION,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    REASON_CODES,
    Action,
    AgentInfo,
    BoundTest,
    BuiltinAgent,
    Deal,
    Frame,
    GaveUp,
    Match,
    MatchResult,
    Observation,
    OpponentVecEnv,
    Outcome,
    Reason,
    Rules,
    RunMatch,
    Solution,
    Trick,
    VecEnv,
    action_values,
    agent_seed,
    decision_seed,
    expert_values,
    heuristic_action,
    inference_spread,
    master_values,
    parse_agent,
    pimc_values,
    prepare_solver,
    sample_worlds,
    solve,
)
from ecarte._core.duel import decode_compact_rows as _decode_compact_rows
from ecarte._core.duel import self_play_decisions as _self_play_decisions
from ecarte._core.duel import simulate as _simulate
from ecarte._core.duel import solve_many as _solve_many
from ecarte._core.duel import solve_many_timed as _solve_many_timed
from ecarte._public import api_dir
from ecarte.analysis import Analysis, DealAnalysis, Decision, SeatSummary, analyse
from ecarte.distributed import Backend, Work, run
from ecarte.errors import EcarteError
from ecarte.results import SimulationResult
from ecarte.seeding import resolve_seed
from ecarte.stats import wilson_interval

__all__ = [
    "AGENTS",
    "AGENT_SPECS",
    "COMPACT_OBSERVATION_SIZE",
    "DECISION_KINDS",
    "DEFAULT_EXPERT_SAMPLES",
    "DEFAULT_GRANDMASTER_SAMPLES",
    "DEFAULT_LEVEL",
    "DEFAULT_MASTER_SAMPLES",
    "DEFAULT_PIMC_SAMPLES",
    "LEVELS",
    "NODE_COUNT_VERSION",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "REASON_CODES",
    "Action",
    "AgentInfo",
    "Analysis",
    "BoundTest",
    "BuiltinAgent",
    "Deal",
    "DealAnalysis",
    "Decision",
    "Frame",
    "GaveUp",
    "Match",
    "MatchResult",
    "Observation",
    "OpponentVecEnv",
    "Outcome",
    "Reason",
    "Rules",
    "RunMatch",
    "SeatSummary",
    "SimulationResult",
    "Solution",
    "Trick",
    "VecEnv",
    "action_values",
    "agent_seed",
    "analyse",
    "decision_seed",
    "decode_observations",
    "expert_values",
    "heuristic_action",
    "inference_spread",
    "is_native_agent",
    "master_values",
    "parse_agent",
    "pimc_values",
    "prepare_solver",
    "sample_worlds",
    "self_play_decisions",
    "simulate",
    "solve",
    "solve_many",
    "solve_many_timed",
]
__dir__ = api_dir(globals())


def decode_observations(compact: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """The float32 observation tensors of compact observations: one row of
    ``COMPACT_OBSERVATION_SIZE`` bytes (as ``VecEnv(..., observation="compact")`` writes) or
    a batch of them, to the same shape with ``OBSERVATION_SIZE`` entries per row. The
    engine's own expansion does the work, so the result is exactly what the float32 layout
    holds. Both layouts are in docs/api.md, for learners that unpack on the GPU.

    Raises :class:`EcarteError` for input that is not ``uint8`` rows of the compact size,
    or whose scalar bytes are out of range."""
    try:
        rows = np.asarray(compact)
    except ValueError as error:  # a ragged nesting of lists
        raise EcarteError(f"compact observations must be a uint8 array: {error}") from None
    if rows.dtype != np.uint8 or rows.ndim == 0 or rows.shape[-1] != COMPACT_OBSERVATION_SIZE:
        raise EcarteError(
            f"compact observations must be uint8 rows of {COMPACT_OBSERVATION_SIZE} bytes, "
            f"got dtype {rows.dtype} and shape {rows.shape}"
        )
    flat = np.ascontiguousarray(rows.reshape(-1, COMPACT_OBSERVATION_SIZE))
    return _decode_compact_rows(flat).reshape((*rows.shape[:-1], OBSERVATION_SIZE))


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
    backend: Backend = "local",
    progress: bool | None = False,
    *,
    on_progress: Callable[[int], object] | None = None,
) -> SimulationResult:
    """Plays ``n`` whole deals (or, with ``matches=True``, whole matches) natively between
    two built-in agents named by spec (any agent of :data:`AGENTS`: ``"random"``,
    ``"heuristic"``, ``"pimc:8"``, ...; the forms are :data:`AGENT_SPECS`), in parallel
    with the GIL released. Each agent sees only its own player's information.

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

    ``backend="ray"`` (or a :class:`ecarte.distributed.RayBackend`) plays the run in chunks
    of indices on a Ray cluster, with the same result (docs/scale.md); ``n`` may then
    exceed ``MAX_BATCH``, each task runs ``RayBackend.cpus_per_task`` threads (``threads``
    is not used), and ``progress`` shows a bar that advances as chunks complete.

    A local run calls ``on_progress(deals)`` with the deals played so far (in matches too) a
    few times a second while it works, from the calling thread. Ctrl-C stops it within
    milliseconds (``KeyboardInterrupt``).
    """
    seed = resolve_seed(seed)
    work = Work(
        simulate_chunk,
        n,
        (start, seed, agents, rules, matches),
        item_seconds=functools.partial(simulate_item_seconds, agents, matches),
        local_options={"threads": threads, "on_progress": on_progress},
        label="Matches" if matches else "Deals",
        seed=seed,
    )
    parts = run(work, backend, progress)
    columns = parts[0] if len(parts) == 1 else _joined(parts)
    return SimulationResult(n=n, seed=seed, columns=columns, summary=summarize(columns))


def simulate_chunk(
    start: int,
    n: int,
    offset: int,
    seed: int,
    agents: tuple[str, str],
    rules: Rules | None,
    matches: bool,
    *,
    threads: int | None = None,
    on_progress: Callable[[int], object] | None = None,
) -> dict[str, npt.NDArray[Any]]:
    """Deals (or matches) ``offset + start`` onwards, ``n`` of them, as columns: the unit of
    work."""
    # A local run's one chunk hands the native checks the caller's start as given.
    first = offset + start if start else offset
    raw = _simulate(n, seed, agents, rules, matches, first, threads, on_progress)
    return {name: np.asarray(values) for name, values in raw}


def self_play_decisions(
    matches: int,
    seed: int,
    agents: Sequence[tuple[str, str]] = (("master", "master"),),
    rules: Rules | None = None,
    start: int = 0,
    threads: int | None = None,
    *,
    on_progress: Callable[[int], object] | None = None,
) -> dict[str, npt.NDArray[Any]]:
    """The decisions with a choice (two legal actions or more) of ``matches`` self-play
    matches between built-in agents, natively and in parallel: data to learn a model of
    play from (``examples/train_inference.py`` trains the grandmaster's on them).

    Match ``start + i`` of the run with seed ``seed`` (as in :func:`simulate`) is played by
    ``agents[(start + i) % len(agents)]``, a pair of specs for seat 0 and seat 1; a call
    plays at most 5,000 matches (about 1.5 GB of arrays), so a larger run is several calls
    with ``start``. Columns, one row per decision in match order and then in the order they were
    made: ``observation`` (float32, ``(rows, OBSERVATION_SIZE)``, the tensor of the seat to
    move, match score included), ``mask`` (bool, ``(rows, NUM_ACTIONS)``, its legal
    actions), ``action`` (int64, the id taken), ``match`` (the match's index in the run),
    ``seat``, ``kind`` (what it decides, an index into :data:`DECISION_KINDS`: exchange,
    discard, lead, follow), and the master's hand-written model of the decision as a baseline:
    ``master_log_probability`` (of the action taken) and ``master_choice`` (the id it finds
    likeliest, -1 where it reads nothing: discards and leads, uniform to it). The same
    whatever ``threads`` is. ``on_progress(matches)`` is told the matches played so far;
    Ctrl-C stops it (``KeyboardInterrupt``).
    """
    raw = _self_play_decisions(matches, seed, agents, rules, start, threads, on_progress)
    return {name: np.asarray(values) for name, values in raw}


def _joined(parts: Sequence[dict[str, npt.NDArray[Any]]]) -> dict[str, npt.NDArray[Any]]:
    """The chunks' columns end to end, in chunk order."""
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


#: Deals per match at the default target (measured mean, heuristic v heuristic).
DEALS_PER_MATCH: Final = 11.0


def simulate_item_seconds(agents: tuple[str, str], matches: bool) -> float:
    """The estimated single-thread seconds of one deal (or match) between ``agents``, from
    each agent's cost in the registry (``AgentInfo.deal_seconds``, times its worlds if it
    searches)."""
    total = 0.0
    for spec in agents:
        _, worlds = parse_agent(spec)
        total += AgentInfo.of(spec).deal_seconds * (worlds or 1)
    return total * (DEALS_PER_MATCH if matches else 1.0)


#: Measured single-thread CPU seconds to solve one position from the first lead.
SOLVE_SECONDS: Final = 0.34e-3


def solve_many(
    deals: Sequence[Deal],
    objective: str | None = None,
    threads: int | None = None,
    backend: Backend = "local",
    progress: bool | None = False,
    *,
    on_progress: Callable[[int], object] | None = None,
) -> list[Solution]:
    """Solves many play-phase positions in parallel (rayon on ``threads`` threads, ``None``:
    all cores; the GIL released); the results in input order. ``backend="ray"`` solves them
    in chunks on a Ray cluster (each task is shipped only its chunk's deals and runs
    ``RayBackend.cpus_per_task`` threads), with the same result, and ``progress`` shows a
    bar that advances as chunks complete. A local run calls ``on_progress(solved)`` with
    the positions solved so far a few times a second while it works, from the calling
    thread; Ctrl-C stops it within milliseconds (``KeyboardInterrupt``)."""
    return _solve_batch(False, deals, objective, threads, backend, progress, on_progress)


def solve_many_timed(
    deals: Sequence[Deal],
    objective: str | None = None,
    threads: int | None = None,
    backend: Backend = "local",
    progress: bool | None = False,
    *,
    on_progress: Callable[[int], object] | None = None,
) -> list[tuple[Solution, float]]:
    """:func:`solve_many` (the same arguments), each solution with its solve time in
    seconds, measured where it ran."""
    return _solve_batch(True, deals, objective, threads, backend, progress, on_progress)


def _solve_batch(
    timed: bool,
    deals: Sequence[Deal],
    objective: str | None,
    threads: int | None,
    backend: Backend,
    progress: bool | None,
    on_progress: Callable[[int], object] | None,
) -> list[Any]:
    """Both solve_many functions: one native call here, or chunks on Ray after the native
    call on no positions has checked the arguments in this process."""
    # A local run hands the native code the deals as given; a Ray run counts them.
    work = Work(
        _solve_chunk,
        0,
        (objective, timed),
        item_seconds=SOLVE_SECONDS,
        local_options={"threads": threads, "on_progress": on_progress},
        items=deals,
        label="Positions",
    )
    return [solution for part in run(work, backend, progress) for solution in part]


def _solve_chunk(
    start: int,
    n: int,
    objective: str | None,
    timed: bool,
    *,
    items: Sequence[Deal],
    threads: int | None = None,
    on_progress: Callable[[int], object] | None = None,
) -> list[Any]:
    """Positions ``start .. start + n - 1``, which are ``items``, solved: the unit of work."""
    return (_solve_many_timed if timed else _solve_many)(items, objective, threads, on_progress)


def summarize(columns: Mapping[str, npt.NDArray[Any]]) -> dict[str, Any]:
    """The summary of a duel run's columns: seat 0's win rate with its 95% interval, and
    for deals its mean points per deal."""
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
