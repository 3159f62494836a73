"""The store: normalized hands in DuckDB (and optionally a Parquet dataset) from Arrow batches.

`ingest.ingest` is the whole import; its stages are public so other runners (a Dask job) can
reuse them: `process.process_hands` (worker: texts -> Arrow batches), `normalize.normalize_hands`
(pure), `parquet.ParquetDataset` (two-phase part writer), `db.open_store` / `db.Store.write` (one
transaction per batch).

This package imports none of them: an import's worker processes load `process` and `pool`
through it, and must not load DuckDB, the writer and the Parquet writer with them (13 MB and
0.1 s in each; tests/pipeline/test_store_pool.py).
"""
