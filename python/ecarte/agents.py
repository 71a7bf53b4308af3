"""Built-in duel agents and the agent protocol.

An agent is any callable ``agent(observation, legal_actions) -> action``. It sees only the
player's :class:`~ecarte.duel.Observation` and the legal actions, never the deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ecarte.duel import Action, Observation, heuristic_action, parse_agent
from ecarte.seeding import AGENT_STREAM, agent_seed, resolve_seed

__all__ = ["AGENT_STREAM", "Agent", "HeuristicAgent", "RandomAgent", "agent_seed", "make_agent"]


class Agent(Protocol):
    """Chooses one of ``legal_actions`` from what ``observation`` shows."""

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action: ...


class RandomAgent:
    """Plays uniformly at random among the legal actions (Python's Mersenne Twister,
    seeded; ``seed=None`` draws a fresh seed, kept in ``.seed``)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = resolve_seed(seed)
        self._rng = random.Random(self.seed)

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
        return heuristic_action(observation, list(legal_actions))


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """A built-in agent by spec (``ecarte.duel.AGENT_SPECS``): ``"random"``,
    ``"heuristic"``, ``"pimc"``, ``"pimc:N"`` (N worlds per decision), ``"expert"``,
    ``"expert:N"``, ``"master"`` or ``"master:N"``. The spec is read by the one native
    grammar that ``duel.simulate``, the arena and the CLI use too."""
    from ecarte.expert import ExpertAgent
    from ecarte.master import MasterAgent
    from ecarte.pimc import PimcAgent

    name, samples = parse_agent(spec)
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        return HeuristicAgent(seed)
    assert samples is not None  # the grammar gives the search agents their world count
    if name == "expert":
        return ExpertAgent(samples=samples, seed=seed)
    if name == "master":
        return MasterAgent(samples=samples, seed=seed)
    return PimcAgent(samples=samples, seed=seed)
