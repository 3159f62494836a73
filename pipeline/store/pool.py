"""Who runs an import's worker stage: this process alone, or this one and a pool of others.

`--workers N` is the number of processes that parse, replay and normalize. With one, this
process runs every piece as it is handed over (`InProcess`). With more, N-1 worker processes
take the pieces, and this process, which also cuts the files and writes the store, runs a piece
itself whenever it would otherwise wait for one (`SharedPool`). An import is bound by the CPU
time of all its processes: a writer that only waited, beside a worker on every core, made one
busy process more than there are cores, and it took the cores' time from the workers while it
cut and wrote (docs/scaling.md).
"""

from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Callable
from concurrent.futures import CancelledError, Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from .stopping import pool_context, worker_init

QUEUED_PER_WORKER = 4
"""Pieces handed to each worker process ahead: the one it runs and the next, so that it never
waits for this process, which may be busy for a piece's time running one itself."""


SWITCH_INTERVAL = 0.0002
"""Seconds this process's main thread may hold the interpreter lock while the pool's threads
wait for it (Python's default: 0.005). Those threads carry the pieces through the pipes to
and from the workers a pipe's buffer (64 kB) at a time, taking the lock for each: while the
main thread ran a piece, a worker waited 20 ms or more for each piece to arrive and each
result to leave."""


class Stage(Executor):
    """An executor whose results the writer collects with `result`, which may do the work."""

    def result(self, future: Future[Any]) -> Any:
        """The piece's result, once it is done."""
        return future.result()


class InProcess(Stage):
    """One process: run each piece as it is handed over (no pickling, no second interpreter)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


class SharedPool(Stage):
    """`helpers` worker processes and this one. A piece goes to a worker when fewer than
    `QUEUED_PER_WORKER` pieces a worker are out; otherwise it waits here, and `result` runs the
    oldest waiting piece in this process instead of waiting for a worker's."""

    def __init__(self, helpers: int, preload: str) -> None:
        self.pool = ProcessPoolExecutor(
            max_workers=helpers,
            mp_context=pool_context(preload=[preload]),
            initializer=_worker_init,
            initargs=(os.getpid(),),
        )
        self.limit = helpers * QUEUED_PER_WORKER
        self.switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.out: list[Future[Any]] = []  # pieces handed to the workers, not known done
        self.waiting: deque[_Piece] = deque()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        piece = _Piece(Future(), fn, args, kwargs)
        self.waiting.append(piece)
        self._hand_out()
        return piece.future

    def result(self, future: Future[Any]) -> Any:
        while not future.done() and self.waiting:
            self._run_here()
            self._hand_out()
        return future.result()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            for piece in self.waiting:
                piece.future.cancel()
            self.waiting.clear()
        self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)
        sys.setswitchinterval(self.switch_interval)

    def _hand_out(self) -> None:
        """Give the workers waiting pieces, oldest first, up to the limit."""
        if len(self.out) >= self.limit:
            self.out = [future for future in self.out if not future.done()]
        while self.waiting and len(self.out) < self.limit:
            piece = self.waiting.popleft()
            if piece.future.set_running_or_notify_cancel():
                sent = self.pool.submit(piece.fn, *piece.args, **piece.kwargs)
                sent.add_done_callback(_relay_to(piece.future))
                self.out.append(piece.future)

    def _run_here(self) -> None:
        """Run the oldest waiting piece in this process."""
        piece = self.waiting.popleft()
        if not piece.future.set_running_or_notify_cancel():
            return
        try:
            piece.future.set_result(piece.fn(*piece.args, **piece.kwargs))
        except Exception as error:
            piece.future.set_exception(error)


@dataclass(slots=True)
class _Piece:
    future: Future[Any]
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


def _relay_to(future: Future[Any]) -> Callable[[Future[Any]], None]:
    """Pass a worker's answer on to the future the writer holds (in the pool's thread)."""

    def relay(done: Future[Any]) -> None:
        if done.cancelled():  # the pool was shut down with the piece still queued
            future.set_exception(CancelledError())
        elif (error := done.exception()) is not None:
            future.set_exception(error)
        else:
            future.set_result(done.result())

    return relay


def _worker_init(main: int) -> None:
    # pyarrow's default pool (mimalloc) keeps the memory of freed tables for reuse: a worker
    # would hold ~20 MB more for the whole import. The system pool gives it back.
    pa.set_memory_pool(pa.system_memory_pool())
    worker_init(main)


def stage(workers: int, preload: str) -> Stage:
    """The stage's executor for `workers` processes in all."""
    return InProcess() if workers <= 1 else SharedPool(workers - 1, preload)
