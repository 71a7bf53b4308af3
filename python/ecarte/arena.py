"""Duplicate matches between two agents, with confidence intervals.

Every seed is played twice: once with agent A in seat 0, once with A in seat 1, over the
same deals (same seeds, same first dealer), so each agent gets the other's cards and the
luck of the deal cancels. Statistics treat each pair of matches as one sample, which
accounts for the correlation the duplicate format creates.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ecarte._core import derive_seed
from ecarte.agents import Agent, make_agent
from ecarte.display import counted
from ecarte.distributed import Backend, Interrupted, dispatch, ray_backend
from ecarte.duel import (
    DEALS_PER_MATCH,
    Action,
    Match,
    Observation,
    Rules,
    is_native_agent,
    parse_agent,
    simulate,
    simulate_item_seconds,
)
from ecarte.errors import EcarteError, InvalidRecordError
from ecarte.progress import Bar, progress_bar
from ecarte.records import dump_record, read_record, whole
from ecarte.seeding import agent_seed, resolve_seed
from ecarte.stats import RATE_BOUNDS, mean_interval, ratio_interval, wilson_interval

__all__ = [
    "AgentFactory",
    "AgentLike",
    "ArenaInterrupted",
    "ArenaResult",
    "Estimate",
    "build_agent",
    "play",
]

#: A picklable function that builds an agent from its seed.
AgentFactory = Callable[[int], Agent]
#: What the arena plays: an agent spec (a string of ``ecarte.duel.AGENT_SPECS``: ``"pimc"``,
#: ``"pimc:16"``, ``"heuristic"``, ...) or an :data:`AgentFactory`.
AgentLike = str | AgentFactory
#: The former name of :data:`AgentLike`, kept for earlier code ("agent spec" now means the
#: string alone).
AgentSpec = AgentLike


def build_agent(agent: AgentLike, seed: int) -> Agent:
    """The agent that ``agent`` (an agent spec or a factory) gives with ``seed``."""
    return make_agent(agent, seed) if isinstance(agent, str) else agent(seed)


def agent_name(agent: AgentLike) -> str:
    """The agent's name in a result: a built-in agent's full spec, with its worlds per
    decision (``"pimc:24"``), a factory's name otherwise."""
    if isinstance(agent, str):
        if not is_native_agent(agent):
            return agent
        name, samples = parse_agent(agent)
        return name if samples is None else f"{name}:{samples}"
    return getattr(agent, "__name__", repr(agent))


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
    #: Interrupted: the figures cover only the seeds that finished.
    partial: bool = False

    def __str__(self) -> str:
        return self.table()

    def to_json(self) -> str:
        """The versioned record: every field, each estimate as ``{"mean", "low", "high"}``."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        for name in ESTIMATES:
            fields[name] = dataclasses.asdict(fields[name])
        return dump_record(RECORD_FORMAT, RECORD_VERSION, fields)

    @classmethod
    def from_json(cls, text: str) -> ArenaResult:
        """Reads what :meth:`to_json` wrote: at least one seed and two deals a seed, each
        estimate's interval around its mean within the bounds of a rate (points per deal:
        -2 to 2), times that are not negative; anything else raises ``InvalidRecordError``."""
        data = read_record(text, RECORD_FORMAT, RECORD_VERSION, RECORD_FIELDS)
        estimates = {name: _estimate(name, data[name]) for name in ESTIMATES}
        times = data["decision_seconds"]
        if not (len(times) == 2 and all(_is_float(t) and t >= 0 for t in times)):
            raise InvalidRecordError(f"decision_seconds is two times, got {times!r}")
        if not (
            whole(data["pairs"], 1)
            and whole(data["deals"], 2 * data["pairs"])
            and data["seconds"] >= 0
            and (data["seed"] is None or whole(data["seed"], 0, 2**64 - 1))
        ):
            raise InvalidRecordError(
                "an arena result has a seed of 0 to 2**64 - 1, at least one pair of matches, "
                "at least a deal a match and a time that is not negative"
            )
        fields = {name: data[name] for name in RECORD_FIELDS}
        fields.update(estimates, decision_seconds=(float(times[0]), float(times[1])))
        fields["seconds"] = float(data["seconds"])
        return cls(**fields)

    def table(self) -> str:
        played = f"{2 * self.pairs} ({counted(self.pairs, 'seed')}, seats swapped)"
        if self.partial:
            played += ", partial: interrupted"
        rows = [
            ("agents", f"{self.agent_a} v {self.agent_b}"),
            ("matches", played),
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


RECORD_FORMAT: Final = "ecarte.arena.result"
RECORD_VERSION: Final = 1
#: The estimates of a result and the bounds of each.
ESTIMATES: Final = {
    "match_win_rate": RATE_BOUNDS,
    "deal_win_rate": RATE_BOUNDS,
    "points_per_deal": (-2.0, 2.0),
}
RECORD_FIELDS: Final[dict[str, type | tuple[type, ...]]] = {
    "agent_a": str,
    "agent_b": str,
    "pairs": int,
    "deals": int,
    **dict.fromkeys(ESTIMATES, dict),
    "decision_seconds": list,
    "seconds": float,
    "native": bool,
    "seed": (int, type(None)),
    "partial": bool,
}


def _is_float(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _estimate(name: str, value: dict[str, Any]) -> Estimate:
    """The estimate ``name`` of an arena record: its mean inside its interval, inside the
    estimate's bounds."""
    low_bound, high_bound = ESTIMATES[name]
    if set(value) != {"mean", "low", "high"} or not all(map(_is_float, value.values())):
        raise InvalidRecordError(f"{name} is {{mean, low, high}}, got {value!r}")
    mean, low, high = (float(value[k]) for k in ("mean", "low", "high"))
    if not low_bound <= low <= mean <= high <= high_bound:
        raise InvalidRecordError(
            f"{name}: the interval [{low}, {high}] must hold the mean {mean} and lie within "
            f"[{low_bound}, {high_bound}]"
        )
    return Estimate(mean, low, high)


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
    agent_a: AgentLike, agent_b: AgentLike, seed: int, index: int, rules: Rules
) -> PairResult:
    """Seed `index` under `seed`, played with A in seat 0 and then in seat 1."""
    match_seed = derive_seed(seed, index)
    won = deals = deals_won = net = 0
    decisions = [0, 0]
    seconds = [0.0, 0.0]
    for a_seat in (0, 1):
        # A seat's seed goes with the seat, as its cards do: in the rematch each agent
        # draws what the other drew in that seat (docs/api.md, "Seeds"), as natively.
        seated = (agent_a, agent_b) if a_seat == 0 else (agent_b, agent_a)
        first, second = (
            _Timed(build_agent(agent, agent_seed(match_seed, s))) for s, agent in enumerate(seated)
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
    agent_a: AgentLike,
    agent_b: AgentLike,
    pairs: list[PairResult],
    seconds: float,
    seed: int | None = None,
) -> ArenaResult:
    decisions = [sum(p.decisions[i] for p in pairs) for i in (0, 1)]
    spent = [sum(p.seconds[i] for p in pairs) for i in (0, 1)]
    return ArenaResult(
        agent_a=agent_name(agent_a),
        agent_b=agent_name(agent_b),
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


#: Wall seconds of work in the first chunk of a local native arena: Ctrl-C keeps the seeds
#: of the chunks that finished, and the bar counts them.
LOCAL_CHUNK_SECONDS = 1.0
#: How much larger than the first the later chunks of a local native arena grow (doubling):
#: each chunk's matches run in parallel, and a core idles at its end while the last match
#: finishes, so 1-second chunks throughout left 9% of two cores idle on the README's arena
#: (`ecarte arena pimc heuristic --matches 200`: 58.1 s wall for 105.6 s of CPU time, and
#: 53.2 s with 4-second chunks, measured in one session).
LOCAL_CHUNK_GROWTH = 4
#: The most seeds per chunk of a local native arena.
MAX_LOCAL_CHUNK = 4096


def local_native_chunk(agent_a: str, agent_b: str) -> int:
    """Seeds per chunk of a local native arena: about :data:`LOCAL_CHUNK_SECONDS` of work on
    every core, and at least one seed per core."""
    cores = os.cpu_count() or 1
    seed_seconds = 2 * simulate_item_seconds((agent_a, agent_b), True)
    by_time = int(LOCAL_CHUNK_SECONDS * cores / max(seed_seconds, 1e-9))
    return max(cores, min(by_time, MAX_LOCAL_CHUNK))


def _play_native(
    agent_a: str,
    agent_b: str,
    matches: int,
    seed: int,
    rules: Rules,
    show: bool | None,
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
        local_chunk=local_native_chunk(agent_a, agent_b),
        local_growth=LOCAL_CHUNK_GROWTH,
        live=True,
        label="Seeds",
        progress=show,
        seed=seed,
    )
    pairs = [pair for part in parts for pair in part]
    result = summarize(agent_a, agent_b, pairs, time.perf_counter() - start, seed)
    return dataclasses.replace(result, native=True)


def _native_chunk(
    start: int,
    n: int,
    agent_a: str,
    agent_b: str,
    seed: int,
    rules: Rules,
    bar: Bar | None = None,
) -> list[PairResult]:
    """Seeds ``start .. start + n - 1`` natively, with A in seat 0 and then in seat 1; the
    ``bar``, if given, follows the deals played."""
    runs = []
    for a_seat, seats in enumerate(((agent_a, agent_b), (agent_b, agent_a))):

        def played(deals: int, before: int = a_seat) -> None:
            if bar is not None:
                seeds = (before * n * DEALS_PER_MATCH + deals) / (2 * DEALS_PER_MATCH)
                bar.running(min(seeds, 0.99 * n), f"{deals} deals")

        runs.append(simulate(n, seed, seats, rules, True, start, on_progress=played).columns)
    pairs = []
    for i in range(n):
        won = deals = deals_won = net = 0
        for a_seat, run in enumerate(runs):
            won += int(run["winner"][i] == a_seat)
            deals += int(run["deals"][i])
            deals_won += int(run["deals_won"][i, a_seat])
            net += int(run["score"][i, a_seat]) - int(run["score"][i, 1 - a_seat])
        pairs.append(PairResult(won, deals, deals_won, net, (0, 0), (0.0, 0.0)))
    return pairs


def _pairs_chunk(
    start: int, n: int, agent_a: AgentLike, agent_b: AgentLike, seed: int, rules: Rules
) -> list[PairResult]:
    """Seeds ``start .. start + n - 1``, each played twice (:func:`play_pair`)."""
    return [play_pair(agent_a, agent_b, seed, i, rules) for i in range(start, start + n)]


#: Assumed seconds of one seed (two matches) between Python agents, for chunk sizing.
PYTHON_PAIR_SECONDS = 0.05


def _single_thread_worker() -> None:
    # Each worker process is one of `workers` cores: keep the solver's pool to one thread.
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
    # Ctrl-C reaches the whole process group: the parent stops the pool and reports.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ArenaInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`play`: a ``KeyboardInterrupt`` holding the result of the seeds
    that finished (``partial``, marked ``partial=True``), or ``None`` if none did."""

    def __init__(self, partial: ArenaResult | None) -> None:
        super().__init__()
        self.partial = partial


def play(
    agent_a: AgentLike,
    agent_b: AgentLike,
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
    stderr when it is a terminal (or as `progress` says).

    `backend="ray"` (or a ``RayBackend``) plays the seeds in chunks on a Ray cluster
    instead of `workers` processes; agents (names, or picklable factories) are shipped to
    the tasks and built there. The rates and intervals are identical to a local run; an
    exception in an agent raises an ``EcarteError`` naming the chunk and the seed.

    Ctrl-C stops the run within about a second and raises :class:`ArenaInterrupted`, a
    ``KeyboardInterrupt`` that holds the result of the seeds that had finished.
    """
    if matches < 1:
        raise EcarteError(f"matches must be at least 1, got {matches}")
    seed = resolve_seed(seed)
    rules = rules or Rules()
    started = time.perf_counter()
    try:
        return _play(agent_a, agent_b, matches, seed, workers, rules, progress, native, backend)
    except Interrupted as stop:
        pairs = [pair for part in stop.finished for pair in part]
        partial = None
        if pairs:
            result = summarize(agent_a, agent_b, pairs, time.perf_counter() - started, seed)
            partial = dataclasses.replace(result, native=_is_native(agent_a, agent_b, native))
            partial = dataclasses.replace(partial, partial=True)
        raise ArenaInterrupted(partial) from None


def _is_native(agent_a: AgentLike, agent_b: AgentLike, native: bool) -> bool:
    return native and is_native_agent(agent_a) and is_native_agent(agent_b)


def _play(
    agent_a: AgentLike,
    agent_b: AgentLike,
    matches: int,
    seed: int,
    workers: int,
    rules: Rules,
    progress: bool | None,
    native: bool,
    backend: Backend,
) -> ArenaResult:
    if _is_native(agent_a, agent_b, native):
        assert isinstance(agent_a, str) and isinstance(agent_b, str)
        return _play_native(agent_a, agent_b, matches, seed, rules, progress, backend)
    start = time.perf_counter()
    if workers > 1 and ray_backend(backend) is None:
        results = _play_in_processes(agent_a, agent_b, matches, seed, rules, progress, workers)
    else:
        parts = dispatch(
            backend,
            _pairs_chunk,
            matches,
            PYTHON_PAIR_SECONDS,
            (agent_a, agent_b, seed, rules),
            local_chunk=1,
            label="Seeds",
            progress=progress,
            seed=seed,
        )
        results = [pair for part in parts for pair in part]
    return summarize(agent_a, agent_b, results, time.perf_counter() - start, seed)


def _play_in_processes(
    agent_a: AgentLike,
    agent_b: AgentLike,
    matches: int,
    seed: int,
    rules: Rules,
    show: bool | None,
    workers: int,
) -> list[PairResult]:
    """Every seed (:func:`play_pair`) in a pool of `workers` processes, in the order they
    finish; Ctrl-C raises :class:`~ecarte.distributed.Interrupted` with the seeds that had
    finished."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    results: list[PairResult] = []
    with progress_bar("Seeds", matches, show) as advance:
        pool = ProcessPoolExecutor(
            workers, mp_context=get_context("spawn"), initializer=_single_thread_worker
        )
        try:
            futures = [
                pool.submit(play_pair, agent_a, agent_b, seed, i, rules) for i in range(matches)
            ]
            for future in as_completed(futures):
                results.append(future.result())
                advance(1)
        except KeyboardInterrupt as exc:
            # The workers ignore Ctrl-C (one report, from here); stop them at once.
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            raise Interrupted([results]) from exc
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    return results
