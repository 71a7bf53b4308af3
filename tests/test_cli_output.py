"""What the `ecarte` command prints, as a person reads it: the bare command, pipes that
close early, progress bars, and the text of match, replay, bank and bench."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from ecarte.duel import Deal

ECARTE = [sys.executable, "-c", "from ecarte.cli import run; run()"]


def ecarte(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*ECARTE, *args], input=stdin, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_bare_command_shows_the_formatted_help() -> None:
    bare, helped = ecarte(), ecarte("--help")
    assert bare.returncode == 0 and bare.stderr == ""
    assert bare.stdout == helped.stdout
    lines = bare.stdout.splitlines()
    assert lines[0].startswith("Usage: ecarte") and "Commands:" in lines
    assert any(line.strip().startswith("arena") for line in lines)


@pytest.fixture(scope="module")
def match_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("records") / "match.json"
    args = ["--seed", "2", "--agents", "heuristic", "random", "--quiet", "--out", str(out)]
    assert ecarte("match", *args).returncode == 0
    return out


@pytest.mark.parametrize(
    "args",
    [
        ["match", "--seed", "1", "--agents", "heuristic", "random"],
        ["replay", "MATCH"],
        ["bank", "--deals", "200"],
        ["simulate", "--deals", "1000"],
    ],
    ids=lambda a: a[0],
)
def test_a_reader_that_stops_early_ends_the_command_quietly(
    args: list[str], match_record: Path
) -> None:
    argv = [*ECARTE, *(str(match_record) if a == "MATCH" else a for a in args)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before the first line: the next write fails
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert err == ""


def test_head_takes_the_first_line_of_a_match() -> None:
    shell = "set -o pipefail; {} match --seed 1 | head -1".format(
        " ".join(f"'{a}'" for a in ECARTE)
    )
    proc = subprocess.run(
        ["bash", "-c", shell], capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("Match to 7, seed 1")


def test_progress_bars_stay_off_a_redirected_stderr(tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    deal = Deal(seed=1)
    deal.apply("decline")
    batch.write_text(deal.to_json() + "\n")
    for args in (
        ["arena", "heuristic", "random", "--matches", "50"],
        ["simulate", "--deals", "100000"],
        ["bank", "--simulate", "100000"],
        ["bench", "solver", "--positions", "24"],
        ["solve", "--batch", str(batch)],
    ):
        proc = ecarte(*args)
        assert proc.returncode == 0, (args, proc.stderr)
        assert proc.stderr == "", args


def test_the_arena_bar_moves_within_a_second_on_a_terminal() -> None:
    import re
    import time

    import pexpect

    child = pexpect.spawn(
        sys.executable,
        [*ECARTE[1:], "arena", "pimc", "heuristic", "--matches", "200"],
        dimensions=(24, 160),
        encoding="utf-8",
        timeout=60,
    )
    child.expect("Seeds")
    seen: list[tuple[float, int]] = []
    started = time.perf_counter()
    while time.perf_counter() - started < 4.0:
        try:
            child.expect(r"(\d+) deals", timeout=4.0)
        except pexpect.TIMEOUT:
            break
        seen.append((time.perf_counter() - started, int(child.match.group(1))))
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    counts = sorted({count for _, count in seen})
    assert len(counts) >= 3, seen  # the bar counts the deals of the matches under way
    first_move = min(t for t, count in seen if count > 0)
    assert first_move < 1.5, seen
    assert child.exitstatus == 130
    assert re.search(r"interrupted", child.before or "")
