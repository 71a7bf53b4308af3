"""Built-in duel agents and the agent protocol.

An agent is any callable ``agent(observation, legal_actions) -> action``. It sees only the
player's :class:`~ecarte.duel.Observation` and the legal actions, never the deal.

The built-in agents are native: each is an :class:`ecarte.duel.BuiltinAgent`, a policy named by an
agent spec (``ecarte.duel.AGENT_SPECS``) with its own seed and its own stream, the same
object that ``duel.simulate``, the arena and the environments play natively. A match
between built-in agents therefore gives the same result whichever path plays it. See
``docs/api.md``, "Seeds".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from ecarte.duel import (
    DEFAULT_PIMC_SAMPLES,
    Action,
    BuiltinAgent,
    Observation,
    parse_agent,
)
from ecarte.seeding import agent_seed

__all__ = [
    "Agent",
    "BuiltinAgent",
    "HeuristicAgent",
    "RandomAgent",
    "agent_seed",
    "make_agent",
]

A = TypeVar("A", bound=BuiltinAgent)


class Agent(Protocol):
    """Chooses one of ``legal_actions`` from what ``observation`` shows."""

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action: ...


class RandomAgent(BuiltinAgent):
    """Plays uniformly at random among the legal actions, drawing from its own stream
    (``rng_from_seed(seed)``, see docs/api.md, "Seeds"): the native ``"random"`` agent.
    ``seed=None`` draws a fresh seed, kept in ``.seed``."""

    def __new__(cls, seed: int | None = None) -> RandomAgent:
        return super().__new__(cls, "random", seed)

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"


class HeuristicAgent(BuiltinAgent):
    """Rule-based play (the native ``"heuristic"``).

    Exchange: the elder proposes and the dealer accepts while the hand is weak (trumps
    count 1.5 and more, side-suit top cards 0.5 to 1.1; the hand keeps at 5); discards go
    lowest non-trump first. Play: win as cheaply as possible, never waste a trump on a
    trick that cannot be won, lead trumps to draw the opponent's when holding three or
    more, otherwise lead the strongest side-suit card. Deterministic: the seed is kept for
    a common API and changes nothing.
    """

    def __new__(cls, seed: int | None = None) -> HeuristicAgent:
        return super().__new__(cls, "heuristic", seed)

    def __repr__(self) -> str:
        return "HeuristicAgent()"


def make_agent(spec: str, seed: int | None = None) -> BuiltinAgent:
    """A built-in agent by spec (``ecarte.duel.AGENT_SPECS``): ``"random"``,
    ``"heuristic"``, ``"pimc"``, ``"pimc:N"`` (N worlds per decision), ``"expert"`` or
    ``"expert:N"``. The spec is read by the one native grammar that ``duel.simulate``, the
    arena and the CLI use too."""
    from ecarte.expert import ExpertAgent
    from ecarte.pimc import PimcAgent

    name, samples = parse_agent(spec)
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        return HeuristicAgent(seed)
    n = samples or DEFAULT_PIMC_SAMPLES
    if name == "expert":
        return ExpertAgent(samples=n, seed=seed)
    return PimcAgent(samples=n, seed=seed)


def _restore(cls: type[A], spec: str, seed: int, drawn: int) -> A:
    """Unpickles a built-in agent: its class, spec, seed and place in its stream."""
    agent: Any = BuiltinAgent.__new__(cls, spec, seed, drawn)
    return agent  # type: ignore[no-any-return]
