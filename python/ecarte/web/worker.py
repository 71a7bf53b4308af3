"""The replay worker of ``ecarte serve``.

``replay`` is the costliest request a client can send: a record of 1 MiB is up to 20,000
frames, seconds of Python and megabytes of JSON, and the encoding alone holds the
interpreter for a tenth of a second or more. So the server answers it in a separate
process, at a lower priority (nice 10), which hands back the answer already encoded: while
any number of clients replay, the server's own interpreter stays free for the moves. The
worker ends within a second of the server's process, however that ended.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ecarte._public import api_dir
from ecarte.errors import EcarteError
from ecarte.protocol.replay import replay
from ecarte.protocol.wire import to_line

__all__ = ["ReplayWorker"]
__dir__ = api_dir(globals())


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


class ReplayWorker:
    """Answers ``replay`` in one worker process, started at the first request and again
    if it dies. Calls from many threads queue for it in turn. Where no worker process can
    start at all (a program read from standard input cannot be re-imported by one), the
    calling thread answers."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._started = False  # a worker has answered: one can start here
        self._unavailable = False
        self._lock = threading.Lock()

    def __call__(self, text: str) -> tuple[str, float]:
        """The encoded result and its CPU seconds; the record's own error if it does not
        load."""
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
            return _replay_encoded(text)
        try:
            answer = pool.submit(_replay_encoded, text).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
                    self._unavailable = not self._started
            if self._unavailable:
                return _replay_encoded(text)
            raise EcarteError("the replay worker stopped: try again") from None
        self._started = True
        return answer
