"""Duplicate matches between two agents, with confidence intervals.

Every seed is played twice: once with agent A in seat 0, once with A in seat 1, over the
same deals (same seeds, same first dealer), so each agent gets the other's cards and the
luck of the deal cancels. Statistics treat each pair of matches as one sample, which
accounts for the correlation the duplicate format creates.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ecarte._core import derive_seed
from ecarte.agents import Agent, make_agent
from ecarte.distributed import Backend, dispatch, ray_backend
from ecarte.duel import (
    Action,
    Match,
    Observation,
    Rules,
    is_native_agent,
    simulate,
    simulate_item_seconds,
)
from ecarte.errors import EcarteError
from ecarte.progress import progress_bar
from ecarte.seeding import agent_seed, resolve_seed
from ecarte.stats import RATE_BOUNDS, mean_interval, ratio_interval, wilson_interval

__all__ = ["AgentSpec", "ArenaResult", "Estimate", "build_agent", "play"]

#: An agent name (``"pimc"``, ``"pimc:16"`` for 16 samples, ``"heuristic"``, ``"random"``)
#: or a picklable factory taking a seed.
AgentSpec = str | Callable[[int], Agent]


def build_agent(spec: AgentSpec, seed: int) -> Agent:
    """The agent of `spec` (an agent spec, see ``ecarte.duel.AGENT_SPECS``, or a factory)
    with `seed`."""
    return make_agent(spec, seed) if isinstance(spec, str) else spec(seed)


def spec_name(spec: AgentSpec) -> str:
    return spec if isinstance(spec, str) else getattr(spec, "__name__", repr(spec))


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% confidence interval."""

    mean: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}]"


@dataclass(frozen=True)
class PairResult:
    """One seed played twice, from agent A's side."""

    matches_won: int
    deals: int
    deals_won: int
    net_points: int
    decisions: tuple[int, int]
    seconds: tuple[float, float]


@dataclass(frozen=True)
class ArenaResult:
    agent_a: str
    agent_b: str
    pairs: int
    deals: int
    #: Share of matches won by A (two per seed).
    match_win_rate: Estimate
    #: Share of deals won by A.
    deal_win_rate: Estimate
    #: A's points won less points lost, per deal.
    points_per_deal: Estimate
    #: Mean seconds per decision of A and of B.
    decision_seconds: tuple[float, float]
    seconds: float
    #: Played by native simulation (no per-decision timing).
    native: bool = False
    #: The run's seed: the same seed plays the same matches on either path.
    seed: int | None = None

    def table(self) -> str:
        rows = [
            ("agents", f"{self.agent_a} v {self.agent_b}"),
            ("matches", f"{2 * self.pairs} ({self.pairs} seeds, seats swapped)"),
            ("deals", str(self.deals)),
            (f"match win rate of {self.agent_a}", str(self.match_win_rate)),
            (f"deal win rate of {self.agent_a}", str(self.deal_win_rate)),
            (f"net points per deal of {self.agent_a}", str(self.points_per_deal)),
            (
                "seconds per decision",
                "n/a (native simulation)"
                if self.native
                else f"{self.agent_a} {self.decision_seconds[0]:.4f}, "
                f"{self.agent_b} {self.decision_seconds[1]:.4f}",
            ),
            ("wall time", f"{self.seconds:.1f} s"),
        ]
        width = max(len(k) for k, _ in rows)
        return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


