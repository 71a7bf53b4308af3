"""Shared helpers of the benchmark suite.

Run it with ``pytest benches --benchmark-enable --benchmark-group-by=group``: each group puts
ecarte beside its baseline (the pure-Python reference ``ecarte.reference``, or OpenSpiel).
Without ``--benchmark-enable`` (the project default) every benchmark runs once, as a test.
"""

from __future__ import annotations

from typing import Any

import pytest

from ecarte.bench import feature


def require(path: str) -> Any:
    """The feature ``ecarte.<path>``, or skip the benchmark when it is not built yet."""
    obj = feature(path)
    if obj is None:
        pytest.skip(f"ecarte.{path} is not built yet")
    return obj
