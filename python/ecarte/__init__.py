"""ecarte: a fast, faithful engine for the card game écarté.

The engine is native (Rust); this package adds match flow, agents and the command line.
"""

from ecarte import agents, duel
from ecarte._core import (
    Card,
    EcarteError,
    IllegalActionError,
    InvalidCardError,
    InvalidDeckError,
    InvalidRecordError,
    InvalidRulesError,
    Rank,
    Suit,
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
    "RandomAgent",
    "Rank",
    "Suit",
    "__version__",
    "agents",
    "derive_seed",
    "duel",
    "duel_pack",
    "full_pack",
    "shoe_pack",
    "shuffled",
]
