"""Executors: run ``play_chunk`` over chunks and yield the results in chunk (seed) order.

All three keep a bounded window of chunks in flight and hand results back in the order the
chunks were submitted, so the result file is written in seed order and memory stays flat
whatever the batch size:

* :class:`SerialExecutor`: in this process (``--workers 1``);
* :class:`ProcessExecutor`: a :class:`~concurrent.futures.ProcessPoolExecutor` with the explicit
  start method :data:`START_METHOD`;
* :class:`DaskExecutor`: a Dask cluster (``--scheduler tcp://host:8786``), or a LocalCluster of
  single-threaded worker processes started for the run.
"""

from __future__ import annotations

import os
from collections import deque
from contextlib import contextmanager
from functools import partial
from typing import Any, Callable, Iterable, Iterator, Protocol

from ..compiled import announce, announcer
from ..errors import CardgamesError, OptionConflictError
from .seeds import Chunk
from .worker import ChunkResult, Job, play_chunk

#: "spawn" rather than "fork": a fresh interpreter per worker behaves the same on Linux, macOS
#: and Windows, and never inherits a parent's threads or locks (fork is unsafe with threads,
#: and Python 3.14 stops defaulting to it). The cost, importing the engine once per worker,
#: is a fraction of a second per run.
START_METHOD = "spawn"
#: Chunks in flight per worker: one running, the next ones queued so no worker waits for IPC.
WINDOW_PER_WORKER = 3
#: Seconds between a pool worker's looks at whether its batch is still there (:func:`_exit_with_parent`).
PARENT_POLL = 1.0
#: What a batch says when a worker process dies under a chunk, whichever backend it ran on.
WORKER_DIED = "a worker process died (out of memory? killed?): with --out, rerun with --resume to finish the batch"


def _ordered(submit: Callable[..., Any], job: Job, chunks: Iterable[Chunk], window: int) -> Iterator[ChunkResult]:
    """Submit up to ``window`` chunks ahead and yield their results in submission order."""
    pending: deque = deque()
    source = iter(chunks)
    for chunk in source:
        pending.append(submit(play_chunk, job, chunk))
        if len(pending) >= window:
            break
    while pending:
        result = pending.popleft().result()
        chunk = next(source, None)
        if chunk is not None:
            pending.append(submit(play_chunk, job, chunk))
        yield result


class Executor(Protocol):
    """What the runner asks of a backend: entered, it has its ``workers`` (a Dask cluster's threads, once
    reached) and plays a job's chunks, yielding their results in the chunks' order; left, it stops them."""

    workers: int

    def __enter__(self) -> "Executor": ...

    def __exit__(self, *exc: object) -> None: ...

    def map(self, job: Job, chunks: Iterable[Chunk]) -> Iterator[ChunkResult]: ...


class SerialExecutor:
    """Play the chunks here, one after the other."""

    workers = 1

    def __enter__(self) -> "SerialExecutor":
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def map(self, job: Job, chunks: Iterable[Chunk]) -> Iterator[ChunkResult]:
        for chunk in chunks:
            yield play_chunk(job, chunk)


