"""The strict reader of the versioned JSON records Python writes (the bank table's session,
a simulation's and an arena's result); the native records (deals, matches, solutions, the
bank's deal) are read by the engine, in the same way.

A record is JSON text: one JSON object with its ``format`` and ``version`` and exactly the
fields of that format, each of its JSON type. Text that is anything else raises
:class:`InvalidRecordError`, never a ``KeyError`` or JSON's own ``ValueError``; an argument
that is not text at all raises ``TypeError``, as every ``from_json`` does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NoReturn

from ecarte._core import RECORD_FORMATS, reader_hint
from ecarte._public import api_dir
from ecarte.errors import InvalidRecordError

__all__ = ["dump_record", "format_read_by", "load_json", "no_constant", "read_record", "whole"]
__dir__ = api_dir(globals())


def format_read_by(reader: str) -> str:
    """The format of the records the class at public path ``reader`` reads
    (``"ecarte.bank.Table"``), from the one table of record formats, the engine's."""
    formats = [name for name, _, _, row_reader in RECORD_FORMATS if row_reader == reader]
    if len(formats) != 1:
        raise AssertionError(f"{reader} reads no one record format of the table")
    return formats[0]


def whole(value: object, low: int, high: int | None = None) -> bool:
    """Whether ``value`` is a whole number (a bool is not) from ``low`` to ``high``."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and value >= low
        and (high is None or value <= high)
    )


def no_constant(name: str) -> NoReturn:
    """``json.loads``'s ``parse_constant``: refuses NaN and the infinities."""
    raise ValueError(f"{name} is not a number a record holds")


def load_json(text: object, what: str) -> Any:
    """The JSON value of ``text`` (no NaN or infinity); ``InvalidRecordError`` for text that
    is not JSON, ``TypeError`` for anything but text."""
    if not isinstance(text, str):
        raise TypeError(f"{what} is JSON text (a str), got {type(text).__name__}")
    try:
        return json.loads(text, parse_constant=no_constant)
    except (ValueError, RecursionError) as e:
        raise InvalidRecordError(f"not a JSON record: {e}") from None


def read_record(
    text: object, fmt: str, version: int, fields: Mapping[str, type | tuple[type, ...]]
) -> dict[str, Any]:
    """The record in ``text``: a JSON object of format ``fmt`` and version ``version`` with
    exactly ``fields`` besides those two, each of its type (``int`` is a whole number, never
    a bool; ``float`` takes a whole number too)."""
    data = load_json(text, f"a {fmt} record")
    if not isinstance(data, dict):
        raise InvalidRecordError(f"a {fmt} record is a JSON object")
    found, found_version = data.get("format"), data.get("version")
    if found != fmt or not whole(found_version, 0) or found_version != version:
        hint = reader_hint(found) if isinstance(found, str) and found != fmt else None
        raise InvalidRecordError(
            f"expected format {fmt!r} version {version}, got {found!r} version {found_version!r}"
            + (f"; {hint}" if hint else "")
        )
    expected = {"format", "version", *fields}
    if set(data) != expected:
        unknown, missing = sorted(set(data) - expected), sorted(expected - set(data))
        raise InvalidRecordError(
            f"a {fmt} record has the fields {sorted(expected)}"
            + (f"; unknown: {unknown}" if unknown else "")
            + (f"; missing: {missing}" if missing else "")
        )
    for name, kind in fields.items():
        if not _is(data[name], kind):
            raise InvalidRecordError(f"{fmt}: {name} has the wrong type: {data[name]!r}")
    return data


def _is(value: object, kind: type | tuple[type, ...]) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool):
        return bool in kinds
    if isinstance(value, int) and float in kinds:
        return True
    return isinstance(value, kinds)


def dump_record(fmt: str, version: int, fields: Mapping[str, Any]) -> str:
    """The compact JSON text of a record of format ``fmt`` and version ``version``."""
    return json.dumps(
        {"format": fmt, "version": version, **fields}, separators=(",", ":"), allow_nan=False
    )
