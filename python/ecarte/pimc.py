"""The Perfect-Information Monte Carlo player.

It samples complete worlds consistent with its own observation (the sampler respects every
inference the rules allow, see ``rust/src/solver/sampler.rs``), values each legal action in
every world with the double-dummy solver, and plays the action with the best mean, ties to
the lowest action id. Sampling and solving run in Rust without the GIL; the agent is the
native ``"pimc:N"`` (an :class:`ecarte.duel.BuiltinAgent`).
"""

from __future__ import annotations

from ecarte._core import MAX_SAMPLES
from ecarte.duel import DEFAULT_PIMC_SAMPLES, BuiltinAgent
from ecarte.errors import EcarteError

__all__ = ["DEFAULT_SAMPLES", "PimcAgent"]

#: Worlds sampled per decision by default (the native agent's, ``"pimc"``).
DEFAULT_SAMPLES = DEFAULT_PIMC_SAMPLES


def _check_samples(samples: object) -> int:
    if isinstance(samples, bool) or not isinstance(samples, int):
        raise EcarteError(f"samples must be a whole number, got {samples!r}")
    if not 1 <= samples <= MAX_SAMPLES:
        raise EcarteError(f"samples must be from 1 to {MAX_SAMPLES}, got {samples}")
    return samples


class PimcAgent(BuiltinAgent):
    """Perfect-Information Monte Carlo over ``samples`` worlds per decision.

    Deterministic for a seed: the worlds of a decision are drawn from a seed derived from
    the agent's seed and the observation (``duel.decision_seed``), so the same observation
    always gives the same action, whatever deal it came from. ``values(observation)`` gives
    each legal action's mean.
    """

    _kind = "pimc"

    def __new__(cls, samples: int = DEFAULT_SAMPLES, seed: int | None = None) -> PimcAgent:
        return super().__new__(cls, f"{cls._kind}:{_check_samples(samples)}", seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(samples={self.samples}, seed={self.seed})"
