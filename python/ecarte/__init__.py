"""ecarte: a fast, faithful engine for the card game écarté.

The engine is native (Rust); this package adds match flow, agents and the command line.
"""

from ecarte import agents, arena, bank, duel, pimc
from ecarte._core import (
    Card,
    EcarteError,
    IllegalActionError,
    InvalidCardError,
    InvalidDeckError,
    InvalidRecordError,
    InvalidRulesError,
    InvalidShoeError,
    InvalidStakeError,
    Rank,
    Suit,
    TableError,
    __version__,
    derive_seed,
    duel_pack,
    full_pack,
    shoe_pack,
    shuffled,
)
from ecarte.agents import HeuristicAgent, RandomAgent
from ecarte.pimc import PimcAgent

__all__ = [
    "Card",
    "EcarteError",
    "HeuristicAgent",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidRecordError",
    "InvalidRulesError",
    "InvalidShoeError",
    "InvalidStakeError",
    "PimcAgent",
    "RandomAgent",
    "Rank",
    "Suit",
    "TableError",
    "__version__",
    "agents",
    "arena",
    "bank",
    "derive_seed",
    "duel",
    "duel_pack",
    "full_pack",
    "pimc",
    "shoe_pack",
    "shuffled",
]
