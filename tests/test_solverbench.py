"""The solver benchmark's shipped position set: its shape, its values (a regression test
of the solver), its regeneration, and the commands that use it."""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path

from cli_support import run_ecarte
from ecarte.bench.positions import (
    POSITIONS_FILE,
    default_path,
    load_positions,
    make_positions,
)
from ecarte.bench.solver import read_positions, run
from ecarte.duel import Deal, solve, solve_many

ecarte = functools.partial(run_ecarte, timeout=300)


def test_the_set_ships_in_the_package() -> None:
    path = default_path()
    assert path.name == POSITIONS_FILE and path.is_file()
    positions = load_positions()
    assert [p.id for p in positions] == list(range(1200))
    assert Counter(p.exchanges for p in positions) == {x: 100 for x in range(12)}
    for p in positions:
        assert p.deal.phase == "play" and not p.deal.tricks and p.deal.exchanges == p.exchanges
        assert p.value in (-2, -1, 1, 2) and p.best_actions
    # Fresh seeds, none of the benchmarks' 0..99.
    seeds = [json.loads(line)["deal"]["deck"] for line in path.read_text().splitlines()]
    assert len({tuple(d) for d in seeds}) == 1200
    for seed in range(100):
        assert [str(c) for c in Deal(seed=seed, dealer=0).deck] not in seeds


def test_the_solver_finds_every_shipped_value() -> None:
    positions = load_positions()
    solutions = solve_many([p.deal for p in positions])
    for p, s in zip(positions, solutions, strict=False):
        assert (p.id, s.value, tuple(str(a) for a in s.best_actions)) == (
            p.id,
            p.value,
            p.best_actions,
        )


def test_a_regeneration_matches_the_shipped_lines() -> None:
    lines = default_path().read_text().splitlines()
    fresh = make_positions(30)
    assert [json.loads(line) for line in lines[:30]] == fresh


def test_a_run_of_the_shipped_set() -> None:
    bench = run(read_positions(limit=48), threads=2, repeat=2)
    assert bench.mismatched == [] and bench.table_build >= 0
    assert [r.position.id for r in bench.results] == list(range(48))
    assert Counter(r.position.exchanges for r in bench.results) == {x: 4 for x in range(12)}
    assert all(len(r.times) == 2 and r.matches for r in bench.results)


def test_bench_solver_command() -> None:
    proc = ecarte("bench", "solver", "--positions", "36", "--threads", "2")
    assert proc.returncode == 0, proc.stderr
    assert "median ms" in proc.stdout and "p90 nodes" in proc.stdout
    assert "every value and best action matches" in proc.stdout
    table = [line.split() for line in proc.stdout.splitlines() if " exchanges " in line]
    assert [int(row[0]) for row in table] == list(range(12))
    assert "one-time table build" in proc.stdout
    assert ecarte("bench", "solver", "--positions", "0").returncode == 2


def test_solve_batch_command(tmp_path: Path) -> None:
    deals = []
    for seed in range(5):
        deal = Deal(seed=seed)
        deal.apply("decline")
        for _ in range(seed):
            deal.apply(deal.legal_actions()[-1])
        deals.append(deal)
    batch = tmp_path / "batch.jsonl"
    lines = [deal.to_json() for deal in deals]
    lines.insert(2, "")  # blank lines are skipped
    lines.append(default_path().read_text().splitlines()[7])  # a position of the set
    batch.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    proc = ecarte("solve", "--batch", str(batch), "--out", str(out), "--threads", "2")
    assert proc.returncode == 0, proc.stderr
    results = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(results) == 6
    for deal, result in zip(deals, results, strict=False):
        expected = solve(deal)
        assert result["value"] == expected.value
        assert result["best_actions"] == [str(a) for a in expected.best_actions]
        assert result["nodes"] == expected.nodes and result["ms"] >= 0
    assert results[5]["id"] == 7 and results[5]["value"] == load_positions(limit=8)[7].value
    # To stdout, and the cards objective.
    proc = ecarte("solve", "--batch", str(batch), "--objective", "cards")
    assert proc.returncode == 0, proc.stderr
    cards = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [c["value"] for c in cards[:5]] == [solve(d, "cards").value for d in deals]


def test_solve_batch_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(Deal(seed=1).to_json() + "\n")
    for args in (
        ["solve", "--batch", str(bad)],
        ["solve", "--batch", str(bad), "--seed", "3"],
        ["solve", "--seed", "3", "--out", str(tmp_path / "x")],
    ):
        proc = ecarte(*args)
        assert proc.returncode == 2, args
        assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    proc = ecarte("solve", "--batch", str(bad))
    assert "bad.jsonl:1" in proc.stderr and "play phase" in proc.stderr
    bad.write_text("{not json\n")
    proc = ecarte("solve", "--batch", str(bad))
    assert proc.returncode == 2 and "not JSON" in proc.stderr
