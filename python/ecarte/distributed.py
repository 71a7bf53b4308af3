"""Scale-out on Ray: the same results on a cluster as on one machine.

``backend="ray"`` (or a :class:`RayBackend`) on ``duel.simulate``, ``bank.simulate``,
``duel.solve_many`` and ``arena.play`` splits the work into chunks of consecutive indices
(:func:`chunks`), runs each chunk as one Ray task calling the native code with its
``start``/``n`` (the GIL released), and joins the chunks' results in index order. Item
``i`` of a run depends only on ``(seed, i)``, so the result is identical, bit for bit, to
``backend="local"`` whatever the number of workers or chunks. :func:`run` is the one chunk
runner: every batch function describes its :class:`Work` (its chunk function and how its
items are costed and split) and hands it over once, and :func:`run` runs it in this
process, in worker processes or on Ray.

Ray is an optional dependency (the ``ray`` extra, ``pip install '.[ray]'``); it is imported
only when a Ray backend runs, never by ``import ecarte``. See docs/scale.md.
"""

from __future__ import annotations

import logging
import math
import os
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Generic, Literal, TypeVar

from ecarte._core import MAX_BATCH
from ecarte._install import install_hint
from ecarte._public import api_dir
from ecarte.errors import EcarteError

__all__ = [
    "Backend",
    "Chunk",
    "Interrupted",
    "Pieces",
    "RayBackend",
    "Work",
    "chunk_size",
    "chunks",
    "connect",
    "growing_chunks",
    "ray_backend",
    "run",
]
__dir__ = api_dir(globals())

T = TypeVar("T")

#: The one-line error when Ray is missing.
MISSING_RAY: Final = f"backend='ray' needs Ray: {install_hint('ray')}"

#: Ray's own advice when no cluster answers names flags of the ``ray`` command; ecarte's.
NO_CLUSTER: Final = (
    "no Ray cluster is running here; start one with `ray start --head`, or give no "
    "address (--ray alone, or backend='ray') for a local one"
)

#: Measured cost of one Ray task on a local instance, amortized over 1,000 trivial tasks
#: submitted at once: 1.4 and 2.6 ms in two runs on a loaded 2-core machine (a lone task's
#: round trip: 3.9 to 5.5 ms); docs/scale.md, "Chunk sizing". A chunk is sized so that
#: this is at most 2% of its work.
TASK_OVERHEAD_SECONDS: Final = 0.0015
#: The least work per task: 50 overheads, so the overhead stays under 2%.
MIN_TASK_SECONDS: Final = 50 * TASK_OVERHEAD_SECONDS
#: Chunks per CPU when the work allows it: spreads uneven chunks and moves the progress bar.
CHUNKS_PER_CPU: Final = 4


