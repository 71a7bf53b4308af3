"""The `ecarte` command, run as a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ecarte.duel import Match


def ecarte(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from ecarte.cli import run; run()", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_match_prints_the_match(tmp_path: Path) -> None:
    out = tmp_path / "match.json"
    proc = ecarte("match", "--seed", "1", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    assert "Deal 1" in text and "Trump" in text
    assert any(symbol in text for symbol in "♣♦♥♠")
    assert "trick  1:" in text and "Score:" in text
    assert "wins the match" in text
    match = Match.from_json(out.read_text())
    assert match.is_over()
    final = text.strip().splitlines()[-2]
    assert f"{max(match.score)}-" in final or f"-{max(match.score)}" in final


def test_match_is_reproducible() -> None:
    a = ecarte("match", "--seed", "4", "--quiet")
    b = ecarte("match", "--seed", "4", "--quiet")
    assert a.returncode == 0 and a.stdout == b.stdout


def test_bad_arguments_exit_2() -> None:
    for args in (["match", "--target", "0"], ["match", "--agents", "oracle", "random"],
                 ["match", "--seed", "x"], ["nonsense"]):
        proc = ecarte(*args)
        assert proc.returncode == 2, args
        assert "Error" in proc.stderr or "error" in proc.stderr


def test_help_lists_commands() -> None:
    proc = ecarte("--help")
    assert proc.returncode == 0 and "match" in proc.stdout
