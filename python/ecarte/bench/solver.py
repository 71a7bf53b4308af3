"""``ecarte bench solver`` and ``ecarte bench compare``: the double-dummy solver timed on a
file of positions, and two such runs compared.

A run (:func:`run`) reads a positions file (:func:`read_positions`: the shipped set's
position records, or bare play-phase deal records, one JSON object a line), builds the
solver's one-time tables apart (``duel.prepare_solver``, reported as ``table_build_ms``),
optionally solves every position once untimed (``warmup``), then solves them ``repeat``
times, timing each solve on the thread that ran it. Its JSON lines (:func:`json_lines`) are
the run's metadata (:func:`ecarte.bench.metadata.metadata` with the run's settings) and one
object per position: its solve times in every repeat, its value, best actions and nodes,
and whether they match the file's (for records that give them).

A comparison (:func:`compare`) matches the positions two runs share and gives, for each
stage (each exchange count, and all positions), the median and p90 solve time of each run
and their ratio B/A, with a 95% interval from the repeats: a seeded bootstrap that draws,
for each position, one of its repeats in each run.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ecarte.bench import positions as shipped
from ecarte.bench.metadata import FORMAT as METADATA_FORMAT
from ecarte.bench.metadata import differences, metadata
from ecarte.duel import NODE_COUNT_VERSION, Deal, prepare_solver, solve_many_timed
from ecarte.errors import EcarteError

__all__ = [
    "BENCH",
    "BenchPosition",
    "Comparison",
    "Result",
    "SolverRun",
    "Stage",
    "compare",
    "compare_table",
    "json_lines",
    "percentile",
    "read_positions",
    "read_run",
    "run",
    "run_table",
]

#: The ``bench`` field of a solver run's metadata.
BENCH = "solver"
#: The stage of every position together.
ALL = "all"

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class BenchPosition:
    """One position to solve: its ``id`` (the record's, or its index in the file),
    the file's ``line``, its exchange count, the deal, and the file's value and best
    actions when the record gives them (the shipped set's records do)."""

    id: int
    line: int
    exchanges: int
    deal: Deal
    value: int | None = None
    best_actions: tuple[str, ...] | None = None

    @property
    def key(self) -> str:
        """A digest of the deal's record: two runs compare a position only if it is the
        same deal."""
        return hashlib.sha256(self.deal.to_json().encode()).hexdigest()[:16]


def read_positions(path: Path | None = None, limit: int | None = None) -> list[BenchPosition]:
    """The first ``limit`` positions of a JSON-lines file (the shipped set by default). A
    line is a position record of the shipped set's format or a deal record in its play
    phase; anything else raises ``EcarteError`` naming the file and line."""
    path = shipped.default_path() if path is None else path
    out: list[BenchPosition] = []
    for n, obj in shipped.read_lines(path):
        if limit is not None and len(out) >= limit:
            break
        deal, meta = shipped.parse_record(obj, f"{path}:{n}")
        if meta.get("format") != shipped.FORMAT:
            out.append(BenchPosition(len(out), n, deal.exchanges, deal))
            continue
        try:
            out.append(
                BenchPosition(
                    id=int(meta["id"]),
                    line=n,
                    exchanges=deal.exchanges,
                    deal=deal,
                    value=int(meta["value"]),
                    best_actions=tuple(str(a) for a in meta["best_actions"]),
                )
            )
        except (KeyError, TypeError, ValueError):
            raise EcarteError(f"{path}:{n}: not a solver position record") from None
    if not out:
        raise EcarteError(f"{path}: no positions (one JSON record a line)")
    return out


@dataclass(frozen=True)
class Result:
    """One position's measurements: its solve time in each repeat (seconds), and the
    solution (the same in every repeat)."""

    position: BenchPosition
    value: int
    best_actions: tuple[str, ...]
    nodes: int
    times: tuple[float, ...]

    @property
    def matches(self) -> bool | None:
        """Whether the value and best actions are the file's (``None``: it gives none)."""
        if self.position.value is None:
            return None
        return (self.value, self.best_actions) == (
            self.position.value,
            self.position.best_actions,
        )


@dataclass(frozen=True)
class SolverRun:
    """A run: every position's result, the one-time table build (seconds), and how it
    ran."""

    results: list[Result]
    table_build: float
    threads: int
    repeat: int
    warmup: bool
    source: str

    def metadata(self) -> dict[str, Any]:
        """The first JSON line: the machine and build (:func:`metadata`), then the run."""
        return {
            **metadata(self.threads),
            "bench": BENCH,
            "positions_file": self.source,
            "positions": len(self.results),
            "repeat": self.repeat,
            "warmup": self.warmup,
            "objective": "points",
            "node_count_version": NODE_COUNT_VERSION,
            "table_build_ms": self.table_build * 1e3,
        }

    @property
    def mismatched(self) -> list[int]:
        """The ids of the positions whose solution differs from the file's."""
        return [r.position.id for r in self.results if r.matches is False]


def run(
    positions: Sequence[BenchPosition],
    threads: int = 1,
    repeat: int = 1,
    warmup: bool = False,
    source: str = shipped.POSITIONS_FILE,
    on_progress: Callable[[int], object] | None = None,
) -> SolverRun:
    """Solves ``positions`` on ``threads`` threads ``repeat`` times, after the one-time
    tables are built (and timed) and, with ``warmup``, one untimed pass.
    ``on_progress(solved)`` is told the solves done so far, the warm-up's included."""
    deals = [p.deal for p in positions]
    table_build = prepare_solver()
    done = 0

    def progress(solved: int) -> object:
        return None if on_progress is None else on_progress(done + solved)

    if warmup:
        solve_many_timed(deals, "points", threads, on_progress=progress)
        done += len(deals)
    passes = []
    for _ in range(repeat):
        passes.append(solve_many_timed(deals, "points", threads, on_progress=progress))
        done += len(deals)
    results = []
    for i, p in enumerate(positions):
        solution = passes[0][i][0]
        results.append(
            Result(
                position=p,
                value=solution.value,
                best_actions=tuple(str(a) for a in solution.best_actions),
                nodes=solution.nodes,
                times=tuple(one[i][1] for one in passes),
            )
        )
    return SolverRun(results, table_build, threads, repeat, warmup, source)


def json_lines(bench: SolverRun) -> Iterator[str]:
    """The run as JSON lines: its metadata, then one object per position (times in ms)."""
    yield json.dumps(bench.metadata())
    for r in bench.results:
        yield json.dumps(
            {
                "id": r.position.id,
                "line": r.position.line,
                "key": r.position.key,
                "exchanges": r.position.exchanges,
                "value": r.value,
                "best_actions": list(r.best_actions),
                "nodes": r.nodes,
                "ms": [t * 1e3 for t in r.times],
                "matches": r.matches,
            }
        )


# -- statistics ----------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (``q`` in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


@dataclass(frozen=True)
class Stage:
    """A group of positions: one exchange count, or all of them (``ALL``)."""

    name: str
    ids: tuple[int, ...]


def stages(exchanges: Mapping[int, int]) -> list[Stage]:
    """The stages of positions whose exchange counts are ``exchanges`` (id: count): one
    per exchange count, in order, then all."""
    counts = sorted(set(exchanges.values()))
    out = [
        Stage(f"{x} exchanges", tuple(i for i, c in exchanges.items() if c == x)) for x in counts
    ]
    return [*out, Stage(ALL, tuple(exchanges))]


def run_table(bench: SolverRun) -> list[str]:
    """The text table of a run: per stage, positions, then median, p90 and max time (each
    position's median over the repeats) and nodes."""
    by_id = {r.position.id: r for r in bench.results}
    rows = [
        (
            "stage",
            "positions",
            "median ms",
            "p90 ms",
            "max ms",
            "median nodes",
            "p90 nodes",
            "max nodes",
        )
    ]
    for stage in stages({r.position.id: r.position.exchanges for r in bench.results}):
        chosen = [by_id[i] for i in stage.ids]
        times = [statistics.median(r.times) * 1e3 for r in chosen]
        nodes = [float(r.nodes) for r in chosen]
        rows.append(
            (
                stage.name,
                str(len(chosen)),
                f"{statistics.median(times):.4f}",
                f"{percentile(times, 90):.4f}",
                f"{max(times):.4f}",
                f"{statistics.median(nodes):.0f}",
                f"{percentile(nodes, 90):.0f}",
                f"{max(nodes):.0f}",
            )
        )
    return _aligned(rows)


def _aligned(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows as columns: the first left-aligned, the rest right-aligned, never cut."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


# -- comparing two runs --------------------------------------------------------------


@dataclass(frozen=True)
class RunFile:
    """A run as read back from its JSON lines: the metadata, and each position's times
    (ms, one per repeat), nodes and exchange count, by ``(id, key)``."""

    path: Path
    meta: dict[str, Any]
    times: dict[tuple[int, str], list[float]]
    nodes: dict[tuple[int, str], int]
    exchanges: dict[tuple[int, str], int]


def read_run(path: Path) -> RunFile:
    """Reads what ``ecarte bench solver --json`` wrote; ``EcarteError`` naming the file (and
    line) for anything else."""
    lines = iter(shipped.read_lines(path))
    first = next(lines, None)
    if (
        first is None
        or not isinstance(first[1], dict)
        or first[1].get("format") != METADATA_FORMAT
        or first[1].get("bench") != BENCH
    ):
        raise EcarteError(
            f"{path}: not the output of `ecarte bench solver --json` (its first line is the "
            f"run's metadata, with format {METADATA_FORMAT!r} and bench {BENCH!r})"
        )
    times: dict[tuple[int, str], list[float]] = {}
    nodes: dict[tuple[int, str], int] = {}
    exchanges: dict[tuple[int, str], int] = {}
    for n, obj in lines:
        try:
            key = (int(obj["id"]), str(obj["key"]))
            ms = [float(t) for t in obj["ms"]]
            if not ms or key in times or any(not t >= 0 for t in ms):
                raise ValueError
            times[key], nodes[key] = ms, int(obj["nodes"])
            exchanges[key] = int(obj["exchanges"])
        except (KeyError, TypeError, ValueError):
            raise EcarteError(f"{path}:{n}: not a position of a solver run") from None
    if not times:
        raise EcarteError(f"{path}: a solver run with no positions")
    return RunFile(path, first[1], times, nodes, exchanges)


@dataclass(frozen=True)
class Ratio:
    """One statistic of one stage in both runs (ms), the ratio B/A and its 95% interval
    (``None`` when neither run repeated its solves)."""

    a: float
    b: float
    ratio: float
    interval: tuple[float, float] | None


@dataclass(frozen=True)
class Comparison:
    """Two runs over the positions they share: per stage, the median and p90 ratios."""

    a: RunFile
    b: RunFile
    shared: int
    rows: list[tuple[Stage, Ratio, Ratio]]
    nodes_compared: bool
    nodes_differ: int


def _stat(samples: Floats, q: float | None) -> Floats:
    """Each row's median (``q`` None) or nearest-rank ``q`` percentile."""
    if q is None:
        return np.asarray(np.median(samples, axis=-1), dtype=np.float64)
    n = samples.shape[-1]
    rank = max(1, -(-n * int(q) // 100))
    return np.asarray(np.sort(samples, axis=-1)[..., rank - 1], dtype=np.float64)


def compare(a: RunFile, b: RunFile, seed: int = 0, resamples: int = 1000) -> Comparison:
    """Compares two runs on the positions they share (the same id and deal). The intervals
    are percentile bootstrap intervals over ``resamples`` draws, seeded by ``seed``: each
    draw takes, for every position, one of its repeats in A and one in B at random."""
    keys = [k for k in a.times if k in b.times]
    if not keys:
        raise EcarteError(
            f"{a.path} and {b.path} share no position (the same id and deal): nothing to compare"
        )
    rng = np.random.default_rng(seed)
    rows = []
    for stage in stages({i: a.exchanges[k] for i, k in enumerate(keys)}):
        chosen = [keys[i] for i in stage.ids]
        cells = []
        for q in (None, 90.0):
            point = []
            draws = []
            for run_file in (a, b):
                ragged = [run_file.times[k] for k in chosen]
                point.append(float(_stat(np.array([statistics.median(t) for t in ragged]), q)))
                draws.append(_stat(_resampled(ragged, resamples, rng), q))
            repeated = any(len(a.times[k]) > 1 or len(b.times[k]) > 1 for k in chosen)
            interval = None
            if repeated:
                ratios = draws[1] / draws[0]
                interval = (float(np.quantile(ratios, 0.025)), float(np.quantile(ratios, 0.975)))
            cells.append(Ratio(point[0], point[1], point[1] / point[0], interval))
        rows.append((stage, cells[0], cells[1]))
    nodes_compared = a.meta.get("node_count_version") == b.meta.get("node_count_version")
    differ = sum(a.nodes[k] != b.nodes[k] for k in keys)
    return Comparison(a, b, len(keys), rows, nodes_compared, differ)


def _resampled(ragged: Sequence[Sequence[float]], draws: int, rng: np.random.Generator) -> Floats:
    """``draws`` rows, each holding one repeat of every position drawn at random."""
    widths = np.array([len(t) for t in ragged])
    padded = np.zeros((len(ragged), int(widths.max())))
    for i, t in enumerate(ragged):
        padded[i, : len(t)] = t
    picks = (rng.random((draws, len(ragged))) * widths).astype(np.intp)
    return np.asarray(padded[np.arange(len(ragged)), picks], dtype=np.float64)


def _describe(run_file: RunFile) -> str:
    meta = run_file.meta
    commit = meta.get("commit")
    build = f"commit {str(commit)[:12]}" if commit else "no commit"
    if meta.get("dirty"):
        build += " (modified)"
    repeats = {len(t) for t in run_file.times.values()}
    shown = "/".join(str(r) for r in sorted(repeats))
    return (
        f"{run_file.path}: ecarte {meta.get('ecarte')}, {build}, {len(run_file.times)} "
        f"positions, {shown} repeat{'s' if repeats != {1} else ''}, "
        f"{meta.get('threads')} thread{'s' if meta.get('threads') != 1 else ''}"
    )


def _interval(r: Ratio) -> str:
    return "n/a (1 repeat)" if r.interval is None else f"{r.interval[0]:.3f} to {r.interval[1]:.3f}"


def compare_table(c: Comparison) -> list[str]:
    """The text of a comparison: what each run is, what differs between them, the table of
    ratios, and the nodes."""
    lines = [f"A = {_describe(c.a)}", f"B = {_describe(c.b)}"]
    for field, in_a, in_b in differences(c.a.meta, c.b.meta):
        if field in ("positions", "table_build_ms"):
            continue
        lines.append(f"differs: {field}: {in_a} (A), {in_b} (B)")
    if c.shared < max(len(c.a.times), len(c.b.times)):
        lines.append(f"compared on the {c.shared} positions both runs solved")
    lines.append("ratios are B/A: below 1, B is faster; 95% intervals from the repeats")
    rows: list[Sequence[str]] = [
        (
            "stage",
            "A median ms",
            "B median ms",
            "ratio",
            "interval",
            "A p90 ms",
            "B p90 ms",
            "ratio",
            "interval",
        )
    ]
    for stage, median, p90 in c.rows:
        rows.append(
            (
                stage.name,
                f"{median.a:.4f}",
                f"{median.b:.4f}",
                f"{median.ratio:.3f}",
                _interval(median),
                f"{p90.a:.4f}",
                f"{p90.b:.4f}",
                f"{p90.ratio:.3f}",
                _interval(p90),
            )
        )
    lines += _aligned(rows)
    build_a, build_b = c.a.meta.get("table_build_ms"), c.b.meta.get("table_build_ms")
    if isinstance(build_a, (int, float)) and isinstance(build_b, (int, float)) and build_a > 0:
        lines.append(
            f"one-time table build: {build_a:.3f} ms (A), {build_b:.3f} ms (B), "
            f"ratio {build_b / build_a:.3f} (one measurement each)"
        )
    if not c.nodes_compared:
        versions = (c.a.meta.get("node_count_version"), c.b.meta.get("node_count_version"))
        lines.append(
            f"nodes: not compared, counted by different definitions (node count versions "
            f"{versions[0]} and {versions[1]})"
        )
    elif c.nodes_differ:
        lines.append(f"nodes: differ on {c.nodes_differ} of {c.shared} positions")
    else:
        lines.append(f"nodes: the same on all {c.shared} positions")
    return lines