@dataclass(frozen=True)
class RayBackend:
    """Where and how to run on Ray.

    ``address``: the cluster (``"auto"``, ``"ray://host:10001"``, ``"host:6379"``); ``None``
    uses ``RAY_ADDRESS`` or else a local instance. Ignored when Ray is already initialized.
    ``chunk_size``: items (deals, matches, positions or seeds) per task; ``None`` sizes
    chunks from the measured task overhead (:func:`chunk_size`). It never changes the result.
    ``max_retries``: how often Ray reruns a task whose worker died (a chunk is a pure
    function of its indices, so a rerun gives the same result). ``cpus_per_task``: threads
    per task (and the CPUs it reserves).
    """

    address: str | None = None
    chunk_size: int | None = None
    max_retries: int = 3
    cpus_per_task: int = 1

    def __post_init__(self) -> None:
        if self.chunk_size is not None and not _whole(self.chunk_size, 1):
            raise EcarteError(f"chunk_size must be a whole number >= 1, got {self.chunk_size!r}")
        if not _whole(self.max_retries, 0):
            raise EcarteError(f"max_retries must be a whole number >= 0, got {self.max_retries!r}")
        if not _whole(self.cpus_per_task, 1):
            raise EcarteError(
                f"cpus_per_task must be a whole number >= 1, got {self.cpus_per_task!r}"
            )


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run of chunks (:func:`run`): a ``KeyboardInterrupt`` that keeps
    the results of the chunks that had finished (``finished``, in chunk order), so that a
    caller can report what was done."""

    def __init__(self, finished: Sequence[Any]) -> None:
        super().__init__()
        self.finished = list(finished)


#: What ``backend=`` takes: ``"local"`` (the default), ``"ray"`` or a :class:`RayBackend`.
Backend = Literal["local", "ray"] | RayBackend


def _whole(value: object, least: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def ray_backend(backend: object) -> RayBackend | None:
    """The Ray backend that ``backend`` names, or ``None`` for ``"local"``."""
    if isinstance(backend, RayBackend):
        return backend
    if backend == "local":
        return None
    if backend == "ray":
        return RayBackend()
    raise EcarteError(f"backend must be 'local', 'ray' or a RayBackend, got {backend!r}")


@dataclass(frozen=True)
class Chunk:
    """Items ``start .. start + n - 1`` of a run, the ``index``-th piece."""

    index: int
    start: int
    n: int

    def describe(self) -> str:
        return f"chunk {self.index} (items {self.start}-{self.start + self.n - 1})"


def chunks(total: int, size: int, align: int = 1) -> list[Chunk]:
    """``total`` items from index 0 in consecutive pieces of ``size`` (rounded up to a
    multiple of ``align``; the last piece may be short). The one chunking of ecarte: the
    local and Ray runs of every function split work this way."""
    if size < 1 or align < 1:
        raise EcarteError(f"chunk size and alignment must be at least 1, got {size}, {align}")
    size = -(-size // align) * align
    return [
        Chunk(k, start, min(size, total - start)) for k, start in enumerate(range(0, total, size))
    ]


def growing_chunks(total: int, first: int, most: int) -> list[Chunk]:
    """``total`` items from index 0 in consecutive pieces: ``first`` items, then each piece
    twice the one before, up to ``most`` (the last piece may be short). A local run that
    parallelises within each piece idles at each piece's end, while its last items finish:
    few large pieces idle less, and a small first one still finishes soon."""
    if first < 1 or most < first:
        raise EcarteError(f"chunk sizes must be 1 <= first <= most, got {first}, {most}")
    pieces: list[Chunk] = []
    start, size = 0, first
    while start < total:
        pieces.append(Chunk(len(pieces), start, min(size, total - start)))
        start += size
        size = min(2 * size, most)
    return pieces


def chunk_size(
    total: int, item_seconds: float, cpus: int, align: int = 1, limit: int = MAX_BATCH
) -> int:
    """Items per chunk for ``total`` items of about ``item_seconds`` each on ``cpus`` CPUs:
    at least :data:`MIN_TASK_SECONDS` of work per task (the task overhead under 2%), and
    otherwise :data:`CHUNKS_PER_CPU` chunks per CPU; at most ``limit``, a multiple of
    ``align``."""
    by_overhead = math.ceil(MIN_TASK_SECONDS / max(item_seconds, 1e-12))
    by_balance = math.ceil(total / (CHUNKS_PER_CPU * max(cpus, 1)))
    size = max(1, min(max(by_overhead, by_balance), limit, max(total, 1)))
    return max(align, size // align * align) if align > 1 else size


def connect(address: str | None = None) -> Any:
    """The ``ray`` module, connected: to the running Ray if ``ray.is_initialized()``, else
    to ``address`` (or ``RAY_ADDRESS``), else to a new local instance."""
    try:
        import ray
    except ImportError:
        raise EcarteError(MISSING_RAY) from None
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        if address is not None:
            _check_reachable(address)
        try:
            if address is None:
                ray.init(include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
            else:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        except Exception as e:  # Ray raises several kinds; the CLI shows one line
            where = address or "a local instance"
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            if address == "auto" or "--address" in first:  # Ray's advice names its own CLI
                first = NO_CLUSTER
            raise EcarteError(f"cannot connect to Ray at {where}: {first}") from None
    return ray


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fails fast, in one line, on a ``host:port`` (or ``ray://host:port``) that does not
    answer; Ray itself would retry for minutes. ``auto`` and other forms are left to Ray."""
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise EcarteError(f"cannot connect to Ray at {address}: {e.strerror or e}") from None