@contextmanager
def _starting_workers() -> Iterator[None]:
    """Ignore Ctrl-C, and hold SIGTERM, while worker processes are started: they inherit the ignored
    SIGINT across the spawn's exec, so a Ctrl-C while they import cannot stop them with tracebacks
    before their initializer ignores it for good. Only while the starts take (a few milliseconds for
    the process pool, about a second for a Dask LocalCluster): a Ctrl-C in that window is lost to the
    parent too (blocking it instead would not reach the children, whose mask the spawn resets, and
    other threads would still take it). A SIGTERM in that window is raised again once the starts are
    done, so that the executor has its workers in hand to close: taken mid-start, it left a cluster
    half made, closed by Dask's exit hook with a traceback, and its workers' folders behind."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
    sigterm = signal.signal(signal.SIGTERM, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, sigint)
        signal.signal(signal.SIGTERM, sigterm)
    if held:
        signal.raise_signal(signal.SIGTERM)


def _ignore_sigint() -> None:
    # Ctrl-C is the parent's to handle (it stops cleanly and says how to resume); workers
    # would otherwise each print a KeyboardInterrupt traceback.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_worker(parent: int, say: Callable[[str], None] | None, told: Any) -> None:
    """A pool worker's start: Ctrl-C left to the parent; the worker ended with its batch, however the batch ends
    (``parent``, the batch's process id, given rather than read here: a batch killed while this worker started is
    gone already); and ``say`` called at the first compile of any worker of the pool (``told``, a shared flag, set
    by the first), if given."""
    import threading

    _ignore_sigint()
    threading.Thread(target=_exit_with_parent, args=(parent,), name="exit-with-parent", daemon=True).start()
    if say is not None:
        announce(partial(_say_once, say, told))


def _exit_with_parent(parent: int, poll: float = PARENT_POLL) -> None:
    """End this worker once its parent, the batch, is gone (this process is then another's child). A batch
    stopped by SIGKILL (an out-of-memory killer, ``kill -9``, a CI runner's hard timeout) cannot stop its pool,
    whose idle workers waited on their task queue for ever, each holding its games' caches (a determinism
    audit's finding); a worker playing a chunk stops there, its chunk lost with the batch that asked for it."""
    import time

    while os.getppid() == parent:
        time.sleep(poll)
    os._exit(1)


def _say_once(say: Callable[[str], None], told: Any, text: str) -> None:
    """``say(text)`` unless a worker of the pool has said it (``told``: a shared ``multiprocessing.Value``)."""
    with told.get_lock():
        if told.value:
            return
        told.value = 1
    say(text)


def dask_setup(worker: object) -> None:
    """Dask's preload hook: each LocalCluster worker process ignores Ctrl-C, which is the batch's
    to handle (it closes the cluster and says how to resume); workers stopping on their own made
    their nannies print tracebacks first."""
    _ignore_sigint()


class ProcessExecutor:
    """A pool of ``workers`` processes started with :data:`START_METHOD`."""

    def __init__(self, workers: int):
        self.workers = workers

    def __enter__(self) -> "ProcessExecutor":
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # The workers compile numba's loops where the parent would have (a fresh install's first Torqu batch sat
        # with no bar and no word for half a minute): said as the parent says it, once for them all.
        context = multiprocessing.get_context(START_METHOD)
        say = announcer()
        told = context.Value("b", 0) if say is not None else None
        try:
            with _starting_workers():
                self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker,
                                                 initargs=(os.getpid(), say, told))
                for _ in range(self.workers):  # the pool starts a worker per task submitted while none is idle
                    self._pool.submit(os.getpid)
        except BaseException as exc:  # a held SIGTERM: the workers started are stopped, as on exit
            if hasattr(self, "_pool"):
                self.__exit__(type(exc))
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            self._stop_workers()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _stop_workers(self) -> None:
        """End the workers now, mid-chunk: on Ctrl-C, waiting for the chunks they are playing
        would cost up to a chunk's time (sized to some 5 s, longer where games vary) and their
        results would be dropped anyway. The chunks written so far (in seed order) stay in the
        file, and ``--resume`` plays the rest."""
        results = self._pool._result_queue  # taken first: a pool shut down sets it to None
        stop = getattr(self._pool, "terminate_workers", None)  # Python 3.14+
        if stop is not None:
            stop()
        else:
            for process in list((self._pool._processes or {}).values()):  # before 3.14: no public way
                process.terminate()
        # A worker stopped while it sent a chunk's result leaves half a message in the result pipe, and the
        # pool's thread waits for the rest in recv(), forever: so did the shutdown below, and the process's exit
        # (a batch hung after SIGTERM, about one run in 20). With this end of the pipe's writing side closed too,
        # the read ends once the stopped workers' copies close, which the pool takes for a broken worker.
        if results is not None:
            results._writer.close()

    def map(self, job: Job, chunks: Iterable[Chunk]) -> Iterator[ChunkResult]:
        from concurrent.futures.process import BrokenProcessPool

        try:
            yield from _ordered(self._pool.submit, job, chunks, self.workers * WINDOW_PER_WORKER)
        except BrokenProcessPool:
            raise CardgamesError(WORKER_DIED) from None


class DaskExecutor:
    """Chunks as Dask tasks: on the cluster at ``scheduler``, or on a LocalCluster of
    ``workers`` single-threaded processes (the engine is pure Python: threads would share
    one GIL)."""

    def __init__(self, workers: int, scheduler: str | None):
        self.workers = workers
        self.scheduler = scheduler

    def __enter__(self) -> "DaskExecutor":
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise CardgamesError("--backend dask needs Dask: pip install 'cardgames[dask]'") from None
        import logging

        self._cluster = self._client = None
        try:
            if self.scheduler:
                # connect timeout: Dask's distributed.comm.timeouts.connect (30 s by default); a scheduler with no
                # worker is given as long to get one (the batch waited for ever, without a word)
                import dask

                self._client = Client(self.scheduler)
                self._client.wait_for_workers(1, timeout=dask.config.get("distributed.comm.timeouts.connect"))
            else:
                # Each worker runs this module's dask_setup as it starts (Dask's preload). No dashboard,
                # and the scheduler's own HTTP server (health checks) on a free local port: its default,
                # 8787, may be another cluster's, which made Dask warn past -q.
                # Started with Ctrl-C ignored, as the process pool is: a Ctrl-C while the workers import
                # Dask made them print tracebacks, and then the cluster's close (assertions on their state).
                # Its logs are silenced below CRITICAL: a worker whose heartbeat met the scheduler closing
                # (after a Ctrl-C, say) logged a traceback at ERROR. Every failure the batch must report
                # reaches it through its tasks' results.
                with _starting_workers():
                    self._cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                                 dashboard_address="127.0.0.1:0",
                                                 scheduler_kwargs={"dashboard": False},
                                                 silence_logs=logging.CRITICAL, preload=[__name__])
                    self._client = Client(self._cluster)
        # ValueError, TypeError: an address Dask cannot parse, or a protocol it has no support for here (tls://
        # without certificates, ucx:// without its package)
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            self.__exit__()
            where = self.scheduler or "a local cluster"
            raise CardgamesError(f"cannot start or reach Dask scheduler {where}: {exc}") from None
        except BaseException:  # a SIGTERM held while the cluster started: closed, as on exit
            self.__exit__()
            raise
        threads = sum(self._client.nthreads().values()) if self.scheduler else self.workers
        self.workers = max(1, threads)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()

    def map(self, job: Job, chunks: Iterable[Chunk]) -> Iterator[ChunkResult]:
        from distributed.scheduler import KilledWorker

        client = self._client

        def submit(fn: Callable[..., Any], *args: Any) -> Any:
            return client.submit(fn, *args, pure=False)

        try:
            yield from _ordered(submit, job, chunks, self.workers * WINDOW_PER_WORKER)
        except KilledWorker:  # Dask's word for a task whose workers died under it, its retries spent
            raise CardgamesError(WORKER_DIED) from None


def check_backend(backend: str, scheduler: str | None) -> None:
    """Refuse a scheduler address without the Dask backend (before any work, not only once
    there are games to play)."""
    if scheduler is not None and not scheduler.strip():  # not read as "no scheduler", a local cluster
        raise OptionConflictError("--scheduler needs an address, such as tcp://host:8786")
    if scheduler and backend != "dask":
        raise OptionConflictError("--scheduler needs --backend dask")


def make_executor(backend: str, workers: int, scheduler: str | None) -> Executor:
    """The executor for ``--backend``/``--workers``/``--scheduler``."""
    check_backend(backend, scheduler)
    if backend == "dask":
        return DaskExecutor(workers, scheduler)
    return SerialExecutor() if workers == 1 else ProcessExecutor(workers)
