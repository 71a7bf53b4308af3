"""The Perfect-Information Monte Carlo player, :class:`ecarte.agents.PimcAgent` (the native
``"pimc:N"``), also importable from here; see ``docs/agents.md``."""

from __future__ import annotations

from ecarte._public import api_dir
from ecarte.agents import PimcAgent
from ecarte.duel import DEFAULT_PIMC_SAMPLES

__all__ = ["DEFAULT_SAMPLES", "PimcAgent"]
__dir__ = api_dir(globals())

#: Worlds per decision by default (the native agent's, ``"pimc"``).
DEFAULT_SAMPLES = DEFAULT_PIMC_SAMPLES
