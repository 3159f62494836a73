"""Stores of an earlier schema version, brought up to this one when they are opened.

Version 1 named the room `site` (`site`, `site_hand_id`, `site_time`); version 2 says `room`
everywhere (one word per idea); version 3 adds the runs of a hand run twice (`ADDED`: every hand
stored before was run once); version 4 renews the content hashes of hands read before blanks at
line ends were dropped as lines are read (`hand_hash.py`: read again, they are duplicates, not
`changed` rejects). A store is migrated in place, in one transaction, the first time
a writer opens it (`db.Store.ensure_schema`) or a reader does (`upgrade`, which the analytics'
`open_store` calls before it opens the file read-only): nothing is dropped but the indexes and
views (DuckDB alters no table one depends on), which the schema makes again. A Parquet dataset
written by version 1 (`site=` partitions, `site` columns) is read as it is (`select_current`)
and rewritten under the new names before an import adds to it (`migrate_dataset`); the parts of
an earlier version lack version 3's columns, which are read as their values for a hand run once.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import duckdb
import pyarrow.parquet as pq

from .schema import META, SCHEMA_VERSION

RENAMED: Final = {"site": "room", "site_hand_id": "room_hand_id", "site_time": "room_time"}
"""Version 1's column names -> version 2's, in every table that has them."""
ADDED: Final = {("hands", "runs"): 1, ("actions", "run"): 0, ("pots", "run"): 0}
"""Version 3's columns (all SMALLINT NOT NULL, at the end of their tables) -> their value in
the rows of an earlier version: a hand run once, its events and pots of no run."""
OLD_PARTITION: Final = "site="
NEW_PARTITION: Final = "room="


def migrate(con: duckdb.DuckDBPyConnection, version: int) -> None:
    """Bring the store open on `con` (in a transaction) from `version` to the current one."""
    _drop_dependents(con)
    if version < 2:
        _rename_columns(con)
    if version < 3:
        for (table, column), value in ADDED.items():
            con.execute(
                f'ALTER TABLE "{table}" ADD COLUMN "{column}" SMALLINT NOT NULL DEFAULT {value}'
            )
    if version < 4:
        from .hand_hash import renew_hashes  # noqa: PLC0415 (the readers, for old stores only)

        # It reads the store's source files again (about 10 s per 50,000 hands of CRLF files
        # here): said, so that the first command after an upgrade is not a silent wait.
        sys.stderr.write(
            f"studdraw: upgrading the store from schema version {version} to {SCHEMA_VERSION}"
            " (once): reading its source files again to renew the hands' hashes\n"
        )
        renew_hashes(con)


def _drop_dependents(con: duckdb.DuckDBPyConnection) -> None:
    """Drop the store's views and indexes: DuckDB alters no table that one depends on (the
    schema makes them again)."""
    for (view,) in con.execute(
        "SELECT view_name FROM duckdb_views() "
        "WHERE database_name = current_database() AND NOT internal"
    ).fetchall():
        con.execute(f'DROP VIEW "{view}"')
    for (index,) in con.execute(
        "SELECT index_name FROM duckdb_indexes() WHERE database_name = current_database()"
    ).fetchall():
        con.execute(f'DROP INDEX "{index}"')


def _rename_columns(con: duckdb.DuckDBPyConnection) -> None:
    """Rename version 1's columns."""
    columns = con.execute(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE database_name = "
        "current_database() AND column_name IN ? ORDER BY table_name, column_index",
        [list(RENAMED)],
    ).fetchall()
    for table, column in columns:
        con.execute(f'ALTER TABLE "{table}" RENAME COLUMN "{column}" TO "{RENAMED[column]}"')


def stored_version(con: duckdb.DuckDBPyConnection) -> int:
    """The schema version of the store open on `con` (the current one for a store without a
    ledger yet)."""
    found = con.execute(
        "SELECT count(*) FROM duckdb_tables() "
        "WHERE table_name = ? AND NOT temporary AND database_name = current_database()",
        [META.name],
    ).fetchall()
    if not found[0][0]:
        return SCHEMA_VERSION
    rows = con.execute(f"SELECT value FROM {META.name} WHERE key = 'schema_version'").fetchall()
    return int(rows[0][0]) if rows and str(rows[0][0]).isdigit() else SCHEMA_VERSION


def upgrade(path: Path) -> None:
    """Migrate the DuckDB store at `path` if it is of an earlier version (a reader's open)."""
    from .db import open_store  # noqa: PLC0415 (db imports this module)

    open_store(path, wait_seconds=0).close()


def select_current(table: str, wanted: Sequence[str], present: Sequence[str]) -> str:
    """The select list that reads the Parquet parts of `table` under today's names: each wanted
    column as itself, or from its version 1 name when the parts have only that; a column of
    version 3 as its value for a hand run once where the parts (or some of them) lack it."""
    old = {new: old for old, new in RENAMED.items()}
    chosen = []
    for name in wanted:
        added = ADDED.get((table, name))
        if added is not None:
            chosen.append(
                f'coalesce("{name}", {added}) AS "{name}"'
                if name in present
                else f'CAST({added} AS SMALLINT) AS "{name}"'
            )
        elif name not in present and old.get(name) in present:
            chosen.append(f'"{old[name]}" AS "{name}"')
        else:
            chosen.append(f'"{name}"')
    return ", ".join(chosen)


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