def cluster_cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def task_cpus(backend: RayBackend) -> int:
    """How many tasks of ``backend`` the cluster runs at once (at least 1)."""
    return max(1, cluster_cpus(connect(backend.address)) // backend.cpus_per_task)


def _call(fn: Callable[..., Any], start: int, n: int, *args: Any, **keywords: Any) -> Any:
    return fn(start, n, *args, **keywords)


_REMOTE: dict[str, Any] = {}


def _remote(ray: Any) -> Any:
    if "call" not in _REMOTE:
        _REMOTE["call"] = ray.remote(_call)
    return _REMOTE["call"]


#: How a local run splits its items (:attr:`Work.local`).
Pieces = Literal["whole", "timed", "each"]

#: Wall seconds of work in the first piece of a ``"timed"`` local run: Ctrl-C keeps the
#: pieces that finished, and the bar counts them.
LOCAL_CHUNK_SECONDS: Final = 1.0
#: How much larger than the first the later pieces of a ``"timed"`` local run grow
#: (doubling): each piece's items run in parallel, and a core idles at its end while the
#: last item finishes, so 1-second pieces throughout left 9% of two cores idle on the
#: README's arena (``ecarte arena pimc heuristic --matches 200``: 58.1 s wall for 105.6 s of
#: CPU time, and 53.2 s with 4-second pieces, measured in one session).
LOCAL_CHUNK_GROWTH: Final = 4
#: The most items in the first piece of a ``"timed"`` local run.
MAX_LOCAL_CHUNK: Final = 4096


@dataclass(frozen=True)
class Work(Generic[T]):
    """A batch of items ``0 .. total - 1`` worked in chunks of consecutive items:
    ``chunk(start, n, *args)`` returns the result of items ``start .. start + n - 1`` and
    depends on nothing else, so a run gives the same result however it is chunked and
    wherever the chunks run. ``chunk`` is a module-level function of ecarte, which Ray and
    worker processes import.

    ``item_seconds``: the estimated single-thread seconds of one item (or a function giving
    it, called once the arguments are checked), which sizes the chunks. ``local``: how a
    local run splits the items, ``"whole"`` (one call on every item, given ``local_options``
    too: a thread count, a progress callback; its native code stops on Ctrl-C), ``"timed"``
    (pieces of about :data:`LOCAL_CHUNK_SECONDS` of work on every core, then doubling, each
    given the progress bar, ``bar=``) or ``"each"`` (one item at a time, in ``workers``
    processes if more than one: Python agents). ``items``: when the work is over a list, the
    list (``total`` is then its length); each chunk is given its own slice (``items=``).
    Ray chunks are a multiple of ``align`` items, at most ``limit``. ``label`` names the
    items on the progress bar, and ``seed`` the run in the error of a chunk that failed.
    """

    chunk: Callable[..., T]
    total: int
    args: tuple[Any, ...] = ()
    item_seconds: float | Callable[[], float] = 0.0
    local: Pieces = "whole"
    local_options: Mapping[str, Any] = field(default_factory=dict)
    items: Sequence[Any] | None = None
    align: int = 1
    limit: int = MAX_BATCH
    label: str = "Chunks"
    seed: int | None = None

    def seconds(self) -> float:
        """The estimated seconds of one item."""
        return self.item_seconds() if callable(self.item_seconds) else self.item_seconds

    def call(self, piece: Chunk, items: Sequence[Any] | None = None, **keywords: Any) -> T:
        """The chunk function on ``piece``, given ``items`` (the piece's slice of
        :attr:`items`) if the work is over a list."""
        if self.items is not None:
            keywords["items"] = items
        return self.chunk(piece.start, piece.n, *self.args, **keywords)


def run(
    work: Work[T], backend: Backend = "local", progress: bool | None = False, workers: int = 1
) -> list[T]:
    """Runs ``work`` where ``backend`` says and returns its chunks' results in chunk order:
    the one chunk runner of ecarte, which ``duel.simulate``, ``bank.simulate``,
    ``duel.solve_many`` and ``arena.play`` each enter once.

    A local run (``backend="local"``) splits the items as ``work.local`` says; ``"timed"``
    and ``"each"`` runs show a progress bar on stderr when it is a terminal (or as
    ``progress`` says), and ``"each"`` runs its items in ``workers`` processes if more than
    one. A Ray run first calls the local run's whole call on no items, in this process, so
    that bad arguments raise what a local run raises before any task starts (its result
    stands for a run of no items); then each chunk is one task (:func:`run_chunks`) of
    ``RayBackend.chunk_size`` items, or of as many as :func:`chunk_size` gives. Ctrl-C
    raises :class:`Interrupted` with the results of the chunks that had finished, except in
    a ``"whole"`` local run, whose one call raises ``KeyboardInterrupt``."""
    ray = ray_backend(backend)
    if ray is not None:
        if work.items is not None:  # tasks are shipped slices of a list
            shipped = list(work.items)
            work = replace(work, items=shipped, total=len(shipped))
        checked = work.call(Chunk(0, 0, 0), _slice(work, Chunk(0, 0, 0)), **work.local_options)
        size = ray.chunk_size or chunk_size(
            work.total, work.seconds(), task_cpus(ray), work.align, work.limit
        )
        return run_chunks(ray, work, chunks(work.total, size, work.align), progress) or [checked]
    if work.local == "whole":
        return [work.call(Chunk(0, 0, work.total), work.items, **work.local_options)]
    if work.local == "timed":
        first = _timed_first_piece(work.seconds())
        pieces = growing_chunks(work.total, first, first * LOCAL_CHUNK_GROWTH)
    else:
        pieces = chunks(work.total, 1)
    if workers > 1 and work.local == "each":
        return _in_processes(work, pieces, workers, progress)
    from ecarte.progress import progress_bar, run_seconds

    # A timed run uses every core; a run of items one by one, this process's one thread.
    cores = None if work.local == "timed" else 1
    seconds = run_seconds(work.seconds(), work.total, cores)
    results: list[T] = []
    with progress_bar(work.label, work.total, progress, seconds) as bar:
        try:
            for piece in pieces:
                live = {"bar": bar} if work.local == "timed" else {}
                results.append(work.call(piece, _slice(work, piece), **live))
                bar(piece.n)
        except Interrupted:
            raise
        except KeyboardInterrupt as exc:
            raise Interrupted(results) from exc
    return results


def _slice(work: Work[Any], piece: Chunk) -> Sequence[Any] | None:
    return None if work.items is None else work.items[piece.start : piece.start + piece.n]


def _timed_first_piece(item_seconds: float) -> int:
    """Items in the first piece of a ``"timed"`` local run: about
    :data:`LOCAL_CHUNK_SECONDS` of work on every core, and at least one item per core."""
    cores = os.cpu_count() or 1
    by_time = int(LOCAL_CHUNK_SECONDS * cores / max(item_seconds, 1e-9))
    return max(cores, min(by_time, MAX_LOCAL_CHUNK))


def _single_thread_worker() -> None:
    # Each worker process is one of `workers` cores: keep the solver's pool to one thread.
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
    # Ctrl-C reaches the whole process group: the parent stops the pool and reports.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_processes(
    work: Work[T], pieces: Sequence[Chunk], workers: int, progress: bool | None
) -> list[T]:
    """Every piece of ``work`` in a pool of ``workers`` processes; the results in piece
    order. Ctrl-C raises :class:`Interrupted` with the pieces that had finished."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    from ecarte.progress import progress_bar, run_seconds

    done: dict[int, T] = {}
    seconds = run_seconds(work.seconds(), work.total, workers)
    with progress_bar(work.label, work.total, progress, seconds) as bar:
        pool = ProcessPoolExecutor(
            workers, mp_context=get_context("spawn"), initializer=_single_thread_worker
        )
        try:
            futures = {
                pool.submit(
                    _call,
                    work.chunk,
                    piece.start,
                    piece.n,
                    *work.args,
                    **({} if work.items is None else {"items": _slice(work, piece)}),
                ): piece
                for piece in pieces
            }
            for future in as_completed(futures):
                piece = futures[future]
                done[piece.index] = future.result()
                bar(piece.n)
        except KeyboardInterrupt as exc:
            # The workers ignore Ctrl-C (one report, from here); stop them at once.
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            raise Interrupted([done[i] for i in sorted(done)]) from exc
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    return [done[i] for i in sorted(done)]


def run_chunks(
    backend: RayBackend, work: Work[T], pieces: Sequence[Chunk], progress: bool | None = False
) -> list[T]:
    """``work``'s chunk function on every piece, each a Ray task; the results in piece
    order. The progress bar advances by a piece's items as it completes. A chunk that
    raises stops the run: the other tasks are cancelled and an :class:`EcarteError` names
    the chunk (and the work's seed); no partial result is returned. Ctrl-C cancels the
    other tasks too, and raises :class:`Interrupted` with the chunks that had finished."""
    ray = connect(backend.address)
    from ray.exceptions import RayError, RayTaskError

    from ecarte.progress import progress_bar

    threads = str(backend.cpus_per_task)
    options = {
        "num_cpus": backend.cpus_per_task,
        "max_retries": backend.max_retries,
        "retry_exceptions": False,
        # The native code's thread pool matches the CPUs the task reserved.
        "runtime_env": {"env_vars": {"RAYON_NUM_THREADS": threads}},
    }
    remote = _remote(ray).options(**options)
    shared = tuple(ray.put(a) if _is_large(a) else a for a in work.args)
    items = work.items
    refs = [
        remote.remote(
            work.chunk,
            c.start,
            c.n,
            *shared,
            **({} if items is None else {"items": items[c.start : c.start + c.n]}),
        )
        for c in pieces
    ]
    order = {ref: i for i, ref in enumerate(refs)}
    results: list[Any] = [None] * len(refs)
    finished: list[int] = []
    pending = list(refs)
    total = sum(c.n for c in pieces)
    try:
        with progress_bar(work.label, total, progress) as advance:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                if pending:  # and every other chunk already done, in one call
                    more, pending = ray.wait(pending, num_returns=len(pending), timeout=0)
                    done += more
                for ref in done:
                    i = order[ref]
                    try:
                        results[i] = ray.get(ref)
                    except RayError as e:
                        raise _chunk_error(pieces[i], work.seed, e, RayTaskError) from None
                    finished.append(i)
                    advance(pieces[i].n)
    except BaseException as exc:
        for ref in pending:
            ray.cancel(ref, force=True)
        if isinstance(exc, KeyboardInterrupt) and not isinstance(exc, Interrupted):
            raise Interrupted([results[i] for i in sorted(finished)]) from exc
        raise
    return results


def _is_large(value: object) -> bool:
    """Arguments worth putting in the object store once rather than with every task."""
    return not isinstance(value, (str, int, float, bool, type(None), tuple))


def _chunk_error(
    chunk: Chunk, seed: int | None, error: BaseException, task_error: type
) -> EcarteError:
    cause = error.cause if isinstance(error, task_error) else error  # type: ignore[attr-defined]
    if cause is None:
        cause = error
    text = str(cause).strip().splitlines()
    detail = f"{type(cause).__name__}: {text[0]}" if text else type(cause).__name__
    where = chunk.describe() + ("" if seed is None else f" of the run with seed {seed}")
    return EcarteError(f"{where} failed: {detail}")
