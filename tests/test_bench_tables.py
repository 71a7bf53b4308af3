"""``ecarte bench --json`` and the script that writes BENCHMARKS.md's tables from it
(benches/write_tables.py)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

import pytest
from cli_support import run_ecarte
from ecarte.bench.harness import AREAS

ROOT = Path(__file__).resolve().parent.parent


def write_tables() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "write_tables", ROOT / "benches" / "write_tables.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


META = {
    "format": "ecarte.bench.metadata",
    "version": 1,
    "ecarte": "0.1.0",
    "commit": "0123456789abcdef0123456789abcdef01234567",
    "dirty": False,
    "cpu": "Intel(R) Xeon(R) Processor",
    "threads": 2,
    "cores": 2,
    "python": "3.11.7 (cpython)",
    "os": "Linux-6.1-x86_64",
    "machine": "x86_64",
    "date": "2026-12-06T22:00:00+00:00",
}


def compare_run() -> list[str]:
    rows = [
        {
            "area": "duel",
            "benchmark": "new deal (shuffle + deal)",
            "unit": "deal",
            "ecarte": 340e-9,
            "peer": "reference",
            "peer_value": 6.8e-6,
            "ratio": 20.0,
            "note": "",
        },
        {
            "area": "memory",
            "benchmark": "memory: VecEnv (compact) of 1,000,000 envs",
            "unit": "bytes",
            "ecarte": float(1 << 29),
            "peer": "1 GiB",
            "peer_value": float(1 << 30),
            "ratio": 2.0,
            "note": "",
        },
        {
            "area": "openspiel",
            "benchmark": "random playout vs euchre",
            "unit": "action",
            "ecarte": None,
            "peer": "open_spiel euchre",
            "peer_value": None,
            "ratio": None,
            "note": "n/a (open_spiel not installed)",
        },
    ]
    meta = {**META, "bench": "compare", "full": True, "load": 3.5}
    return [json.dumps(meta)] + [json.dumps(r) for r in rows]


def solver_run() -> list[str]:
    rows = [
        {"exchanges": e, "nodes": n, "ms": [ms, ms * 3]}
        for e, n, ms in [(0, 100, 1.0), (0, 300, 2.0), (0, 200, 4.0), (1, 10, 0.01)]
    ]
    return [json.dumps({**META, "bench": "solver", "threads": 1})] + [json.dumps(r) for r in rows]


def test_the_tables_carry_figure_ratio_command_commit_and_machine() -> None:
    wt = write_tables()
    tables = wt.tables_of([wt.read_run(compare_run(), "a"), wt.read_run(solver_run(), "b")])
    assert sorted(tables) == ["duel", "memory", "openspiel", "solver"]
    duel = tables["duel"].splitlines()[2]
    assert duel == (
        "| new deal (shuffle + deal) | deal | 340 ns | 20.0× reference | `ecarte bench --full` "
        "| `0123456` | Intel Xeon, 2 cores, load 3.5 |"
    )
    assert "| 512 MiB | 50% of 1 GiB |" in tables["memory"]
    assert "n/a (open_spiel not installed)" in tables["openspiel"]
    # Each position's time is the median of its repeats (2, 4, 8 ms), then the median,
    # p90 and max over the positions; nodes are the median.
    assert (
        "| 0 | 3 | 4 ms | 8 ms | 8 ms | 200 | `ecarte bench solver --threads 1` |"
        in (tables["solver"])
    )
    assert "Measured 2026-12-06T22:00:00+00:00 with ecarte 0.1.0" in tables["duel"]


def test_only_the_measured_blocks_are_rewritten() -> None:
    wt = write_tables()
    text = (
        "intro\n<!-- generated: duel -->\nold duel\n<!-- end -->\nmiddle\n"
        "<!-- generated: bank -->\nold bank\n<!-- end -->\n"
    )
    tables = wt.tables_of([wt.read_run(compare_run(), "a")])
    out, written = wt.rewrite(text, tables)
    assert written == ["duel"]
    assert "old duel" not in out and "new deal (shuffle + deal)" in out
    assert "old bank" in out and out.startswith("intro\n") and "\nmiddle\n" in out


def test_a_file_that_is_not_a_run_is_refused() -> None:
    wt = write_tables()
    with pytest.raises(ValueError, match=r"notes\.txt: not the JSON lines"):
        wt.read_run(['{"a": 1}'], "notes.txt")


def test_benchmarks_md_has_every_generated_table_filled() -> None:
    text = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
    blocks = dict(re.findall(r"<!-- generated: (\w+) -->\n(.*?)<!-- end -->", text, re.S))
    assert sorted(blocks) == sorted([*AREAS, "solver"])
    for area, block in blocks.items():
        assert block.startswith("| ") and "\nMeasured " in block, area


def test_ecarte_bench_json_writes_metadata_then_rows() -> None:
    done = run_ecarte("bench", "--json", timeout=600)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    meta, rows = lines[0], lines[1:]
    assert meta["bench"] == "compare" and meta["full"] is False
    for key in ("ecarte", "commit", "cpu", "threads", "python", "os", "date", "load"):
        assert key in meta, key
    assert meta["threads"] >= 1
    assert {r["area"] for r in rows} == set(AREAS)
    for row in rows:
        assert row["ecarte"] is not None or row["note"].startswith("n/a"), row
