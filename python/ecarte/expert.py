"""The expert player: PIMC with inference on the opponent's exchange decisions.

It samples a pool of worlds consistent with its observation, weights each world by how
likely the opponent's proposals, declines, acceptances and refusals were with the hand they
held in it (a soft model of hand strength), resamples the pool down to ``samples`` worlds,
and plays the action with the best mean double-dummy value over them. The native policy
(``"expert"`` in ``duel.simulate`` and the arena) runs the same code; see
``rust/src/play/expert.rs`` and ``docs/agents.md``.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from ecarte._core import MAX_SAMPLES, derive_seed
from ecarte.duel import DEFAULT_EXPERT_SAMPLES, Action, Observation, expert_values
from ecarte.errors import EcarteError
from ecarte.seeding import resolve_seed

__all__ = ["DEFAULT_SAMPLES", "ExpertAgent"]

#: Worlds solved per decision by default (the native agent's, ``"expert"``).
DEFAULT_SAMPLES = DEFAULT_EXPERT_SAMPLES


class ExpertAgent:
    """PIMC over ``samples`` worlds resampled by the likelihood of the opponent's exchange
    decisions.

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

    def __repr__(self) -> str:
        return f"ExpertAgent(samples={self.samples}, seed={self.seed})"

    def values(self, observation: Observation) -> list[tuple[Action, float]]:
        """Each legal action with its inference-weighted mean double-dummy points."""
        key = zlib.crc32(observation.to_json().encode())
        return expert_values(observation, self.samples, derive_seed(self.seed, key))

    def __call__(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        values = dict(self.values(observation))
        # Best mean; ties go to the lowest action id, so the choice is deterministic.
        return max(legal, key=lambda a: (values.get(a, float("-inf")), -a.id))
