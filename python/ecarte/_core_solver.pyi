# Stub fragment for the solver bindings; to be merged into _core.pyi.
from collections.abc import Sequence

class DuelSolution:
    """The exact double-dummy result of a play-phase position, for the player to move."""

    @property
    def value(self) -> int:
        """Deal points (+2, +1, -1, -2), or the cards taken with ``objective="cards"``."""
    @property
    def best_actions(self) -> list[DuelAction]:
        """Every legal action that achieves ``value``, in action-id order."""
    @property
    def nodes(self) -> int:
        """Search nodes visited."""

def duel_solve(deal: DuelDeal, objective: str = "points") -> DuelSolution:
    """Solves a play-phase position double-dummy (every card and the talon order known).

    ``objective`` is ``"points"`` (deal points for the player to move) or ``"cards"``
    (the most cards the player to move can end the deal with). Raises ``EcarteError``
    outside the play phase. Runs without the GIL."""

def duel_solve_many(deals: Sequence[DuelDeal], objective: str = "points") -> list[DuelSolution]:
    """Solves many positions in parallel (rayon); results in input order."""

def duel_action_values(
    deal: DuelDeal, objective: str = "points"
) -> list[tuple[DuelAction, int]]:
    """Every legal action with its exact double-dummy value, in action-id order."""

def duel_sample_worlds(observation: DuelObservation, n: int, seed: int) -> list[DuelDeal]:
    """``n`` deals consistent with ``observation`` (each world's observation for that player
    equals it), reproducible for ``seed``. Raises ``EcarteError`` if none can be found."""

def duel_pimc_values(
    observation: DuelObservation, samples: int, seed: int
) -> list[tuple[DuelAction, float]]:
    """Each legal action with its mean double-dummy points over ``samples`` sampled worlds;
    exchange options are followed by a fixed exchange rule of thumb, then solved."""
