"""``analyse``: the analysis of a duel deal or match (docs/analysis.md) for a client who may
see all of it: the record it sent, a game whose every seat it holds, or the finished deals
of a game against an agent or of a spectated match."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from ecarte._public import api_dir
from ecarte.analysis import DEFAULT_ANALYSIS_THRESHOLD, DEFAULT_ANALYSIS_WORLDS, analyse
from ecarte.duel import Deal, Match
from ecarte.protocol.wire import ProtocolError, Request
from ecarte.registry import sniff

__all__ = [
    "DEFAULT_SEED",
    "MAX_ANALYSED_DEALS",
    "MAX_THRESHOLD",
    "AnalysisOptions",
    "analysis",
    "analysis_options",
    "analysis_result",
]
__dir__ = api_dir(globals())

#: The seed of the worlds when the request gives none, as ``ecarte analyse`` uses.
DEFAULT_SEED: Final = 1
#: The largest threshold: a deal is worth at most 2 points either way.
MAX_THRESHOLD: Final = 4.0
#: The most deals of a record one ``analyse`` on a server takes (each is up to a second
#: of CPU with the default worlds).
MAX_ANALYSED_DEALS: Final = 20


class AnalysisOptions(NamedTuple):
    """A request's worlds, seed and threshold, checked."""

    worlds: int
    seed: int
    threshold: float


def analysis_options(request: Request, max_worlds: int) -> AnalysisOptions:
    """The request's ``worlds`` (at most ``max_worlds``), ``seed`` and ``threshold``, each
    with its default when not given."""
    worlds = request.integer("worlds", 1, max_worlds, min(DEFAULT_ANALYSIS_WORLDS, max_worlds))
    seed = request.seed() if request.has("seed") else DEFAULT_SEED
    threshold = (
        request.number("threshold", 0.0, MAX_THRESHOLD)
        if request.has("threshold")
        else DEFAULT_ANALYSIS_THRESHOLD
    )
    return AnalysisOptions(worlds, seed, threshold)


def analysis_result(
    target: str,
    options: AnalysisOptions,
    *,
    finished: bool,
    threads: int | None,
    max_deals: int | None = None,
) -> dict[str, Any]:
    """The analysis of ``target`` (a deal or match record's text; its finished deals only
    with ``finished``): one object per decision (the fields of ``ecarte analyse --json``)
    under ``decisions``, and the summary's fields. A record of more than ``max_deals``
    deals is refused (``ProtocolError``) before any is analysed."""
    loaded: Any = target
    if max_deals is not None:
        read = sniff(target).read(target)
        if isinstance(read, (Deal, Match)):
            loaded = read  # read once; any other record gets analyse's own refusal
        deals = len(read.deals) if isinstance(read, Match) else 1
        if deals > max_deals:
            raise ProtocolError(
                f"analyse: the record has {deals} deals; a request analyses at most "
                f"{max_deals} (ecarte analyse takes a longer match)"
            )
    result = analyse(
        loaded,
        worlds=options.worlds,
        seed=options.seed,
        threshold=options.threshold,
        threads=threads,
        finished=finished,
    )
    return {"decisions": [d.to_dict() for d in result.decisions], **result.summary_dict()}


def analysis(
    request: Request, target: str, *, finished: bool, max_worlds: int, threads: int | None
) -> dict[str, Any]:
    """:func:`analysis_result` with the request's options (:func:`analysis_options`)."""
    options = analysis_options(request, max_worlds)
    return analysis_result(target, options, finished=finished, threads=threads)
