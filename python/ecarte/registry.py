"""The registry of the variants and of their record formats.

Each variant registers itself once, in its module of :mod:`ecarte.variants`
(``ecarte.variants.duel``, ``ecarte.variants.bank``): its name, the summary of a simulated
run, its record formats (what reads each one and, for a record a person steps through, its
replay) and the kinds of game the engine protocol makes of it. The results of runs register
their own format, shared by the variants (``ecarte.results``). Shared code (a run's result,
the command line's records, the protocol's ``hello``, ``new`` and ``replay``) asks this
registry and imports no variant.

The registry loads the modules that register by name when first asked: it sits below the
variants and the results it lists, so a module they import may ask it too.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final

import numpy.typing as npt

from ecarte._public import api_dir
from ecarte.errors import InvalidRecordError
from ecarte.records import load_json

__all__ = [
    "RecordFormat",
    "Variant",
    "game_kinds",
    "record_formats",
    "run_summary",
    "sniff",
    "variants",
]
__dir__ = api_dir(globals())

#: The modules that register: each variant's (its ``VARIANT``) and the runs' results (their
#: ``RECORD_FORMATS``).
VARIANT_MODULES: Final = ("ecarte.variants.duel", "ecarte.variants.bank")
SHARED_MODULES: Final = ("ecarte.results",)


@dataclass(frozen=True)
class RecordFormat:
    """One record format: the record's ``format`` field, the variant it belongs to
    (``None``: every variant's), what it is in words ("a duel deal record"), the class that
    reads it (its ``from_json``), and for a record a person steps through, its ``replay``:
    the record's text to its steps (``{"frames": [...], ...}``, docs/protocol.md)."""

    format: str
    variant: str | None
    description: str
    reader: Any
    replay: Callable[[str], dict[str, Any]] | None = None

    def read(self, text: str) -> Any:
        """The object the record holds (``InvalidRecordError`` if it holds none)."""
        return self.reader.from_json(text)


@dataclass(frozen=True)
class Variant:
    """A variant: its ``name``, its record formats, the ``summary`` of ``n`` simulated items
    from their columns (which raises ``InvalidRecordError`` for columns that no run of the
    variant gives), the columns that tell its runs apart (``run_columns``), and the
    ``game_kinds`` the protocol's ``new`` makes of it."""

    name: str
    description: str
    records: tuple[RecordFormat, ...]
    run_columns: frozenset[str]
    summary: Callable[[int, Mapping[str, npt.NDArray[Any]]], dict[str, Any]]
    game_kinds: tuple[str, ...]


@functools.cache
def variants() -> tuple[Variant, ...]:
    """Every variant, in the order of :data:`VARIANT_MODULES`."""
    return tuple(importlib.import_module(name).VARIANT for name in VARIANT_MODULES)


@functools.cache
def record_formats() -> Mapping[str, RecordFormat]:
    """The one table of record formats, by ``format``: every variant's, then the shared."""
    rows = [row for variant in variants() for row in variant.records]
    for name in SHARED_MODULES:
        rows += importlib.import_module(name).RECORD_FORMATS
    table = {row.format: row for row in rows}
    if len(table) != len(rows):
        raise AssertionError("two record formats of one name")
    return MappingProxyType(table)


def sniff(text: object) -> RecordFormat:
    """The format of the record in ``text``, read from its ``format`` field; the one place
    that tells records apart. ``TypeError`` for anything but text, ``InvalidRecordError``
    for text that is not JSON, not an object with a ``format``, or of no known format."""
    data = load_json(text, "a record")
    name = data.get("format") if isinstance(data, dict) else None
    if not isinstance(name, str):
        raise InvalidRecordError('JSON but not an ecarte record (no "format" field)')
    row = record_formats().get(name)
    if row is None:
        raise InvalidRecordError(f"unknown record format {name[:40]!r}")
    return row


def run_summary(n: int, columns: Mapping[str, npt.NDArray[Any]]) -> dict[str, Any]:
    """The summary of a run of ``n`` items with these columns, by the variant whose runs
    have them; ``InvalidRecordError`` for columns that no variant's run gives."""
    for variant in variants():
        if variant.run_columns <= columns.keys():
            return variant.summary(n, columns)
    known = "; ".join(f"{v.name}: {sorted(v.run_columns)}" for v in variants())
    raise InvalidRecordError(f"the columns {sorted(columns)} are no variant's run ({known})")


def game_kinds() -> dict[str, Variant]:
    """The kinds of game of the protocol's ``new``, each with its variant."""
    return {kind: variant for variant in variants() for kind in variant.game_kinds}
