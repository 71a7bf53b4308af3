"""The registry of the variants and of their record formats.

The record formats are one table, the engine's (``ecarte._core.RECORD_FORMATS``: each
format's name, variant, description and reader), which the engine's readers also name when
given a record of another format; :func:`record_formats` is that table with each reader's
class. Each variant registers itself once, in its module of :mod:`ecarte.variants`
(``ecarte.variants.duel``, ``ecarte.variants.bank``): its name, the summary of a simulated
run, the replay of each of its records a person steps through, and the kinds of game the
engine protocol makes of it. Shared code (a run's result, the command line's records, the
protocol's ``hello``, ``new`` and ``replay``) asks this registry and imports no variant.

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

from ecarte._core import RECORD_FORMATS
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

#: The modules that register a variant (their ``VARIANT``).
VARIANT_MODULES: Final = ("ecarte.variants.duel", "ecarte.variants.bank")


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
    """A variant: its ``name``, the ``replays`` of its records a person steps through (by
    format), the ``summary`` of ``n`` simulated items from their columns (which raises
    ``InvalidRecordError`` for columns that no run of the variant gives), the columns that
    tell its runs apart (``run_columns``), and the ``game_kinds`` the protocol's ``new``
    makes of it. Its record formats are the table's rows of its name (``records``)."""

    name: str
    description: str
    replays: Mapping[str, Callable[[str], dict[str, Any]]]
    run_columns: frozenset[str]
    summary: Callable[[int, Mapping[str, npt.NDArray[Any]]], dict[str, Any]]
    game_kinds: tuple[str, ...]

    @property
    def records(self) -> tuple[RecordFormat, ...]:
        """The variant's record formats, in the table's order."""
        return tuple(row for row in record_formats().values() if row.variant == self.name)


@functools.cache
def variants() -> tuple[Variant, ...]:
    """Every variant, in the order of :data:`VARIANT_MODULES`."""
    return tuple(importlib.import_module(name).VARIANT for name in VARIANT_MODULES)


@functools.cache
def record_formats() -> Mapping[str, RecordFormat]:
    """The one table of record formats, by ``format``: the engine's table
    (``ecarte._core.RECORD_FORMATS``) with each reader's class and each variant's replays."""
    replays = {name: replay for variant in variants() for name, replay in variant.replays.items()}
    table = {
        name: RecordFormat(name, variant, description, _reader(reader), replays.get(name))
        for name, variant, description, reader in RECORD_FORMATS
    }
    names = {variant.name for variant in variants()}
    if len(table) != len(RECORD_FORMATS) or not replays.keys() <= table.keys():
        raise AssertionError("two record formats of one name, or a replay of no format")
    if not {row.variant for row in table.values()} <= names | {None}:
        raise AssertionError("a record format of no variant")
    return MappingProxyType(table)


def _reader(path: str) -> Any:
    """The class at the public ``path`` of the table (``ecarte.duel.Deal``)."""
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


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
