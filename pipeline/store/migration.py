"""Stores of an earlier schema version, brought up to this one when they are opened.

Version 1 named the room `site` (`site`, `site_hand_id`, `site_time`); version 2 says `room`
everywhere (one word per idea). A store is migrated in place, in one transaction, the first time
a writer opens it (`db.Store.ensure_schema`) or a reader does (`upgrade`, which the analytics'
`open_store` calls before it opens the file read-only): nothing is dropped but the indexes and
views that name the old columns, which the schema makes again. A Parquet dataset written by
version 1 (`site=` partitions, `site` columns) is read as it is (`select_current`) and rewritten
under the new names before an import adds to it (`migrate_dataset`).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import duckdb
import pyarrow.parquet as pq

RENAMED: Final = {"site": "room", "site_hand_id": "room_hand_id", "site_time": "room_time"}
"""Version 1's column names -> version 2's, in every table that has them."""
OLD_PARTITION: Final = "site="
NEW_PARTITION: Final = "room="


def migrate(con: duckdb.DuckDBPyConnection, version: int) -> None:
    """Bring the store open on `con` (in a transaction) from `version` to the current one."""
    if version < 2:
        _rename_columns(con)


def _rename_columns(con: duckdb.DuckDBPyConnection) -> None:
    """Rename version 1's columns. DuckDB renames no column of a table that a view or an index
    depends on, so those go first (the schema makes them again)."""
    database = con.execute("SELECT current_database()").fetchone()
    assert database is not None
    for (view,) in con.execute(
        "SELECT view_name FROM duckdb_views() WHERE database_name = ? AND NOT internal",
        [database[0]],
    ).fetchall():
        con.execute(f'DROP VIEW "{view}"')
    for (index,) in con.execute(
        "SELECT index_name FROM duckdb_indexes() WHERE database_name = ?", [database[0]]
    ).fetchall():
        con.execute(f'DROP INDEX "{index}"')
    columns = con.execute(
        "SELECT table_name, column_name FROM duckdb_columns() "
        "WHERE database_name = ? AND column_name IN ? ORDER BY table_name, column_index",
        [database[0], list(RENAMED)],
    ).fetchall()
    for table, column in columns:
        con.execute(f'ALTER TABLE "{table}" RENAME COLUMN "{column}" TO "{RENAMED[column]}"')


def upgrade(path: Path) -> None:
    """Migrate the DuckDB store at `path` if it is of an earlier version (a reader's open)."""
    from .db import open_store  # noqa: PLC0415 (db imports this module)

    open_store(path, wait_seconds=0).close()


def select_current(wanted: Sequence[str], present: Sequence[str]) -> str:
    """The select list that reads a Parquet part's columns under version 2's names: each wanted
    column as itself, or from its version 1 name when the part has only that."""
    old = {new: old for old, new in RENAMED.items()}
    return ", ".join(
        f'"{old[name]}" AS "{name}"'
        if name not in present and old.get(name) in present
        else f'"{name}"'
        for name in wanted
    )


def migrate_dataset(root: Path, con: duckdb.DuckDBPyConnection | None = None) -> int:
    """Rewrite the parts of a version 1 Parquet dataset at `root` under version 2's names
    (partition folders and columns), each written whole beside the old one before the old one
    goes; the records of `con`'s `parquet_parts` follow. Returns the parts rewritten."""
    rewritten = 0
    for old in sorted(root.glob(f"*/{OLD_PARTITION}*/**/*.parquet")):
        relative = old.relative_to(root).as_posix()
        new_relative = relative.replace(f"/{OLD_PARTITION}", f"/{NEW_PARTITION}", 1)
        new = root / new_relative
        new.parent.mkdir(parents=True, exist_ok=True)
        table = pq.read_table(old)
        table = table.rename_columns([RENAMED.get(name, name) for name in table.column_names])
        staged = new.with_name(f".{new.name}.migrating")
        pq.write_table(table, staged, compression="zstd")
        staged.replace(new)
        old.unlink()
        rewritten += 1
    if con is not None and rewritten:
        # The store's records of its parts follow (wherever the dataset was when written).
        con.execute(
            f"UPDATE parquet_parts SET path = replace(path, '/{OLD_PARTITION}', '/{NEW_PARTITION}')"
            f" WHERE contains(path, '/{OLD_PARTITION}')"
        )
    for folder in root.glob(f"*/{OLD_PARTITION}*"):
        shutil.rmtree(folder, ignore_errors=True)
    return rewritten
