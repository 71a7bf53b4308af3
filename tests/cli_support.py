"""The ``ecarte`` command as the tests run it in a subprocess: the one spelling of its
command line and one runner, as a person runs the installed command."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final

#: The ``ecarte`` command, run by this interpreter (what the installed script runs), without
#: depending on where pip put the script.
ECARTE: Final = (sys.executable, "-c", "from ecarte.cli import run; run()")


def run_ecarte(
    *args: str | bytes,
    timeout: float | None,
    input: str | None = None,
    stdin: int | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    check: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``ecarte ARGS`` run to its end within ``timeout`` seconds (``None``: no limit), its
    output captured as text. ``input`` is the text on its standard input, or ``stdin`` a file
    descriptor such as ``subprocess.DEVNULL`` (neither: this process's own); ``env`` is added
    to this process's environment; ``cwd`` is where it runs; ``check`` raises for a status
    other than 0."""
    return subprocess.run(
        [*ECARTE, *args],
        input=input,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        check=check,
        env=None if env is None else {**os.environ, **env},
    )
