"""Writes BENCHMARKS.md's measured tables from the benchmarks' JSON lines.

    python benches/write_tables.py --run            # run the benchmarks, then write
    python benches/write_tables.py bench.jsonl ...  # write from saved runs

``--run`` runs ``ecarte bench --full --json`` and ``ecarte bench solver --json`` (add
``--quick`` for ``ecarte bench --json``). Each file is one run: its first line the metadata
(:mod:`ecarte.bench.metadata`), its ``bench`` field saying which benchmark wrote it. Every
table of BENCHMARKS.md between ``<!-- generated: AREA -->`` and ``<!-- end -->`` whose area
the runs measured is rewritten; the rest of the file is left as it is."""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ecarte.bench.harness import format_figure

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "BENCHMARKS.md"
BLOCK = re.compile(r"(<!-- generated: (\w+) -->\n)(.*?)(<!-- end -->)", re.S)


def read_run(lines: Iterable[str], name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A run's metadata and its rows; ``ValueError`` naming ``name`` when it is not one."""
    rows = [json.loads(line) for line in lines if line.strip()]
    if not rows or not isinstance(rows[0], dict) or "bench" not in rows[0]:
        raise ValueError(f"{name}: not the JSON lines of an ecarte benchmark")
    return rows[0], rows[1:]


def machine(meta: Mapping[str, Any]) -> str:
    """The CPU in a few words, the cores the run had, and the load average it started at."""
    cpu = str(meta.get("cpu") or "unknown CPU")
    cpu = re.sub(r"\((R|TM|tm)\)|\bCPU\b|\bProcessor\b|@.*$|\s\d+-Core", "", cpu)
    load = meta.get("load")
    loaded = "" if load is None else f", load {load:g}"
    return f"{' '.join(cpu.split())}, {meta.get('cores', '?')} cores{loaded}"


def commit(meta: Mapping[str, Any]) -> str:
    sha = meta.get("commit")
    if not sha:
        return "–"
    return f"`{sha[:7]}`" + (" (modified)" if meta.get("dirty") else "")


def ratio_cell(row: Mapping[str, Any]) -> str:
    if row["unit"] == "bytes":
        if row["ecarte"] is None or row["peer_value"] is None:
            return "–"
        return f"{row['ecarte'] / row['peer_value']:.0%} of {row['peer']}"
    if row["ratio"] is None:
        return row["note"] or "–"
    return f"{row['ratio']:.1f}× {row['peer']}"


def compare_tables(meta: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """``ecarte bench --json``: one table per area."""
    command = "`ecarte bench --full`" if meta.get("full") else "`ecarte bench`"
    where = f"{commit(meta)} | {machine(meta)}"
    tables: dict[str, list[str]] = {}
    for row in rows:
        lines = tables.setdefault(
            row["area"],
            [
                "| benchmark | per | ecarte | ratio to peer | command | commit | machine |",
                "|---|---|---:|---|---|---|---|",
            ],
        )
        figure = format_figure(row["ecarte"], row["unit"])
        unit = "" if row["unit"] == "bytes" else row["unit"]
        lines.append(
            f"| {row['benchmark']} | {unit} | {figure} | {ratio_cell(row)} | {command} | {where} |"
        )
    return {area: "\n".join(lines) + "\n" + caption(meta) for area, lines in tables.items()}


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (``q`` in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def solver_table(meta: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> str:
    """``ecarte bench solver --json``: one row per exchange count; each position's time is
    the median of its repeats."""
    by_exchanges: dict[int, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_exchanges.setdefault(int(row["exchanges"]), []).append(row)
    threads = meta.get("threads") or 1
    command = f"`ecarte bench solver --threads {threads}`"
    lines = [
        "| exchanges | positions | median | p90 | max | median nodes | command | commit "
        "| machine |",
        "|---:|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for exchanges, group in sorted(by_exchanges.items()):
        times = [statistics.median(r["ms"]) for r in group]
        nodes = statistics.median(r["nodes"] for r in group)
        lines.append(
            f"| {exchanges} | {len(group)} | {times_cell(statistics.median(times))} "
            f"| {times_cell(percentile(times, 90))} | {times_cell(max(times))} | {nodes:,.0f} "
            f"| {command} | {commit(meta)} | {machine(meta)} |"
        )
    return "\n".join(lines) + "\n" + caption(meta)


def times_cell(ms: float) -> str:
    return format_figure(ms / 1e3, "s")


def caption(meta: Mapping[str, Any]) -> str:
    threads = meta.get("threads", "?")
    return (
        f"\nMeasured {meta.get('date', '?')} with ecarte {meta.get('ecarte', '?')}, Python "
        f"{meta.get('python', '?')}, {meta.get('os', '?')}, {threads} "
        f"thread{'' if threads == 1 else 's'}.\n"
    )


def tables_of(runs: Iterable[tuple[dict[str, Any], list[dict[str, Any]]]]) -> dict[str, str]:
    """Every table the runs give, by area."""
    tables: dict[str, str] = {}
    for meta, rows in runs:
        if meta["bench"] == "compare":
            tables.update(compare_tables(meta, rows))
        elif meta["bench"] == "solver":
            tables["solver"] = solver_table(meta, rows)
        else:
            raise ValueError(f"unknown benchmark {meta['bench']!r}")
    return tables


def rewrite(text: str, tables: Mapping[str, str]) -> tuple[str, list[str]]:
    """``text`` with each generated block the runs measured replaced, and the areas
    written."""
    written: list[str] = []

    def block(match: re.Match[str]) -> str:
        area = match.group(2)
        if area not in tables:
            return match.group(0)
        written.append(area)
        return match.group(1) + tables[area] + match.group(4)

    return BLOCK.sub(block, text), written


def run_benchmarks(quick: bool) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Runs ``ecarte bench [--full] --json`` and ``ecarte bench solver --json``."""
    runs = []
    for args in (
        ["bench", "--json"] if quick else ["bench", "--full", "--json"],
        ["bench", "solver", "--json"],
    ):
        command = [sys.executable, "-c", "from ecarte.cli import run; run()", *args]
        print("running:", "ecarte", " ".join(args), file=sys.stderr)
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        runs.append(read_run(done.stdout.splitlines(), "ecarte " + " ".join(args)))
    return runs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="JSON lines of benchmark runs")
    parser.add_argument("--run", action="store_true", help="run the benchmarks first")
    parser.add_argument("--quick", action="store_true", help="with --run: ecarte bench, quick")
    parser.add_argument("--out", type=Path, default=BENCHMARKS, help="the file to rewrite")
    args = parser.parse_args(argv)
    if not args.files and not args.run:
        parser.error("name the runs' files, or --run")
    runs = run_benchmarks(args.quick) if args.run else []
    for path in args.files:
        runs.append(read_run(path.read_text(encoding="utf-8").splitlines(), str(path)))
    text, written = rewrite(args.out.read_text(encoding="utf-8"), tables_of(runs))
    args.out.write_text(text, encoding="utf-8")
    print(f"{args.out.name}: rewrote {', '.join(written) or 'nothing'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
