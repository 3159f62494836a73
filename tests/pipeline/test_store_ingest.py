"""Ingest into DuckDB and Parquet: nothing lost, idempotent, identical whatever the workers."""

from __future__ import annotations

import importlib
import os
import shutil
import signal
from pathlib import Path

import duckdb
import pytest

from studdraw.parsers.files import discover_files
from studdraw.parsers.reader import open_history
from studdraw.pipeline import analytics
from studdraw.pipeline.importer import process as process_module
from studdraw.pipeline.importer.ingest import IngestOptions, IngestSummary, ingest
from studdraw.pipeline.importer.settings import BATCH_SIZE, PART_WITH_WORKERS
from studdraw.pipeline.store.db import ROW_GROUP_ROWS, open_store
from studdraw.pipeline.store.schema import BATCH_TABLES, IMPORTS, SCHEMA_VERSION
from tests.conftest import CORPUS, SAMPLES, corpus_file
from tests.pipeline.store_support import counts, differences, parquet_differences

INGEST = importlib.import_module(
    "studdraw.pipeline.importer.ingest"
)  # the package's `ingest` is the function

COUNTS = ("stored", "duplicates", "rejected", "unsupported")


def run(paths: list[Path], db: Path, **options: object) -> IngestSummary:
    return ingest(paths, IngestOptions(db, **options))  # type: ignore[arg-type]


def assert_identity(summary: IngestSummary) -> None:
    assert summary.hands_seen == sum(getattr(summary, name) for name in COUNTS)
    for room, by_room in summary.by_room.items():
        assert by_room["hands_seen"] == sum(by_room[name] for name in COUNTS), room


def split_count(paths: list[Path]) -> int:
    """Hand texts the reader cuts from the files (stray texts are problems, not hands), counted
    independently of the store."""
    return sum(
        sum(1 for hand in open_history(path).hand_texts() if not hand.stray)
        for path in discover_files(paths)
    )


@pytest.fixture(scope="module")
def corpus_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, IngestSummary]:
    corpus_file()  # skips without the corpus
    folder = tmp_path_factory.mktemp("corpus")
    db = folder / "corpus.duckdb"
    return db, run([CORPUS], db, parquet=folder / "parquet", batch_size=64)


def test_corpus_nothing_lost(corpus_store: tuple[Path, IngestSummary]) -> None:
    db, summary = corpus_store
    assert_identity(summary)
    assert summary.hands_seen == split_count([CORPUS])
    # PokerStars' cancelled-hand file repeats one hand; Merge's 2-7 "Multi.hand.sample" and
    # "Sample.with.showdown" files both hold hand 33423082-14, byte for byte
    assert summary.duplicates == 2
    assert summary.stored > 500 and summary.unsupported > 3
    # Merge: all but the cancelled hand (its half-pot badugi too)
    assert summary.by_room["ipoker"]["stored"] == 120 and summary.by_room["merge"]["stored"] == 24
    assert summary.by_room["boss"]["stored"] == summary.by_room["boss"]["hands_seen"] == 15
    # the text rooms of issue 11: every in-scope hand stored, the other games counted unsupported
    # (KingsClub: the older run-twice form stays unsupported; drawmaha's two hands and the four
    # hands run twice in the current form are stored)
    for room, stored, unsupported in (("kingsclub", 18, 1), ("ongame", 20, 0), ("absolute", 1, 0)):
        seen = summary.by_room[room]
        assert (seen["stored"], seen["unsupported"], seen["rejected"]) == (stored, unsupported, 0)
    tables = counts(db)
    assert tables["hands"] == summary.stored
    # stray texts (text before a file's first hand) are problems kept in rejects, not hands
    assert tables["rejects"] == summary.rejected + summary.stray_texts
    assert tables["unsupported"] == summary.unsupported
    con = duckdb.connect(str(db), read_only=True)
    strays = con.execute("SELECT count(*) FROM rejects WHERE kind = 'stray_text'").fetchone()
    assert strays == (summary.stray_texts,)
    rows = con.execute(
        "SELECT count(*), sum(hands_seen), sum(stored), sum(duplicates), sum(rejected), "
        "sum(unsupported), sum(with_errors) FROM imports WHERE status = 'complete'"
    ).fetchone()
    assert rows == (
        summary.files,
        summary.hands_seen,
        summary.stored,
        summary.duplicates,
        summary.rejected,
        summary.unsupported,
        summary.with_errors,
    )
    errors = con.execute("SELECT count(*) FROM hands WHERE errors > 0").fetchone()
    assert errors == (summary.with_errors,)
    # every stored hand is whole: players, events, streets
    orphans = con.execute(
        "SELECT count(*) FROM hands h WHERE NOT EXISTS (SELECT 1 FROM hand_players p "
        "WHERE p.hand_id = h.hand_id) OR NOT EXISTS (SELECT 1 FROM actions a "
        "WHERE a.hand_id = h.hand_id) OR NOT EXISTS (SELECT 1 FROM streets s "
        "WHERE s.hand_id = h.hand_id)"
    ).fetchone()
    assert orphans == (0,)
    # the unsupported table says why, per hand
    reasons = con.execute(
        "SELECT count(*) FROM unsupported WHERE reason = '' OR source_path IS NULL"
    ).fetchone()
    assert reasons == (0,)
    con.close()


