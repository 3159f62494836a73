"""A store written by an earlier schema version (1: `site` where version 2 says `room`; 2:
before the runs of a hand run twice) is migrated when it is opened, by a reader or a writer, and
nothing in it is lost.

The fixtures (`stores/schema-v1.tar.gz`, `stores/schema-v2.tar.gz`, see `stores/README.md`) are
real stores of those versions and their Parquet datasets, written by the release before each
change from sample files.
"""

from __future__ import annotations

import hashlib
import tarfile
from pathlib import Path

import duckdb
import pytest

from studdraw.pipeline.analytics import Filters, open_store, player_stats
from studdraw.pipeline.importer.ingest import IngestOptions, ingest
from studdraw.pipeline.store.migration import ADDED, RENAMED
from studdraw.pipeline.store.schema import ALL_TABLES, SCHEMA_VERSION

FIXTURE = Path(__file__).parent / "stores" / "schema-v1.tar.gz"
FIXTURE_V2 = Path(__file__).parent / "stores" / "schema-v2.tar.gz"
INPUTS = Path(__file__).parent / "stores" / "schema-v1-inputs.tar.gz"
"""The sample files the fixture was imported from, as they were then (the samples have been
dealt again since): a re-import of them must find every one in the old store's ledger."""


@pytest.fixture
def old_store(tmp_path: Path) -> Path:
    for fixture in (FIXTURE, INPUTS):
        with tarfile.open(fixture) as archive:
            archive.extractall(tmp_path, filter="data")
    return tmp_path / "store.duckdb"


@pytest.fixture
def v2_store(tmp_path: Path) -> Path:
    with tarfile.open(FIXTURE_V2) as archive:
        archive.extractall(tmp_path, filter="data")
    return tmp_path / "store.duckdb"


def _rows(path: Path, *, added: bool = True) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in a stable order, columns by position (names aside);
    without version 3's columns when not `added`."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = [
            row[0] for row in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        ]
        rows = {}
        for table in tables:
            if table == "studdraw_meta":
                continue
            dropped = [] if added else [column for name, column in ADDED if name == table]
            exclude = f" EXCLUDE ({', '.join(dropped)})" if dropped else ""
            found = con.execute(f'SELECT *{exclude} FROM "{table}"').fetchall()
            rows[table] = sorted(found, key=repr)
        return rows
    finally:
        con.close()


def _added(path: Path) -> set[tuple[str, object]]:
    """The values version 3's columns hold in the store, by column."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {
            (f"{table}.{column}", value)
            for table, column in ADDED
            for (value,) in con.execute(f"SELECT DISTINCT {column} FROM {table}").fetchall()
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
    assert _rows(old_store, added=False) == before  # every row of every table, the analytics' too
    assert _added(old_store) == {(f"{t}.{c}", value) for (t, c), value in ADDED.items()}
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


def test_a_reader_migrates_a_version_2_store_each_hand_run_once(v2_store: Path) -> None:
    assert _version(v2_store) == "2"
    before = _rows(v2_store)
    assert not {column for _, column in ADDED} & _columns(v2_store)
    open_store(v2_store).close()
    assert _version(v2_store) == str(SCHEMA_VERSION)
    assert _rows(v2_store, added=False) == before
    # every stored hand was run once: one run, its events and pots of no run
    assert _added(v2_store) == {("hands.runs", 1), ("actions.run", 0), ("pots.run", 0)}
    for table in ALL_TABLES:
        assert set(table.column_names) <= _columns(v2_store)


def test_a_hand_run_twice_joins_a_version_2_store_and_its_dataset(v2_store: Path) -> None:
    """A writer migrates the store, adds a hand run twice beside the old parts of the dataset,
    and the dataset (old parts without the runs' columns, the new one with them) reads as the
    store does."""
    from tests.parsers.test_kingsclub_handwritten import RUN_TWICE  # noqa: PLC0415 (one hand's text)

    hand = v2_store.parent / "run-twice.txt"
    hand.write_text(RUN_TWICE, encoding="utf-8")
    dataset = v2_store.parent / "parquet"
    summary = ingest([hand], IngestOptions(v2_store, dataset, workers=1))
    assert summary.stored == 1 and _version(v2_store) == str(SCHEMA_VERSION)
    by_file, by_store = open_store(dataset), open_store(v2_store)
    try:
        for table in ("hands", "actions", "pots"):
            from_parts = by_file.execute(f"SELECT * FROM {table}").fetchall()
            from_store = by_store.execute(f"SELECT * FROM {table}").fetchall()
            assert sorted(from_parts, key=repr) == sorted(from_store, key=repr), table
        runs = by_store.execute(
            "SELECT p.run, p.winners FROM pots p JOIN hands h USING (hand_id) "
            "WHERE h.runs = 2 ORDER BY p.run"
        ).fetchall()
    finally:
        by_file.close()
        by_store.close()
    assert runs == [(1, ["Hero"]), (2, ["Player1"])]
