"""The result of a batch simulation, the same shape for every variant: NumPy columns (one
row per deal or match, or a variant's count tables) plus a summary of rates with 95%
intervals, and its JSON record, a format every variant shares (registered here)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ecarte._public import api_dir
from ecarte.errors import EcarteError, InvalidRecordError
from ecarte.records import dump_record, format_read_by, read_record, whole
from ecarte.registry import run_summary

__all__ = ["SimulationResult"]
__dir__ = api_dir(globals())

RECORD_FORMAT: Final = format_read_by("ecarte.results.SimulationResult")
RECORD_VERSION: Final = 1
#: The dtypes a recorded column may have: whole numbers and booleans, exact in JSON.
COLUMN_DTYPES: Final = frozenset(
    np.dtype(kind + str(bits)).name for kind in ("int", "uint") for bits in (8, 16, 32, 64)
) | {np.dtype(np.bool_).name}


@dataclass(frozen=True, eq=False)
class SimulationResult(Mapping[str, "npt.NDArray[Any]"]):
    """``n`` simulated deals (or matches) from ``seed``: ``result["winner"]`` is a column,
    ``result.summary`` the rates. A mapping of column names to arrays; it pickles."""

    n: int
    seed: int
    columns: Mapping[str, npt.NDArray[Any]]
    summary: Mapping[str, Any]

    def __getitem__(self, name: str) -> npt.NDArray[Any]:
        return self.columns[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    def __len__(self) -> int:
        return len(self.columns)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimulationResult):
            return NotImplemented
        return (
            (self.n, self.seed, dict(self.summary)) == (other.n, other.seed, dict(other.summary))
            and self.columns.keys() == other.columns.keys()
            and all(np.array_equal(self.columns[k], other.columns[k]) for k in self.columns)
        )

    __hash__ = None  # type: ignore[assignment]  # holds arrays

    def __repr__(self) -> str:
        return f"<SimulationResult n={self.n} seed={self.seed} columns={list(self.columns)}>"

    def to_json(self) -> str:
        """The versioned record: ``n``, ``seed``, every column as its ``dtype``, ``shape``
        and values (row-major), and the summary."""
        columns = {name: _column_record(name, array) for name, array in self.columns.items()}
        fields = {"n": self.n, "seed": self.seed, "columns": columns, "summary": self.summary}
        return dump_record(RECORD_FORMAT, RECORD_VERSION, fields)

    @classmethod
    def from_json(cls, text: str) -> SimulationResult:
        """Reads what :meth:`to_json` wrote: each column rebuilt with its dtype and shape,
        and the summary computed again from the columns, which must be a run's (a duel run's
        rows, ``n`` of each, or a bank run's count tables of ``n`` deals) and agree with the
        recorded summary; anything else raises :class:`InvalidRecordError`."""
        fields = {"n": int, "seed": int, "columns": dict, "summary": dict}
        data = read_record(text, RECORD_FORMAT, RECORD_VERSION, fields)
        n, seed = data["n"], data["seed"]
        if not whole(n, 0) or not whole(seed, 0, 2**64 - 1):
            raise InvalidRecordError(f"n and seed are whole numbers, got {n!r} and {seed!r}")
        columns = {name: _read_column(name, value) for name, value in data["columns"].items()}
        summary = run_summary(n, columns)
        if json.loads(json.dumps(summary)) != data["summary"]:
            raise InvalidRecordError("the recorded summary is not the columns' summary")
        return cls(n=n, seed=seed, columns=columns, summary=summary)


def _column_record(name: str, array: npt.NDArray[Any]) -> dict[str, Any]:
    array = np.asarray(array)
    if array.dtype.name not in COLUMN_DTYPES:
        raise EcarteError(f"column {name!r}: a record holds integer columns, not {array.dtype}")
    return {"dtype": array.dtype.name, "shape": list(array.shape), "data": array.ravel().tolist()}


def _read_column(name: str, value: object) -> npt.NDArray[Any]:
    """The column that :func:`_column_record` wrote, its values checked against its dtype."""
    bad = f"column {name!r} is not a column record"
    if not isinstance(value, dict) or set(value) != {"dtype", "shape", "data"}:
        raise InvalidRecordError(f"{bad}: it has the fields dtype, shape and data")
    dtype, shape, data = value["dtype"], value["shape"], value["data"]
    if dtype not in COLUMN_DTYPES:
        raise InvalidRecordError(f"{bad}: dtype {dtype!r} is not one of {sorted(COLUMN_DTYPES)}")
    if not isinstance(shape, list) or not all(whole(k, 0) for k in shape):
        raise InvalidRecordError(f"{bad}: its shape is a list of sizes, got {shape!r}")
    if not isinstance(data, list) or len(data) != math.prod(shape):
        raise InvalidRecordError(f"{bad}: it holds {math.prod(shape)} values for shape {shape}")
    if dtype == "bool":
        fits = all(type(x) is bool for x in data)
    else:
        limits = np.iinfo(dtype)
        fits = all(type(x) is int for x in data) and (
            not data or (min(data) >= limits.min and max(data) <= limits.max)
        )
    if not fits:
        raise InvalidRecordError(f"{bad}: its values are not all {dtype}")
    return np.array(data, dtype=dtype).reshape(shape)
