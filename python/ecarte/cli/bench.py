"""``ecarte bench``: ecarte against the pure-Python reference (and OpenSpiel), and
``ecarte bench solver``: the solver on its shipped position set (:mod:`ecarte.bench`)."""

from __future__ import annotations

import click

from ecarte import MAX_THREADS
from ecarte.cli.common import Whole

#: Positions in the shipped set (solver_positions_v2: 100 for each of 0 to 11 exchanges).
POSITIONS_IN_SET = 1_200


@click.group("bench", invoke_without_command=True)
@click.option("--full", is_flag=True, help="Longer runs, steadier figures.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="JSON lines: the run's metadata (version, commit, CPU, threads, Python, OS, "
    "date, load), then one object per comparison (benches/write_tables.py makes BENCHMARKS.md's "
    "tables of them).",
)
@click.pass_context
def bench_command(ctx: click.Context, full: bool, as_json: bool) -> None:
    """Time ecarte against the pure-Python reference (and OpenSpiel, when installed), side by
    side in one run, and print the ratios. `ecarte bench solver` times the solver."""
    if ctx.invoked_subcommand is not None:
        return
    import platform
    import textwrap

    from ecarte.bench.harness import NOTES, format_table, json_lines, run_areas, run_benchmarks
    from ecarte.bench.metadata import metadata

    if as_json:
        meta = {**metadata(_threads()), "full": full, "load": _load()}
        for line in json_lines(run_areas(full=full), meta):
            click.echo(line)
        return
    click.echo(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{'full' if full else 'quick'} run"
    )
    click.echo(format_table(run_benchmarks(full=full)))
    click.echo("\n" + textwrap.fill(NOTES, 88))


def _load() -> float | None:
    """The system's load average over the last minute when the run starts (``None`` where
    the platform does not say): on a shared machine, what the absolute times competed
    with."""
    import os

    try:
        return round(os.getloadavg()[0], 1)
    except (AttributeError, OSError):
        return None


def _threads() -> int:
    """The threads the engine's parallel work runs on: ``RAYON_NUM_THREADS`` when it is set
    to a positive number, else every CPU this process may use."""
    import os

    setting = os.environ.get("RAYON_NUM_THREADS", "")
    if setting.isdigit() and int(setting) > 0:
        return int(setting)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@bench_command.command("solver")
@click.option(
    "--positions",
    type=Whole(1, POSITIONS_IN_SET),
    default=None,
    help="Solve the first N positions of the set (default: all 1,200).",
)
@click.option(
    "--threads",
    type=Whole(1, MAX_THREADS),
    default=1,
    show_default=True,
    help="Positions solved at once; each time is that of one solve on one thread.",
)
def bench_solver_command(positions: int | None, threads: int) -> None:
    """Time the double-dummy solver on the position set shipped with ecarte
    (solver_positions_v2: 100 opening positions for each of 0 to 11 exchanges), check every
    value, and print median, p90 and max time and nodes per exchange count."""
    import platform
    import statistics
    import sys
    import time

    from ecarte.bench.positions import (
        POSITIONS_FILE,
        bench_table,
        load_positions,
        percentile,
        run_bench,
    )
    from ecarte.progress import progress_bar

    total = len(load_positions(limit=positions))
    started = time.perf_counter()
    with progress_bar("Solving", total) as bar:
        rows, wrong = run_bench(positions, threads, on_progress=bar.running)
        bar(total)
    wall = time.perf_counter() - started
    print(
        f"ecarte solver benchmark: {POSITIONS_FILE}, {total} positions, {threads} "
        f"thread{'s' if threads > 1 else ''}, python {platform.python_version()} on "
        f"{platform.machine()}"
    )
    for line in bench_table(rows):
        print(line)
    every = [t for row in rows for t in row.times]
    print(
        f"all: median {statistics.median(every):.4f} ms, p90 {percentile(every, 90):.4f} ms, "
        f"max {max(every):.4f} ms; {wall:.2f} s wall"
    )
    if wrong:
        shown = ", ".join(str(i) for i in wrong[:10])
        print(f"MISMATCH: {len(wrong)} positions differ from the shipped values (ids {shown})")
        sys.exit(1)
    print(f"every value and best action matches the shipped set ({total} positions)")
