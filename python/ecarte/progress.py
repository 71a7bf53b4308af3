"""Progress bars for long runs (rich, on stderr, drawn only when stderr is a terminal).

rich loads when a bar is drawn, not with this module: the modules that can show a bar (the
arena, the chunk runner) stay importable without it, by the protocol server among others."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ecarte._public import api_dir

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

__all__ = ["LONG_RUN_SECONDS", "Bar", "duration_text", "progress_bar", "run_seconds"]
__dir__ = api_dir(globals())

#: A run estimated to take longer than this says so before it starts.
LONG_RUN_SECONDS = 10.0


class Bar:
    """A bar of ``total`` items. ``bar(k)`` counts ``k`` more items finished;
    ``bar.running(items, note)`` shows how far the items not yet finished have got, by the
    count (``counted``, the default: ``items`` are whole items done, such as deals played)
    or only by the bar's fill (an estimate, such as the matches the deals played so far
    make), with an optional ``note`` beside it, so the bar moves while a long native call
    works. ``noted`` is a second count for the note (the deals of every finished piece, say),
    kept by the caller across pieces."""

    def __init__(self, progress: Progress, task: TaskID) -> None:
        self._progress = progress
        self._task = task
        self.finished = 0
        self.noted = 0

    def __repr__(self) -> str:
        return f"<Bar finished={self.finished:,}>"

    def __call__(self, k: int) -> None:
        self.finished += k
        self._progress.update(self._task, completed=self.finished, shown=self.finished)

    def running(self, items: float, note: str = "", counted: bool = True) -> None:
        shown = self.finished + (int(items) if counted else 0)
        self._progress.update(self._task, completed=self.finished + items, shown=shown, note=note)


def run_seconds(item_seconds: float, items: int, threads: int | None = None) -> float:
    """Rough wall seconds of ``items`` that take ``item_seconds`` each on one thread, spread
    over ``threads`` (default: every core)."""
    cores = threads or os.cpu_count() or 1
    return item_seconds * items / cores


def duration_text(seconds: float) -> str:
    """A rough duration as a person says it: ``about 40 s``, ``about 6 min``, ``about 2.5 h``."""
    if seconds < 90:
        return f"about {max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"about {round(seconds / 60)} min"
    return f"about {seconds / 3600:.1f} h"


@contextmanager
def progress_bar(
    label: str, total: int, show: bool | None = None, seconds: float | None = None
) -> Iterator[Bar]:
    """Yields the :class:`Bar` of ``total`` items, drawn on stderr while the block runs
    when stderr is a terminal (or as ``show`` says). A run estimated at ``seconds`` of
    :data:`LONG_RUN_SECONDS` or more says so above the bar before it starts."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    visible = console.is_terminal if show is None else show
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[shown]:,}/{task.total:,.0f}"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[note]}"),
        console=console,
        disable=not visible,
    )
    if visible and seconds is not None and seconds >= LONG_RUN_SECONDS:
        console.print(
            f"{label}: {total:,} to go, {duration_text(seconds)} in all (a rough estimate)",
            highlight=False,
            markup=False,
        )
    with progress:
        yield Bar(progress, progress.add_task(label, total=total, shown=0, note=""))