class _Timed:
    """Counts an agent's decisions and the time they take."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.decisions = 0
        self.seconds = 0.0

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.agent(observation, legal_actions)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def play_pair(
    agent_a: AgentSpec, agent_b: AgentSpec, seed: int, index: int, rules: Rules
) -> PairResult:
    """Seed `index` under `seed`, played with A in seat 0 and then in seat 1."""
    match_seed = derive_seed(seed, index)
    won = deals = deals_won = net = 0
    decisions = [0, 0]
    seconds = [0.0, 0.0]
    for a_seat in (0, 1):
        # A seat's seed goes with the seat, as its cards do: in the rematch each agent
        # draws what the other drew in that seat (docs/api.md, "Seeds"), as natively.
        specs = (agent_a, agent_b) if a_seat == 0 else (agent_b, agent_a)
        first, second = (
            _Timed(build_agent(spec, agent_seed(match_seed, s))) for s, spec in enumerate(specs)
        )
        a, b = (first, second) if a_seat == 0 else (second, first)
        seats = (first, second)
        # The first dealer alternates by seed, as in `duel.simulate`'s matches.
        result = Match(seed=match_seed, first_dealer=index % 2, rules=rules).play(*seats)
        won += result.winner == a_seat
        for outcome in result.outcomes:
            deals += 1
            if outcome.winner == a_seat:
                deals_won += 1
                net += outcome.points
            else:
                net -= outcome.points
        for i, t in enumerate((a, b)):
            decisions[i] += t.decisions
            seconds[i] += t.seconds
    return PairResult(
        won, deals, deals_won, net, (decisions[0], decisions[1]), (seconds[0], seconds[1])
    )


def _mean_ci(values: Sequence[float], bounds: tuple[float, float] | None = None) -> Estimate:
    return Estimate(*mean_interval(values, bounds=bounds))


def _match_rate_ci(won_per_pair: Sequence[int]) -> Estimate:
    """The share of matches won, with an interval over the duplicate pairs; when every
    pair came out the same (a zero-width interval), the Wilson interval of the matches
    instead, which stays honest about the sample size."""
    estimate = _mean_ci([w / 2 for w in won_per_pair], RATE_BOUNDS)
    if estimate.low < estimate.high:
        return estimate
    low, high = wilson_interval(sum(won_per_pair), 2 * len(won_per_pair))
    return Estimate(estimate.mean, low, high)


def _ratio_ci(
    num: Sequence[float], den: Sequence[float], bounds: tuple[float, float] | None = None
) -> Estimate:
    return Estimate(*ratio_interval(num, den, bounds=bounds))


def summarize(
    agent_a: AgentSpec,
    agent_b: AgentSpec,
    pairs: list[PairResult],
    seconds: float,
    seed: int | None = None,
) -> ArenaResult:
    decisions = [sum(p.decisions[i] for p in pairs) for i in (0, 1)]
    spent = [sum(p.seconds[i] for p in pairs) for i in (0, 1)]
    return ArenaResult(
        agent_a=spec_name(agent_a),
        agent_b=spec_name(agent_b),
        pairs=len(pairs),
        deals=sum(p.deals for p in pairs),
        match_win_rate=_match_rate_ci([p.matches_won for p in pairs]),
        deal_win_rate=_ratio_ci(
            [p.deals_won for p in pairs], [p.deals for p in pairs], RATE_BOUNDS
        ),
        # A deal is worth 1 or 2 points (a vole), so net points per deal lie in [-2, 2].
        points_per_deal=_ratio_ci(
            [p.net_points for p in pairs], [p.deals for p in pairs], (-2.0, 2.0)
        ),
        decision_seconds=(
            spent[0] / max(decisions[0], 1),
            spent[1] / max(decisions[1], 1),
        ),
        seconds=seconds,
        seed=seed,
    )


#: Seeds per chunk of a local native arena (for the progress bar).
LOCAL_NATIVE_CHUNK = 16


def _play_native(
    agent_a: str,
    agent_b: str,
    matches: int,
    seed: int,
    rules: Rules,
    show: bool,
    backend: Backend = "local",
) -> ArenaResult:
    """The duplicate matches through native simulation: match `i` is played once with A
    in seat 0 and once with A in seat 1, over the same deals."""
    start = time.perf_counter()
    parts = dispatch(
        backend,
        _native_chunk,
        matches,
        lambda: 2 * simulate_item_seconds((agent_a, agent_b), True),
        (agent_a, agent_b, seed, rules),
        local_chunk=LOCAL_NATIVE_CHUNK,
        label="Seeds",
        progress=show,
        seed=seed,
    )
    a_first, a_second = (
        {k: np.concatenate([p[a_seat][k] for p in parts]) for k in parts[0][a_seat]}
        for a_seat in (0, 1)
    )
    pairs = []
    for i in range(matches):
        won = deals = deals_won = net = 0
        for a_seat, run in ((0, a_first), (1, a_second)):
            won += int(run["winner"][i] == a_seat)
            deals += int(run["deals"][i])
            deals_won += int(run["deals_won"][i, a_seat])
            net += int(run["score"][i, a_seat]) - int(run["score"][i, 1 - a_seat])
        pairs.append(PairResult(won, deals, deals_won, net, (0, 0), (0.0, 0.0)))
    result = summarize(agent_a, agent_b, pairs, time.perf_counter() - start, seed)
    return dataclasses.replace(result, native=True)


def _native_chunk(
    start: int, n: int, agent_a: str, agent_b: str, seed: int, rules: Rules
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Seeds ``start .. start + n - 1`` natively, with A in seat 0 and then in seat 1."""
    first, second = (
        dict(simulate(n, seed, seats, rules, matches=True, start=start).columns)
        for seats in ((agent_a, agent_b), (agent_b, agent_a))
    )
    return first, second


