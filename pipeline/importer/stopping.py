"""Stopping an import cleanly: signals in the main process, workers that never outlive it.

While an import runs, Ctrl-C (SIGINT), SIGTERM and SIGHUP turn a switch that the import checks
between hands and between batches (never inside a DuckDB query, which DuckDB would abort with a
bare "Query interrupted"); it then raises `StopRequested`, which unwinds through the writer:
no transaction is left half done, the workers are stopped, and the files' ledger rows are
marked interrupted. A second signal stops at once, even inside a DuckDB query (which then
fails with a bare error: the switch remembers that it was the stop). Workers ignore the stop
signals (a terminal or a service manager sends them to the whole process group; the main
process decides, and a worker killed mid-message could wedge the pool's queues) and watch
their parent: when it dies, even by `kill -9`, they exit.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from pathlib import Path
from types import FrameType
from typing import Final

from studdraw.pipeline.forkserver import STOP_SIGNALS

PR_SET_PDEATHSIG: Final = 1
LIFELINE_SECONDS: Final = 0.5


class StopRequested(BaseException):
    """A stop signal arrived (a BaseException, so no `except Exception` swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class StopSwitch:
    """Set by a stop signal; the import checks it at safe points (between hands, between
    batches), so a signal never lands inside a DuckDB query. A second signal stops at once."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.forced: int | None = None  # the second signal, which stopped at once

    def check(self) -> None:
        """Raise `StopRequested` if a stop signal arrived."""
        if self.signum is not None:
            raise StopRequested(self.signum)

    def stopped_by(self, error: BaseException) -> int | None:
        """The signal that `error` stands for, None for any other error. After a second
        signal every error is the stop: raised inside a DuckDB query, its `StopRequested`
        comes out as DuckDB's bare `RuntimeError("Query interrupted")`."""
        return self.forced if self.forced is not None else stop_signal(error)

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        if self.signum is not None:
            self.forced = signum
            raise StopRequested(signum)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals(switch: StopSwitch) -> Iterator[None]:
    """While the block runs, SIGINT, SIGTERM and SIGHUP set `switch` (main thread only;
    elsewhere the switch never turns)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signums = (signal.SIGINT, *STOP_SIGNALS)
    previous = {signum: signal.signal(signum, switch._handle) for signum in signums}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def stop_signal(error: BaseException) -> int | None:
    """The signal an exception stands for (SIGINT for Ctrl-C), None for any other error."""
    if isinstance(error, StopRequested):
        return error.signum
    if isinstance(error, KeyboardInterrupt) or _duckdb_interrupted(error):
        return int(signal.SIGINT)
    return None


def _duckdb_interrupted(error: BaseException) -> bool:
    """DuckDB's own Ctrl-C, raised by a query it interrupted. Looked up, not imported: an import's
    workers never load DuckDB (13 MB each), and a process without it cannot raise its errors."""
    duckdb = sys.modules.get("duckdb")
    return duckdb is not None and isinstance(error, duckdb.InterruptException)


def exit_code(signum: int) -> int:
    """The shell's convention: 128 + the signal (130 for Ctrl-C, 143 for SIGTERM)."""
    return 128 + signum


def worker_init(main: int) -> None:
    """A pool worker's start: the stop signals are the main process's to handle, and it dies with
    the import's main process `main`. Its parent is the pool's fork server, which the workers
    themselves keep alive, so Linux's parent-death signal is not enough: a lifeline thread
    watches the main process and ends the worker once it is gone."""
    for signum in (signal.SIGINT, *STOP_SIGNALS):
        signal.signal(signum, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if process_gone(main):
        os._exit(1)
    threading.Thread(target=_lifeline, args=(main,), daemon=True, name="lifeline").start()


def process_gone(pid: int) -> bool:
    """Whether a process has exited (a zombie, not yet reaped by its parent, has)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False  # no /proc: `kill` answered, the process is there
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def _lifeline(main: int) -> None:
    while True:
        time.sleep(LIFELINE_SECONDS)
        if process_gone(main):
            os._exit(1)


def stop_workers(executor: Executor) -> None:
    """Stop a process pool soon: queued work is cancelled; a running worker finishes the batch
    in hand, then exits. Killing it instead could cut a result in the middle of the pool's pipe,
    which wedges the pool's manager thread and the interpreter's exit with it (seen: an import
    that never ended after SIGTERM)."""
    executor.shutdown(wait=False, cancel_futures=True)
