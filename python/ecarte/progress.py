"""Progress bars for long runs (rich, on stderr, drawn only when stderr is a terminal).

rich loads when a bar is drawn, not with this module: the modules that can show a bar (the
arena, the chunk runner) stay importable without it, by the protocol server among others."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

__all__ = ["Bar", "progress_bar"]


class Bar:
    """A bar of ``total`` items. ``bar(k)`` counts ``k`` more items finished (the count
    shown); ``bar.running(items, note)`` shows how far the items not yet finished have got
    (possibly an estimate, such as the deals played in matches under way) by the bar's fill,
    with an optional ``note`` beside it, so the bar moves while a long native call works."""

    def __init__(self, progress: Progress, task: TaskID) -> None:
        self._progress = progress
        self._task = task
        self.finished = 0

    def __call__(self, k: int) -> None:
        self.finished += k
        self._progress.update(self._task, completed=self.finished, finished=self.finished)

    def running(self, items: float, note: str = "") -> None:
        self._progress.update(self._task, completed=self.finished + items, note=note)


@contextmanager
def progress_bar(label: str, total: int, show: bool | None = None) -> Iterator[Bar]:
    """Yields the :class:`Bar` of ``total`` items, drawn on stderr while the block runs
    when stderr is a terminal (or as ``show`` says)."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    visible = console.is_terminal if show is None else show
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[finished]}/{task.total:.0f}"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[note]}"),
        console=console,
        disable=not visible,
    )
    with progress:
        yield Bar(progress, progress.add_task(label, total=total, finished=0, note=""))
