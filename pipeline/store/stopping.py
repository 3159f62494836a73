"""Stopping an import cleanly: signals in the main process, workers that never outlive it.

Ctrl-C (SIGINT) raises `KeyboardInterrupt` as always; while an import runs, SIGTERM and SIGHUP
raise `StopRequested` the same way, so both unwind through the writer: the transaction of the
batch being written rolls back, the workers are stopped, and the files' ledger rows are marked
interrupted. Workers ignore SIGINT (the terminal sends it to the whole process group; the main
process decides) and watch their parent: when it dies, even by `kill -9`, they exit.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from types import FrameType
from typing import Final

import duckdb

STOP_SIGNALS: Final = (signal.SIGTERM, signal.SIGHUP)
PR_SET_PDEATHSIG: Final = 1
LIFELINE_SECONDS: Final = 0.5


class StopRequested(BaseException):
    """A stop signal arrived (a BaseException, so no `except Exception` swallows it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_stop(signum: int, _frame: FrameType | None) -> None:
    raise StopRequested(signum)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise `StopRequested` (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _raise_stop) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def signals_ignored() -> Iterator[None]:
    """While cleaning up after a stop, a second Ctrl-C or SIGTERM must not cut the cleanup."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signums = (signal.SIGINT, *STOP_SIGNALS)
    previous = {signum: signal.signal(signum, signal.SIG_IGN) for signum in signums}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def stop_signal(error: BaseException) -> int | None:
    """The signal an exception stands for (SIGINT for Ctrl-C), None for any other error."""
    if isinstance(error, StopRequested):
        return error.signum
    if isinstance(error, KeyboardInterrupt | duckdb.InterruptException):
        return int(signal.SIGINT)
    return None


def exit_code(signum: int) -> int:
    """The shell's convention: 128 + the signal (130 for Ctrl-C, 143 for SIGTERM)."""
    return 128 + signum


def worker_init() -> None:
    """A pool worker's start: Ctrl-C is the main process's to handle, and the worker dies with
    its parent (Linux's parent-death signal where available, and a lifeline thread that sees
    the parent change on any system)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)
    threading.Thread(target=_lifeline, args=(parent,), daemon=True, name="lifeline").start()


def _lifeline(parent: int) -> None:
    while True:
        time.sleep(LIFELINE_SECONDS)
        if os.getppid() != parent:
            os._exit(1)


def stop_workers(executor: Executor) -> None:
    """Stop a process pool now: queued work is cancelled and running workers are terminated
    (waiting for them to finish their batch could take seconds after a Ctrl-C)."""
    workers = list(dict(getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.terminate()
    for worker in workers:
        with contextlib.suppress(Exception):
            worker.join(5)
