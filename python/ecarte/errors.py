"""Every error ecarte raises for bad input: ``ValueError`` subclasses under one base.

- :class:`EcarteError`: the base.
- :class:`InvalidCardError`: text or a value that is no card.
- :class:`InvalidActionError`: text, an id or a value that names no action.
- :class:`IllegalActionError`: a well-formed action that is not legal now (nothing changed).
- :class:`InvalidRulesError`: rule options out of range.
- :class:`InvalidDeckError`: a deck that is not a full pack, or a bad dealer.
- :class:`InvalidRecordError`: a malformed or tampered JSON record.
- :class:`InvalidSeedError`: a seed out of range (seeds are whole numbers from 0 to
  2**64 - 1; a seed that is no whole number at all is a ``TypeError``).
- :class:`InvalidStakeError`, :class:`TableError`, :class:`InvalidShoeError`: the bank's.

They are defined once, natively, so that the engine and Python raise the same classes.
"""

from ecarte._core import (
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
from ecarte._public import api_dir

__all__ = [
    "EcarteError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidRecordError",
    "InvalidRulesError",
    "InvalidSeedError",
    "InvalidShoeError",
    "InvalidStakeError",
    "TableError",
]
__dir__ = api_dir(globals())