def test_reimport_adds_nothing(corpus_store: tuple[Path, IngestSummary], tmp_path: Path) -> None:
    db, first = corpus_store
    copy = tmp_path / "copy.duckdb"
    shutil.copy(db, copy)
    before = counts(copy)
    again = run([CORPUS], copy)
    assert_identity(again)
    assert again.hands_seen == first.hands_seen
    assert again.duplicates == again.hands_seen
    assert again.skipped_files == again.files  # every file recognised by its content hash
    assert counts(copy) == before


def test_reimport_recognises_hands_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = corpus_file("cash", "Stars", "Draw", "3-Draw-Limit-USD-0.10-0.20-200911.txt")
    db = tmp_path / "s.duckdb"
    first = run([source], db)
    assert first.stored > 5
    merged = tmp_path / "merged.txt"  # new bytes, same hands: not skipped as a whole file
    merged.write_bytes(source.read_bytes() + b"\r\n\r\n")

    def no_parsing(*_: object) -> None:
        raise AssertionError("a known hand was parsed")

    monkeypatch.setattr(process_module, "parse_hand", no_parsing)
    again = run([merged], db)
    assert (again.skipped_files, again.duplicates, again.hands_seen) == (
        0,
        first.hands_seen,
        first.hands_seen,
    )


def test_parquet_holds_the_duckdb_rows(corpus_store: tuple[Path, IngestSummary]) -> None:
    db, _ = corpus_store
    root = db.parent / "parquet"
    assert parquet_differences(db, root) == {}
    con = duckdb.connect(str(db), read_only=True)
    # the hive folders agree with the rows they hold
    wrong = con.execute(
        f"SELECT count(*) FROM read_parquet('{root}/hands/**/*.parquet', hive_partitioning = "
        "true, hive_types = {'room': VARCHAR, 'game': VARCHAR, 'month': VARCHAR}) h "
        "JOIN hands d USING (hand_id) WHERE h.room <> d.room OR h.game <> d.game "
        "OR h.month <> strftime(d.started_at AT TIME ZONE 'UTC', '%Y-%m')"
    ).fetchone()
    assert wrong == (0,)
    children = con.execute(
        f"SELECT count(*) FROM read_parquet('{root}/actions/**/*.parquet', hive_partitioning = "
        "true, hive_types = {'room': VARCHAR, 'game': VARCHAR, 'month': VARCHAR}) a "
        "JOIN hands d USING (hand_id) WHERE a.room <> d.room OR a.game <> d.game"
    ).fetchone()
    assert children == (0,)
    staged = list(root.rglob(".staged-*"))
    assert staged == []
    con.close()


