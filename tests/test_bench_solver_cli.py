"""``ecarte bench solver FILE --json`` and ``ecarte bench compare``, run as a researcher runs
them: in a subprocess, on files of their own."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import ecarte
import pytest
from cli_support import run_ecarte
from ecarte import duel
from ecarte.bench.metadata import differences, metadata
from ecarte.bench.positions import default_path, load_positions

METADATA_FIELDS = {
    "format", "version", "ecarte", "commit", "dirty", "cpu", "cpu_features", "portable",
    "threads", "cores", "python", "os", "machine", "date", "bench", "positions_file",
    "positions", "repeat", "warmup", "objective", "node_count_version", "table_build_ms",
}  # fmt: skip


ecarte_cli = functools.partial(run_ecarte, timeout=300, env={})


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def play_deals(count: int) -> list[duel.Deal]:
    deals = []
    for seed in range(count):
        deal = duel.Deal(seed=seed)
        deal.apply("decline")
        for _ in range(seed % 4):
            deal.apply(deal.legal_actions()[-1])
        deals.append(deal)
    return deals


@pytest.fixture
def positions_file(tmp_path: Path) -> Path:
    """Four deal records of the researcher's own, and two lines of the shipped set."""
    path = tmp_path / "mine.jsonl"
    shipped = default_path().read_text().splitlines()
    lines = [d.to_json() for d in play_deals(4)] + ["", shipped[3], shipped[14]]
    path.write_text("\n".join(lines) + "\n")
    return path


def run_json(path: Path, *args: str, env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    proc = ecarte_cli("bench", "solver", str(path), "--json", *args, env=env)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_the_json_carries_the_metadata_then_each_position(positions_file: Path) -> None:
    out = run_json(positions_file, "--repeat", "3", "--warmup", "--threads", "2")
    meta, rows = out[0], out[1:]
    assert set(meta) == METADATA_FIELDS
    assert meta["format"] == "ecarte.bench.metadata" and meta["bench"] == "solver"
    assert meta["ecarte"] == ecarte.__version__
    assert (meta["repeat"], meta["warmup"], meta["threads"], meta["positions"]) == (3, True, 2, 6)
    assert meta["positions_file"] == str(positions_file)
    assert meta["node_count_version"] == duel.NODE_COUNT_VERSION
    assert meta["table_build_ms"] >= 0 and meta["cores"] >= 1
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", meta["date"])
    assert meta["commit"] is None or re.fullmatch(r"[0-9a-f]{40}", meta["commit"])
    assert isinstance(meta["portable"], bool) and isinstance(meta["cpu_features"], list)
    assert meta["python"].startswith(".".join(map(str, sys.version_info[:2])))
    shipped = load_positions(limit=15)
    deals = [*play_deals(4), shipped[3].deal, shipped[14].deal]
    assert [r["id"] for r in rows] == [0, 1, 2, 3, 3, 14]
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 6, 7]
    for row, deal in zip(rows, deals, strict=True):
        expected = duel.solve(deal)
        assert row["value"] == expected.value and row["nodes"] == expected.nodes
        assert row["best_actions"] == [str(a) for a in expected.best_actions]
        assert row["exchanges"] == deal.exchanges
        assert len(row["ms"]) == 3 and all(t > 0 for t in row["ms"])
    # Only the shipped set's records give values to check against.
    assert [r["matches"] for r in rows] == [None] * 4 + [True, True]


def test_the_metadata_follows_the_portable_switch(positions_file: Path) -> None:
    meta = run_json(positions_file, "--positions", "1", env={"ECARTE_PORTABLE": "1"})[0]
    assert meta["portable"] is True and meta["cpu_features"] == []
    fast = run_json(positions_file, "--positions", "1", env={"ECARTE_PORTABLE": "0"})[0]
    assert fast["portable"] is False
    assert set(fast["cpu_features"]) == set(ecarte._core.cpu_features(available=True))
    assert ("portable", False, True) in differences(fast, meta)


