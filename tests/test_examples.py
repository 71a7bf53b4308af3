"""The learning examples run end to end, in miniature, so that they cannot rot: the
MaskablePPO recipe (training, the curve, the arena evaluation) and RLlib self-play on a
local Ray. The runs that learn for real are in docs/learning.md and BENCHMARKS.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=600, cwd=ROOT
    )


def test_the_maskable_ppo_recipe_trains_plots_and_evaluates(tmp_path: Path) -> None:
    proc = run(
        "examples/train_maskable_ppo.py",
        "--minutes", "0.02", "--eval-every", "0.02", "--curve-deals", "100",
        "--final-deals", "20", "--out", str(tmp_path),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    curve = json.loads((tmp_path / "curve.json").read_text())
    assert len(curve) >= 2 and curve[-1]["timesteps"] > 0
    results = json.loads((tmp_path / "results.json").read_text())
    for opponent in ("random", "heuristic", "pimc"):
        assert results["arena"][opponent]["deals"] >= 20
    assert (tmp_path / "curve.png").stat().st_size > 1000
    assert (tmp_path / "model.zip").exists()
    # A run stopped before its evaluation is evaluated from what it wrote.
    (tmp_path / "results.json").unlink()
    proc = run(
        "examples/train_maskable_ppo.py",
        "--evaluate-only", "--final-deals", "20", "--out", str(tmp_path),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    again = json.loads((tmp_path / "results.json").read_text())
    assert again["timesteps"] == curve[-1]["timesteps"]
    assert json.loads((tmp_path / "curve.json").read_text()) == curve


def test_rllib_self_play_runs_on_a_local_ray() -> None:
    proc = run(
        "examples/rllib_selfplay.py",
        "--iterations", "1", "--batch", "400", "--envs-per-runner", "2", "--eval-matches", "1",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "iteration 1:" in proc.stdout and "after training: points per deal" in proc.stdout
