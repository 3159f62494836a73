"""Who runs an import's worker stage: this process alone, or this one and a pool of others.

`--workers N` is the number of processes that parse, replay and normalize. With one, this
process runs every piece as it is handed over (`InProcess`). With more, N-1 worker processes
take the pieces, and this process, which also cuts the files and writes the store, runs a piece
itself whenever it would otherwise wait for one, taking it back from the workers if none is left
here (`SharedPool`). An import is bound by the CPU time of all its processes: a writer that
only waited, beside a worker on every core, made one busy process more than there are cores,
and it took the cores' time from the workers while it cut and wrote (docs/scaling.md).
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import shutil
import sys
import tempfile
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import (
    CancelledError,
    Executor,
    Future,
    InvalidStateError,
    ProcessPoolExecutor,
)
from dataclasses import dataclass
from enum import Enum
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None  # type: ignore[assignment]

import pyarrow as pa

from studdraw.pipeline.forkserver import pool_context
from studdraw.pipeline.importer.process import answer_through
from studdraw.pipeline.importer.stopping import process_gone, worker_init

QUEUED_PER_WORKER = 4
"""Pieces handed to each worker process ahead. The pool passes a worker the piece it runs and
the next two, so that it never waits for this process, busy for a piece's time when it runs one
itself; while it waits for a result, this process takes back the pieces a worker has not begun
(`claim`): at the end of an import, no core then idles while a worker still holds them."""
SHARED_MEMORY = "/dev/shm"
"""Where workers leave their answers for this process to map (`process.answer_through`), when
the system has it (Linux); elsewhere the answers travel through the pipe."""
ANSWERS_PREFIX = "studdraw-answers-"
"""A pool's folder in `SHARED_MEMORY` is named this, the importing process's id, a dash and a
random part."""
PIPE_BYTES = 1 << 20
"""A pipe between this process and the workers holds this much: a piece of
`process.CHUNK` hands going out (~0.4 MB of text) or, where an answer cannot go through shared
memory, its rows coming back (~0.4 MB compressed)."""
SWITCH_INTERVAL = 0.0002
"""Seconds this process's main thread may hold the interpreter lock while the pool's threads
wait for it (Python's default: 0.005). Those threads carry the pieces through the pipes to
and from the workers, taking the lock for each read and write: while the main thread ran a
piece, a worker stood about 30 ms between two pieces waiting for them (9 ms at this interval,
with `PIPE_BYTES`; docs/scaling.md)."""


class Stage(Executor):
    """An executor whose results the writer collects with `result`, which may do the work: a
    piece's future may be done only once `result` is asked for it (a piece still waiting in
    this process runs nowhere else), so waiting on the future itself could wait forever."""

    def result(self, future: Future[Any]) -> Any:
        """The piece's result, once it is done."""
        return future.result()

    def hand_out_waiting(self) -> None:
        """The caller is about to be busy elsewhere for a while (a write): pass every piece
        still waiting on to the workers. A stage without workers has none waiting."""


class _NoPandas:
    """A finder for `sys.meta_path` that fails `import pandas`. pyarrow's first conversion of a
    Python list imports pandas, only to ask whether the list is a pandas object (0.16 s and
    ~50 MB a process), and takes a failed import for "no pandas" for the rest of the process.
    The stage's lists never are."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == "pandas":
            raise ModuleNotFoundError("an import's process does not load pandas", name=fullname)
        return None


@contextlib.contextmanager
def without_pandas() -> Iterator[None]:
    """Run an import with pandas out of reach (`_NoPandas`), in a process that will not use
    pandas afterwards either, since pyarrow goes on believing it absent: a command's, not a
    dashboard's."""
    finder = _NoPandas()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)


