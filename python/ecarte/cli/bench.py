"""``ecarte bench``: ecarte against the pure-Python reference (and OpenSpiel), and
``ecarte bench solver``: the solver on its shipped position set (:mod:`ecarte.bench`)."""

from __future__ import annotations

from pathlib import Path

import click

from ecarte import MAX_BATCH, MAX_THREADS
from ecarte.cli.common import SEED, Whole

#: The most times ``bench solver --repeat`` solves each position.
MAX_REPEAT = 1_000


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
@click.argument(
    "file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--positions",
    type=Whole(1, MAX_BATCH),
    default=None,
    help="Solve the first N positions of the file (default: all).",
)
@click.option(
    "--threads",
    type=Whole(1, MAX_THREADS),
    default=1,
    show_default=True,
    help="Positions solved at once; each time is that of one solve on one thread.",
)
@click.option(
    "--repeat",
    type=Whole(1, MAX_REPEAT),
    default=1,
    show_default=True,
    help="Solve every position K times; the table shows each position's median time.",
)
@click.option(
    "--warmup",
    is_flag=True,
    help="Solve every position once, untimed, before the timed solves.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="JSON lines: the run's metadata, then one object per position.",
)
def bench_solver_command(
    file: Path | None,
    positions: int | None,
    threads: int,
    repeat: int,
    warmup: bool,
    as_json: bool,
) -> None:
    """Time the double-dummy solver on FILE, JSON lines of play-phase deal records or of
    position records (default: the set shipped with ecarte, solver_positions_v2: 100
    opening positions for each of 0 to 11 exchanges). Prints median, p90 and max time and
    nodes per exchange count, the one-time table build apart, and checks every value the
    file gives (status 1 when one differs)."""
    import sys
    import time

    from ecarte.bench.metadata import metadata
    from ecarte.bench.positions import POSITIONS_FILE
    from ecarte.bench.solver import json_lines, read_positions, run, run_table
    from ecarte.progress import progress_bar

    chosen = read_positions(file, positions)
    source = POSITIONS_FILE if file is None else str(file)
    total = len(chosen) * (repeat + warmup)
    started = time.perf_counter()
    with progress_bar("Solving", total) as bar:
        bench = run(chosen, threads, repeat, warmup, source, on_progress=bar.running)
        bar(total)
    wall = time.perf_counter() - started
    if as_json:
        for line in json_lines(bench):
            click.echo(line)
    else:
        meta = metadata(threads)
        commit = meta["commit"] or "none (not built from a checkout)"
        if meta["dirty"]:
            commit += " (modified)"
        features = ", ".join(meta["cpu_features"]) or "none"
        print(
            f"ecarte {meta['ecarte']} solver benchmark: {source}, {len(chosen)} positions, "
            f"{threads} thread{'s' if threads > 1 else ''}, {repeat} repeat"
            f"{'s' if repeat > 1 else ''}{', after a warm-up pass' if warmup else ''}"
        )
        print(f"commit {commit}; python {meta['python']} on {meta['os']}")
        print(
            f"cpu {meta['cpu'] or 'unknown'} ({meta['cores']} cores); fast paths: {features}"
            f"{' (ECARTE_PORTABLE=1)' if meta['portable'] else ''}"
        )
        print(f"one-time table build: {bench.table_build * 1e3:.3f} ms (not in the times below)")
        for line in run_table(bench):
            print(line)
        print(f"{wall:.2f} s wall")
    checked = sum(r.matches is not None for r in bench.results)
    wrong = bench.mismatched
    if wrong:
        shown = ", ".join(str(i) for i in wrong[:10])
        print(
            f"MISMATCH: {len(wrong)} positions differ from the file's values (ids {shown})",
            file=sys.stderr if as_json else sys.stdout,
        )
        sys.exit(1)
    if not as_json and checked:
        print(f"every value and best action matches the file ({checked} positions)")


@bench_command.command("compare")
@click.argument("a", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("b", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the bootstrap.")
@click.option(
    "--resamples",
    type=Whole(100, 100_000),
    default=1000,
    show_default=True,
    help="Bootstrap draws behind each interval.",
)
def bench_compare_command(a: Path, b: Path, seed: int, resamples: int) -> None:
    """Compare two runs of `ecarte bench solver --json` (A, then B): for each exchange
    count and for all positions they share, the median and p90 solve time of each and the
    ratio B/A, with a 95% interval from the repeats (a seeded bootstrap over each
    position's repeats); what differs between the two runs' builds and machines; whether
    the nodes agree."""
    from ecarte.bench.solver import compare, compare_table, read_run

    comparison = compare(read_run(a), read_run(b), seed, resamples)
    for line in compare_table(comparison):
        click.echo(line)