def test_metadata_names_the_build_and_machine() -> None:
    meta = metadata(threads=3)
    for field in ("ecarte", "cpu_features", "portable", "threads", "cores", "python", "os"):
        assert meta[field] is not None, field
    assert meta["threads"] == 3 and meta["commit"] == ecarte._core.BUILD_COMMIT
    # Built from this checkout, the commit is one of its own.
    if ecarte._core.BUILD_COMMIT is not None:
        known = subprocess.run(
            ["git", "cat-file", "-t", ecarte._core.BUILD_COMMIT],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            check=False,
        )
        assert known.returncode != 0 or known.stdout.strip() == "commit"
    assert differences(meta, {**meta, "date": "later"}) == []


def test_the_text_table_reports_the_table_build_apart(positions_file: Path) -> None:
    proc = ecarte_cli("bench", "solver", str(positions_file), "--repeat", "2")
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"one-time table build: \d+\.\d{3} ms", proc.stdout)
    assert f"ecarte {ecarte.__version__} solver benchmark" in proc.stdout
    assert "every value and best action matches the file (2 positions)" in proc.stdout
    stages = [line.split()[0] for line in proc.stdout.splitlines() if " exchanges " in line]
    assert stages == ["0", "2", "3"]


def test_a_wrong_value_in_the_file_fails(tmp_path: Path) -> None:
    record = json.loads(default_path().read_text().splitlines()[0])
    record["value"] = -record["value"]
    path = tmp_path / "wrong.jsonl"
    path.write_text(json.dumps(record) + "\n")
    proc = ecarte_cli("bench", "solver", str(path), "--json")
    assert proc.returncode == 1 and "MISMATCH: 1 positions" in proc.stderr
    assert json.loads(proc.stdout.splitlines()[1])["matches"] is False


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json\n", "not JSON"),
        ("", "no positions"),
        ("[1, 2]\n", "expected a JSON object"),
        (duel.Deal(seed=1).to_json() + "\n", "play phase"),
        ('{"format": "ecarte.solver.position", "deal": {}}\n', "bad.jsonl:1"),
    ],
)
def test_a_bad_positions_file_gets_one_line(tmp_path: Path, content: str, says: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    assert says in one_line_error(ecarte_cli("bench", "solver", str(path), "--json"))


def test_bad_arguments_get_one_line(tmp_path: Path) -> None:
    one_line_error(ecarte_cli("bench", "solver", str(tmp_path / "missing.jsonl")))
    one_line_error(ecarte_cli("bench", "solver", str(tmp_path)))
    one_line_error(ecarte_cli("bench", "solver", "--repeat", "0"))
    one_line_error(ecarte_cli("bench", "solver", "--positions", "0"))


# -- compare ---------------------------------------------------------------------------


def write_run(path: Path, meta: dict[str, Any], rows: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(x) for x in [meta, *rows]) + "\n")
    return path


def synthetic(scale: float, repeats: int, noise: float = 0.0) -> list[dict[str, Any]]:
    """Positions of two exchange counts whose repeats are ``scale`` times a base time,
    spread by ``noise`` around it."""
    rows = []
    for i in range(40):
        base = 0.1 + 0.01 * i
        spread = [1 + noise * (k - (repeats - 1) / 2) for k in range(repeats)]
        rows.append(
            {
                "id": i,
                "key": f"k{i}",
                "exchanges": i % 2,
                "nodes": 100 + i,
                "ms": [scale * base * s for s in spread],
            }
        )
    return rows


def compare_rows(stdout: str) -> dict[str, list[str]]:
    """The table's rows by stage name (its first words up to the first number)."""
    rows = {}
    for line in stdout.splitlines():
        match = re.match(r"^(\d+ exchanges|all)\s+(.*)$", line)
        if match:
            rows[match.group(1)] = match.group(2).split()
    return rows