class InProcess(Stage):
    """One process: run each piece as it is handed over (no pickling, no second interpreter)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


class SharedPool(Stage):
    """`helpers` worker processes and this one. A piece goes to a worker when fewer than
    `QUEUED_PER_WORKER` pieces a worker are out (and before a write, `hand_out_waiting`), and
    otherwise waits here; while the writer waits for a result, `result` runs the oldest waiting
    piece in this process instead, and once none waits, takes back the newest piece handed out
    that no worker has begun: one the pool still holds, or, where there is shared memory, one
    already passed to a worker (`claim`)."""

    def __init__(self, helpers: int, preload: str) -> None:
        self.exchange = answers_folder()
        self.pool = ProcessPoolExecutor(
            max_workers=helpers,
            mp_context=pool_context(preload=[preload]),
            initializer=_worker_init,
            initargs=(os.getpid(), self.exchange),
        )
        self.limit = helpers * QUEUED_PER_WORKER
        widen_pipes(self.pool)
        self.switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.out: list[_Piece] = []  # handed to the workers, not known to be done
        self.waiting: deque[_Piece] = deque()
        self.numbers = itertools.count()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        piece = _Piece(next(self.numbers), Future(), fn, args, kwargs)
        self.waiting.append(piece)
        self._hand_out()
        return piece.future

    def result(self, future: Future[Any]) -> Any:
        while not future.done():
            piece = self.waiting.popleft() if self.waiting else self._take_back()
            if piece is None:
                break
            if piece.taken_back or piece.future.set_running_or_notify_cancel():
                piece.run()
            self._hand_out()
        return future.result()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            for piece in self.waiting:
                piece.future.cancel()
            self.waiting.clear()
        self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)
        sys.setswitchinterval(self.switch_interval)
        if self.exchange is not None:
            # Answers never collected (cancelled, or of a stopping import) are left there. A
            # worker still running a piece (a stopping import does not wait for it) can write
            # its answer only if it began the file before the folder went: then the folder is
            # still there, and goes at exit, once the pool's threads have ended.
            shutil.rmtree(self.exchange, ignore_errors=True)
            if Path(self.exchange).exists():
                atexit.register(shutil.rmtree, self.exchange, ignore_errors=True)

    def hand_out_waiting(self) -> None:
        """Every waiting piece to the workers, beyond the limit: a write takes this process
        about four pieces' time, during which the pool's threads pass the pieces on to the
        workers as they finish theirs (DuckDB lets go of the interpreter lock while it
        writes). Held to the limit, a worker ran out of pieces in most writes, idle 0.1-0.3 s
        each; what it has not begun once the write is done, `result` takes back."""
        self._hand_out(everything=True)

    def _hand_out(self, *, everything: bool = False) -> None:
        """Give the workers waiting pieces, oldest first, up to the limit (all of them with
        `everything`)."""
        if len(self.out) >= self.limit:
            self.out = [piece for piece in self.out if not piece.future.done()]
        while self.waiting and (everything or len(self.out) < self.limit):
            piece = self.waiting.popleft()
            if piece.future.set_running_or_notify_cancel():
                piece.sent = self.pool.submit(
                    _run_unclaimed,
                    self.exchange,
                    piece.number,
                    piece.fn,
                    *piece.args,
                    **piece.kwargs,
                )
                piece.sent.add_done_callback(piece.relay)
                self.out.append(piece)

    def _take_back(self) -> _Piece | None:
        """The newest piece handed out that no worker has begun, taken back to run here: one
        the pool still holds (it passes a worker a piece or two ahead of the one it runs), or
        one a worker holds but has not claimed. A worker takes its pieces in order, so once it
        has claimed one, it has begun every older one."""
        for piece in reversed(self.out):
            sent = piece.sent  # the pool's thread clears it once the piece is done
            if sent is None or piece.future.done():
                continue
            piece.taken_back = True  # before `cancel`, which runs `relay` at once
            if sent.cancel() or (self.exchange is not None and claim(self.exchange, piece.number)):
                self.out.remove(piece)
                return piece
            piece.taken_back = False
            break
        return None


class _Answer(Enum):
    TAKEN_BACK = "taken back"
    """A worker's answer for a piece the importing process claimed first, and runs itself."""


