"""A hand is counted once however its file was rewritten: blanks at line ends added or
dropped (a forum, an editor) and CRLF line ends give the same content hash, in a store of
today's version and in one an older studdraw wrote before blanks were dropped as lines are
read (its hashes are renewed when it is opened, `pipeline/store/hand_hash.py`).

`stores/schema-v2-blanks.tar.gz` (see `stores/README.md`) is a real store written by the older
reader from pasted samples whose hands hold a line of blanks, with those files.
"""

from __future__ import annotations

import tarfile
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from studdraw.parsers.reader import open_history
from studdraw.pipeline.importer.ingest import IngestOptions, IngestSummary, ingest
from studdraw.pipeline.store.hand_hash import text_digest
from studdraw.pipeline.store.schema import SCHEMA_VERSION
from tests.conftest import CORPUS

FIXTURE = Path(__file__).parent / "stores" / "schema-v2-blanks.tar.gz"
PASTED = ("pasted/razz.txt", "pasted/fulltilt-razz.txt", "pasted/razz-uncalled-bet.txt")

REWRITES: dict[str, Callable[[str], str]] = {
    "blanks stripped": lambda text: "\n".join(line.rstrip(" \t") for line in text.split("\n")),
    "blanks added": lambda text: "\n".join(line + " \t" for line in text.split("\n")),
    "CRLF": lambda text: text.replace("\n", "\r\n"),
    "CRLF, blanks stripped": lambda text: "\r\n".join(
        line.rstrip(" \t") for line in text.split("\n")
    ),
}


