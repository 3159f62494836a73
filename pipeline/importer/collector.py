"""Python's cyclic garbage collector during an import: off, and run once per batch instead.

Parsing, replaying and normalizing allocate many short-lived objects, nearly all freed by
reference counting as soon as their hand is stored. The automatic collector nevertheless walks
every container still alive each time allocations outrun deallocations by its threshold: in
the middle of a batch that is the batch's records, over and over: 1.9-2.4 s of an in-process
import of 100,000 hands (about 50 s). Off, with one collection per piece and per batch, its
passes take 0.15 s; the few cycles the hands leave (about one a hand) are freed at the end of
their batch, so memory stays bounded as before.

A batch's collection walks the two young generations only, so it sees just what the batch made
and what it left alive. The objects alive when the collector is turned off (the modules, the
store, the grammars loaded so far) are frozen (`gc.freeze`), so the block's closing full pass
walks only what the block made.

Blocks may nest and may run in several threads at once (a Dask worker runs tasks in threads):
the outermost block turns the collector off and the last one out restores it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.RLock()  # a finalizer run by a collection may open a block
_depth = 0
_was_enabled = True


@contextmanager
def collected_per_batch() -> Iterator[None]:
    """Within the block the automatic collector is off; `collect_batch` and the block's end
    free the cyclic garbage made since it began."""
    global _depth, _was_enabled  # noqa: PLW0603 (one collector per process)
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
            gc.freeze()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            outermost = _depth == 0
            if outermost:
                gc.collect()  # all the block made that is still tracked, once
                gc.unfreeze()
                if _was_enabled:
                    gc.enable()
        if not outermost:
            collect_batch()


def collect_batch() -> None:
    """Free the cycles a batch left (called where a batch ends, inside `collected_per_batch`)."""
    gc.collect(1)
