"""The timing of ``ecarte bench``: many short loops, taken in turn, the best of each set of
replayed inputs (:class:`Inputs`), so that the two sides of a ratio see the same load and
the figure is the code's own speed rather than the host's mood."""

from __future__ import annotations

import functools
import gc
import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

__all__ = [
    "LOOP",
    "SETS",
    "Inputs",
    "cycle",
    "interleaved_per_call",
    "interleaved_per_unit",
    "time_per_call",
    "time_per_input",
]


LOOP = 0.002
"""Seconds of the shortest timed loop: short enough that many loops fit between the
bursts in which a shared host runs slower (about a millisecond at a time on the machines
measured)."""

SETS = 16
"""How many fixed sets of inputs a replayed workload's loops go round (see :class:`Inputs`):
the inputs measured are a fixed sample of ``SETS`` loops' worth, the same in every run."""

Restart = Callable[[int], None]
"""Rewinds a workload's inputs to the start of set ``k`` (``0 <= k < SETS``)."""


class Inputs:
    """The random inputs of timed workloads, replayed: :meth:`restart` rewinds ``rng`` and
    ``seeds`` to the start of one of :data:`SETS` fixed sets. Every loop timed on set ``k``
    then does the same work, so the best of them owes its speed to a quiet host and not to
    cheap inputs; the figure is the mean over the sets (a sample of ``SETS`` loops' worth
    of inputs). Different ``seed`` values give different sets."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.seeds: Iterator[int] = itertools.count()

    def restart(self, k: int) -> None:
        self.rng.seed(self.seed * SETS + k)
        self.seeds = itertools.count((self.seed * SETS + k) << 32)


def time_per_call(
    fn: Callable[[], object],
    min_time: float,
    loop: float = LOOP,
    *,
    restart: Restart | None = None,
) -> float:
    """Seconds per call of ``fn``: the best of many short loops, about ``min_time`` seconds
    of them in all (see :func:`interleaved_per_call`)."""
    return _interleaved([fn], min_time, loop, False, 1, restart)[0]


def time_per_input(
    fn: Callable[[Any], object], inputs: Sequence[Any], min_time: float, loop: float = LOOP
) -> float:
    """Seconds per call of ``fn`` on one of ``inputs``: :func:`time_per_call` going round
    them, every loop a whole number of passes, so that every loop does the same work."""
    items = cycle(list(inputs))
    return _interleaved([lambda: fn(next(items))], min_time, loop, False, len(inputs), None)[0]


def interleaved_per_call(
    fns: Sequence[Callable[[], object]],
    min_time: float,
    loop: float = LOOP,
    *,
    restart: Restart | None = None,
) -> list[float]:
    """Seconds per call of each of ``fns``: the best of its loops, each loop at least
    ``loop`` seconds long. Every function gets the same number of loops, about ``min_time``
    seconds of the slowest loop's (three at least, per set of inputs), taken in turn, so
    that the two sides of a ratio see the same load. Many short loops rather than a few
    long ones: the best of them is one that no disturbance of the host reached, so the
    figure is the code's own speed rather than the host's mood. Functions with random
    inputs need ``restart`` (:meth:`Inputs.restart`): it is called before every loop,
    which replays one of :data:`SETS` sets of inputs, and the figure is the mean of each
    set's best loop."""
    return _interleaved(fns, min_time, loop, False, 1, restart)


def interleaved_per_unit(
    fns: Sequence[Callable[[], int]],
    min_time: float,
    loop: float = LOOP,
    *,
    restart: Restart | None = None,
) -> list[float]:
    """:func:`interleaved_per_call` for functions that return the units of work they did
    (a playout: its actions): seconds per unit, each set's best loop's time over that
    loop's units."""
    return _interleaved(fns, min_time, loop, True, 1, restart)


def _interleaved(
    fns: Sequence[Callable[[], object]],
    min_time: float,
    loop: float,
    counted: bool,
    calls: int,
    restart: Restart | None,
) -> list[float]:
    sets = SETS if restart is not None else 1

    def timed(fn: Callable[[], object], number: int, k: int) -> tuple[float, int]:
        if restart is not None:
            restart(k)
        return _loop(fn, number, counted)

    numbers = [_calibrate(functools.partial(timed, fn), loop, calls) for fn in fns]
    longest = max(elapsed for _, elapsed in numbers)
    rounds = sets * max(3, math.ceil(min_time / longest / sets))
    # Per function and set: the seconds and units of the set's best loop.
    best = [[(float("inf"), 1)] * sets for _ in fns]
    for r in range(rounds):
        k = r % sets
        for j, (fn, (number, _)) in enumerate(zip(fns, numbers, strict=True)):
            elapsed, units = timed(fn, number, k)
            if elapsed / units < best[j][k][0] / best[j][k][1]:
                best[j][k] = (elapsed, units)
    return [sum(e for e, _ in b) / sum(u for _, u in b) for b in best]


def _calibrate(
    timed: Callable[[int, int], tuple[float, int]], seconds: float, calls: int
) -> tuple[int, float]:
    """A loop count, a multiple of ``calls``, that takes at least ``seconds`` (on set 0)
    twice running, with the seconds the second loop took. Twice: a first call can be far
    slower than the rest (lazy set-up, cold caches), and a loop of one slow call would
    pass for a long one."""
    number = calls
    while True:
        elapsed, _ = timed(number, 0)
        if elapsed >= seconds:
            elapsed, _ = timed(number, 0)
            if elapsed >= seconds:
                return number, elapsed
        number *= 4 if elapsed < seconds / 10 else 2


def _loop(fn: Callable[[], object], number: int, counted: bool) -> tuple[float, int]:
    """Calls ``fn`` ``number`` times: the seconds in all and the units of work done (calls,
    or if ``counted`` the sum of what ``fn`` returned). The garbage collector is off while
    the loop runs, as in :mod:`timeit`: its passes over every live object cost whichever
    side they fall in, more the more objects the process holds."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        if counted:
            units = 0
            for _ in range(number):
                units += cast(int, fn())
        else:
            for _ in range(number):
                fn()
            units = number
        elapsed = time.perf_counter() - start
    finally:
        if collecting:
            gc.enable()
    if units <= 0:
        raise ValueError("a timed function did no work")
    return elapsed, units


def cycle(items: list[Any]) -> Iterator[Any]:
    while True:
        yield from items
