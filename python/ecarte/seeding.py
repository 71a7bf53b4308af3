"""Seeds: what ``seed=None`` means, and how agents' seeds derive from a run's seed.

``seed=None`` means the same everywhere in ecarte: a fresh random seed from the operating
system, recorded on the object (``.seed``) or in the result, so any run can be repeated.
Seeds are whole numbers from 0 to 2**64 - 1; ``derive_seed(seed, i)`` (native, one
ChaCha8 block, see ``rust/src/card.rs``) gives independent child seeds.
"""

from __future__ import annotations

import os

from ecarte._core import EcarteError, derive_seed

__all__ = ["agent_seed", "fresh_seed", "resolve_seed"]

#: The first ``derive_seed`` stream index of agent seeds; the deals of a match use the
#: streams from 0 up, so agents never share a stream with a deal.
AGENT_STREAM = 1 << 63


def fresh_seed() -> int:
    """A random 64-bit seed from the operating system."""
    return int.from_bytes(os.urandom(8), "little")


def resolve_seed(seed: int | None) -> int:
    """``seed`` checked (a whole number from 0 to 2**64 - 1), or a fresh one for ``None``."""
    if seed is None:
        return fresh_seed()
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise EcarteError(f"seed must be a whole number from 0 to 2**64 - 1, got {seed!r}")
    return int(seed)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (0 or 1; 2 and up for helpers such as a hint agent)
    of the match or run with ``seed``: ``derive_seed(seed, AGENT_STREAM + seat)``. Raises
    ``EcarteError`` for a seed or seat out of range. Every command, the arena and the
    integrations seed agents through this one function."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < AGENT_STREAM:
        raise EcarteError(f"seat must be a whole number from 0 to 2**63 - 1, got {seat!r}")
    return derive_seed(seed, AGENT_STREAM + seat)
