"""The DuckDB store: opening it (waiting a bounded time for another writer), its schema, what it
already holds, and writing one batch as one transaction.

DuckDB lets one process at a time open a database file for writing; a second importer gets a
lock error, which `open_store` turns into a bounded wait and then a clear `StoreLockedError`.
"""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from .migration import migrate, migrate_dataset
from .normalize import Tables
from .parquet import Part
from .schema import (
    ALL_TABLES,
    BATCH_TABLES,
    HANDS,
    IMPORTS,
    IMPORTS_ADDED,
    INDEXES,
    META,
    PARQUET_PARTS,
    REJECTS,
    SCHEMA_VERSION,
    UNSUPPORTED,
    VIEWS,
)

LOCK_POLL_SECONDS = 0.25
MEMORY_LIMIT = "128MB"
"""DuckDB's buffer pool for an import: without a limit it keeps every block it wrote cached (80%
of RAM by default), so an import's memory would grow with the store."""
CHECKPOINT_THRESHOLD = "256MB"
"""How much write-ahead log DuckDB gathers before it folds the log into the database file. Each
fold costs more as the store grows: at DuckDB's 16 MB an import folded every other batch, and
storing a second 100,000 hands took 18.9 s against 16.7 s for the first. At 256 MB the same
200,000 hands take 20.7 s to store instead of 35.6 (benchmarks/store_write.py, docs/scaling.md);
memory stays within `MEMORY_LIMIT`, and the log a crash leaves is replayed when the store is
next opened."""
ROW_GROUP_ROWS = 30_720
"""Rows in each of the store's row groups as its writers write them (DuckDB's default: 122,880).
A transaction that adds at least a row group's rows to a table has DuckDB write all of them
straight into the file, compressed; a smaller addition goes to the write-ahead log, and into
the file again when DuckDB folds the log in, at a checkpoint or when the store closes. Smaller
groups send fewer of a transaction's tables through the log: after 100,000 hands in
transactions of 10,000 (two workers), 52 MB instead of 213 MB, and closing the store, which
only the importing process can do while every worker has finished, takes 0.36 s instead of
0.96 s. The file is about a tenth larger, and the importing process holds about 50 MB more
after a million hands (docs/scaling.md)."""
STORE_ALIAS = "store"
"""The name the store's database goes by on a writer's connection."""

Key = tuple[str | None, str, int]
"""How a reject or unsupported hand is recognised again: (room, "", content hash), or for a file
no room recognises (room None), (None, the file's path, hash of its head). The hash covers the
hand's text, id included, so the id adds nothing, and leaving it out keeps the key the same
whether or not the id could be read."""


STALE_REJECTS = (
    f"DELETE FROM {REJECTS.name} r WHERE r.kind = 'parse_error' AND EXISTS "
    "(SELECT 1 FROM {stored} b WHERE b.room = r.room AND b.room_hand_id = r.room_hand_id)"
)
"""Once a hand is stored, the parse errors of its id go: a hand caught half-written (a poker
client still writing it) was rejected, and the whole text read later is the hand."""

Derive = Callable[[duckdb.DuckDBPyConnection], None]
"""What a writer runs inside a batch's transaction once its rows are in (the analytics' upkeep,
which the store does not import: the analytics read the store, not the other way round)."""


def record_key(room: str | None, path: str, digest: int) -> Key:
    return (room, "" if room is not None else path, digest)


def first_row(
    con: duckdb.DuckDBPyConnection, sql: str, parameters: Sequence[object] = ()
) -> tuple[Any, ...] | None:
    """The first row of a query, its result fetched whole: DuckDB 2 keeps a result open until a
    fetch comes back empty, and the next `register` on the connection fails while it is."""
    rows = con.execute(sql, parameters).fetchall()
    return rows[0] if rows else None


class StoreLockedError(Exception):
    """Another process holds the database file for writing."""


class StoreVersionError(Exception):
    """The database was written by an incompatible schema version."""


class DatasetMismatchError(Exception):
    """A Parquet dataset folder that another store wrote."""


