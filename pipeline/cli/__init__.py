"""The `studdraw` command line: `main`, which the `studdraw` script calls; the commands are in
`commands`.

This module imports nothing until `main` runs. Every worker process a command's pool starts
(from a fork server, or spawned) runs the `studdraw` script again, as `__mp_main__`, to find
what the main module defines; with the commands imported here, that loaded typer and every
command's module in each worker: 60 ms before its first piece, and its memory.
"""

from __future__ import annotations

import atexit
import gc


def main() -> None:
    # Registered first, so it runs last at exit: Python's closing collections would otherwise
    # walk every object the command made, all of them freed with the process anyway (a
    # 20,000-hand import ends 0.06-0.08 s sooner; docs/scaling.md).
    atexit.register(gc.freeze)
    from .commands import app

    app()
