"""Hostile files and paths through `ingest`: every path problem is reported per path and the
import goes on; junk, stray text, huge lines and huge amounts are problems or rejects with a
reason, never a crash nor a phantom hand; a full disk leaves the store as it was."""

from __future__ import annotations

import gzip
import os
import shutil
from pathlib import Path
from typing import Any

import duckdb
import pytest

from studdraw.cli.ingest_report import resource_failure, run_ingest
from studdraw.pipeline.importer.ingest import COUNTS, IngestOptions, IngestSummary, ingest
from studdraw.pipeline.store.db import Store
from tests.conftest import SAMPLES, messages

RAZZ = SAMPLES / "pokerstars" / "razz.txt"
RAZZ_HANDS = RAZZ.read_text(encoding="utf-8").count("PokerStars Hand #")


def assert_identity(summary: IngestSummary) -> None:
    assert summary.hands_seen == sum(getattr(summary, name) for name in COUNTS[1:])


def ledger(db: Path) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(
            "SELECT path, status, error, note, hands_seen, stray_texts FROM imports ORDER BY path"
        ).fetchall()
    finally:
        con.close()


def test_every_path_problem_is_reported_and_the_import_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "in"
    (folder / "locked").mkdir(parents=True)
    shutil.copy(RAZZ, folder / "locked" / "hidden.txt")
    bad_name = os.fsdecode(b"caf\xe9-\xff.txt")  # Latin-1 bytes: not UTF-8
    shutil.copy(RAZZ, folder / bad_name)
    (folder / "loop-a.txt").symlink_to(folder / "loop-b.txt")
    (folder / "loop-b.txt").symlink_to(folder / "loop-a.txt")
    (folder / "sub").mkdir()
    (folder / "sub" / "again").symlink_to(folder)  # a folder loop
    (folder / "empty.txt").write_bytes(b"")
    locked = str(folder / "locked")
    real_scandir = os.scandir

    def scandir(path: Any = ".") -> Any:  # what an unreadable folder does (tests run as root)
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", locked)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    db = tmp_path / "s.duckdb"
    summary = ingest([folder], IngestOptions(db, workers=1))
    assert_identity(summary)
    assert summary.stored == RAZZ_HANDS  # the file with a non-UTF-8 name
    failed = dict(summary.failed_files)
    assert failed[locked] == "Permission denied"
    assert failed[str(folder / "loop-a.txt")] == "Too many levels of symbolic links"
    assert failed[str(folder / "sub" / "again")].startswith("a symlink loop")
    notes = dict(summary.notes)
    assert notes[str(folder / "empty.txt")] == "an empty file: no hands"
    shown = str(folder) + "/caf\\xe9-\\xff.txt"
    assert notes[shown].startswith("the file name is not valid UTF-8")
    rows = {path: (status, error) for path, status, error, *_ in ledger(db)}
    assert rows[locked] == ("failed", "Permission denied")
    assert rows[shown] == ("complete", None)
    con = duckdb.connect(str(db), read_only=True)
    paths = con.execute("SELECT DISTINCT source_path FROM hands").fetchall()
    con.close()
    assert paths == [(shown,)]


def test_junk_and_stray_text_are_no_hands(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "bom.txt").write_bytes(b"\xef\xbb\xbf")
    (folder / "blob.bin.txt").write_bytes(bytes(range(256)) * 64)
    (folder / "notes.txt").write_text("a players notes\n", encoding="utf-8")
    preamble = "exported by a tracker\n" * 300
    (folder / "late.txt").write_text(preamble + RAZZ.read_text(encoding="utf-8"), "utf-8")
    (folder / "packed.txt.gz").write_bytes(gzip.compress(RAZZ.read_bytes()))
    db = tmp_path / "s.duckdb"
    summary = ingest([folder], IngestOptions(db, workers=1))
    assert_identity(summary)
    # the hands after the preamble are found; the gzip copy holds the same hands
    assert (summary.hands_seen, summary.stored, summary.duplicates) == (
        2 * RAZZ_HANDS,
        RAZZ_HANDS,
        RAZZ_HANDS,
    )
    assert summary.stray_texts == 2  # the preamble and the notes
    notes = {Path(path).name: note for path, note in summary.notes}
    assert notes == {
        "blob.bin.txt": "binary data, not text: no hands",
        "bom.txt": "only a byte-order mark, no text: no hands",
        "notes.txt": "no room's hand starts in this file",
    }
    con = duckdb.connect(str(db), read_only=True)
    strays = con.execute(
        "SELECT source_line, reason FROM rejects WHERE kind = 'stray_text' ORDER BY reason"
    ).fetchall()
    con.close()
    assert strays == [
        (1, "text that starts no room's hand: 'a players notes'"),
        (1, "text that starts no room's hand: 'exported by a tracker'"),
    ]
    again = ingest([folder], IngestOptions(db, workers=2))
    assert (again.stored, again.skipped_files) == (0, 5)


def test_a_50_mb_line_is_a_reject_with_a_short_reason(tmp_path: Path) -> None:
    text = RAZZ.read_text(encoding="utf-8")
    first = text.split("\n\n\n")[0]
    path = tmp_path / "huge.txt"
    with path.open("wb") as out:
        out.write(text.encode())
        out.write(first.replace("Hand #", "Hand #7").encode() + b"\n")
        out.write(b"\x00" * (50 << 20))
    db = tmp_path / "s.duckdb"
    summary = ingest([path], IngestOptions(db, workers=1))
    assert_identity(summary)
    assert (summary.stored, summary.rejected) == (RAZZ_HANDS, 1)
    con = duckdb.connect(str(db), read_only=True)
    [(reason, size)] = con.execute("SELECT reason, length(raw_text) FROM rejects").fetchall()
    con.close()
    assert "is 52,428,800 bytes long, over the 1,048,576-byte bound" in reason
    assert len(reason) <= 300 and size < len(first) + 400


