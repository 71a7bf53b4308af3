"""What the optional extras share: how to install one (:func:`install_hint`), the one-line
error naming the extra of a missing framework, and the observation space's bounds."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ecarte._public import api_dir

__all__ = ["install_hint", "missing", "observation_high"]
__dir__ = api_dir(globals())


def install_hint(extra: str) -> str:
    """How to install the ``extra``, whether ecarte came from a package index or from a
    checkout of its source: both commands."""
    return f"pip install 'ecarte[{extra}]' (in a checkout of ecarte: pip install '.[{extra}]')"


def missing(framework: str, extra: str) -> ImportError:
    """The error for an optional framework that is not installed: one line saying how to
    install the extra that brings it. Raise it from the failed import."""
    return ImportError(f"{framework} is not installed: {install_hint(extra)}")


def observation_high() -> npt.NDArray[np.float32]:
    """Upper bounds of the 214-entry observation tensor (see docs/api.md): 1 everywhere,
    except the two match-score entries (points over the target), which reach
    (target + 1) / target <= 2 when a vole ends a match."""
    from ecarte.duel import OBSERVATION_SIZE

    high = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    high[212:214] = 2.0
    return high
