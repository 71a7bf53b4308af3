"""What a benchmark's figures were measured on: the build, the machine and the run, in one
JSON object that every ``--json`` benchmark writes first (:func:`metadata`), so that a
figure can be traced to the code and the CPU that produced it. The CPU's model name is read
from ``/proc/cpuinfo`` where there is one."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import ecarte

__all__ = ["FORMAT", "VERSION", "cpu_model", "metadata"]

FORMAT = "ecarte.bench.metadata"
VERSION = 1


def cpu_model() -> str | None:
    """The CPU's model name (``/proc/cpuinfo``'s first ``model name``, or the platform's
    processor string elsewhere), or ``None`` when neither says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "cpu model") and value.strip():
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or None


def _commit() -> tuple[str | None, bool]:
    """The git commit of the checkout the package runs from, and whether tracked files
    differ from it; ``(None, False)`` outside a checkout (an installed wheel)."""
    here = Path(ecarte.__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        )
        if head.returncode != 0:
            return None, False
        status = subprocess.run(
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None, False
    return head.stdout.strip() or None, bool(status.stdout.strip())


def metadata(threads: int | None = None) -> dict[str, Any]:
    """The run's metadata: ``format`` and ``version`` (of this object), ``ecarte`` (the
    version), ``commit`` (the git commit of the checkout, ``None`` outside one) and
    ``dirty`` (tracked files differed from it), ``cpu`` (the model name), ``threads`` (the
    threads the run uses, as given) and ``cores`` (the CPUs this process may run on),
    ``python`` (version and implementation), ``os``, ``machine`` and ``date`` (UTC, ISO
    8601)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    commit, dirty = _commit()
    return {
        "format": FORMAT,
        "version": VERSION,
        "ecarte": ecarte.__version__,
        "commit": commit,
        "dirty": dirty,
        "cpu": cpu_model(),
        "threads": threads,
        "cores": cores,
        "python": f"{platform.python_version()} ({sys.implementation.name})",
        "os": platform.platform(),
        "machine": platform.machine(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
