"""The master player, :class:`ecarte.agents.MasterAgent` (the native ``"master:N"``), also
importable from here; see ``docs/agents.md``."""

from __future__ import annotations

from ecarte._public import api_dir
from ecarte.agents import MasterAgent
from ecarte.duel import DEFAULT_MASTER_SAMPLES

__all__ = ["DEFAULT_SAMPLES", "MasterAgent"]
__dir__ = api_dir(globals())

#: Worlds per decision by default (the native agent's, ``"master"``).
DEFAULT_SAMPLES = DEFAULT_MASTER_SAMPLES
