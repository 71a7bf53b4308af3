"""Built-in duel agents and the agent protocol.

An agent is any callable ``agent(observation, legal_actions) -> action``. It sees only the
player's :class:`~ecarte.duel.Observation` and the legal actions, never the deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from ecarte._core import DuelAction as Action
from ecarte._core import DuelObservation as Observation
from ecarte._core import derive_seed, duel_heuristic_action

__all__ = ["AGENT_STREAM", "Agent", "HeuristicAgent", "RandomAgent", "agent_seed", "make_agent"]

#: The first ``derive_seed`` stream index of agent seeds; the deals of a match use the
#: streams from 0 up, so agents never share a stream with a deal.
AGENT_STREAM = 1 << 63


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (0 or 1; 2 and up for helpers such as a hint agent)
    of the match with ``seed``: ``derive_seed(seed, AGENT_STREAM + seat)``, a whole number
    from 0 to 2**64 - 1 for every seed in that range. Raises ``EcarteError`` for a seed or
    seat out of range."""
    if not 0 <= seat < AGENT_STREAM:
        from ecarte._core import EcarteError

        raise EcarteError(f"seat must be a whole number from 0 to 2**63 - 1, got {seat!r}")
    return derive_seed(seed, AGENT_STREAM + seat)


class Agent(Protocol):
    """Chooses one of ``legal_actions`` from what ``observation`` shows."""

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action: ...


class RandomAgent:
    """Plays uniformly at random among the legal actions (Python's Mersenne Twister,
    seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return self._rng.choice(list(legal_actions))

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"


class HeuristicAgent:
    """Rule-based play (the native policy that ``duel.simulate`` calls ``"heuristic"``).

    Exchange: the elder proposes and the dealer accepts while the hand is weak (trumps
    count 1.5 and more, side-suit top cards 0.5 to 1.1; the hand keeps at 5); discards go
    lowest non-trump first. Play: win as cheaply as possible, never waste a trump on a
    trick that cannot be won, lead trumps to draw the opponent's when holding three or
    more, otherwise lead the strongest side-suit card. Deterministic.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # deterministic already; the seed is accepted for a common API

    def __repr__(self) -> str:
        return "HeuristicAgent()"

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        return duel_heuristic_action(observation, list(legal_actions))


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A built-in agent by name: ``"random"``, ``"heuristic"`` or ``"pimc"``."""
    from ecarte.pimc import PimcAgent

    agents: dict[str, Callable[[int | None], Agent]] = {
        "random": RandomAgent,
        "heuristic": HeuristicAgent,
        "pimc": lambda s: PimcAgent(seed=s),
    }
    try:
        return agents[name](seed)
    except KeyError:
        from ecarte._core import EcarteError

        raise EcarteError(
            f"unknown agent {name!r}: choose one of {', '.join(sorted(agents))}"
        ) from None
