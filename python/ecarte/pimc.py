"""The Perfect-Information Monte Carlo player.

It samples complete worlds consistent with its own observation (the sampler respects every
inference the rules allow, see ``rust/src/solver/sampler.rs``), values each legal action in
every world with the double-dummy solver, and plays the action with the best mean. Sampling
and solving run in Rust without the GIL.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from ecarte._core import MAX_SAMPLES, derive_seed
from ecarte.duel import DEFAULT_PIMC_SAMPLES, Action, Observation, pimc_values
from ecarte.errors import EcarteError
from ecarte.seeding import resolve_seed

__all__ = ["DEFAULT_SAMPLES", "PimcAgent"]

#: Worlds sampled per decision by default (the native agent's, ``"pimc"``).
DEFAULT_SAMPLES = DEFAULT_PIMC_SAMPLES


class PimcAgent:
    """Perfect-Information Monte Carlo over ``samples`` worlds per decision.

    Deterministic for a seed: the worlds of a decision are drawn with a seed derived from
    the agent's seed and the observation, so the same observation always gives the same
    action, whatever deal it came from.
    """

    def __init__(self, samples: int = DEFAULT_SAMPLES, seed: int | None = None) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int):
            raise EcarteError(f"samples must be a whole number, got {samples!r}")
        if not 1 <= samples <= MAX_SAMPLES:
            raise EcarteError(f"samples must be from 1 to {MAX_SAMPLES}, got {samples}")
        self.samples = samples
        self.seed = resolve_seed(seed)
        derive_seed(self.seed, 0)  # checks the seed's range now, not at the first decision

    #: The native evaluator: ``(observation, samples, seed) -> [(action, mean points)]``.
    native_values = staticmethod(pimc_values)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(samples={self.samples}, seed={self.seed})"

    def values(self, observation: Observation) -> list[tuple[Action, float]]:
        """Each legal action with its mean double-dummy points."""
        # crc32 is stable across processes, unlike hash() of a str.
        key = zlib.crc32(observation.to_json().encode())
        return self.native_values(observation, self.samples, derive_seed(self.seed, key))

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        values = dict(self.values(observation))
        # Best mean; ties go to the lowest action id, so the choice is deterministic.
        return max(legal, key=lambda a: (values.get(a, float("-inf")), -a.id))
