"""What the framework integrations share: the lazy import of an optional framework with
a one-line error naming its extra, and the observation space's bounds."""

from __future__ import annotations

import importlib
from types import ModuleType

import numpy as np
import numpy.typing as npt

from ecarte.duel import NUM_ACTIONS, OBSERVATION_SIZE

__all__ = ["observation_high", "require"]


def require(module: str, extra: str) -> ModuleType:
    """Imports ``module`` of an optional framework; a missing one raises ``ImportError``
    with one line naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{module.split('.')[0]} is not installed: pip install 'ecarte[{extra}]'"
        ) from exc


def observation_high() -> npt.NDArray[np.float32]:
    """Upper bounds of the 214-entry observation tensor (see docs/api.md): 1 everywhere,
    except the two match-score entries (points over the target), which reach
    (target + 1) / target <= 2 when a vole ends a match."""
    high = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    high[212:214] = 2.0
    return high


#: Number of actions: the size of the action space and of every mask.
ACTIONS = NUM_ACTIONS
