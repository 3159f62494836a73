"""Where the worker processes of a pool come from: one fork server per process, started early.

Pools (an import's, an export's) start their workers from a fork server, which imports the
modules the workers need once, before it forks any (not fork itself: the main process holds
DuckDB's threads, and a fork server starts clean). Its import takes as long as the command's
own (0.3 s for the import pipeline), and the first worker waits for it: `studdraw ingest` starts
the server before it imports the pipeline, so the two imports run side by side. This module
imports nothing of the pipeline for that reason.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.forkserver
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from multiprocessing.context import BaseContext
from typing import Final

STOP_SIGNALS: Final = (signal.SIGTERM, signal.SIGHUP)
"""The signals that stop an import, besides SIGINT (`store.stopping`)."""
IMPORT_WORKERS: Final = "studdraw.pipeline.importer.pool"
"""What an import's workers import: the fork server's preload, whether `studdraw ingest` starts
it early or the import's pool does (the server keeps the first preload it is given). The pool
and the worker stage it runs, not the whole import: a worker never writes, so neither it nor the
server loads DuckDB (13 MB each; tests/pipeline/test_store_pool.py)."""


def process_count(workers: int | None) -> int:
    """The processes a command's pool runs: as many as asked (`--workers`), else one a CPU."""
    return workers or os.cpu_count() or 1


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


def pool_context(preload: Sequence[str] = ()) -> BaseContext:
    """How worker pools start processes: from a forkserver where there is one (not fork: the
    main process holds DuckDB's threads; a forkserver starts clean), which imports `preload`
    once for all the workers it forks (each importing the pipeline itself cost half a second
    of CPU), started with the stop signals ignored, which its children inherit from birth. So
    a signal sent to the whole process group kills neither the forkserver (every worker the
    pool starts later comes from it) nor a worker still starting, before `worker_init`
    (either broke the pool: a BrokenProcessPool instead of a clean stop, seen under load).
    The forkserver is one per process: the first pool's `preload` is the one it keeps."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    with signals_ignored():
        context.set_forkserver_preload(list(preload))
        multiprocessing.forkserver.ensure_running()
    return context
