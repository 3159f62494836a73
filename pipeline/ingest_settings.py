"""The import's settings that `studdraw ingest --help` shows, apart from the import itself.

The command line names these defaults and choices in its options; keeping them here lets it
print help, or run any other command, without loading the store (DuckDB, pyarrow) that
`studdraw.pipeline.store` brings in.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

BATCH_IN_PROCESS: Final = 10_000
"""Hands per transaction in a one-process import (`--workers 1`). DuckDB writes a transaction's
rows of a table straight into the database file once they fill a row group (122,880 rows; a
batch's actions reach that at about 4,000 hands) and otherwise twice: into its write-ahead log,
then again when it folds the log into the file. One process holds one batch at a time, so the
larger batch costs ~100 MB (an in-process import of 100,000 hands peaked at 497 MB instead of
403 MB) and the import takes 2.5-5 s less per 100,000 hands (docs/scaling.md)."""
BATCH_WITH_WORKERS: Final = 2500
"""Hands per transaction with worker processes: the batches in flight (one per worker, one or
two at the writer, ~50 kB a hand as text, objects and Arrow rows) keep a two-worker import of a
million hands under 1 GB (at 10,000 hands a batch it peaked at 987 MB)."""


def default_batch(workers: int) -> int:
    """Hands per transaction when the import names none."""
    return BATCH_IN_PROCESS if workers <= 1 else BATCH_WITH_WORKERS


DEFAULT_TASK_BYTES: Final = 8 << 20
"""History text per Dask task (`--engine dask`): ~4,000 hands, a second or two of a worker's
time, so the scheduler's few milliseconds a task are lost in it, a million hands make ~250
tasks to balance, and a task's texts and rows on its worker (~50 MB) stay small."""


class Engine(StrEnum):
    """Where an import's parsing runs: a process pool here, or Dask tasks on a cluster."""

    LOCAL = "local"
    DASK = "dask"
