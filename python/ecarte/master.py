"""The master player: the expert's search over worlds weighted by the likelihood of the
opponent's follows as well as its exchange decisions.

It samples a pool of worlds consistent with its observation, weights each world by how
likely the opponent's proposals, declines, acceptances and refusals (the expert's model)
and its follows to the tricks it did not lead (the heuristic's card with probability 0.76,
any other legal card alike otherwise) were with the hand they held in it, resamples the
pool down to ``samples`` worlds, and plays the action with the best mean double-dummy value
over them, each world solved with each seat's talon draws fixed in advance, as the expert
does. It is the native ``"master:N"`` (an :class:`ecarte.duel.BuiltinAgent`); see
``rust/src/play/master.rs`` and ``docs/agents.md``.
"""

from __future__ import annotations

from ecarte.duel import DEFAULT_MASTER_SAMPLES
from ecarte.pimc import PimcAgent

__all__ = ["DEFAULT_SAMPLES", "MasterAgent"]

#: Worlds solved per decision by default (the native agent's, ``"master"``).
DEFAULT_SAMPLES = DEFAULT_MASTER_SAMPLES


class MasterAgent(PimcAgent):
    """The expert's search over ``samples`` worlds resampled by the likelihood of the
    opponent's follows and exchange decisions.

    Deterministic for a seed: the worlds of a decision are drawn from a seed derived from
    the agent's seed and the observation, so the same observation always gives the same
    action, whatever deal it came from.
    """

    _kind = "master"

    def __new__(cls, samples: int = DEFAULT_SAMPLES, seed: int | None = None) -> MasterAgent:
        return super().__new__(cls, samples, seed)  # type: ignore[return-value]
