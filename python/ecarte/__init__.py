"""ecarte: a fast, faithful engine for the card game écarté."""

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
)

__all__ = [
    "Card",
    "EcarteError",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidRecordError",
    "InvalidRulesError",
    "Rank",
    "Suit",
    "__version__",
]
