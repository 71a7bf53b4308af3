"""``go``: a built-in agent's move for the player to move, within an optional time limit.

With a limit, every search agent (``AgentInfo.searches``, from the registry) is run on a
ladder: the heuristic's move first (microseconds), then the agent with 1, 2, 4, ... worlds
up to the worlds the spec names. A rung starts only when its predicted time fits in what is
left of the limit: the first search rung is predicted from the agent's cost per world in
the registry (:data:`FIRST_RUNG_DEALS`), each later one from the previous rung's measured
time, scaled by the worlds and a margin. The answer is the move of the last rung that
finished, and names that rung's spec, so ``go`` with that spec and no limit gives the same
move (search decisions are seeded by the observation).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ecarte._public import api_dir
from ecarte.agents import make_agent
from ecarte.duel import Action, AgentInfo, Observation, parse_agent

__all__ = ["FIRST_RUNG_DEALS", "MARGIN", "Thought", "think"]
__dir__ = api_dir(globals())

#: The one-world rung is predicted at the agent's cost per world of a whole deal
#: (``AgentInfo.deal_seconds``) times this: 0.02 s for PIMC, 0.016 s for the expert and the
#: master, where the slowest one-world decisions of 30 deals took 6 to 7 ms (mean 0.5 ms).
FIRST_RUNG_DEALS = 27
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
    _, most = parse_agent(spec)
    legal = list(legal)
    if limit is None or most is None:
        action = make_agent(spec, seed)(observation, legal)
        return Thought(action, spec, time.perf_counter() - start)
    agent = AgentInfo.of(spec)
    best = Thought(make_agent("heuristic", seed)(observation, legal), "heuristic", 0.0)
    worlds, predicted = 1, FIRST_RUNG_DEALS * agent.deal_seconds
    while True:
        if time.perf_counter() - start + predicted > limit:
            break
        began = time.perf_counter()
        rung = f"{agent.name}:{worlds}"
        best = Thought(make_agent(rung, seed)(observation, legal), rung, 0.0)
        took = time.perf_counter() - began
        if worlds >= most:
            break
        following = min(2 * worlds, most)
        predicted = took * following / worlds * MARGIN
        worlds = following
    return Thought(best.action, best.agent, time.perf_counter() - start)
