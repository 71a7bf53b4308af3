"""``go``: a built-in agent's move for the player to move, within an optional time limit.

With a limit, a search agent (``pimc``, ``expert``) is run on a ladder: the heuristic's
move first (microseconds), then the agent with 1, 2, 4, ... worlds up to the worlds the spec
names. A rung starts only when its predicted time fits in what is left of the limit: the
first search rung is predicted at :data:`FIRST_WORLD_SECONDS`, each later one from the
previous rung's measured time, scaled by the worlds and a margin. The answer is the move
of the last rung that finished, and names that rung's spec, so ``go`` with that spec and
no limit gives the same move (search decisions are seeded by the observation).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ecarte.agents import make_agent
from ecarte.duel import (
    DEFAULT_EXPERT_SAMPLES,
    DEFAULT_PIMC_SAMPLES,
    Action,
    Observation,
    parse_agent,
)

__all__ = ["FIRST_WORLD_SECONDS", "MARGIN", "Thought", "think"]

#: The predicted time of a one-world search (measured: 2-5 ms on the opening).
FIRST_WORLD_SECONDS = 0.02
#: Each later rung is predicted at its share of the worlds times this.
MARGIN = 1.5


@dataclass(frozen=True)
class Thought:
    action: Action
    agent: str
    seconds: float


def think(
    observation: Observation,
    legal: Sequence[Action],
    spec: str,
    seed: int,
    limit: float | None = None,
) -> Thought:
    """The move of the agent ``spec`` (seeded ``seed``) for ``observation``; with ``limit``
    (seconds), of the strongest rung of the ladder above predicted to finish in time."""
    start = time.perf_counter()
    kind, samples = parse_agent(spec)
    legal = list(legal)
    if limit is None or kind not in ("pimc", "expert"):
        action = make_agent(spec, seed)(observation, legal)
        return Thought(action, spec, time.perf_counter() - start)
    best = Thought(make_agent("heuristic", seed)(observation, legal), "heuristic", 0.0)
    most = samples or (DEFAULT_PIMC_SAMPLES if kind == "pimc" else DEFAULT_EXPERT_SAMPLES)
    worlds, predicted = 1, FIRST_WORLD_SECONDS
    while True:
        if time.perf_counter() - start + predicted > limit:
            break
        began = time.perf_counter()
        rung = f"{kind}:{worlds}"
        best = Thought(make_agent(rung, seed)(observation, legal), rung, 0.0)
        took = time.perf_counter() - began
        if worlds >= most:
            break
        following = min(2 * worlds, most)
        predicted = took * following / worlds * MARGIN
        worlds = following
    return Thought(best.action, best.agent, time.perf_counter() - start)
