"""The import's settings that `studdraw ingest --help` shows, apart from the import itself.

The command line names these defaults and choices in its options; keeping them here lets it
print help, or run any other command, without loading the store (DuckDB, pyarrow) that
`studdraw.pipeline.store` brings in.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

BATCH_SIZE: Final = 10_000
"""New hands per transaction. DuckDB writes a transaction's rows of a table straight into the
database file once they fill at least one of the store's row groups (`db.ROW_GROUP_ROWS`: a
batch's actions do from about 1,500 hands, its player streets from about 3,500), and a smaller
table's rows twice: into its write-ahead log, then again when it folds the log into the file.
At 10,000 hands only the hands, pots, violations and (about half the time) streets go that
way. One process took the same time with 20,000 (100,000 hands: 27.1-28.1 s against
27.3-27.7 s, three alternating pairs) and held 150 MB more at the peak, and with workers 5,000
saved 45 MB but doubled the closing fold (docs/scaling.md)."""
PART_WITH_WORKERS: Final = 2500
"""With worker processes, a transaction's hands go to the workers and come back in parts of this
many, gathered until the transaction is whole: the parts still being parsed (~50 kB a hand as
text and objects), not the transaction (its Arrow rows, ~3 kB a hand), bound the memory, which
keeps a two-worker import of a million hands under 1 GB (parts of 10,000 hands peaked at
987 MB)."""


def part_size(batch_size: int, workers: int) -> int:
    """Hands per part of a transaction (`PART_WITH_WORKERS`): the whole batch in one process."""
    return batch_size if workers <= 1 else min(batch_size, PART_WITH_WORKERS)


DEFAULT_TASK_BYTES: Final = 8 << 20
"""History text per Dask task (`--engine dask`): ~4,000 hands, a second or two of a worker's
time, so the scheduler's few milliseconds a task are lost in it, a million hands make ~250
tasks to balance, and a task's texts and rows on its worker (~50 MB) stay small."""


class Engine(StrEnum):
    """Where an import's parsing runs: a process pool here, or Dask tasks on a cluster."""

    LOCAL = "local"
    DASK = "dask"
