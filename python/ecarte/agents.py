"""Built-in duel agents and the agent protocol.

An agent is any callable ``agent(observation, legal_actions) -> action``. It sees only the
player's :class:`~ecarte.duel.Observation` and the legal actions, never the deal.

The built-in agents are native: each is an :class:`ecarte.duel.BuiltinAgent`, a policy named by an
agent spec (one of ``ecarte.duel.AGENTS``, the registry) with its own seed and its own
stream, the same object that ``duel.simulate``, the arena and the environments play
natively. A match between built-in agents therefore gives the same result whichever path
plays it. :func:`make_agent` makes any of them; the classes below name the agents that have
one. See ``docs/api.md``, "Seeds", and ``docs/agents.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from ecarte._core import MAX_SAMPLES
from ecarte._public import api_dir
from ecarte.duel import Action, AgentInfo, BuiltinAgent, Observation
from ecarte.errors import EcarteError
from ecarte.seeding import agent_seed

__all__ = [
    "Agent",
    "BuiltinAgent",
    "ExpertAgent",
    "GrandmasterAgent",
    "HeuristicAgent",
    "MasterAgent",
    "PimcAgent",
    "RandomAgent",
    "agent_seed",
    "make_agent",
]
__dir__ = api_dir(globals())

A = TypeVar("A", bound=BuiltinAgent)


class Agent(Protocol):
    """Chooses one of ``legal_actions`` from what ``observation`` shows."""

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action: ...


class RandomAgent(BuiltinAgent):
    """Plays uniformly at random among the legal actions, drawing from its own stream
    (``rng_from_seed(seed)``, see docs/api.md, "Seeds"): the native ``"random"`` agent.
    ``seed=None`` draws a fresh seed, kept in ``.seed``."""

    _name = "random"

    def __new__(cls, seed: int | None = None) -> RandomAgent:
        return super().__new__(cls, cls._name, seed)

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

    _name = "heuristic"

    def __new__(cls, seed: int | None = None) -> HeuristicAgent:
        return super().__new__(cls, cls._name, seed)

    def __repr__(self) -> str:
        return "HeuristicAgent()"


def _check_samples(samples: object) -> int:
    if isinstance(samples, bool) or not isinstance(samples, int):
        raise EcarteError(f"samples must be a whole number, got {samples!r}")
    if not 1 <= samples <= MAX_SAMPLES:
        raise EcarteError(f"samples must be from 1 to {MAX_SAMPLES}, got {samples}")
    return samples


class PimcAgent(BuiltinAgent):
    """Perfect-Information Monte Carlo over ``samples`` worlds per decision (``None``: the
    agent's default, ``AgentInfo.of("pimc").default_worlds``), the native ``"pimc:N"``.

    It samples complete worlds consistent with its own observation (the sampler respects
    every inference the rules allow, see ``rust/src/solver/sampler.rs``), values each legal
    action in every world with the double-dummy solver, and plays the action with the best
    mean, ties to the lowest action id. Sampling and solving run in Rust without the GIL.

    Deterministic for a seed: the worlds of a decision are drawn from a seed derived from
    the agent's seed and the observation (``duel.decision_seed``), so the same observation
    always gives the same action, whatever deal it came from. ``values(observation)`` gives
    each legal action's mean.
    """

    _name = "pimc"

    def __new__(cls, samples: int | None = None, seed: int | None = None) -> PimcAgent:
        spec = cls._name if samples is None else f"{cls._name}:{_check_samples(samples)}"
        return super().__new__(cls, spec, seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(samples={self.samples}, seed={self.seed})"


class ExpertAgent(PimcAgent):
    """PIMC over ``samples`` worlds, solved with the talon drawn by seat and resampled by the
    likelihood of the opponent's exchange decisions: the native ``"expert:N"``.

    It weights a pool of candidate worlds by how likely the opponent's proposals, declines,
    acceptances and refusals were with the hand they held in each (a soft model of hand
    strength), resamples the pool down to ``samples`` worlds, and solves each with each
    seat's talon draws fixed in advance (the turn-up's pair excepted), so the solver cannot
    win or lose a trick for a card it knows is coming (``rust/src/play/expert.rs``).
    Deterministic for a seed, as :class:`PimcAgent` is.
    """

    _name = "expert"


class MasterAgent(PimcAgent):
    """The expert's search over ``samples`` worlds resampled by the likelihood of the
    opponent's follows as well as its exchange decisions: the native ``"master:N"``.

    A follow is modelled as the heuristic's card with probability 0.76, any other legal card
    alike otherwise (``rust/src/play/master.rs``). Deterministic for a seed, as
    :class:`PimcAgent` is.
    """

    _name = "master"


class GrandmasterAgent(PimcAgent):
    """The expert's search over worlds resampled by a learned model of the opponent's play:
    the native ``"grandmaster:N"``, ``samples`` worlds in the play while the talon lasts,
    two thirds as many in the exchange, and the master's search over five ninths as many
    once the talon is empty.

    Each candidate world is weighted by the probability a small network, trained on the
    search agents' self-play (``examples/train_inference.py``), gives to every decision the
    opponent made in that world: exchange decisions, discards, leads and follows
    (``rust/src/play/grandmaster.rs``). The network is compiled into the engine: no PyTorch
    at play time. Deterministic for a seed, as :class:`PimcAgent` is.
    """

    _name = "grandmaster"


#: The agents that have a class of their own, by name; any other is a ``BuiltinAgent``.
_CLASSES: dict[str, type[BuiltinAgent]] = {
    cls._name: cls
    for cls in (RandomAgent, HeuristicAgent, PimcAgent, ExpertAgent, MasterAgent, GrandmasterAgent)
}


def make_agent(spec: str, seed: int | None = None) -> BuiltinAgent:
    """The built-in agent that ``spec`` names (``"random"``, ``"pimc"``, ``"pimc:N"``, ...:
    any agent of ``ecarte.duel.AGENTS``), seeded with ``seed`` (``None``: a fresh seed). The
    spec is read by the one native grammar that ``duel.simulate``, the arena and the CLI use
    too. The agent is of its class (``PimcAgent`` for ``"pimc:8"``) where it has one."""
    cls = _CLASSES.get(AgentInfo.of(spec).name, BuiltinAgent)
    return _restore(cls, spec, seed, 0)


def _restore(cls: type[A], spec: str, seed: int | None, drawn: int) -> A:
    """A built-in agent of class ``cls``: how agents are made and unpickled (its class,
    spec, seed and place in its stream)."""
    agent: Any = BuiltinAgent.__new__(cls, spec, seed, drawn)
    return agent  # type: ignore[no-any-return]
