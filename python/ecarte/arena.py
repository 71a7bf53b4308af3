"""Duplicate matches between two agents, with confidence intervals.

Every seed is played twice: once with agent A in seat 0, once with A in seat 1, over the
same deals (same seeds, same first dealer), so each agent gets the other's cards and the
luck of the deal cancels. Statistics treat each pair of matches as one sample, which
accounts for the correlation the duplicate format creates.
"""

from __future__ import annotations

import dataclasses
import inspect
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ecarte._public import api_dir
from ecarte.agents import Agent, make_agent
from ecarte.display import counted
from ecarte.distributed import Backend, Interrupted, Work, run
from ecarte.duel import (
    DEALS_PER_MATCH,
    Action,
    BuiltinAgent,
    Observation,
    Rules,
    RunMatch,
    parse_agent,
    simulate_chunk,
    simulate_item_seconds,
)
from ecarte.errors import EcarteError, InvalidRecordError
from ecarte.progress import Bar
from ecarte.records import dump_record, format_read_by, read_record, whole
from ecarte.seeding import resolve_seed
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
__dir__ = api_dir(globals())

#: A picklable function that builds an agent from its seed.
AgentFactory = Callable[[int], Agent]
#: What the arena plays: an agent spec (a string naming a built-in agent of
#: ``ecarte.duel.AGENTS``: ``"pimc"``, ``"pimc:16"``, ``"heuristic"``, ...), an agent, or an
#: :data:`AgentFactory`.
AgentLike = str | Agent | AgentFactory

#: The forms :func:`play` takes for an agent, for its error.
AGENT_FORMS: Final = (
    "an agent spec (a str such as 'pimc:8'), an agent (a callable "
    "agent(observation, legal_actions) -> action) or an agent factory (a callable "
    "factory(seed) -> agent)"
)


class _Same:
    """The factory of an agent given as it is: every seat of every match plays it."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.__name__ = getattr(agent, "__name__", type(agent).__name__)

    def __call__(self, seed: int) -> Agent:
        return self.agent


def entrant(agent: object) -> str | AgentFactory:
    """What the arena plays for ``agent``: a built-in agent's spec (a ``BuiltinAgent``
    plays as its spec, seeded by its seat like every agent of the arena), or a factory (an
    agent that is neither plays every match as it is). Anything else is a ``TypeError``
    that names the forms taken."""
    if isinstance(agent, str):
        parse_agent(agent)  # an unknown spec: EcarteError, before anything runs
        return agent
    if isinstance(agent, BuiltinAgent) and type(agent).__call__ is BuiltinAgent.__call__:
        return agent.spec
    if isinstance(agent, type):
        return agent  # a class is a factory of its agents
    if not callable(agent):
        raise TypeError(f"arena.play takes {AGENT_FORMS}; got {type(agent).__name__}")
    try:
        parameters = inspect.signature(agent).parameters.values()
    except (TypeError, ValueError):  # no signature to read: taken as a factory
        return agent
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    required = [p for p in parameters if p.kind in positional and p.default is p.empty]
    if len(required) == 2:  # (observation, legal_actions)
        return _Same(agent)
    takes_one = any(p.kind in (*positional, inspect.Parameter.VAR_POSITIONAL) for p in parameters)
    if len(required) > 2 or not takes_one:
        raise TypeError(f"arena.play takes {AGENT_FORMS}; got {agent!r}, which takes neither")
    return agent


def build_agent(agent: str | AgentFactory, seed: int) -> Agent:
    """The agent that ``agent`` (an agent spec or a factory) gives with ``seed``."""
    return make_agent(agent, seed) if isinstance(agent, str) else agent(seed)


def agent_name(agent: str | AgentFactory) -> str:
    """The agent's name in a result: a built-in agent's full spec, with its worlds per
    decision (``"pimc:24"``), a factory's name otherwise."""
    if isinstance(agent, str):
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


