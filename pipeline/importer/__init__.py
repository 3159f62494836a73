"""The import: hand-history files into the store, in this process, a process pool or on a
Dask cluster.

`ingest.ingest` is the whole import; its stages are public so other runners (a Dask job) can
reuse them: `process.process_hands` (the worker stage: texts -> Arrow batches, through
`studdraw.pipeline.store.normalize`), the pool that runs it (`pool.py`), and the store's writer
(`studdraw.pipeline.store.db.Store.write`, one transaction per batch).

This package imports none of its modules: an import's worker processes load `process` and
`pool` through it, and must not load DuckDB, the writer and the Parquet writer with them (13 MB
and 0.1 s in each; tests/pipeline/test_store_pool.py).
"""
