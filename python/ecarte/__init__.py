"""ecarte: a fast, faithful engine for the card game écarté.

The engine is native (Rust); this package adds match flow, agents and the command line.
Submodules (``duel``, ``bank``, ``agents``, ``arena``, ...) load on first use, so
``import ecarte`` stays light: it loads no CLI, terminal or process-pool module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ecarte._core import (
    MAX_BATCH,
    MAX_ENVS,
    MAX_SAMPLES,
    MAX_THREADS,
    Card,
    Rank,
    Stream,
    Suit,
    __version__,
    derive_seed,
    duel_pack,
    full_pack,
    shoe_pack,
    shuffled,
)
from ecarte._public import api_dir
from ecarte.errors import (
    EcarteError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidDeckError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidSeedError,
    InvalidShoeError,
    InvalidStakeError,
    TableError,
)

if TYPE_CHECKING:
    from ecarte import agents, arena, bank, duel, expert, master, pimc
    from ecarte.agents import (
        ExpertAgent,
        GrandmasterAgent,
        HeuristicAgent,
        MasterAgent,
        PimcAgent,
        RandomAgent,
    )

_SUBMODULES = {"agents", "arena", "bank", "duel", "expert", "master", "pimc", "stats", "errors"}


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"ecarte.{name}")
    # The agent classes that ``__all__`` exports come from ``ecarte.agents`` on first use.
    if name.endswith("Agent") and name in __all__:
        return getattr(importlib.import_module("ecarte.agents"), name)
    raise AttributeError(f"module 'ecarte' has no attribute {name!r}")


__all__ = [
    "MAX_BATCH",
    "MAX_ENVS",
    "MAX_SAMPLES",
    "MAX_THREADS",
    "Card",
    "EcarteError",
    "ExpertAgent",
    "GrandmasterAgent",
    "HeuristicAgent",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidRecordError",
    "InvalidRulesError",
    "InvalidSeedError",
    "InvalidShoeError",
    "InvalidStakeError",
    "MasterAgent",
    "PimcAgent",
    "RandomAgent",
    "Rank",
    "Stream",
    "Suit",
    "TableError",
    "__version__",
    "agents",
    "arena",
    "bank",
    "derive_seed",
    "duel",
    "duel_pack",
    "expert",
    "full_pack",
    "master",
    "pimc",
    "shoe_pack",
    "shuffled",
]
__dir__ = api_dir(globals())
