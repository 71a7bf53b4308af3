"""``analyse``: the analysis of a duel deal or match (docs/analysis.md) for a client who may
see all of it: the record it sent, a game whose every seat it holds, or the finished deals
of a game against an agent or of a spectated match."""

from __future__ import annotations

from typing import Any, Final

from ecarte.analysis import DEFAULT_ANALYSIS_THRESHOLD, DEFAULT_ANALYSIS_WORLDS, analyse
from ecarte.protocol.wire import Request

__all__ = ["DEFAULT_SEED", "MAX_THRESHOLD", "analysis"]

#: The seed of the worlds when the request gives none, as ``ecarte analyse`` uses.
DEFAULT_SEED: Final = 1
#: The largest threshold: a deal is worth at most 2 points either way.
MAX_THRESHOLD: Final = 4.0


def analysis(
    request: Request, target: str, *, finished: bool, max_worlds: int, threads: int | None
) -> dict[str, Any]:
    """The analysis of ``target`` (a deal or match record's text; its finished deals only
    with ``finished``) with the request's ``worlds`` (at most ``max_worlds``), ``seed`` and
    ``threshold``: one object per decision (the fields of ``ecarte analyse --json``) under
    ``decisions``, and the summary's fields."""
    worlds = request.integer("worlds", 1, max_worlds, min(DEFAULT_ANALYSIS_WORLDS, max_worlds))
    seed = request.seed() if request.has("seed") else DEFAULT_SEED
    threshold = (
        request.number("threshold", 0.0, MAX_THRESHOLD)
        if request.has("threshold")
        else DEFAULT_ANALYSIS_THRESHOLD
    )
    result = analyse(
        target, worlds=worlds, seed=seed, threshold=threshold, threads=threads, finished=finished
    )
    return {"decisions": [d.to_dict() for d in result.decisions], **result.summary_dict()}
