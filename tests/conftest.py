"""Hypothesis profiles: `fast` (the default, for CI) and `slow` (ECARTE_SLOW=1, deep runs)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "fast", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "slow", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("slow" if os.environ.get("ECARTE_SLOW") else "fast")
