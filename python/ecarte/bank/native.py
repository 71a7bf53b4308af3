"""The bank's engine: resolution, exact odds, the shoe and simulation are native (Rust),
re-exported under clean names; :func:`odds` takes the turned-up card explicitly, and
:func:`simulate` runs locally or on Ray and summarises its counts."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

import numpy.typing as npt

from ecarte._core import Card, Suit
from ecarte._core.bank import (
    CHUNK,
    MAX_DEALS,
    Deal,
    Odds,
    Resolution,
    Shoe,
    deal_from_shoe,
    resolve,
)
from ecarte._core.bank import odds as _native_odds
from ecarte._core.bank import simulate as _native_simulate
from ecarte._public import api_dir
from ecarte.distributed import Backend, Work, ray_backend, run
from ecarte.errors import InvalidCardError
from ecarte.results import SimulationResult
from ecarte.seeding import resolve_seed
from ecarte.stats import wilson_interval

__all__ = [
    "CHUNK",
    "MAX_DEALS",
    "OUTCOMES",
    "SIMULATED_DEAL_SECONDS",
    "Deal",
    "Odds",
    "Resolution",
    "Shoe",
    "deal_from_shoe",
    "odds",
    "resolve",
    "simulate",
]
__dir__ = api_dir(globals())

OUTCOMES: Final = ("banker", "en_carte", "punter")


#: Measured single-thread CPU seconds per simulated deal (docs/scale.md, "Chunk sizing").
SIMULATED_DEAL_SECONDS: Final = 3e-7


def simulate(
    n: int,
    seed: int | None = None,
    shoe: Iterable[Card | str] | None = None,
    start: int = 0,
    threads: int | None = None,
    backend: Backend = "local",
    progress: bool | None = False,
    *,
    on_progress: Callable[[int], object] | None = None,
) -> SimulationResult:
    """Simulates ``n`` whole deals (T2, T3 and T4 each against T1) from a freshly shuffled
    ``shoe`` (the cards left; the full 104-card shoe by default), in parallel with the GIL
    released; the result is the same for any ``threads``.

    Deals are drawn in chunks of ``CHUNK`` (4096), chunk ``k`` from its own ChaCha8 stream
    ``k`` of ``seed``; ``start`` (a multiple of ``CHUNK``) offsets the chunks, so a long run
    split at chunk boundaries adds up to the same counts. ``seed=None`` draws a fresh seed,
    kept in the result. ``n`` is at most ``MAX_DEALS`` per call.

    Columns: ``counts``, a ``(3, 3)`` uint64 array indexed ``[tableau - 2, outcome]``, and
    ``joint``, ``(3, 3, 3)`` indexed ``[T2, T3, T4]``; outcomes 0 banker, 1 en carte,
    2 punter. A bank run's columns are count tables, not per-deal rows: a billion deals fit.
    The summary holds, per tableau (2, 3, 4) and outcome name, the ``counts``,
    ``probabilities`` and 95% Wilson ``intervals``.

    ``backend="ray"`` (or a ``RayBackend``) runs whole chunks of ``CHUNK`` deals as Ray
    tasks and adds their counts: the same result (docs/scale.md); ``n`` may then exceed
    ``MAX_DEALS`` and ``progress`` shows a bar that advances as chunks complete.

    A local run calls ``on_progress(deals)`` with the deals simulated so far a few times a
    second while it works, from the calling thread. Ctrl-C stops it within milliseconds
    (``KeyboardInterrupt``).
    """
    seed = resolve_seed(seed)
    # Tasks are shipped the shoe as a list; a local run hands it over as given.
    cards = shoe if shoe is None or ray_backend(backend) is None else list(shoe)
    work = Work(
        _simulate_chunk,
        n,
        (start, seed, cards),
        item_seconds=SIMULATED_DEAL_SECONDS,
        local_options={"threads": threads, "on_progress": on_progress},
        align=CHUNK,
        limit=MAX_DEALS,
        label="Deals",
        seed=seed,
    )
    parts = run(work, backend, progress)
    counts, joint = parts[0]
    for part_counts, part_joint in parts[1:]:  # integer counts: exact in any order
        counts, joint = counts + part_counts, joint + part_joint
    total = int(n)
    return SimulationResult(
        n=total,
        seed=seed,
        columns={"counts": counts, "joint": joint},
        summary=summarize(total, counts),
    )


def summarize(n: int, counts: npt.NDArray[Any]) -> dict[str, Any]:
    """The summary of ``n`` simulated deals with these outcome ``counts`` (indexed
    ``[tableau - 2, outcome]``): per tableau 2, 3, 4 and outcome name, the counts, the
    probabilities and their 95% Wilson intervals."""
    per_tableau = {
        t + 2: {name: int(counts[t, o]) for o, name in enumerate(OUTCOMES)} for t in range(3)
    }
    return {
        "counts": per_tableau,
        "probabilities": {
            t: {o: k / n if n else 0.0 for o, k in row.items()} for t, row in per_tableau.items()
        },
        "intervals": {
            t: {o: wilson_interval(k, n) for o, k in row.items()} for t, row in per_tableau.items()
        },
    }


def _simulate_chunk(
    start: int,
    n: int,
    offset: int,
    seed: int,
    cards: Iterable[Card | str] | None,
    *,
    threads: int | None = None,
    on_progress: Callable[[int], object] | None = None,
) -> tuple[Any, Any]:
    """Deals ``offset + start`` onwards, ``n`` of them, as their count tables: the unit of
    work."""
    # A local run's one chunk hands the native checks the caller's start as given.
    first = offset + start if start else offset
    counts, joint = _native_simulate(n, seed, cards, first, threads, on_progress)
    return counts, joint


def odds(
    trump: Suit | Card | str | None = None,
    removed: Iterable[Card | str] | None = None,
    shoe: Iterable[Card | str] | None = None,
    *,
    trump_card: Card | str | None = None,
) -> Odds:
    """Exact odds of one punter tableau against the banker's.

    The cards left are ``shoe`` (default: the full 104-card shoe) minus ``removed`` minus
    the turned-up card. Give the turn-up as ``trump_card="QH"`` (or as ``trump`` itself, a
    ``Card`` or card text such as ``"QH"``): its suit is trump and it leaves the shoe, as in
    play. A bare suit (``"H"``, ``Suit.Hearts``) removes nothing more: the cards left are
    exactly ``shoe`` minus ``removed``, so put the turn-up in ``removed`` (or leave it out of
    ``shoe``) for a state that occurs in play.
    """
    if trump_card is None:
        if trump is None:
            raise InvalidCardError("odds needs the turned-up card (trump_card=) or a trump suit")
        return _native_odds(trump, removed, shoe)
    if trump is not None:
        raise InvalidCardError("give the turned-up card as trump or as trump_card, not both")
    if isinstance(trump_card, str):
        trump_card = Card(trump_card)
    if not isinstance(trump_card, Card):
        raise InvalidCardError(
            f"trump_card must be a Card or card text such as 'QH', got {trump_card!r}"
        )
    return _native_odds(trump_card, removed, shoe)
