"""The bank's registration: the Russian banking game, the replay of its session records, its
runs' summary and the protocol's ``table`` games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ecarte._public import api_dir
from ecarte.bank import RECORD_FORMAT as SESSION_FORMAT
from ecarte.bank.native import summarize
from ecarte.errors import InvalidRecordError
from ecarte.registry import Variant

__all__ = ["VARIANT"]
__dir__ = api_dir(globals())

NAME = "bank"
#: A bank run's columns: its count tables.
RUN_COLUMNS = frozenset({"counts", "joint"})


def _replay_session(text: str) -> dict[str, Any]:
    from ecarte.protocol.views import table_frames

    frames, ledger = table_frames(text)
    return {"frames": frames, "ledger": ledger}


def _run_summary(n: int, columns: Mapping[str, npt.NDArray[Any]]) -> dict[str, Any]:
    """A bank run's summary: its count tables are 3 tableaux by 3 outcomes, ``n`` deals
    each, and its joint counts (T2, T3, T4) agree with them."""
    counts, joint = columns["counts"], columns["joint"]
    if not (
        columns.keys() == RUN_COLUMNS
        and counts.shape == (3, 3)
        and joint.shape == (3, 3, 3)
        and all(counts.sum(axis=1) == n)
        and all(np.array_equal(m, row) for m, row in zip(_marginals(joint), counts, strict=True))
    ):
        raise InvalidRecordError(
            "a bank run's counts are 3 tableaux by 3 outcomes, n deals each, and its "
            "joint counts (T2, T3, T4) agree with them"
        )
    return summarize(n, counts)


def _marginals(joint: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], ...]:
    """The counts of T2, T3 and T4 alone, from the joint counts."""
    return joint.sum(axis=(1, 2)), joint.sum(axis=(0, 2)), joint.sum(axis=(0, 1))


VARIANT = Variant(
    name=NAME,
    description="the Russian banking game",
    replays={SESSION_FORMAT: _replay_session},
    run_columns=RUN_COLUMNS,
    summary=_run_summary,
    game_kinds=("table",),
)