@pytest.mark.parametrize(
    ("batch_size", "piece", "part"),
    [
        (64, None, None),
        pytest.param(100, 7, None, marks=pytest.mark.slow),  # the same, in more pieces
        (100, 7, 30),
    ],
    ids=["batches-in-one-piece", "batches-of-many-pieces", "transactions-of-many-parts"],
)
def test_same_store_whatever_the_workers(
    corpus_store: tuple[Path, IngestSummary],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    batch_size: int,
    piece: int | None,
    part: int | None,
) -> None:
    """Two workers write the store one writes, whether a batch travels as one piece or as
    many (the pieces of a part are joined in order), in one part or in several (gathered into
    one transaction as they are back)."""
    db, _ = corpus_store
    if piece is not None:
        monkeypatch.setattr(INGEST, "CHUNK", piece)
    if part is not None:
        monkeypatch.setattr(INGEST, "part_size", lambda _batch, _workers: part)
    two = tmp_path / "two.duckdb"
    summary = run([CORPUS], two, workers=2, batch_size=batch_size)
    assert_identity(summary)
    assert differences(db, two) == {}
    con = duckdb.connect()  # hand ids too: same order of hands, same ids
    con.execute(f"ATTACH '{db}' AS a (READ_ONLY)")
    con.execute(f"ATTACH '{two}' AS b (READ_ONLY)")
    for table in ("hands", "actions", "player_streets"):
        query = (
            "SELECT * EXCLUDE (import_id) FROM {}.{}" if table == "hands" else "SELECT * FROM {}.{}"
        )
        left, right = query.format("a", table), query.format("b", table)
        diff = con.execute(f"SELECT count(*) FROM ({left} EXCEPT ALL {right})").fetchone()
        assert diff == (0,), table


def sample(name: str) -> Path:
    return SAMPLES / "pokerstars" / "handwritten" / name


def test_changed_hand_is_kept_apart(tmp_path: Path) -> None:
    db = tmp_path / "c.duckdb"
    original = sample("razz-uncalled-bet.txt")
    parquet = tmp_path / "pq"
    assert run([original], db, parquet=parquet).stored == 1
    changed = tmp_path / "changed.txt"
    changed.write_text(
        original.read_text().replace("Alice: calls $0.04\n", "Alice: calls $0.04\nDan: sits out\n"),
        encoding="utf-8",
    )
    summary = run([changed], db, parquet=parquet)  # decided before parsing: no worker output
    assert_identity(summary)
    assert (summary.stored, summary.rejected, summary.changed) == (0, 1, 1)
    assert parquet_differences(db, parquet) == {}
    con = duckdb.connect(str(db), read_only=True)
    kind, raw, hand_id = con.execute("SELECT kind, raw_text, room_hand_id FROM rejects").fetchone()  # type: ignore[misc]
    assert (kind, hand_id) == ("changed", "230000000002")
    assert "Dan: sits out" in raw
    stored_text_hash = con.execute("SELECT content_hash FROM hands").fetchall()
    assert len(stored_text_hash) == 1
    con.close()
    again = run([changed], db)  # the changed text is recorded: a duplicate now
    assert (again.duplicates, again.rejected) == (1, 0)
    assert counts(db)["rejects"] == 1


def test_two_texts_of_one_hand_in_one_import(tmp_path: Path) -> None:
    text = sample("razz-uncalled-bet.txt").read_text()
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text(text + "\n\n" + text, encoding="utf-8")  # same text twice
    (folder / "b.txt").write_text(text.replace("Zeno III", "Zeno IV"), "utf-8")  # changed
    for workers in (1, 2):
        summary = run([folder], tmp_path / f"w{workers}.duckdb", workers=workers, batch_size=1)
        assert_identity(summary)
        assert (summary.stored, summary.duplicates, summary.changed) == (1, 1, 1)


