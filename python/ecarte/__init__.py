"""ecarte: a fast, faithful engine for the card game écarté.

The engine is native (Rust); this package adds match flow, agents and the command line.
"""

from ecarte import agents, bank, duel
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
    "RandomAgent",
    "Rank",
    "Suit",
    "TableError",
    "__version__",
    "agents",
    "bank",
    "derive_seed",
    "duel",
    "duel_pack",
    "full_pack",
    "shoe_pack",
    "shuffled",
]
