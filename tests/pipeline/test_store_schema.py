"""The schema page is generated from the definitions and must not drift from them."""

from __future__ import annotations

from studdraw.pipeline.store.schema import ALL_TABLES, markdown
from tests.conftest import REPO_ROOT


def test_schema_doc_is_current() -> None:
    page = (REPO_ROOT / "docs" / "schema.md").read_text(encoding="utf-8")
    assert page == markdown(), "regenerate docs/schema.md from studdraw.pipeline.store.schema"


def test_every_column_is_documented() -> None:
    for table in ALL_TABLES:
        assert table.doc
        for column in table.columns:
            assert column.doc.strip(), f"{table.name}.{column.name}"
        assert len(set(table.column_names)) == len(table.columns), table.name
