"""A store written by studdraw's schema version 1 (`site` where version 2 says `room`) is migrated
when it is opened, by a reader or a writer, and nothing in it is lost.

The fixture (`stores/schema-v1.tar.gz`, see `stores/README.md`) is a real version 1 store and its
Parquet dataset, written by the release before the rename from three sample files.
"""

from __future__ import annotations

import hashlib
import tarfile
from pathlib import Path

import duckdb
import pytest

from studdraw.pipeline.analytics import Filters, open_store, player_stats
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.store.migration import RENAMED
from studdraw.pipeline.store.schema import ALL_TABLES, SCHEMA_VERSION

FIXTURE = Path(__file__).parent / "stores" / "schema-v1.tar.gz"
INPUTS = Path(__file__).parent / "stores" / "schema-v1-inputs.tar.gz"
"""The sample files the fixture was imported from, as they were then (the samples have been
dealt again since): a re-import of them must find every one in the old store's ledger."""


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    for fixture in (FIXTURE, INPUTS):
        with tarfile.open(fixture) as archive:
            archive.extractall(tmp_path, filter="data")
    return tmp_path / "store.duckdb"


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a stable order, columns by position (names aside)."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = [
            row[0] for row in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        ]
        return {
            table: sorted(con.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
            for table in tables
            if table != "studdraw_meta"
        }
    finally:
        con.close()


def _columns(path: Path) -> set[str]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {
            row[0] for row in con.execute("SELECT column_name FROM duckdb_columns()").fetchall()
        }
    finally:
        con.close()


def _version(path: Path) -> str:
    con = duckdb.connect(str(path), read_only=True)
    try:
        found = con.execute("SELECT value FROM studdraw_meta WHERE key = 'schema_version'")
        row = found.fetchone()
        assert row is not None
        return str(row[0])
    finally:
        con.close()


def test_a_reader_migrates_a_version_1_store_and_loses_nothing(old_store: Path) -> None:
    assert _version(old_store) == "1"
    assert set(RENAMED) <= _columns(old_store)
    before = _rows(old_store)
    con = open_store(old_store)
    try:
        stats = player_stats(con, Filters(player="Hero"))
    finally:
        con.close()
    assert _version(old_store) == str(SCHEMA_VERSION)
    columns = _columns(old_store)
    assert not set(RENAMED) & columns
    assert set(RENAMED.values()) <= columns
    assert _rows(old_store) == before  # every row of every table, the analytics' too
    assert stats.height > 0 and stats["hands"].sum() == 100
    for table in ALL_TABLES:  # the store has every table and column of today's schema
        assert set(table.column_names) <= columns


def test_a_writer_migrates_the_store_and_its_parquet_dataset(old_store: Path) -> None:
    dataset = old_store.parent / "parquet"
    assert any(dataset.glob("hands/site=*"))
    con = duckdb.connect(str(old_store), read_only=True)
    ledger = dict(con.execute("SELECT content_hash, path FROM imports").fetchall())
    con.close()
    samples = old_store.parent / "sample_histories"
    files = [
        samples / "pokerstars" / "razz.txt",
        samples / "fulltilt" / "razz.txt",
        samples / "pokerstars" / "handwritten",
    ]
    for path in [files[0], files[1], *sorted(files[2].iterdir())]:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert digest in ledger, f"{path} changed since the fixture was made from it"
    summary = ingest(files, IngestOptions(old_store, dataset, workers=1))
    assert summary.stored == 0 and summary.skipped_files == len(ledger)
    assert _version(old_store) == str(SCHEMA_VERSION)
    assert not any(dataset.glob("*/site=*")) and any(dataset.glob("hands/room=*"))
    by_file = open_store(dataset)
    by_store = open_store(old_store)
    try:
        for table in ("hands", "hand_players", "actions", "violations", "rejects"):
            from_parts = by_file.execute(f"SELECT * FROM {table}").fetchall()
            from_store = by_store.execute(f"SELECT * FROM {table}").fetchall()
            assert sorted(from_parts, key=repr) == sorted(from_store, key=repr), table
    finally:
        by_file.close()
        by_store.close()
    recorded = duckdb.connect(str(old_store), read_only=True)
    paths = [row[0] for row in recorded.execute("SELECT path FROM parquet_parts").fetchall()]
    recorded.close()
    assert paths and all("/room=" in path and (dataset / path).is_file() for path in paths)


def test_an_old_parquet_dataset_is_read_as_it_is(old_store: Path) -> None:
    """A dataset that no writer has migrated yet is served under today's names."""
    dataset = old_store.parent / "parquet"
    con = open_store(dataset)
    try:
        hands = con.execute("SELECT room, room_hand_id, room_time FROM hands").fetchall()
    finally:
        con.close()
    assert len(hands) == 103 and {room for room, _, _ in hands} == {"pokerstars", "fulltilt"}
    assert any(dataset.glob("hands/site=*"))  # a reader changes nothing
