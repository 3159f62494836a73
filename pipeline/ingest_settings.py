"""The import's settings that `studdraw ingest --help` shows, apart from the import itself.

The command line names these defaults and choices in its options; keeping them here lets it
print help, or run any other command, without loading the store (DuckDB, pyarrow) that
`studdraw.pipeline.store` brings in.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

DEFAULT_BATCH: Final = 2500
"""Hands per transaction: enough that commits cost little, few enough that the batches in flight
(one per worker, one or two at the writer, ~50 kB a hand as text, objects and Arrow rows) keep a
two-worker import of a million hands under 1 GB."""
DEFAULT_TASK_BYTES: Final = 8 << 20
"""History text per Dask task (`--engine dask`): ~4,000 hands, a second or two of a worker's
time, so the scheduler's few milliseconds a task are lost in it, a million hands make ~250
tasks to balance, and a task's texts and rows on its worker (~50 MB) stay small."""


class Engine(StrEnum):
    """Where an import's parsing runs: a process pool here, or Dask tasks on a cluster."""

    LOCAL = "local"
    DASK = "dask"
