"""Runs the API fuzz harness (``tests/fuzz_api.py``) in a child process, so that an abort
or a hang is caught too and the case that caused it is named. ``ECARTE_SLOW=1`` runs the
deep profile."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HARNESS = Path(__file__).with_name("fuzz_api.py")
DEEP = bool(os.environ.get("ECARTE_SLOW"))


def test_the_public_api_survives_hostile_input() -> None:
    cases, limit = (20_000, 3600) if DEEP else (300, 300)
    try:
        proc = subprocess.run(
            [sys.executable, str(HARNESS), "--cases", str(cases), "--seed", "11"],
            capture_output=True,
            text=True,
            timeout=limit,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        last = [line for line in out.splitlines() if line.startswith("case ")][-1:]
        raise AssertionError(f"hang: no answer within {limit} s after {last}") from None
    lines = proc.stdout.splitlines()
    found = [line for line in lines if line.startswith("FOUND")]
    if proc.returncode not in (0, 1):
        last = [line for line in lines if line.startswith("case ")][-1:]
        raise AssertionError(f"abort (status {proc.returncode}) at {last}: {proc.stderr[-800:]}")
    counts = json.loads(lines[-1])
    assert counts == {
        "panic": 0,
        "untyped": 0,
        "changed": 0,
        "nondeterministic": 0,
        "tampered": 0,
    }, "\n".join(found)
