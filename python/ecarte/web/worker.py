"""The replay worker of ``ecarte serve``.

``replay`` and ``analyse`` of a record are the costliest requests a client can send: a
record of 1 MiB is up to 20,000 frames, seconds of Python and megabytes of JSON, and the
encoding alone holds the interpreter for a tenth of a second or more; an analysis is up to
a second of search per deal. So the server answers them in a separate process, at a lower
priority (nice 10), which hands back the answer already encoded with the CPU seconds it
took (the client's budget is charged them): while any number of clients replay, the
server's own interpreter stays free for the moves. The worker ends within a second of the
server's process, however that ended.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ecarte._public import api_dir
from ecarte.errors import EcarteError
from ecarte.protocol.analysis import MAX_ANALYSED_DEALS, AnalysisOptions, analysis_result
from ecarte.protocol.replay import replay
from ecarte.protocol.wire import to_line

__all__ = ["ReplayWorker"]
__dir__ = api_dir(globals())

T = TypeVar("T")


def _start_worker(server: int) -> None:
    """In the worker: a lower priority, and an end as soon as the server's process is gone,
    however it ended (killed, a signal), so that no worker outlives it."""
    try:
        os.nice(10)
    except OSError:  # not allowed here: the worker runs at the server's priority
        pass

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="ecarte-replay-watch", daemon=True).start()


def _replay_encoded(text: str) -> tuple[str, float]:
    """The ``replay`` result of a record as JSON, and the CPU seconds it took."""
    began = time.process_time()
    encoded = to_line(replay(text))
    return encoded, time.process_time() - began


def _analyse_encoded(text: str, options: AnalysisOptions) -> tuple[str | EcarteError, float]:
    """The ``analyse`` result of a record (at most :data:`MAX_ANALYSED_DEALS` deals, on one
    thread) as JSON, or the error that refused it, and the CPU seconds either took: a
    refused record is charged too."""
    began = time.process_time()
    try:
        target = analysis_result(
            text, options, finished=False, threads=1, max_deals=MAX_ANALYSED_DEALS
        )
        answer: str | EcarteError = to_line(target)
    except EcarteError as exc:
        answer = exc
    return answer, time.process_time() - began


class ReplayWorker:
    """Answers ``replay`` and ``analyse`` of a record in one worker process, started at
    the first request and again if it dies. Calls from many threads queue for it in turn.
    Where no worker process can start at all (a program read from standard input cannot be
    re-imported by one), the calling thread answers."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._started = False  # a worker has answered: one can start here
        self._unavailable = False
        self._lock = threading.Lock()

    def __call__(self, text: str) -> tuple[str, float]:
        """The encoded result and its CPU seconds; the record's own error if it does not
        load."""
        return self._run(_replay_encoded, text)

    def analyse(self, text: str, options: AnalysisOptions) -> tuple[str | EcarteError, float]:
        """The encoded analysis of a record, or the error refusing it, and its CPU seconds."""
        return self._run(_analyse_encoded, text, options)

    def _run(self, work: Callable[..., T], *args: Any) -> T:
        with self._lock:
            if self._unavailable:
                pool = None
            elif self._pool is None:
                pool = self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(os.getpid(),),
                )
            else:
                pool = self._pool
        if pool is None:
            return work(*args)
        try:
            answer = pool.submit(work, *args).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
                    self._unavailable = not self._started
            if self._unavailable:
                return work(*args)
            raise EcarteError("the replay worker stopped: try again") from None
        self._started = True
        return answer
