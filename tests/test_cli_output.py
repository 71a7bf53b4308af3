"""What the `ecarte` command prints, as a person reads it: the bare command, pipes that
close early, progress bars, and the text of match, replay, bank and bench."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