def test_amounts_beyond_64_bits_are_a_clear_reject(tmp_path: Path) -> None:
    first = RAZZ.read_text(encoding="utf-8").split("\n\n\n")[0]
    seat = next(row for row in first.split("\n") if "in chips" in row)
    stack = seat.split("(")[1].split(" in chips")[0]
    path = tmp_path / "big.txt"
    path.write_text(first.replace(stack, "$92233720368547758080.00", 1), encoding="utf-8")
    db = tmp_path / "s.duckdb"
    summary = ingest([path], IngestOptions(db, workers=1))
    assert (summary.stored, summary.rejected) == (0, 1)
    con = duckdb.connect(str(db), read_only=True)
    [(kind, reason, error_line)] = con.execute(
        "SELECT kind, reason, error_line FROM rejects"
    ).fetchall()
    con.close()
    assert kind == "parse_error" and error_line == 1
    assert reason.startswith(
        "an amount of 9,223,372,036,854,775,808,000 smallest units in the header or seats of "
        "the hand starting on line 1 is beyond what the store holds"
    )


class FullDisk:
    """A connection whose COMMIT fails as on a full disk, after which DuckDB has no
    transaction left to roll back (what gave "cannot rollback" before)."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        self.connection = connection

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            self.connection.execute("ROLLBACK")
            raise duckdb.IOException("IO Error: could not write file: No space left on device")
        return self.connection.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.connection, name)


def test_a_full_disk_is_one_line_and_the_store_stays_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.duckdb"
    ingest([RAZZ], IngestOptions(db, workers=1))
    before = ledger(db)
    real_write = Store.write

    def write(self: Store, *args: Any, **kwargs: Any) -> None:
        self.connection = FullDisk(self.connection)  # type: ignore[assignment]
        real_write(self, *args, **kwargs)

    monkeypatch.setattr(Store, "write", write)
    other = tmp_path / "other.txt"
    other.write_text(RAZZ.read_text(encoding="utf-8").replace("Hand #", "Hand #5"), "utf-8")
    code = run_ingest(
        [other], db=db, parquet=None, workers=1, batch_size=10, wait=1, json_output=True
    )
    captured = capsys.readouterr()
    assert code == 3
    assert "the disk is full (IO Error: could not write file: No space left on device)" in (
        captured.err
    )
    assert "Traceback" not in captured.err and "rollback" not in captured.err
    assert len(messages(captured.err)) == 1
    monkeypatch.undo()
    assert ledger(db) == before


def test_a_parquet_dataset_is_tied_to_its_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parquet = tmp_path / "pq"
    first = ingest([RAZZ], IngestOptions(tmp_path / "a.duckdb", parquet=parquet, workers=1))
    assert first.stored == RAZZ_HANDS
    parts = sorted(parquet.rglob("*.parquet"))
    again = ingest([RAZZ], IngestOptions(tmp_path / "a.duckdb", parquet=parquet, workers=1))
    assert again.skipped_files == 1  # its own store: fine
    code = run_ingest(
        [RAZZ],
        db=tmp_path / "b.duckdb",
        parquet=parquet,
        workers=1,
        batch_size=100,
        wait=1,
        json_output=True,
    )
    err = capsys.readouterr().err
    assert code == 2
    assert f"the Parquet dataset {parquet.resolve()} belongs to another store" in err
    assert sorted(parquet.rglob("*.parquet")) == parts  # nothing written twice
    (parquet / "_studdraw_store_id").unlink()  # a dataset older than the marker
    code = run_ingest(
        [RAZZ],
        db=tmp_path / "c.duckdb",
        parquet=parquet,
        workers=1,
        batch_size=100,
        wait=1,
        json_output=True,
    )
    assert code == 2 and "was written by another store" in capsys.readouterr().err
    assert sorted(parquet.rglob("*.parquet")) == parts


def test_an_older_store_gains_the_ledger_columns(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    ingest([RAZZ], IngestOptions(db, workers=1))
    con = duckdb.connect(str(db))
    for column in ("interrupted", "note", "stray_texts"):
        con.execute(f"ALTER TABLE imports DROP COLUMN {column}")
    con.close()
    again = ingest([RAZZ], IngestOptions(db, workers=1))
    assert again.skipped_files == 1
    rows = ledger(db)
    assert [(status, stray) for _, status, _, _, _, stray in rows] == [
        ("complete", 0),
        ("skipped", 0),
    ]


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (
            duckdb.OutOfMemoryException("Out of Memory Error: failed to allocate"),
            "ran out of memory",
        ),
        (OSError(28, "No space left on device"), "the disk is full"),
        (duckdb.IOException("IO Error: Could not write: No space left on device"), "disk is full"),
        (duckdb.IOException("IO Error: Input/output error"), "cannot write the store"),
        (ValueError("a bug"), None),
    ],
)
def test_machine_failures_are_named_in_one_line(error: BaseException, expected: str | None) -> None:
    message = resource_failure(error, Path("s.duckdb"))
    if expected is None:
        assert message is None  # a bug is not dressed up as the machine's fault
    else:
        assert message is not None and expected in message and "\n" not in message
        assert "the store" in message and "as it was before" in message