def test_an_unchanged_file_read_last_is_skipped_and_the_new_one_stored(tmp_path: Path) -> None:
    """The skipped file's ledger lookup is the last query before the batch's write (DuckDB 2
    refused that write while the lookup's result was open: a traceback)."""
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    shutil.copy(sample("razz-uncalled-bet.txt"), old)
    shutil.copy(SAMPLES / "pokerstars" / "razz.txt", new)
    db = tmp_path / "s.duckdb"
    first = run([old], db)
    again = run([new, old], db)
    assert (again.skipped_files, again.duplicates) == (1, first.stored) and again.stored > 0


def test_unreadable_and_unknown_files(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(sample("razz-uncalled-bet.txt"), folder / "razz.txt")
    (folder / "broken.txt").symlink_to(folder / "gone.txt")  # listed, cannot be opened
    (folder / "notes.txt").write_text("not a hand history\n", encoding="utf-8")
    db = tmp_path / "u.duckdb"
    summary = run([folder], db)
    assert_identity(summary)
    assert summary.failed_files == [
        (str((folder / "broken.txt").resolve()), "No such file or directory")
    ]
    # a file no room recognises is no hand: a stray text and a note, not an unsupported hand
    assert (summary.files, summary.stored, summary.unsupported, summary.stray_texts) == (3, 1, 0, 1)
    notes_path = str((folder / "notes.txt").resolve())
    assert summary.notes == [(notes_path, "no room's hand starts in this file")]
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT status, error FROM imports ORDER BY path").fetchall() == [
        ("failed", "No such file or directory"),
        ("complete", None),
        ("complete", None),
    ]
    assert con.execute("SELECT room, kind, reason, source_line FROM rejects").fetchall() == [
        (None, "stray_text", "text that starts no room's hand: 'not a hand history'", 1)
    ]
    con.close()
    again = run([folder], db)  # the failed file is retried, the others skipped
    assert (again.skipped_files, len(again.failed_files), again.duplicates) == (2, 1, 1)


def test_sample_rows(tmp_path: Path) -> None:
    """Concrete rows of the handwritten sample hands, checked by hand."""
    db = tmp_path / "s.duckdb"
    summary = run([SAMPLES / "pokerstars" / "handwritten"], db)
    assert (summary.stored, summary.with_errors, summary.rejected, summary.unsupported) == (
        3,
        1,
        1,
        2,
    )
    con = duckdb.connect(str(db), read_only=True)

    def one(query: str) -> tuple[object, ...]:
        row = con.execute(query).fetchone()
        assert row is not None, query
        return row

    razz = "(SELECT hand_id FROM hands WHERE room_hand_id = '230000000002')"
    td = "(SELECT hand_id FROM hands WHERE room_hand_id = '230000000003')"
    assert one(
        f"SELECT game, scale, ante, bring_in, total_pot, rake, valid FROM hands "
        f"WHERE hand_id = {razz}"
    ) == ("razz", 100, 1, 2, 22, 1, True)
    assert one(
        f"SELECT invested, collected, net, position, is_hero FROM hand_players "
        f"WHERE hand_id = {razz} AND name = 'Alice'"
    ) == (9, 21, 12, "BI+3", True)
    assert one(
        f"SELECT net_amount::VARCHAR FROM hand_players_money "
        f"WHERE hand_id = {razz} AND name = 'Alice'"
    ) == ("0.1200",)
    assert one(
        f"SELECT kind, amount, pot_before FROM actions WHERE hand_id = {razz} AND kind = 'uncalled'"
    ) == ("uncalled", 8, 30)
    assert one(
        f"SELECT pot_start, pot_end, first_actor FROM streets WHERE hand_id = {td} AND street = 2"
    ) == (65, 145, "Cara")
    assert one(
        f"SELECT actor, kind, amount, to_amount, pot_before FROM actions "
        f"WHERE hand_id = {td} AND seq = 18"
    ) == ("Alice", "raise", 40, 40, 85)
    assert one(
        f"SELECT drawn, put_in FROM player_streets WHERE hand_id = {td} "
        "AND street = 1 AND name = 'Alice'"
    ) == (2, 10)
    assert one(f"SELECT net FROM hand_players WHERE hand_id = {td} AND name = 'Cara'") == (-70,)
    assert one(f"SELECT amount, winners FROM pots WHERE hand_id = {td}") == (145, ["Alice"])
    assert one(
        "SELECT count(*) FROM violations v JOIN hands h USING (hand_id) "
        "WHERE h.room_hand_id = '230000000001' AND v.code = 'SIZ014'"
    ) == (1,)
    con.close()