def _pairs_chunk(
    start: int, n: int, agent_a: AgentSpec, agent_b: AgentSpec, seed: int, rules: Rules
) -> list[PairResult]:
    """Seeds ``start .. start + n - 1``, each played twice (:func:`play_pair`)."""
    return [play_pair(agent_a, agent_b, seed, i, rules) for i in range(start, start + n)]


#: Assumed seconds of one seed (two matches) between Python agents, for chunk sizing.
PYTHON_PAIR_SECONDS = 0.05


def _single_thread_worker() -> None:
    # Each worker process is one of `workers` cores: keep the solver's pool to one thread.
    os.environ.setdefault("RAYON_NUM_THREADS", "1")


def play(
    agent_a: AgentSpec,
    agent_b: AgentSpec,
    matches: int = 100,
    seed: int | None = None,
    workers: int = 1,
    rules: Rules | None = None,
    progress: bool | None = None,
    native: bool = True,
    backend: Backend = "local",
) -> ArenaResult:
    """Plays `matches` seeds twice each (seats and cards swapped) and reports agent A's
    match win rate, deal win rate and net points per deal with 95% intervals.

    `workers` > 1 plays seeds in that many processes; agents are built in the workers
    from their names or factories. When both agents are built-in names and `native` is
    true, the matches are played by `duel.simulate` in Rust instead (all cores, the same
    matches and the same figures; no per-decision timing). The progress bar shows on
    stderr when it is a
    terminal (or when `progress` is True).

    `backend="ray"` (or a ``RayBackend``) plays the seeds in chunks on a Ray cluster
    instead of `workers` processes; agents (names, or picklable factories) are shipped to
    the tasks and built there. The rates and intervals are identical to a local run; an
    exception in an agent raises an ``EcarteError`` naming the chunk and the seed.
    """
    if matches < 1:
        raise EcarteError(f"matches must be at least 1, got {matches}")
    seed = resolve_seed(seed)
    rules = rules or Rules()
    show = sys.stderr.isatty() if progress is None else progress
    ray = ray_backend(backend)
    if native and isinstance(agent_a, str) and isinstance(agent_b, str):
        if is_native_agent(agent_a) and is_native_agent(agent_b):
            return _play_native(agent_a, agent_b, matches, seed, rules, show, backend)
    start = time.perf_counter()
    if workers > 1 and ray is None:
        results = _play_in_processes(agent_a, agent_b, matches, seed, rules, show, workers)
    else:
        parts = dispatch(
            backend,
            _pairs_chunk,
            matches,
            PYTHON_PAIR_SECONDS,
            (agent_a, agent_b, seed, rules),
            local_chunk=1,
            label="Seeds",
            progress=show,
            seed=seed,
        )
        results = [pair for part in parts for pair in part]
    return summarize(agent_a, agent_b, results, time.perf_counter() - start, seed)


def _play_in_processes(
    agent_a: AgentSpec,
    agent_b: AgentSpec,
    matches: int,
    seed: int,
    rules: Rules,
    show: bool,
    workers: int,
) -> list[PairResult]:
    """Every seed (:func:`play_pair`) in a pool of `workers` processes, in the order they
    finish."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    results: list[PairResult] = []
    with progress_bar("Seeds", matches, show) as advance:
        ctx = get_context("spawn")
        with ProcessPoolExecutor(
            workers, mp_context=ctx, initializer=_single_thread_worker
        ) as pool:
            futures = [
                pool.submit(play_pair, agent_a, agent_b, seed, i, rules) for i in range(matches)
            ]
            for future in as_completed(futures):
                results.append(future.result())
                advance(1)
    return results
