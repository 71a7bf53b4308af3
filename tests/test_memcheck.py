"""A deep run: valgrind's memcheck over the code that works on raw memory, in the
Rust tests (the SIMD card planes, the SSE2 and AVX2 ChaCha8 blocks, the POPCNT and BMI2
picks, the VecEnv) and through Python (VecEnv steps over several blocks of envs in both
layouts, and every case of ``numpy_boundary.py``), each with the fast paths and with
``ECARTE_PORTABLE=1``. Valgrind runs no AVX-512 (its CPU has none), so the AVX2 paths are
the fast ones here; the AVX-512 planes are compared with the others by the Rust tests.

    ECARTE_MEMCHECK=1 pytest tests/test_memcheck.py

takes a few minutes on 2 cores (docs/testing.md); skipped otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    os.environ.get("ECARTE_MEMCHECK") != "1", reason="a deep run: ECARTE_MEMCHECK=1"
)

ROOT = Path(__file__).resolve().parent.parent
#: The Rust tests of the code with raw-memory or SIMD paths, as test-name filters.
RUST_TESTS = (
    "cpu::",
    "duel::observe::",
    "duel::action::",
    "rng::chacha::",
    "play::random::",
    "play::vecenv::",
    "play::opponent::",
)
MEMCHECK = ("valgrind", "--tool=memcheck", "--leak-check=no", "--num-callers=40")

#: VecEnv steps over two blocks of envs (so on two threads), then the boundary cases.
PYTHON_SCRIPT = f"""
import runpy
from ecarte import duel
for layout in ("float32", "compact"):
    env = duel.VecEnv(300, seed=1, observation=layout)
    for _ in range(40):
        obs = env.step(env.random_actions())[0]
    if layout == "compact":
        duel.decode_observations(obs)
runpy.run_path({str(ROOT / "tests" / "numpy_boundary.py")!r}, run_name="__main__")
"""


def rust_test_binary() -> str:
    """The library's test binary, built in release (the build the wheels ship)."""
    build = subprocess.run(
        ["cargo", "test", "--release", "--no-run", "--message-format=json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    for line in build.stdout.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("executable"):
            if "rlib" in message["target"]["kind"]:
                return str(message["executable"])
    raise AssertionError("no library test binary in cargo's output")


@pytest.mark.parametrize("portable", ["0", "1"])
def test_the_rust_simd_and_vecenv_tests_under_memcheck(portable: str) -> None:
    proc = subprocess.run(
        [*MEMCHECK, "--error-exitcode=99", rust_test_binary(), *RUST_TESTS],
        env={**os.environ, "ECARTE_PORTABLE": portable},
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "ERROR SUMMARY: 0 errors" in proc.stderr
    assert "test result: ok." in proc.stdout and " 0 failed" in proc.stdout


def errors_in_ecarte(report: Path) -> list[str]:
    """The memory errors (not leaks) of a valgrind XML report whose stack passes through
    ecarte's extension. CPython's own reports (uninitialised reads while it starts up,
    the dynamic loader's) are left aside."""
    found = []
    for error in ET.parse(report).getroot().iter("error"):
        if (error.findtext("kind") or "").startswith("Leak_"):
            continue  # the interpreter's objects alive at exit
        frames = error.findall("./stack/frame")
        if any("_core.cpython" in (frame.findtext("obj") or "") for frame in frames):
            names = [frame.findtext("fn") or "?" for frame in frames[:6]]
            found.append(f"{error.findtext('kind')}: {' < '.join(names)}")
    return found


@pytest.mark.parametrize("portable", ["0", "1"])
def test_vecenv_steps_and_the_boundary_cases_under_memcheck(portable: str, tmp_path: Path) -> None:
    report = tmp_path / "memcheck.xml"
    proc = subprocess.run(
        [*MEMCHECK, "--xml=yes", f"--xml-file={report}", sys.executable, "-c", PYTHON_SCRIPT],
        env={**os.environ, "ECARTE_PORTABLE": portable, "PYTHONMALLOC": "malloc"},
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = [line.split("\t") for line in proc.stdout.splitlines()]
    assert len(results) > 150 and all(r[1] == "ok" for r in results), proc.stdout[-3000:]
    assert errors_in_ecarte(report) == []
