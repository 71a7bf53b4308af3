"""Shared helpers of the benchmark suite.

Run it with ``pytest benches --benchmark-enable --benchmark-group-by=group``: each group puts
ecarte beside its baseline (the pure-Python reference ``ecarte.bench.reference``, or OpenSpiel).
Without ``--benchmark-enable`` (the project default) every benchmark runs once, as a test.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ecarte.duel import Deal


def ecarte_steps(actions: int, ids: bool = False) -> Callable[[], None]:
    """A round of ``actions`` random actions through the Python step API (legal actions,
    ``random.choice``, apply), dealing new deals as needed; ``ids`` draws from
    ``legal_action_ids()`` instead of ``legal_actions()``."""
    rng, seeds = random.Random(2), iter(range(1 << 62))
    deal = [Deal(seed=0)]

    def steps() -> None:
        d = deal[0]
        for _ in range(actions):
            if d.is_over():
                d = deal[0] = Deal(seed=next(seeds))
            d.apply(rng.choice(d.legal_actions()))

    def id_steps() -> None:
        d = deal[0]
        for _ in range(actions):
            if d.is_over():
                d = deal[0] = Deal(seed=next(seeds))
            d.apply(rng.choice(d.legal_action_ids()))

    return id_steps if ids else steps
