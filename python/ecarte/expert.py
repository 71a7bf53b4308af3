"""The expert player, :class:`ecarte.agents.ExpertAgent` (the native ``"expert:N"``), also
importable from here; see ``docs/agents.md``."""

from __future__ import annotations

from ecarte._public import api_dir
from ecarte.agents import ExpertAgent
from ecarte.duel import DEFAULT_EXPERT_SAMPLES

__all__ = ["DEFAULT_SAMPLES", "ExpertAgent"]
__dir__ = api_dir(globals())

#: Worlds per decision by default (the native agent's, ``"expert"``).
DEFAULT_SAMPLES = DEFAULT_EXPERT_SAMPLES
