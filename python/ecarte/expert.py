"""The expert player: PIMC over worlds whose talon is drawn by seat, with inference on the
opponent's exchange decisions.

It samples a pool of worlds consistent with its observation, weights each world by how
likely the opponent's proposals, declines, acceptances and refusals were with the hand they
held in it (a soft model of hand strength), resamples the pool down to ``samples`` worlds,
and plays the action with the best mean double-dummy value over them. Each world is solved
with each seat's talon draws fixed in advance (the last pair, the turn-up's, excepted), so
the solver cannot win or lose a trick for a card it knows is coming. It is the native
``"expert:N"`` (an :class:`ecarte.duel.BuiltinAgent`); see ``rust/src/play/expert.rs`` and
``docs/agents.md``.
"""

from __future__ import annotations

from ecarte.duel import DEFAULT_EXPERT_SAMPLES
from ecarte.pimc import PimcAgent

__all__ = ["DEFAULT_SAMPLES", "ExpertAgent"]

#: Worlds solved per decision by default (the native agent's, ``"expert"``).
DEFAULT_SAMPLES = DEFAULT_EXPERT_SAMPLES


class ExpertAgent(PimcAgent):
    """PIMC over ``samples`` worlds, solved with the talon drawn by seat and resampled by the
    likelihood of the opponent's exchange decisions.

    Deterministic for a seed: the worlds of a decision are drawn from a seed derived from
    the agent's seed and the observation, so the same observation always gives the same
    action, whatever deal it came from.
    """

    _kind = "expert"

    def __new__(cls, samples: int = DEFAULT_SAMPLES, seed: int | None = None) -> ExpertAgent:
        return super().__new__(cls, samples, seed)  # type: ignore[return-value]
