"""ecarte: a fast, faithful engine for the card game écarté."""

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
)
from ecarte import bank

__all__ = [
    "Card",
    "EcarteError",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidRecordError",
    "InvalidRulesError",
    "InvalidShoeError",
    "InvalidStakeError",
    "Rank",
    "Suit",
    "TableError",
    "__version__",
    "bank",
]
