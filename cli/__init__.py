"""The `studdraw` command line: `main`, which the `studdraw` script calls; the commands are in
`commands`.

This module imports no library until `main` runs. Every worker process a command's pool starts
(from a fork server, or spawned) runs the `studdraw` script again, as `__mp_main__`, to find
what the main module defines; with the commands imported here, that loaded typer and every
command's module in each worker: 60 ms before its first piece, and its memory.
"""

from __future__ import annotations

import atexit
import gc
import os
from typing import Final

ARROW_ALLOCATOR: Final = ("ARROW_DEFAULT_MEMORY_POOL", "system")
"""Where pyarrow takes its buffers from, in every process a command starts (its workers and
servers inherit the setting), unless the user's environment says otherwise. pyarrow's own
default, mimalloc, made a 20,000-hand import spend 0.3-0.5 s more in the kernel, zeroing pages
(its system time 0.72-1.18 s against 0.55-0.68 s), and hold 40 MB more: the whole command took
2-6% longer (docs/scaling.md). The system's allocator is in every pyarrow build; jemalloc, as
fast here, is not (pyarrow warns about a backend it lacks)."""
BLAS_THREADS: Final = ("OPENBLAS_NUM_THREADS", "1")
"""OpenBLAS's threads besides the caller's, unless the user's environment says otherwise. numpy,
which pyarrow imports, starts them at its import, one a core, and they spin before they sleep:
0.045 s of CPU in each process that imports pyarrow. Two of them (the command's and its fork
server's) then import side by side on two cores, and each slowed the other. No command does
linear algebra (docs/scaling.md)."""


def main() -> None:
    # Registered first, so it runs last at exit: Python's closing collections would otherwise
    # walk every object the command made, all of them freed with the process anyway (a
    # 20,000-hand import ends 0.06-0.08 s sooner; docs/scaling.md).
    atexit.register(gc.freeze)
    os.environ.setdefault(*ARROW_ALLOCATOR)  # read when pyarrow first allocates
    os.environ.setdefault(*BLAS_THREADS)  # read when numpy loads OpenBLAS
    from studdraw.cli.commands import app

    app()