RECORD_FORMAT: Final = format_read_by("ecarte.arena.ArenaResult")
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
    agent_a: str | AgentFactory, agent_b: str | AgentFactory, seed: int, index: int, rules: Rules
) -> PairResult:
    """Seed `index` under `seed`, match `index` of the run (``duel.RunMatch``), played with A
    in seat 0 and then in seat 1."""
    game = RunMatch(seed, index)
    won = deals = deals_won = net = 0
    decisions = [0, 0]
    seconds = [0.0, 0.0]
    for a_seat in (0, 1):
        # A seat's seed goes with the seat, as its cards do: in the rematch each agent
        # draws what the other drew in that seat (docs/api.md, "Seeds").
        seated = (agent_a, agent_b) if a_seat == 0 else (agent_b, agent_a)
        first, second = (
            _Timed(build_agent(agent, game.agent_seed(s))) for s, agent in enumerate(seated)
        )
        a, b = (first, second) if a_seat == 0 else (second, first)
        result = game.start(rules).play(first, second)
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
    name_a: str,
    name_b: str,
    pairs: list[PairResult],
    seconds: float,
    seed: int | None = None,
) -> ArenaResult:
    """The statistics of ``pairs`` played by the agents named ``name_a`` and ``name_b``."""
    decisions = [sum(p.decisions[i] for p in pairs) for i in (0, 1)]
    spent = [sum(p.seconds[i] for p in pairs) for i in (0, 1)]
    return ArenaResult(
        agent_a=name_a,
        agent_b=name_b,
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


def _native_work(agent_a: str, agent_b: str, matches: int, seed: int, rules: Rules) -> Work[Any]:
    """The duplicate matches through native simulation: match `i` is played once with A
    in seat 0 and once with A in seat 1, over the same deals."""
    return Work(
        _native_chunk,
        matches,
        (agent_a, agent_b, seed, rules),
        item_seconds=2 * simulate_item_seconds((agent_a, agent_b), True),
        local="timed",
        label="Seeds",
        seed=seed,
    )


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
    # The note counts the deals of both seatings, and of every earlier piece.
    earlier = 0 if bar is None else bar.noted
    for a_seat, seats in enumerate(((agent_a, agent_b), (agent_b, agent_a))):

        def played(deals: int, before: int = a_seat, so_far: int = earlier) -> None:
            if bar is not None:
                seeds = (before * n * DEALS_PER_MATCH + deals) / (2 * DEALS_PER_MATCH)
                bar.running(min(seeds, 0.99 * n), f"{so_far + deals:,} deals", counted=False)

        runs.append(simulate_chunk(start, n, 0, seed, seats, rules, True, on_progress=played))
        earlier += int(runs[-1]["deals"].sum())
    if bar is not None:
        bar.noted = earlier
    pairs = []
    for i in range(n):
        won = deals = deals_won = net = 0
        for a_seat, columns in enumerate(runs):
            won += int(columns["winner"][i] == a_seat)
            deals += int(columns["deals"][i])
            deals_won += int(columns["deals_won"][i, a_seat])
            net += int(columns["score"][i, a_seat]) - int(columns["score"][i, 1 - a_seat])
        pairs.append(PairResult(won, deals, deals_won, net, (0, 0), (0.0, 0.0)))
    return pairs


def _pairs_chunk(
    start: int,
    n: int,
    agent_a: str | AgentFactory,
    agent_b: str | AgentFactory,
    seed: int,
    rules: Rules,
) -> list[PairResult]:
    """Seeds ``start .. start + n - 1``, each played twice (:func:`play_pair`)."""
    return [play_pair(agent_a, agent_b, seed, i, rules) for i in range(start, start + n)]


#: Assumed seconds of one seed (two matches) between Python agents, for chunk sizing.
PYTHON_PAIR_SECONDS = 0.05


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

    Each agent is an agent spec (``"pimc:8"``), an agent (``RandomAgent(seed=3)``, any
    callable ``agent(observation, legal_actions)``) or a factory (``factory(seed) ->
    agent``); the arena seeds each seat's agent from the seat (docs/api.md, "Seeds"), so a
    built-in agent plays as its spec, and any other agent as it is, in every match. When
    both agents are built in and `native` is true, the matches are played by the engine
    (all cores, the same matches and the same figures; no per-decision timing). `workers`
    > 1 plays the seeds of other agents in that many processes, where they are built from
    their factories (an agent is pickled). The progress bar shows on stderr when it is a
    terminal (or as `progress` says).

    `backend="ray"` (or a ``RayBackend``) plays the seeds in chunks on a Ray cluster
    instead of `workers` processes; agents (names, or picklable factories) are shipped to
    the tasks and built there. The rates and intervals are identical to a local run; an
    exception in an agent raises an ``EcarteError`` naming the chunk and the seed.

    Ctrl-C stops the run within about a second and raises :class:`ArenaInterrupted`, a
    ``KeyboardInterrupt`` that holds the result of the seeds that had finished.
    """
    if matches < 1:
        raise EcarteError(f"matches must be at least 1, got {matches}")
    a, b = entrant(agent_a), entrant(agent_b)
    seed = resolve_seed(seed)
    rules = rules or Rules()
    if native and isinstance(a, str) and isinstance(b, str):
        work = _native_work(a, b, matches, seed, rules)
    else:
        work = Work(
            _pairs_chunk,
            matches,
            (a, b, seed, rules),
            item_seconds=PYTHON_PAIR_SECONDS,
            local="each",
            label="Seeds",
            seed=seed,
        )
    names = agent_name(a), agent_name(b)
    started = time.perf_counter()
    try:
        parts = run(work, backend, progress, workers)
    except Interrupted as stop:
        pairs = [pair for part in stop.finished for pair in part]
        partial = None
        if pairs:
            result = summarize(*names, pairs, time.perf_counter() - started, seed)
            native_run = work.chunk is _native_chunk
            partial = dataclasses.replace(result, native=native_run, partial=True)
        raise ArenaInterrupted(partial) from None
    pairs = [pair for part in parts for pair in part]
    result = summarize(*names, pairs, time.perf_counter() - started, seed)
    return dataclasses.replace(result, native=work.chunk is _native_chunk)