DATASET_MARKER = "_studdraw_store_id"
"""The file beside a Parquet dataset's tables naming the store it belongs to."""


class StoreOpenError(Exception):
    """The store path cannot be a store: a folder, a file of another kind, not writable. Its
    message is one line naming the path and the cause."""


DUCKDB_MAGIC = b"DUCK"
DUCKDB_MAGIC_OFFSET = 8


def check_store_path(path: Path, *, write: bool) -> None:
    """Raise `StoreOpenError` when `path` cannot be a DuckDB store (to write, or to read: a
    Parquet dataset folder is a store to read too), before DuckDB says so in a traceback."""
    if path.is_dir():
        if write:
            raise StoreOpenError(f"{path} is a folder, not a DuckDB file; give a file path")
        if not (path / HANDS.name).is_dir():
            raise StoreOpenError(f"{path} is a folder without a Parquet dataset (no `hands`)")
        return
    if not path.exists():
        if not write:
            raise StoreOpenError(f"no store at {path}; build it with `studdraw ingest`")
        parent = path.absolute().parent
        if not parent.is_dir():
            raise StoreOpenError(f"cannot create {path}: the folder {parent} does not exist")
        if not os.access(parent, os.W_OK):
            raise StoreOpenError(f"cannot create {path}: the folder {parent} is not writable")
        return
    try:
        with path.open("rb") as stream:
            head = stream.read(DUCKDB_MAGIC_OFFSET + len(DUCKDB_MAGIC))
    except OSError as error:
        raise StoreOpenError(f"cannot read {path}: {error.strerror or error}") from None
    if head and head[DUCKDB_MAGIC_OFFSET:] != DUCKDB_MAGIC:
        raise StoreOpenError(f"{path} is not a DuckDB database file")
    if write and not os.access(path, os.W_OK):
        raise StoreOpenError(f"{path} is not writable")


def one_line(error: BaseException) -> str:
    """A DuckDB or OS error as one line (DuckDB's messages may run over several)."""
    text = " ".join(str(error).split())
    return text if len(text) <= 300 else text[:299] + "…"


def open_store(
    path: Path, wait_seconds: float, on_wait: Callable[[str], None] | None = None
) -> Store:
    """Open (creating if needed) the store at `path`; if another process holds it, wait up to
    `wait_seconds`, calling `on_wait(message)` once, then raise `StoreLockedError`."""
    check_store_path(path, write=True)
    deadline = time.monotonic() + wait_seconds
    told = False
    while True:
        try:
            connection = connect_writable(path)
        except duckdb.Error as error:
            text = str(error)
            if not isinstance(error, duckdb.IOException) or "lock" not in text.lower():
                raise StoreOpenError(f"cannot open {path}: {one_line(error)}") from None
            if time.monotonic() >= deadline:
                raise StoreLockedError(
                    f"{path} is in use by another process ({_holder(text)}); "
                    f"gave up after waiting {wait_seconds:g} s"
                ) from None
            if not told and on_wait is not None:
                on_wait(
                    f"{path} is in use by another process ({_holder(text)}); "
                    f"waiting up to {wait_seconds:g} s for it to finish"
                )
                told = True
            time.sleep(LOCK_POLL_SECONDS)
            continue
        connection.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        # One thread: the import's CPUs belong to its workers; DuckDB's helper threads cost
        # more CPU per row than they save in time while every core parses.
        connection.execute("SET threads = 1")
        connection.execute(f"SET checkpoint_threshold = '{CHECKPOINT_THRESHOLD}'")
        store = Store(connection)
        store.ensure_schema()
        return store


