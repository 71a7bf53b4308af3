"""What the framework integrations share: the one-line error saying how to install the
extra of a missing framework, and the observation space's bounds."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ecarte._install import install_hint
from ecarte._public import api_dir
from ecarte.duel import OBSERVATION_SIZE

__all__ = ["missing", "observation_high"]
__dir__ = api_dir(globals())


def missing(framework: str, extra: str) -> ImportError:
    """The error for an optional framework that is not installed: one line saying how to
    install the extra that brings it. Raise it from the failed import."""
    return ImportError(f"{framework} is not installed: {install_hint(extra)}")


def observation_high() -> npt.NDArray[np.float32]:
    """Upper bounds of the 214-entry observation tensor (see docs/api.md): 1 everywhere,
    except the two match-score entries (points over the target), which reach
    (target + 1) / target <= 2 when a vole ends a match."""
    high = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    high[212:214] = 2.0
    return high
