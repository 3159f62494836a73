"""The store: normalized hands in DuckDB (and optionally a Parquet dataset) from Arrow batches.

`schema.py` defines the tables once; `normalize.py` turns replayed hands into their rows (pure);
`db.py` opens a store and writes one batch as one transaction; `parquet.py` writes the Parquet
dataset's parts in two phases. The import that feeds them is `studdraw.pipeline.importer`.

This package imports none of its modules: an import's worker processes load `normalize`
through it, and must not load DuckDB with it.
"""