def connect_writable(path: Path) -> duckdb.DuckDBPyConnection:
    """A connection to write the store at `path`: its database is the file, attached with
    `ROW_GROUP_ROWS`, an option DuckDB takes only when it attaches a file and does not keep in
    it. Every writer opens the store this way: a checkpoint by a connection of DuckDB's own size
    would merge the store's row groups again, rewriting its tables."""
    connection = duckdb.connect()
    quoted = str(path).replace("'", "''")
    try:
        # An in-memory database would spill to `.tmp` in the working folder: as for a store
        # opened directly, spill beside the file.
        connection.execute(f"SET temp_directory = '{quoted}.tmp'")
        connection.execute(f"ATTACH '{quoted}' AS {STORE_ALIAS} (ROW_GROUP_SIZE {ROW_GROUP_ROWS})")
        connection.execute(f"USE {STORE_ALIAS}")
    except BaseException:
        connection.close()
        raise
    return connection


def _holder(message: str) -> str:
    """The 'PID n' DuckDB names in its lock error, when it does."""
    marker = message.find("PID ")
    if marker < 0:
        return "lock held"
    return "PID " + message[marker + 4 :].split(")", maxsplit=1)[0].split(maxsplit=1)[0]


@dataclass(slots=True)
class KnownHands:
    """What the store already holds, for recognising hands before parsing them.

    stored: per room, each hand id stored when the import began, with its content hash.
    recorded: keys of the rejects and unsupported hands already recorded.
    """

    stored: dict[str, dict[str, int]] = field(default_factory=dict)
    recorded: set[Key] = field(default_factory=set)


@dataclass(slots=True)
class ImportRow:
    """The state of one file import, mirrored in the `imports` table."""

    import_id: int
    path: str
    room: str | None
    size: int | None
    content_hash: str | None
    status: str
    started_at: datetime
    finished_at: datetime | None = None
    hands_seen: int = 0
    stored: int = 0
    duplicates: int = 0
    rejected: int = 0
    unsupported: int = 0
    changed: int = 0
    with_errors: int = 0
    error: str | None = None
    stray_texts: int = 0
    note: str | None = None
    interrupted: bool = False

    def values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in IMPORTS.column_names)


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[duckdb.DuckDBPyConnection]:
    """One transaction on `con`: committed if the block ends normally, rolled back on any
    exception (a Ctrl-C inside a query too), so the connection is usable again."""
    con.execute("BEGIN")
    try:
        yield con
        con.execute("COMMIT")
    except BaseException:
        # DuckDB may have ended the transaction itself (a failed COMMIT on a full disk):
        # the rollback must not hide the error that matters.
        with contextlib.suppress(duckdb.Error):
            con.execute("ROLLBACK")
        raise