def test_schema_matches_the_definitions(tmp_path: Path) -> None:
    db = tmp_path / "e.duckdb"
    run([], db)
    con = duckdb.connect(str(db), read_only=True)
    for table in BATCH_TABLES:
        described = con.execute(f"DESCRIBE {table.name}").fetchall()
        assert [row[0] for row in described] == table.column_names
    meta = con.execute("SELECT key, value FROM studdraw_meta ORDER BY key").fetchall()
    assert [key for key, _ in meta] == ["schema_version", "store_id"]  # the id ties a dataset
    assert meta[0][1] == str(SCHEMA_VERSION)
    described = con.execute("DESCRIBE imports").fetchall()
    assert [row[0] for row in described] == IMPORTS.column_names
    con.close()


@pytest.mark.parametrize(
    ("workers", "batch_size", "expected"),
    [
        (1, None, (BATCH_SIZE, BATCH_SIZE)),
        (2, None, (BATCH_SIZE, PART_WITH_WORKERS)),
        (3, None, (BATCH_SIZE, PART_WITH_WORKERS)),
        (1, 5000, (5000, 5000)),
        (2, 5000, (5000, PART_WITH_WORKERS)),
        (1, 64, (64, 64)),
        (2, 64, (64, 64)),
    ],
)
def test_a_transaction_travels_in_parts_only_with_workers(
    tmp_path: Path, workers: int, batch_size: int | None, expected: tuple[int, int]
) -> None:
    """One process holds the whole batch; with workers it goes out and comes back in parts, so
    the parts in flight, not the transaction, bound the memory."""
    assert IngestOptions(tmp_path / "s.duckdb").batch_size is None  # `BATCH_SIZE` locally
    store = open_store(tmp_path / "s.duckdb", 1)
    try:
        options = IngestOptions(tmp_path / "s.duckdb", workers=workers, batch_size=batch_size)
        importer = INGEST._Importer(store, options)
        assert (importer.batch_size, importer.part_size) == expected
    finally:
        store.close()