def _table(path: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _rewritten(sources: list[Path], folder: Path, rewrite: Callable[[str], str]) -> list[Path]:
    folder.mkdir()
    copies = []
    for number, source in enumerate(sources):
        copy = folder / f"{number}-{source.name}"
        copy.write_bytes(rewrite(source.read_text(encoding="utf-8")).encode("utf-8"))
        copies.append(copy)
    return copies


def _all_duplicates(summary: IngestSummary) -> None:
    assert summary.hands_seen > 0
    assert (summary.stored, summary.changed, summary.rejected) == (0, 0, 0)
    assert summary.duplicates == summary.hands_seen


@pytest.fixture
def old_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The older store and the files it was imported from, at the paths it recorded."""
    with tarfile.open(FIXTURE) as archive:
        archive.extractall(tmp_path, filter="data")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "store.duckdb"


@pytest.mark.parametrize("name", sorted(REWRITES))
def test_a_rewritten_file_is_all_duplicates_in_an_older_store(old_store: Path, name: str) -> None:
    before = _table(old_store, "SELECT room, room_hand_id, content_hash FROM hands")
    assert _table(old_store, "SELECT value FROM studdraw_meta WHERE key = 'schema_version'") == [
        ("2",)
    ]
    assert len(before) == 100
    stored = [Path(path) for path in PASTED[:2]]  # the older reader stored their hands
    summary = ingest(
        _rewritten(stored, old_store.parent / "copies", REWRITES[name]),
        IngestOptions(old_store, workers=1),
    )
    _all_duplicates(summary)
    after = _table(old_store, "SELECT room, room_hand_id, content_hash FROM hands")
    assert sorted(row[:2] for row in after) == sorted(row[:2] for row in before)
    assert {row[2] for row in after} != {row[2] for row in before}  # renewed, not added to
    assert _table(old_store, "SELECT value FROM studdraw_meta WHERE key = 'schema_version'") == [
        (str(SCHEMA_VERSION),)
    ]


def test_an_older_store_takes_the_hand_its_reader_rejected_once(
    old_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A paste whose every line gained a blank broke the older reader (a parse error kept in
    rejects): read again it is stored, once, and its parse error goes. The upgrade, which reads
    the source files again, says so once."""
    assert _table(old_store, "SELECT kind, room FROM rejects") == [("parse_error", "pokerstars")]
    summary = ingest([Path(PASTED[2])], IngestOptions(old_store, workers=1))
    said = capsys.readouterr().err
    assert said.count("upgrading the store from schema version 2 to") == 1, said
    assert summary.stored == 0 and summary.duplicates == 1  # the very file: already imported
    copy = _rewritten([Path(PASTED[2])], old_store.parent / "copy", REWRITES["CRLF"])
    summary = ingest(copy, IngestOptions(old_store, workers=1))
    assert (summary.stored, summary.changed, summary.rejected) == (1, 0, 0)
    assert _table(old_store, "SELECT count(*) FROM rejects") == [(0,)]
    again = _rewritten([Path(PASTED[2])], old_store.parent / "again", REWRITES["blanks stripped"])
    _all_duplicates(ingest(again, IngestOptions(old_store, workers=1)))


def test_an_older_store_whose_files_are_gone_keeps_its_hashes(
    old_store: Path, tmp_path: Path
) -> None:
    """Without the file the older hash cannot be proven: it stays, and a rewritten copy is a
    `changed` reject (kept in rejects, never stored twice)."""
    sources = [tmp_path / "kept.txt"]
    sources[0].write_bytes(Path(PASTED[0]).read_bytes())
    for path in PASTED:
        Path(path).unlink()
    summary = ingest(
        _rewritten(sources, tmp_path / "copies", REWRITES["blanks stripped"]),
        IngestOptions(old_store, workers=1),
    )
    assert summary.stored == 0 and summary.changed == summary.hands_seen == 60
    assert _table(old_store, "SELECT count(*) FROM hands") == [(100,)]


XML_FILES = sorted(
    path
    for room in ("iPoker", "Merge", "Boss")
    for path in (CORPUS / "cash" / room).rglob("*")
    if path.suffix in {".xml", ".txt"} and path.is_file()
)


@pytest.mark.skipif(not XML_FILES, reason=f"the shared corpus is not at {CORPUS}")
@pytest.mark.parametrize("name", sorted(REWRITES))
def test_a_rewritten_xml_file_is_all_duplicates(tmp_path: Path, name: str) -> None:
    """XML rooms keep a hand's raw text (line ends and blanks as the file has them): its hash
    leaves them out, so a rewritten copy is the same hands."""
    store = tmp_path / "store.duckdb"
    first = ingest(XML_FILES, IngestOptions(store, workers=1))
    assert first.stored > 0
    copies = _rewritten(XML_FILES, tmp_path / "copies", REWRITES[name])
    summary = ingest(copies, IngestOptions(store, workers=1))
    assert summary.hands_seen == first.hands_seen
    _all_duplicates(summary)


@pytest.mark.skipif(not XML_FILES, reason=f"the shared corpus is not at {CORPUS}")
def test_a_version_3_store_has_its_xml_hashes_renewed(tmp_path: Path) -> None:
    """Version 3 hashed an XML hand's raw text, CR and all: opened, the store has the hash of
    each hand whose file is still there renewed (proven against the raw text), so the hands of
    an LF copy are duplicates."""
    store = tmp_path / "store.duckdb"
    crlf = _rewritten(XML_FILES, tmp_path / "crlf", REWRITES["CRLF"])
    first = ingest(crlf, IngestOptions(store, workers=1))
    raw = {
        (str(path), hand.source.offset): text_digest(hand.text)
        for path in crlf
        for hand in open_history(path).hand_texts()
    }
    con = duckdb.connect(str(store))
    rows = con.execute("SELECT hand_id, source_path, source_offset FROM hands").fetchall()
    for hand_id, path, offset in rows:  # the hashes version 3 wrote
        con.execute(
            "UPDATE hands SET content_hash = ? WHERE hand_id = ?", [raw[path, offset], hand_id]
        )
    con.execute("UPDATE studdraw_meta SET value = '3' WHERE key = 'schema_version'")
    con.close()
    copies = _rewritten(XML_FILES, tmp_path / "lf", REWRITES["blanks stripped"])
    summary = ingest(copies, IngestOptions(store, workers=1))
    assert summary.hands_seen == first.hands_seen
    _all_duplicates(summary)
