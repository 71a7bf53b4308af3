"""What a benchmark's figures were measured on: the build, the machine and the run, in one
JSON object that every ``--json`` benchmark writes first (:func:`metadata`), so that a
figure can be traced to the code, the CPU and the settings that produced it, and two runs
can be told apart (:func:`differences`).

The engine answers for itself: its version, the git commit it was built from and the
instruction sets its fast paths use come from the native core. The CPU's model name is read
from ``/proc/cpuinfo`` where there is one."""

from __future__ import annotations

import datetime
import os
import platform
import sys
from collections.abc import Mapping
from typing import Any

import ecarte
from ecarte import _core

__all__ = ["FORMAT", "VERSION", "cpu_model", "differences", "metadata"]

FORMAT = "ecarte.bench.metadata"
VERSION = 1

#: Fields that differ between any two runs and say nothing about their figures.
UNCOMPARED = frozenset({"date"})


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


def metadata(threads: int | None = None) -> dict[str, Any]:
    """The run's metadata: ``format`` and ``version`` (of this object), ``ecarte`` (the
    version), ``commit`` (the git commit the engine was built from, ``None`` outside a
    checkout) and ``dirty`` (tracked files differed from it), ``cpu`` (the model name),
    ``cpu_features`` (the instruction sets the fast paths use; none under
    ``ECARTE_PORTABLE=1``), ``portable`` (whether ``ECARTE_PORTABLE=1`` is set), ``threads``
    (the threads the run uses, as given) and ``cores`` (the CPUs this process may run on),
    ``python`` (version and implementation), ``os``, ``machine`` and ``date`` (UTC, ISO
    8601)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return {
        "format": FORMAT,
        "version": VERSION,
        "ecarte": ecarte.__version__,
        "commit": _core.BUILD_COMMIT,
        "dirty": _core.BUILD_DIRTY,
        "cpu": cpu_model(),
        "cpu_features": _core.cpu_features(),
        "portable": _core.portable_mode(),
        "threads": threads,
        "cores": cores,
        "python": f"{platform.python_version()} ({sys.implementation.name})",
        "os": platform.platform(),
        "machine": platform.machine(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def differences(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """The fields whose values differ between two runs' metadata, as ``(field, a's, b's)``,
    in ``a``'s order then ``b``'s extra fields; the date is left out."""
    keys = [k for k in a if k not in UNCOMPARED]
    keys += [k for k in b if k not in a and k not in UNCOMPARED]
    return [(k, a.get(k), b.get(k)) for k in keys if a.get(k) != b.get(k)]
