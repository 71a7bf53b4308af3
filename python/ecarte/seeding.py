"""Seeds: what ``seed=None`` means, and the engine's stream layout as Python sees it.

``seed=None`` means the same everywhere in ecarte: a fresh random seed from the operating
system, recorded on the object (``.seed``) or in the result, so any run can be repeated.
Seeds are whole numbers from 0 to 2**64 - 1, checked everywhere by the one native
:func:`check_seed` (a wrong type raises ``TypeError``, a number out of range
:class:`~ecarte.errors.InvalidSeedError`). Every derivation of one seed from another is
native and defined once (``rust/src/rng/mod.rs``; docs/api.md, "Seeds"):
``derive_seed(seed, i)`` gives independent child seeds, ``agent_seed(match_seed, seat)``
the seed of a match's agent by seat, ``decision_seed(agent_seed, observation)`` the worlds
of a search agent's decision. Python derives no seed of its own.
"""

from __future__ import annotations

import os
from typing import Final

from ecarte._core import check_seed
from ecarte._core.duel import agent_seed, decision_seed
from ecarte._public import api_dir

__all__ = [
    "MAX_SEED",
    "agent_seed",
    "check_seed",
    "decision_seed",
    "fresh_seed",
    "resolve_seed",
]
__dir__ = api_dir(globals())

#: The largest seed: seeds are whole numbers from 0 to ``2**64 - 1``.
MAX_SEED: Final = 2**64 - 1


def fresh_seed() -> int:
    """A random 64-bit seed from the operating system."""
    return int.from_bytes(os.urandom(8), "little")


def resolve_seed(seed: int | None) -> int:
    """``seed`` checked (:func:`check_seed`), or a fresh one for ``None``."""
    return fresh_seed() if seed is None else check_seed(seed)
