"""The result of a batch simulation, the same shape for both variants: NumPy columns (one
row per deal or match) plus a summary of rates with 95% intervals."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["SimulationResult"]


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
