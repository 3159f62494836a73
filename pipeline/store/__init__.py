"""The store: normalized hands in DuckDB (and optionally a Parquet dataset) from Arrow batches.

`ingest` is the whole import; its stages are public so other runners (a Dask job) can reuse them:
`process_hands` (worker: texts -> Arrow batches), `normalize_hands` (pure), `ParquetDataset`
(two-phase part writer), `open_store` / `Store.write` (one transaction per batch).
"""

from .db import KnownHands, Store, StoreLockedError, StoreVersionError, open_store
from .ingest import IngestOptions, IngestSummary, ingest
from .normalize import (
    Reject,
    Replayed,
    Tables,
    Unsupported,
    normalize_hands,
    normalize_rejects,
    normalize_unsupported,
    shift_hand_ids,
)
from .parquet import ParquetDataset, Part
from .process import PendingHand, ProcessedBatch, content_hash, process_hands
from .schema import ALL_TABLES, BATCH_TABLES, HAND_TABLES, SCHEMA_VERSION, TABLES, TableDef

__all__ = [
    "ALL_TABLES",
    "BATCH_TABLES",
    "HAND_TABLES",
    "SCHEMA_VERSION",
    "TABLES",
    "IngestOptions",
    "IngestSummary",
    "KnownHands",
    "ParquetDataset",
    "Part",
    "PendingHand",
    "ProcessedBatch",
    "Reject",
    "Replayed",
    "Store",
    "StoreLockedError",
    "StoreVersionError",
    "TableDef",
    "Tables",
    "Unsupported",
    "content_hash",
    "ingest",
    "normalize_hands",
    "normalize_rejects",
    "normalize_unsupported",
    "open_store",
    "process_hands",
    "shift_hand_ids",
]
