"""The schema's definitions document every column (docs/schema.md is generated from them:
tests/test_generated_docs.py)."""

from __future__ import annotations

from studdraw.pipeline.store.schema import ALL_TABLES


def test_every_column_is_documented() -> None:
    for table in ALL_TABLES:
        assert table.doc
        for column in table.columns:
            assert column.doc.strip(), f"{table.name}.{column.name}"
        assert len(set(table.column_names)) == len(table.columns), table.name
