"""Progress bars for long runs (rich, on stderr, hidden when stderr is not a terminal)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

__all__ = ["progress_bar"]


@contextmanager
def progress_bar(
    label: str, total: int, show: bool | None = None
) -> Iterator[Callable[[int], None]]:
    """Yields ``advance(k)``; draws a bar of ``total`` steps while the block runs, on
    stderr when it is a terminal (or as ``show`` says)."""
    console = Console(stderr=True)
    visible = console.is_terminal if show is None else show
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not visible,
    )
    with progress:
        task = progress.add_task(label, total=total)
        yield lambda k: progress.advance(task, k)
