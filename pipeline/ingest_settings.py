"""The import's settings that `studdraw ingest --help` shows, apart from the import itself.

The command line names these defaults and choices in its options; keeping them here lets it
print help, or run any other command, without loading the store (DuckDB, pyarrow) that
`studdraw.pipeline.store` brings in.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

BATCH_SIZE_WITH_WORKERS: Final = 10_000
"""New hands per transaction, with workers. DuckDB writes a transaction's rows of a table
straight into the database file once they fill a row group (122,880 rows; a batch's actions
reach that at about 4,000 hands) and otherwise twice: into its write-ahead log, then again when
it folds the log into the file. Against 2,500 hands a transaction, an import of 100,000 hands
takes 2.5-5 s less in one process and its writer 2.4 s less CPU with two workers
(docs/scaling.md)."""
ONE_PROCESS_BATCH_SIZE: Final = 20_000
"""New hands per transaction in one process. At 20,000 a batch's player streets fill row groups
too (at about 13,500 hands), and one process imports 100,000 hands in 6-8% less time than at
10,000 (three alternating pairs, docs/scaling.md), at ~140 MB more at the peak (630 MB against
490 MB; 824 MB at a million synthesised hands): it holds the whole batch as it is cut. With
workers the same size gained no time and cost the importing process 100 MB, so they keep
`BATCH_SIZE_WITH_WORKERS`."""
PART_WITH_WORKERS: Final = 2500
"""With worker processes, a transaction's hands go to the workers and come back in parts of this
many, gathered until the transaction is whole: the parts still being parsed (~50 kB a hand as
text and objects), not the transaction (its Arrow rows, ~3 kB a hand), bound the memory, which
keeps a two-worker import of a million hands under 1 GB (parts of 10,000 hands peaked at
987 MB)."""


def default_batch_size(workers: int) -> int:
    """New hands per transaction unless the import names a size."""
    return ONE_PROCESS_BATCH_SIZE if workers <= 1 else BATCH_SIZE_WITH_WORKERS


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