@pytest.mark.slow  # a crash drill: an import stopped between its parts
def test_a_stop_between_parts_keeps_only_committed_transactions(
    corpus_store: tuple[Path, IngestSummary], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop after some parts of a transaction were gathered, before it was written, keeps
    them out: the store holds the written transactions only, the ledger counts exactly those,
    and a re-run completes the import into the store of an import never stopped."""
    reference, _ = corpus_store
    db = tmp_path / "stopped.duckdb"
    monkeypatch.setattr(INGEST, "part_size", lambda _batch, _workers: 10)
    gathered: list[int] = []
    written: list[int] = []
    gather = INGEST._Batch.gather
    write = INGEST.Store.write

    def gather_then_stop(self: INGEST._Batch, part: INGEST._Batch, results: list[object]) -> None:
        gather(self, part, results)
        gathered.append(len(part.items))
        if len(gathered) == 6:  # the second transaction's second part
            os.kill(os.getpid(), signal.SIGTERM)

    def write_counted(
        self: INGEST.Store, tables: INGEST.Tables, *rest: object, **options: object
    ) -> None:
        write(self, tables, *rest, **options)
        hands = tables.get(INGEST.HANDS.name)
        written.append(hands.num_rows if hands is not None else 0)

    monkeypatch.setattr(INGEST._Batch, "gather", gather_then_stop)
    monkeypatch.setattr(INGEST.Store, "write", write_counted)
    with pytest.raises(INGEST.ImportInterruptedError) as stopped:
        run([CORPUS], db, batch_size=40)
    summary = stopped.value.summary
    assert summary.interrupted and len(gathered) == 6
    con = duckdb.connect(str(db), read_only=True)
    stored = one_value(con, "SELECT count(*) FROM hands")
    ledger = one_value(con, "SELECT sum(stored) FROM imports")
    interrupted = one_value(con, "SELECT count(*) FROM imports WHERE interrupted")
    con.close()
    assert stored == ledger == summary.stored == written[0] > 0
    assert interrupted >= 1
    monkeypatch.undo()
    assert_identity(run([CORPUS], db))
    assert differences(reference, db) == {}


def test_the_closing_parts_are_written_one_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With workers, every transaction holds the batch size but the last ones: once the files
    are cut, each part is written as it comes back, so the import ends with one part's write
    while the workers parse the rest before it."""
    monkeypatch.setattr(INGEST, "part_size", lambda _batch, _workers: 10)
    sizes: list[int] = []
    write = INGEST._Importer._write

    def write_counted(self: INGEST._Importer) -> None:
        sizes.append(len(self.transaction.items))
        write(self)

    monkeypatch.setattr(INGEST._Importer, "_write", write_counted)
    summary = run([CORPUS], tmp_path / "s.duckdb", workers=2, batch_size=40)
    assert summary.stored > 100
    closing = next(n for n, size in enumerate(sizes) if size < 40)
    assert all(size >= 40 for size in sizes[:closing])
    assert len(sizes) - closing >= 2 and all(size <= 10 for size in sizes[closing + 1 :])


def one_value(con: duckdb.DuckDBPyConnection, query: str) -> int:
    row = con.execute(query).fetchone()
    assert row is not None
    return int(row[0])


def test_the_closing_fold_gets_every_core(tmp_path: Path) -> None:
    """An import writes on one DuckDB thread (the cores are the workers'); the fold of the log
    into the file when the store closes runs on DuckDB's own number of threads again."""
    store = open_store(tmp_path / "s.duckdb", 1)
    connection = store.connection

    def threads() -> int:
        return one_value(connection, "SELECT current_setting('threads')")

    at_close: list[int] = []

    class Watched:
        """The store's connection, noting its threads when it is closed."""

        def execute(self, query: str) -> duckdb.DuckDBPyConnection:
            return connection.execute(query)

        def close(self) -> None:
            at_close.append(threads())
            connection.close()

    assert threads() == 1
    store.connection = Watched()  # type: ignore[assignment]
    store.close()
    assert at_close == [one_value(duckdb.connect(), "SELECT current_setting('threads')")]


def test_the_store_is_written_in_row_groups_of_its_own_size(tmp_path: Path) -> None:
    """The store is attached with `ROW_GROUP_ROWS` (smaller than DuckDB's default), so a
    transaction's full row groups go straight into the file and less waits in the write-ahead
    log for the closing fold; the file itself stays the store, and spills go beside it."""
    path = tmp_path / "the player's store.duckdb"  # a quote, for the ATTACH statement
    store = open_store(path, 1)
    connection = store.connection
    rows = 2 * ROW_GROUP_ROWS + 1
    connection.execute("CREATE TABLE scratch (n BIGINT)")
    connection.execute("INSERT INTO scratch SELECT range FROM range(?)", [rows])
    connection.execute("CHECKPOINT")
    groups = "SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('scratch')"
    assert one_value(connection, groups) == 3  # DuckDB's own size would make one
    spill = connection.execute("SELECT current_setting('temp_directory')").fetchone()
    assert spill == (f"{path}.tmp",)
    store.close()
    assert not path.with_name(path.name + ".wal").exists()
    reader = duckdb.connect(str(path), read_only=True)
    try:
        assert one_value(reader, "SELECT count(*) FROM scratch") == rows
        assert one_value(reader, "SELECT count(*) FROM imports") == 0
    finally:
        reader.close()
    # `prepare` writes the store too: a checkpoint at DuckDB's own size would merge the groups
    analytics.prepare(path, workers=1)
    reader = duckdb.connect(str(path), read_only=True)
    try:
        assert one_value(reader, groups) == 3
    finally:
        reader.close()