def claim(folder: str, number: int) -> bool:
    """Whether this process is the first to claim piece `number` of the pool whose answers go
    to `folder`. The importing process and a worker may both want a piece the pool has passed
    on, and exactly one may run it: creating a file that must not exist yet is atomic. False
    when the file cannot be made for another reason (the folder removed by a stopping import):
    the piece is left to the worker, which then runs it."""
    try:
        os.close(os.open(_claim_path(folder, number), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except OSError:
        return False
    return True


def _claim_path(folder: str, number: int) -> Path:
    return Path(folder, f"piece-{number}")


def _run_unclaimed(
    folder: str | None, number: int, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
) -> Any:
    """A piece, in a worker: run unless the importing process has claimed it already."""
    if folder is not None and not claim(folder, number) and _claim_path(folder, number).exists():
        return _Answer.TAKEN_BACK
    return fn(*args, **kwargs)


@dataclass(slots=True)
class _Piece:
    """A call of the stage, and the future the writer holds for it."""

    number: int  # in the order of `submit`, which names its claim (`claim`)
    future: Future[Any]
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    sent: Future[Any] | None = None  # the pool's future, once handed out
    taken_back: bool = False

    def run(self) -> None:
        """Run the call in this process."""
        try:
            result = self.fn(*self.args, **self.kwargs)
        except Exception as error:
            _settle(self.future, error=error)
        else:
            _settle(self.future, result)

    def relay(self, sent: Future[Any]) -> None:
        """Pass the pool's answer on to the writer's future (in the pool's thread). The pool's
        future is let go first: it holds this method, so the two would make a cycle that keeps
        the piece's hands and rows alive until the cyclic collector, which an import runs only
        over what is young (`collector`)."""
        self.sent = None
        if sent.cancelled():
            if not self.taken_back:  # the pool was shut down with the piece still queued
                self.future.set_exception(CancelledError())
        elif (error := sent.exception()) is not None:
            _settle(self.future, error=error)
        elif (answer := sent.result()) is not _Answer.TAKEN_BACK:
            _settle(self.future, answer)


def _settle(future: Future[Any], result: Any = None, error: BaseException | None = None) -> None:
    """Give the writer's future its outcome, unless the piece's other copy already did. A piece
    runs twice only if a worker could not make its claim file (a full shared memory) and this
    process then could: both copies give the same rows."""
    with contextlib.suppress(InvalidStateError):
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)


def widen_pipes(pool: ProcessPoolExecutor) -> None:
    """Let the pool's two pipes (pieces out, results back) hold a whole piece each, where the
    system allows (Linux, `PIPE_BYTES` within /proc/sys/fs/pipe-max-size): a worker then
    writes its answer and reads its next piece at once, instead of waiting, a pipe's 64 kB at
    a time, for this process's pool threads. The pipes are the pool's own (private) objects,
    so a pool without them is left as it is."""
    set_size = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    for queue in (getattr(pool, "_call_queue", None), getattr(pool, "_result_queue", None)):
        reader = getattr(queue, "_reader", None)
        if set_size is None or reader is None:
            continue
        with contextlib.suppress(OSError, ValueError):
            fcntl.fcntl(reader.fileno(), set_size, PIPE_BYTES)


def answers_folder() -> str | None:
    """A new private folder in shared memory for a pool's answers, named after this process;
    None where there is no shared memory to write to. The folders of importing processes that
    are gone (killed before they could remove theirs) are removed first."""
    if not Path(SHARED_MEMORY).is_dir() or not os.access(SHARED_MEMORY, os.W_OK):
        return None
    for left in Path(SHARED_MEMORY).glob(f"{ANSWERS_PREFIX}*-*"):
        owner = left.name.removeprefix(ANSWERS_PREFIX).split("-", 1)[0]
        if owner.isdigit() and process_gone(int(owner)):
            shutil.rmtree(left, ignore_errors=True)
    try:
        return tempfile.mkdtemp(prefix=f"{ANSWERS_PREFIX}{os.getpid()}-", dir=SHARED_MEMORY)
    except OSError:
        return None


def _worker_init(main: int, exchange: str | None) -> None:
    # pyarrow's default pool (mimalloc) keeps the memory of freed tables for reuse: a worker
    # would hold ~20 MB more for the whole import. The system pool gives it back.
    pa.set_memory_pool(pa.system_memory_pool())
    sys.meta_path.insert(0, _NoPandas())
    answer_through(exchange)
    worker_init(main)


def stage(workers: int, preload: str) -> Stage:
    """The stage's executor for `workers` processes in all."""
    return InProcess() if workers <= 1 else SharedPool(workers - 1, preload)
