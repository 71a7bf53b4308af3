"""Hypothesis profiles: `fast` (the default, for CI) and `slow` (ECARTE_SLOW=1, deep runs);
under ECARTE_TEST_WHEEL=1, a check that the ecarte under test is an installed one."""

import importlib.util
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "fast", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "slow", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("slow" if os.environ.get("ECARTE_SLOW") else "fast")


def pytest_configure(config: pytest.Config) -> None:
    """Under ECARTE_TEST_WHEEL=1 (scripts/check's suite) the tests are meant for an installed
    ecarte: a run that would import the checkout's python/ecarte stops before it starts."""
    if not os.environ.get("ECARTE_TEST_WHEEL"):
        return
    # Found, not imported: the checkout's copy may have no compiled core to import.
    spec = importlib.util.find_spec("ecarte")
    origin = Path(spec.origin if spec and spec.origin else "").resolve()
    # The source tree, not the checkout: scripts/check's venv may sit in the checkout's target/.
    if Path(__file__).resolve().parent.parent / "python" in origin.parents:
        raise pytest.UsageError(
            f"ECARTE_TEST_WHEEL=1, but the checkout's ecarte is imported ({origin})"
        )