class Store:
    """One open DuckDB store (the connection is this process's write lock on the file)."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        self.connection = connection

    def close(self) -> None:
        """Close the store.

        Closing folds the write-ahead log into the file, which DuckDB spreads over its threads:
        the import's workers are done by then, so the fold gets every core again (after 100,000
        hands on two cores: 1.6 s instead of 2.4 s)."""
        with contextlib.suppress(duckdb.Error):
            self.connection.execute("RESET threads")
        self.connection.close()

    def ensure_schema(self) -> None:
        """Create what the store lacks, in one transaction; a store of an earlier version is
        migrated first (`migration.py`), one of a later version refused."""
        con = self.connection
        con.execute("BEGIN")
        con.execute(META.ddl())
        found = first_row(con, f"SELECT value FROM {META.name} WHERE key = 'schema_version'")
        version = int(found[0]) if found is not None and str(found[0]).isdigit() else None
        if found is not None and (version is None or version > SCHEMA_VERSION):
            con.execute("ROLLBACK")
            raise StoreVersionError(
                f"the store has schema version {found[0]}, this studdraw writes {SCHEMA_VERSION}:"
                " it was written by a newer studdraw"
            )
        if version is not None and version < SCHEMA_VERSION:
            migrate(con, version)
        for table in ALL_TABLES:
            con.execute(table.ddl())
        for statement in IMPORTS_ADDED:
            con.execute(statement)
        for statement in (*INDEXES, *VIEWS):
            con.execute(statement)
        con.execute(
            f"INSERT OR REPLACE INTO {META.name} VALUES ('schema_version', ?)",
            [str(SCHEMA_VERSION)],
        )
        if first_row(con, f"SELECT 1 FROM {META.name} WHERE key = 'store_id'") is None:
            con.execute(f"INSERT INTO {META.name} VALUES ('store_id', ?)", [uuid.uuid4().hex])
        con.execute("COMMIT")

    def store_id(self) -> str:
        """This store's own id (made when it was created): what ties a Parquet dataset to it."""
        row = first_row(self.connection, f"SELECT value FROM {META.name} WHERE key = 'store_id'")
        assert row is not None
        return str(row[0])

    def claim_dataset(self, root: Path) -> None:
        """Tie the Parquet dataset at `root` to this store, or raise `DatasetMismatchError`
        when it belongs to another one: its hands would be written twice (the other store's
        ids say nothing of what this one holds). A dataset of an earlier version is rewritten
        under today's names first (`migration.migrate_dataset`)."""
        marker = root / DATASET_MARKER
        mine = self.store_id()
        if marker.is_file():
            theirs = marker.read_text(encoding="utf-8").strip()
            if theirs != mine:
                raise DatasetMismatchError(
                    f"the Parquet dataset {root} belongs to another store (id {theirs}, this "
                    f"one is {mine}); give --parquet a new folder, or delete it to rebuild it"
                )
            migrate_dataset(root.resolve(), self.connection)
            return
        has_parts = root.is_dir() and any(root.rglob("*.parquet"))
        if has_parts and not self.committed_parts(root.resolve()):
            raise DatasetMismatchError(
                f"the Parquet dataset {root} was written by another store (none of its parts "
                "are this store's); give --parquet a new folder, or delete it to rebuild it"
            )
        root.mkdir(parents=True, exist_ok=True)
        marker.write_text(mine + "\n", encoding="utf-8")

    def next_ids(self) -> tuple[int, int]:
        """The next free hand id and import id."""
        row = first_row(
            self.connection,
            f"SELECT (SELECT coalesce(max(hand_id), -1) + 1 FROM {HANDS.name}), "
            f"(SELECT coalesce(max(import_id), -1) + 1 FROM {IMPORTS.name})",
        )
        assert row is not None
        return int(row[0]), int(row[1])

    def known(self) -> KnownHands:
        """Every stored hand id and recorded reject/unsupported key, read column-wise."""
        known = KnownHands()
        table = self.connection.sql(
            f"SELECT room, room_hand_id, content_hash FROM {HANDS.name} ORDER BY room"
        ).to_arrow_table()
        rooms, ids, hashes = (table.column(i).to_pylist() for i in range(3))
        for room, hand_id, digest in zip(rooms, ids, hashes, strict=True):
            per_room = known.stored.get(room)
            if per_room is None:
                per_room = known.stored[room] = {}
            per_room[hand_id] = digest
        known.recorded = self.recorded()
        return known

    def recorded(self) -> set[Key]:
        """The keys of every reject and unsupported hand recorded."""
        recorded: set[Key] = set()
        for name in (REJECTS.name, UNSUPPORTED.name):
            rows = self.connection.execute(
                f"SELECT room, CASE WHEN room IS NULL THEN source_path ELSE '' END, content_hash "
                f"FROM {name}"
            ).fetchall()
            recorded.update((room, key, digest) for room, key, digest in rows)
        return recorded

    def stored_hashes(
        self, rooms: list[str], hand_ids: list[str], before_import: int | None = None
    ) -> dict[tuple[str, str], int]:
        """The content hash of each of these (room, hand id) already in `hands` (a hash join
        with the batch's ids: the store, not a growing in-memory set, says what is stored);
        with `before_import`, only hands stored by earlier imports (what a run began with)."""
        con = self.connection
        con.register("_studdraw_ids", pa.table({"room": rooms, "room_hand_id": hand_ids}))
        rows = con.execute(
            f"SELECT h.room, h.room_hand_id, h.content_hash FROM {HANDS.name} h "
            "JOIN _studdraw_ids USING (room, room_hand_id)"
            + ("" if before_import is None else " WHERE h.import_id < ?"),
            [] if before_import is None else [before_import],
        ).fetchall()
        con.unregister("_studdraw_ids")
        return {(room, hand_id): digest for room, hand_id, digest in rows}

    def completed_import(self, content_hash: str) -> tuple[str | None, int] | None:
        """(room, hands seen) of the latest complete import of a file with these exact bytes.
        (`first_row`: an unchanged file read last crashed the next `register`)."""
        row = first_row(
            self.connection,
            f"SELECT room, hands_seen FROM {IMPORTS.name} "
            "WHERE content_hash = ? AND status = 'complete' ORDER BY import_id DESC LIMIT 1",
            [content_hash],
        )
        return (row[0], int(row[1])) if row else None

    def imports_from(self, first: int) -> dict[int, ImportRow]:
        """The ledger's rows from import `first` on (a run's, as committed), by import id."""
        names = IMPORTS.column_names
        found = self.connection.execute(
            f"SELECT {', '.join(names)} FROM {IMPORTS.name} WHERE import_id >= ?", [first]
        ).fetchall()
        rows = [ImportRow(**dict(zip(names, values, strict=True))) for values in found]
        return {row.import_id: row for row in rows}

    def committed_parts(self, root: Path) -> set[str]:
        rows = self.connection.execute(
            f"SELECT path FROM {PARQUET_PARTS.name} WHERE root = ?", [str(root)]
        ).fetchall()
        return {path for (path,) in rows}

    def write(
        self,
        tables: Tables,
        imports: Sequence[ImportRow],
        parts: Iterable[Part] = (),
        parquet_root: Path | None = None,
        derive: Derive | None = None,
    ) -> None:
        """Insert a batch's rows, its imports' new state and its Parquet parts as ONE
        transaction: after a crash the store holds whole batches or nothing of them. `derive`
        runs inside it once the rows are in (the analytics' upkeep)."""
        with transaction(self.connection) as con:
            for table in BATCH_TABLES:
                batch = tables.get(table.name)
                if batch is None or batch.num_rows == 0:
                    continue
                con.register("_studdraw_batch", batch)
                con.execute(f"INSERT INTO {table.name} BY NAME SELECT * FROM _studdraw_batch")
                if table is HANDS:
                    con.execute(STALE_REJECTS.format(stored="_studdraw_batch"))
                con.unregister("_studdraw_batch")
            if derive is not None:
                derive(con)
            self._record(imports, parts, parquet_root)

    def write_files(
        self,
        files: Mapping[str, Sequence[Path]],
        imports: Sequence[ImportRow],
        parts: Iterable[Part] = (),
        parquet_root: Path | None = None,
        derive: Derive | None = None,
    ) -> None:
        """`write` for a batch that workers wrote as Parquet files (per table): DuckDB reads
        them itself, so the rows never pass through this process's Python objects."""
        with transaction(self.connection) as con:
            for table in BATCH_TABLES:
                paths = [str(path) for path in files.get(table.name, ())]
                if paths:
                    con.execute(
                        f"INSERT INTO {table.name} BY NAME SELECT * FROM "
                        "read_parquet(?, hive_partitioning = false)",
                        [paths],
                    )
                    if table is HANDS:
                        stored = "read_parquet(?, hive_partitioning = false)"
                        con.execute(STALE_REJECTS.format(stored=stored), [paths])
            if derive is not None:
                derive(con)
            self._record(imports, parts, parquet_root)

    def _record(
        self, imports: Sequence[ImportRow], parts: Iterable[Part], parquet_root: Path | None
    ) -> None:
        """The imports' new state and the batch's Parquet parts, inside the caller's
        transaction."""
        con = self.connection
        if imports:
            marks = ", ".join("?" for _ in IMPORTS.columns)
            con.executemany(
                f"INSERT OR REPLACE INTO {IMPORTS.name} VALUES ({marks})",
                [row.values() for row in imports],
            )
        part_rows = [
            (str(parquet_root), part.path, part.table, part.rows, part.import_id) for part in parts
        ]
        if part_rows:
            con.executemany(f"INSERT INTO {PARQUET_PARTS.name} VALUES (?, ?, ?, ?, ?)", part_rows)