def test_compare_gives_ratios_with_intervals(tmp_path: Path) -> None:
    meta = {**metadata(1), "bench": "solver", "node_count_version": 1, "table_build_ms": 1.0}
    a = write_run(tmp_path / "a.json", meta, synthetic(1.0, 5, noise=0.1))
    b = write_run(
        tmp_path / "b.json",
        {**meta, "commit": "f" * 40, "table_build_ms": 0.5},
        synthetic(2.0, 5, noise=0.1),
    )
    proc = ecarte_cli("bench", "compare", str(a), str(b))
    assert proc.returncode == 0, proc.stderr
    rows = compare_rows(proc.stdout)
    assert set(rows) == {"0 exchanges", "1 exchanges", "all"}
    for cells in rows.values():
        # A median, B median, ratio, low "to" high, A p90, B p90, ratio, low "to" high.
        assert cells[2] == "2.000" and cells[8] == "2.000", cells
        low, high = float(cells[3]), float(cells[5])
        assert 1.5 < low < 2.0 < high < 2.5
    assert f"differs: commit: {meta['commit']} (A), {'f' * 40} (B)" in proc.stdout
    assert "one-time table build: 1.000 ms (A), 0.500 ms (B), ratio 0.500" in proc.stdout
    assert "nodes: the same on all 40 positions" in proc.stdout
    # Seeded: the same files and seed print the same; another seed draws other intervals.
    again = ecarte_cli("bench", "compare", str(a), str(b))
    assert again.stdout == proc.stdout
    other = ecarte_cli("bench", "compare", str(a), str(b), "--seed", "9")
    assert other.returncode == 0 and compare_rows(other.stdout) != rows


def test_compare_without_noise_and_without_repeats(tmp_path: Path) -> None:
    meta = {**metadata(1), "bench": "solver", "node_count_version": 1, "table_build_ms": 1.0}
    a = write_run(tmp_path / "a.json", meta, synthetic(1.0, 3))
    b = write_run(tmp_path / "b.json", meta, synthetic(0.5, 3))
    rows = compare_rows(ecarte_cli("bench", "compare", str(a), str(b)).stdout)
    assert rows["all"][2:6] == ["0.500", "0.500", "to", "0.500"]
    single = write_run(tmp_path / "c.json", meta, synthetic(0.5, 1)[:30])
    solo = write_run(tmp_path / "d.json", meta, synthetic(1.0, 1))
    proc = ecarte_cli("bench", "compare", str(solo), str(single))
    assert "n/a (1 repeat)" in proc.stdout
    assert "compared on the 30 positions both runs solved" in proc.stdout
    newer = write_run(tmp_path / "e.json", {**meta, "node_count_version": 2}, synthetic(1.0, 1))
    proc = ecarte_cli("bench", "compare", str(solo), str(newer))
    assert "nodes: not compared, counted by different definitions" in proc.stdout


def test_compare_two_real_runs(positions_file: Path, tmp_path: Path) -> None:
    """The whole loop: two runs of the bench, compared; the second under ECARTE_PORTABLE."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for path, env in ((a, {}), (b, {"ECARTE_PORTABLE": "1"})):
        proc = ecarte_cli("bench", "solver", str(positions_file), "--json", "--repeat", "3",
                          env=env)  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        path.write_text(proc.stdout)
    proc = ecarte_cli("bench", "compare", str(a), str(b))
    assert proc.returncode == 0, proc.stderr
    assert set(compare_rows(proc.stdout)) == {f"{x} exchanges" for x in (0, 2, 3)} | {"all"}
    assert "differs: portable: False (A), True (B)" in proc.stdout
    assert "nodes: the same on all 6 positions" in proc.stdout


def test_compare_refuses_what_it_cannot_compare(tmp_path: Path, positions_file: Path) -> None:
    meta = {**metadata(1), "bench": "solver", "node_count_version": 1}
    good = write_run(tmp_path / "good.json", meta, synthetic(1.0, 2))
    other = synthetic(1.0, 2)
    for row in other:
        row["key"] = "elsewhere"
    disjoint = write_run(tmp_path / "disjoint.json", meta, other)
    assert "share no position" in one_line_error(
        ecarte_cli("bench", "compare", str(good), str(disjoint))
    )
    assert "not the output of" in one_line_error(
        ecarte_cli("bench", "compare", str(good), str(positions_file))
    )
    broken = write_run(tmp_path / "broken.json", meta, [{"id": 1}])
    assert "broken.json:2" in one_line_error(ecarte_cli("bench", "compare", str(good), str(broken)))
    empty = write_run(tmp_path / "empty.json", meta, [])
    assert "no positions" in one_line_error(ecarte_cli("bench", "compare", str(good), str(empty)))
    one_line_error(ecarte_cli("bench", "compare", str(good), str(tmp_path / "missing.json")))
